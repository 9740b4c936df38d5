// Gram sets (counts and skip reasons, the page-size cap at a tiny value) and servers by libpsl.
#include <gtest/gtest.h>

#include "crd/quilts/grams.hpp"
#include "crd/quilts/site.hpp"

namespace crd::quilts {
namespace {

TEST(QuiltGrams, DistinctWindowsOfKWordsOfTheVisibleText) {
  QuiltParams p;  // k = 5
  // 8 words → 4 grams; markup is not text; a repeated 5-word window counts once.
  auto g = page_grams("<html><body><p>one two three four five six seven eight</p></body></html>", "h", p);
  EXPECT_EQ(g.skipped, GramSkip::None);
  EXPECT_EQ(g.grams.size(), 4u);
  EXPECT_TRUE(std::is_sorted(g.grams.begin(), g.grams.end()));
  g = page_grams("<p>a b c d e a b c d e</p>", "h", p);  // windows: abcde bcdea cdeab deabc eabcd abcde
  EXPECT_EQ(g.grams.size(), 5u);
  EXPECT_EQ(page_grams("<p>one two three four five</p>", "h", p).grams.size(), 1u);
}

TEST(QuiltGrams, BadPagesAreSkippedWithTheirReason) {
  QuiltParams p;
  EXPECT_EQ(page_grams("", "h", p).skipped, GramSkip::NoWords);
  EXPECT_EQ(page_grams("<html><script>var a = 1;</script><!-- a comment --><br></html>", "h", p).skipped, GramSkip::NoWords);
  const auto short_page = page_grams("<p>only four words here</p>", "h", p);
  EXPECT_EQ(short_page.skipped, GramSkip::FewerThanKWords);
  EXPECT_TRUE(short_page.grams.empty());
  p.max_page_grams = 3;  // tiny cap: 4 grams is a huge page
  const auto huge = page_grams("<p>one two three four five six seven eight</p>", "h", p);
  EXPECT_EQ(huge.skipped, GramSkip::TooManyGrams);
  EXPECT_TRUE(huge.grams.empty());
  p.max_page_grams = 4;
  EXPECT_EQ(page_grams("<p>one two three four five six seven eight</p>", "h", p).skipped, GramSkip::None);
  EXPECT_EQ(counter_name(GramSkip::FewerThanKWords), "quilts.pages.fewer_than_k_words");
  EXPECT_EQ(counter_name(GramSkip::TooManyGrams), "quilts.pages.too_many_grams");
  EXPECT_EQ(counter_name(GramSkip::NoWords), "quilts.pages.no_words");
}

TEST(QuiltServers, RegistrableDomainByThePublicSuffixList) {
  EXPECT_EQ(server_of("www.cam.ac.uk/a/b", Foreign::Domain), "cam.ac.uk");
  EXPECT_EQ(server_of("news.bbc.co.uk:8080/x", Foreign::Domain), "bbc.co.uk");
  EXPECT_EQ(server_of("a.b.microsoft.com/", Foreign::Domain), "microsoft.com");
  EXPECT_EQ(server_of("user.github.io/page", Foreign::Domain), "user.github.io");  // a private suffix
  EXPECT_EQ(server_of("192.168.0.1/x", Foreign::Domain), "192.168.0.1");           // no domain: the host
  EXPECT_EQ(server_of("10.0.0.7:8080/x", Foreign::Domain), "10.0.0.7");
  EXPECT_EQ(server_of("[2001:db8::1]:80/x", Foreign::Domain), "[2001:db8::1]");
  EXPECT_EQ(server_of("localhost/x", Foreign::Domain), "localhost");
  EXPECT_EQ(server_of("www.cam.ac.uk/a", Foreign::Host), "www.cam.ac.uk");
  EXPECT_EQ(server_id("www.cam.ac.uk/a", Foreign::Domain), server_id("eng.cam.ac.uk/b", Foreign::Domain));
  EXPECT_NE(server_id("www.cam.ac.uk/a", Foreign::Host), server_id("eng.cam.ac.uk/b", Foreign::Host));
  EXPECT_EQ(server_id("www.cam.ac.uk/a", Foreign::Off), 0u);
}

}  // namespace
}  // namespace crd::quilts
