// url_key on many URL forms, and key_components.
#include <gtest/gtest.h>

#include "crd/url/url_key.hpp"

namespace {

using crd::url::url_key;

std::string key(std::string_view url) { return url_key(url).value_or("<nullopt>"); }

TEST(UrlKey, SchemeQueryFragmentDropped) {
  EXPECT_EQ(key("http://example.com/a/b.html"), "example.com/a/b.html");
  EXPECT_EQ(key("https://example.com/a/b.html?x=1&y=2"), "example.com/a/b.html");
  EXPECT_EQ(key("http://example.com/a/b.html#top"), "example.com/a/b.html");
  EXPECT_EQ(key("http://example.com/a?q=/x/y#f"), "example.com/a");
  EXPECT_EQ(key("http://example.com?q=1"), "example.com");
  EXPECT_EQ(key("HTTP://example.com/x"), "example.com/x");
  EXPECT_EQ(key("ftp://files.example.org/pub/f.txt"), "files.example.org/pub/f.txt");
}

TEST(UrlKey, PortsAndUserinfo) {
  EXPECT_EQ(key("http://example.com:80/a"), "example.com/a");
  EXPECT_EQ(key("https://example.com:443/a"), "example.com/a");
  EXPECT_EQ(key("http://example.com:443/a"), "example.com:443/a");
  EXPECT_EQ(key("https://example.com:80/a"), "example.com:80/a");
  EXPECT_EQ(key("http://example.com:8080/a"), "example.com:8080/a");
  EXPECT_EQ(key("http://example.com:/a"), "example.com/a");
  EXPECT_EQ(key("http://user:pw@example.com/a"), "example.com/a");
  EXPECT_EQ(key("http://user@Example.com:8080/a"), "example.com:8080/a");
  EXPECT_EQ(key("http://a@b@example.com/"), "example.com");
}

TEST(UrlKey, HostLowercasedPathCaseAndEscapesKept) {
  EXPECT_EQ(key("http://WWW.Example.COM/Dir/File.HTML"), "www.example.com/Dir/File.HTML");
  EXPECT_EQ(key("http://example.com/a%20b/%7Euser"), "example.com/a%20b/%7Euser");
}

TEST(UrlKey, Ipv6LiteralsKeepBrackets) {
  EXPECT_EQ(key("http://[2001:DB8::1]/x"), "[2001:db8::1]/x");
  EXPECT_EQ(key("http://[2001:db8::1]:80/x"), "[2001:db8::1]/x");
  EXPECT_EQ(key("http://[2001:db8::1]:8080/x"), "[2001:db8::1]:8080/x");
  EXPECT_EQ(key("http://[::1]"), "[::1]");
  EXPECT_EQ(key("http://[::1/x"), "<nullopt>");
}

TEST(UrlKey, EmptyAndDotComponentsAndTrailingSlashDropped) {
  EXPECT_EQ(key("http://example.com/"), "example.com");
  EXPECT_EQ(key("http://example.com//a///b/"), "example.com/a/b");
  EXPECT_EQ(key("http://example.com/./a/./b/."), "example.com/a/b");
  EXPECT_EQ(key("http://example.com/a/../b"), "example.com/a/../b");
}

TEST(UrlKey, NoSchemeIsADirectoryWalkPath) {
  EXPECT_EQ(key("python3.11-doc/usr/share/doc/index.html"), "python3.11-doc/usr/share/doc/index.html");
  EXPECT_EQ(key("./pkg/usr//share/doc/"), "pkg/usr/share/doc");
  EXPECT_EQ(key("/pkg/a.html"), "pkg/a.html");
  // Case is kept: a directory name is not a DNS name.
  EXPECT_EQ(key("Pkg/A.html"), "Pkg/A.html");
  EXPECT_EQ(key("pkg/a.html?x#y"), "pkg/a.html");
}

// File paths become URLs through path_as_url: every path keeps its own key, whole.
TEST(PathAsUrl, QueryFragmentPercentAndSchemeColonAreEscaped) {
  using crd::url::path_as_url;
  EXPECT_EQ(path_as_url("site/a?x.html"), "site/a%3Fx.html");
  EXPECT_EQ(path_as_url("site/a#1.html"), "site/a%231.html");
  EXPECT_EQ(path_as_url("site/100%.html"), "site/100%25.html");
  EXPECT_EQ(path_as_url("site/a%3Fx.html"), "site/a%253Fx.html");  // not the same as a?x.html
  EXPECT_EQ(path_as_url("c:x/a.html"), "c%3Ax/a.html");             // not a scheme "c:"
  EXPECT_EQ(path_as_url("example.com:8080/p:q.html"), "example.com%3A8080/p:q.html");
  EXPECT_EQ(path_as_url("/data/site/a b.html"), "/data/site/a b.html");  // nothing else changes
  EXPECT_EQ(key(path_as_url("site/a?x.html")), "site/a%3Fx.html");
  EXPECT_EQ(key(path_as_url("site/a?y.html")), "site/a%3Fy.html");
  EXPECT_EQ(key(path_as_url("http:/example.com/a.html")), "http%3A/example.com/a.html");
  EXPECT_EQ(key("c:x/a.html"), "<nullopt>");  // what the colon did unescaped
}

TEST(UrlKey, NoHostIsNullopt) {
  EXPECT_FALSE(url_key("").has_value());
  EXPECT_FALSE(url_key("/").has_value());
  EXPECT_FALSE(url_key("./").has_value());
  EXPECT_FALSE(url_key("http://").has_value());
  EXPECT_FALSE(url_key("http:///path").has_value());
  EXPECT_FALSE(url_key("http://user@/path").has_value());
  EXPECT_FALSE(url_key("http://:8080/path").has_value());
  EXPECT_FALSE(url_key("file:///usr/share/doc/x.html").has_value());
  EXPECT_FALSE(url_key("mailto:someone@example.com").has_value());
  EXPECT_FALSE(url_key("?q=1").has_value());
}

TEST(KeyComponents, HostThenPath) {
  const auto parts = crd::url::key_components("example.com/a/b.html");
  ASSERT_EQ(parts.size(), 3U);
  EXPECT_EQ(parts[0], "example.com");
  EXPECT_EQ(parts[1], "a");
  EXPECT_EQ(parts[2], "b.html");
  EXPECT_EQ(crd::url::key_components("host").size(), 1U);
  EXPECT_TRUE(crd::url::key_components("").empty());
  EXPECT_EQ(crd::url::key_components("a//b/").size(), 2U);
}

}  // namespace
