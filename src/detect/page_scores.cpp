// score_pages: one pass over the pages' chunk vectors.
#include "crd/detect/page_scores.hpp"

#include <stdexcept>

#include "crd/base/chunk_ids.hpp"

namespace crd::detect {

PageScores score_pages(std::span<const std::uint64_t> page_offsets, std::span<const std::uint32_t> chunk_ids,
                       std::span<const std::uint64_t> label_of, std::span<const std::uint8_t> is_stop) {
  PageScores out;
  for (std::size_t p = 0; p + 1 < page_offsets.size(); ++p) {
    std::uint32_t chunks = 0;
    std::uint32_t labeled = 0;
    for (std::uint64_t i = page_offsets[p]; i < page_offsets[p + 1]; ++i) {
      const std::uint32_t id = chunk_ids[i];
      if (id >= kOtherPassStopChunk) {
        if (id == kOtherPassChunk) ++chunks;
        continue;
      }
      if (is_stop[id] != 0) continue;
      if (label_of[id] != kNoLabel) {
        out.positions.push_back(chunks);
        out.label_ids.push_back(static_cast<std::uint32_t>(label_of[id]));
        ++labeled;
      }
      ++chunks;
    }
    if (chunks == 0) {
      if (page_offsets[p + 1] > page_offsets[p]) ++out.only_stop_pages;
      continue;
    }
    out.page.push_back(static_cast<std::uint32_t>(p));
    out.chunks.push_back(chunks);
    out.labeled.push_back(labeled);
    out.containment.push_back(containment(labeled, chunks));
    out.match_offsets.push_back(out.positions.size());
  }
  return out;
}

void add_pass_scores(PageScores& into, const PageScores& pass) {
  if (into.page != pass.page || into.chunks != pass.chunks)
    throw std::logic_error("add_pass_scores: the passes saw different pages");
  PageScores out;
  out.page = std::move(into.page);
  out.chunks = std::move(into.chunks);
  out.only_stop_pages = into.only_stop_pages;  // every pass sees the same page vectors and stop chunks
  out.positions.reserve(into.positions.size() + pass.positions.size());
  out.label_ids.reserve(out.positions.capacity());
  for (std::size_t p = 0; p < out.page.size(); ++p) {
    std::uint64_t a = into.match_offsets[p];
    std::uint64_t b = pass.match_offsets[p];
    const std::uint64_t a_end = into.match_offsets[p + 1];
    const std::uint64_t b_end = pass.match_offsets[p + 1];
    while (a < a_end || b < b_end) {  // both ascend by position and never share one
      const bool take_a = b == b_end || (a < a_end && into.positions[a] < pass.positions[b]);
      const PageScores& from = take_a ? into : pass;
      std::uint64_t& at = take_a ? a : b;
      out.positions.push_back(from.positions[at]);
      out.label_ids.push_back(from.label_ids[at]);
      ++at;
    }
    const std::uint32_t labeled = into.labeled[p] + pass.labeled[p];
    out.labeled.push_back(labeled);
    out.containment.push_back(containment(labeled, out.chunks[p]));
    out.match_offsets.push_back(out.positions.size());
  }
  into = std::move(out);
}

}  // namespace crd::detect
