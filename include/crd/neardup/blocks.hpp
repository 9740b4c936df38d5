// Boilerplate-aware shingles (crd neardup --boilerplate-pages N): a page cut into blocks — the
// HTML between two block-level tags (p, div, li, td, h1…h6, nav, footer, br, …; outside comments,
// <script> and <style>) — each tokenized alone, so a block that many pages of one host share
// (navigation, footer, a template's sentences) can be left out before shingling. Cutting at such a
// tag changes no term (the tokenizer makes every one of them whitespace), so the blocks' tokens,
// concatenated, are the page's. A block's key is its token sequence's hash salted with the host,
// so blocks are counted per host (boilerplate.hpp counts them). A plain-text page (a .txt, source
// code) has no tags: its blocks are its lines, so a license header shared by a host's files is
// left out line by line, as the validation's main-content rule leaves out lines.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace crd::neardup {

// Calls on_block(html) for each stretch of the page between block-level tags, in page order.
void for_each_block(std::string_view html, const std::function<void(std::string_view block)>& on_block);

// Calls on_block(line) for each line of a plain-text page (cut at '\n'), in order.
void for_each_line(std::string_view text, const std::function<void(std::string_view line)>& on_block);

// A page's tokens with their blocks: block b is tokens[ends[b − 1] … ends[b]) (ends[−1] = 0), with
// key keys[b]. Blocks without a token are left out.
struct BlockTokens {
  std::vector<std::uint64_t> tokens;
  std::vector<std::uint32_t> ends;
  std::vector<std::uint64_t> keys;
};

// tokenize (or tokenize_normalized) of each block, into `out` (replaced); with plain_text, of
// each line.
void tokenize_blocks(std::string_view html, std::string_view page_host, bool normalize, BlockTokens& out,
                     bool plain_text = false);

// The tokens of the blocks whose key is not in `left_out` (sorted).
std::vector<std::uint64_t> kept_tokens(const BlockTokens& page, const std::vector<std::uint64_t>& left_out);

}  // namespace crd::neardup
