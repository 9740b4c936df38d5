// ReportPage: the policy names the exact inline script and style, data cannot leave its element,
// and the figures escape their text.
#include <gtest/gtest.h>

#include "report_page.hpp"
#include "sha256.hpp"
#include "svg_chart.hpp"

namespace crd::report {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

// The text between the first `open` after `from` and the next `close`.
std::string between(const std::string& text, const std::string& open, const std::string& close, std::size_t from = 0) {
  const auto a = text.find(open, from);
  if (a == std::string::npos) return "";
  const auto b = text.find(close, a + open.size());
  return text.substr(a + open.size(), b - a - open.size());
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_base64("abc"), "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
}

std::string hostile_page() {
  ReportPage page;
  const std::string hostile = "</script><script>alert(1)</script><img src=x onerror=alert(2)></textarea>";
  page.add_section("run\"><script>", hostile, heading(hostile) + facts({{hostile, hostile}}) + table_slot("t"));
  TableSpec t;
  t.id = "t";
  t.add_text("sample", "sample", {hostile, "javascript:alert(3)", "\xE2\x80\xA8"});
  page.add_table(t);
  return page.render({hostile, hostile, "0123456789abcdef"});
}

TEST(ReportPage, PolicyHashesTheInlineScriptAndStyle) {
  const std::string html = hostile_page();
  const std::string csp = between(html, "<meta http-equiv=\"Content-Security-Policy\" content=\"", "\">");
  const std::string script = between(html, "<script>", "</script>", html.find("id=\"crd-data\""));
  const std::string style = between(html, "<style>", "</style>");
  ASSERT_FALSE(script.empty());
  ASSERT_FALSE(style.empty());
  EXPECT_EQ(csp, "default-src &#39;none&#39;; script-src &#39;sha256-" + sha256_base64(script) + "&#39;; style-src &#39;sha256-" +
                     sha256_base64(style) + "&#39;; img-src data:; base-uri &#39;none&#39;; form-action &#39;none&#39;");
  EXPECT_EQ(csp.find("unsafe"), std::string::npos);
  EXPECT_LT(html.find("Content-Security-Policy"), html.find("<style>"));  // in force before anything runs
}

TEST(ReportPage, HostileTextNeverBecomesMarkup) {
  const std::string html = hostile_page();
  // Exactly two script elements: the JSON data and crd's own script; one style element.
  EXPECT_EQ(count(html, "<script"), 2u);
  EXPECT_EQ(count(html, "</script>"), 2u);
  EXPECT_EQ(count(html, "<style>"), 1u);
  EXPECT_EQ(count(html, "<img"), 0u);
  EXPECT_EQ(count(html, "</textarea>"), 0u);
  const std::string data = between(html, "<script type=\"application/json\" id=\"crd-data\">", "</script>");
  EXPECT_NE(data.find(R"x("sample":["\u003c/script\u003e\u003cscript\u003ealert(1))x"), std::string::npos) << data;
  EXPECT_NE(data.find(R"x("javascript:alert(3)","\u2028")x"), std::string::npos) << data;
  EXPECT_NE(html.find("<section id=\"run&quot;&gt;&lt;script&gt;\">"), std::string::npos);
  EXPECT_NE(html.find("<title>&lt;/script&gt;&lt;script&gt;alert(1)"), std::string::npos);
}

TEST(SvgChart, EscapesTextAndDrawsTheThreshold) {
  LogLogChart c;
  c.title = "<b>title</b>";
  c.x_label = "x & y";
  c.y_label = "y";
  c.x = {1, 10, 100, 100};
  c.y = {1000, 10, 1, 1};  // the last point repeats one: drawn once
  c.threshold = Marker{20.5, "threshold: count > 20"};
  const std::string svg = render_loglog(c);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;b&gt;title&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(svg.find("x &amp; y"), std::string::npos);
  EXPECT_EQ(count(svg, "<circle"), 3u);
  EXPECT_NE(svg.find("threshold: count &gt; 20"), std::string::npos);
  EXPECT_EQ(svg.find("style="), std::string::npos);  // CSS classes only: the policy allows no style attributes
}

TEST(SvgChart, HistogramBinsValuesAndClipsThem) {
  UnitHistogram h;
  h.title = "t";
  h.values = {0.0, 0.01, 0.5, 1.0, 2.0, -1.0};
  h.bins = 10;
  h.markers = {{0.3, "mean"}, {0.6, "threshold"}};
  const std::string svg = render_unit_histogram(h);
  EXPECT_EQ(count(svg, "<rect x="), 3u);  // bins 0 (three values), 5 (one), 9 (two)
  EXPECT_EQ(count(svg, "class=\"marker marker-"), 2u);
  EXPECT_NE(svg.find(": 3</title>"), std::string::npos);
  EXPECT_NE(svg.find(": 2</title>"), std::string::npos);
}

}  // namespace
}  // namespace crd::report
