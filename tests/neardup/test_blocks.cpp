// --boilerplate-pages: a page cut into blocks at block-level tags (whose tokens, concatenated, are
// the page's), blocks counted per host through the shuffle at 1–3 ranks, and the tokens left when
// the blocks found on many pages are left out.
#include <gtest/gtest.h>

#include <mutex>
#include <string>

#include "crd/comm/local_transport.hpp"
#include "crd/neardup/blocks.hpp"
#include "crd/neardup/boilerplate.hpp"
#include "crd/text/fingerprint.hpp"
#include "crd/text/tokenizer.hpp"

namespace crd::neardup {
namespace {

std::vector<std::string> blocks_of(std::string_view html) {
  std::vector<std::string> out;
  for_each_block(html, [&](std::string_view b) { out.emplace_back(b); });
  return out;
}

TEST(Blocks, CutAtBlockLevelTagsOnly) {
  EXPECT_EQ(blocks_of("<div>one <b>two</b></div><p>three<br>four</P>x"),
            (std::vector<std::string>{"", "one <b>two</b>", "", "three", "four", "x"}));
  // Comments, scripts and styles are not cut inside; quoted '>' does not end a tag.
  EXPECT_EQ(blocks_of("a<!-- <p> -->b<script>if (x<p) {}</script>c<a title=\"<p>\">d</a>"),
            (std::vector<std::string>{"a<!-- <p> -->b<script>if (x<p) {}</script>c<a title=\"<p>\">d</a>"}));
}

TEST(Blocks, TokensConcatenatedAreThePagesAndKeysArePerHost) {
  const std::string html =
      "<html><head><title>T</title></head><body><nav><ul><li>Home</li><li>About us</li></ul></nav>"
      "<div class=x>Some <em>body</em> text, see http://a.org/x.html <img src=\"p/q.png\"></div>"
      "<footer><p>Copyright 2024</p></footer></body></html>";
  BlockTokens b;
  tokenize_blocks(html, "h.org", false, b);
  EXPECT_EQ(b.tokens, text::tokenize(html, "h.org"));
  ASSERT_EQ(b.keys.size(), 5u);  // T, Home, About us, the body, Copyright 2024: no empty block
  EXPECT_EQ(b.ends.back(), b.tokens.size());
  BlockTokens other_host;
  tokenize_blocks(html, "g.org", false, other_host);
  EXPECT_EQ(other_host.tokens, b.tokens);
  EXPECT_NE(other_host.keys[0], b.keys[0]);  // the same block on another host is another key
  // Leaving out the navigation's blocks leaves the rest, in order.
  std::vector<std::uint64_t> nav = {b.keys[1], b.keys[2]};
  std::sort(nav.begin(), nav.end());
  const auto kept = kept_tokens(b, nav);
  std::vector<std::uint64_t> want;
  for (const char* t :
       {"T", "Some", "body", "text", "see", "http", "a", "org", "x", "html", "q.png", "Copyright", "2024"})
    want.push_back(text::term_token(t));
  EXPECT_EQ(kept, want);
}

// A plain-text page's blocks are its lines: a header line that a host's files share is a block of
// its own (as HTML, with no block-level tag, the whole file would be one block).
TEST(Blocks, APlainTextPagesBlocksAreItsLines) {
  const std::string text = "# Copyright the authors\n# Distributed under the license\n\nint main() { return 0; }\n";
  BlockTokens lines;
  tokenize_blocks(text, "h.org", false, lines, true);
  ASSERT_EQ(lines.keys.size(), 3u);  // the empty line has no token
  EXPECT_EQ(lines.tokens, text::tokenize(text, "h.org"));
  BlockTokens whole;
  tokenize_blocks(text, "h.org", false, whole);
  EXPECT_EQ(whole.keys.size(), 1u);
  // The header's two lines left out leave the code.
  std::vector<std::uint64_t> header = {lines.keys[0], lines.keys[1]};
  std::sort(header.begin(), header.end());
  std::vector<std::uint64_t> want;
  for (const char* t : {"int", "main", "return", "0"}) want.push_back(text::term_token(t));
  EXPECT_EQ(kept_tokens(lines, header), want);
  // The same header line in another file of the host is the same block.
  BlockTokens other;
  tokenize_blocks("# Copyright the authors\nfoo bar\n", "h.org", false, other, true);
  EXPECT_EQ(other.keys[0], lines.keys[0]);
}

class Boilerplate : public ::testing::TestWithParam<int> {};

TEST_P(Boilerplate, KeysOnAtLeastNPagesOfTheJob) {
  // 12 pages of h.org share a footer; 5 share a sidebar; each has its own body; 3 pages of g.org
  // have the same footer (another host: counted apart). A page repeating a block counts once.
  std::vector<std::string> hosts, htmls;
  for (int i = 0; i < 12; ++i) {
    hosts.push_back("h.org");
    htmls.push_back("<p>body of page " + std::to_string(i) + "</p>" + (i < 5 ? "<div>side bar</div>" : "") +
                    "<footer>shared footer</footer><footer>shared footer</footer>");
  }
  for (int i = 0; i < 3; ++i) {
    hosts.push_back("g.org");
    htmls.push_back("<p>g body " + std::to_string(i) + "</p><footer>shared footer</footer>");
  }
  BlockTokens footer_h, footer_g, side;
  tokenize_blocks("<footer>shared footer", "h.org", false, footer_h);
  tokenize_blocks("<footer>shared footer", "g.org", false, footer_g);
  tokenize_blocks("<div>side bar", "h.org", false, side);
  for (const std::uint64_t min_pages : {3u, 5u, 10u}) {
    std::vector<std::uint64_t> want = {footer_h.keys[0]};
    if (min_pages <= 3) want.push_back(footer_g.keys[0]);
    if (min_pages <= 5) want.push_back(side.keys[0]);
    std::sort(want.begin(), want.end());
    std::mutex lock;
    comm::run_local(GetParam(), [&](comm::Transport& t) {
      std::vector<BlockCount> counts;
      for (std::size_t i = 0; i < htmls.size(); ++i) {
        if (static_cast<int>(i % static_cast<std::size_t>(t.size())) != t.rank()) continue;
        BlockTokens b;
        tokenize_blocks(htmls[i], hosts[i], false, b);
        count_blocks(b, counts);
      }
      const auto keys = boilerplate_keys(t, std::move(counts), min_pages, shuffle::ShuffleConfig{256});
      std::lock_guard guard(lock);
      EXPECT_EQ(keys, want) << "rank " << t.rank() << ", min_pages " << min_pages;
    });
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, Boilerplate, ::testing::Values(1, 2, 3));

}  // namespace
}  // namespace crd::neardup
