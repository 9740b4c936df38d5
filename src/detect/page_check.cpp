// One page checked against a labeled set (page_check.hpp).
#include "crd/detect/page_check.hpp"

namespace crd::detect {

PageCheck PageChecker::check(std::string_view page) {
  PageCheck out;
  out.skipped = chunker_.chunk(page, "", [&](std::string_view normalized) {
    const Digest d = sha1_(normalized);
    if (stop_.is_stop(d, normalized.size())) return;
    if (const std::uint32_t* label = labels_.find(d))
      out.matches.push_back({out.chunks, std::string(normalized), *label});
    ++out.chunks;
  });
  if (!out.skipped.empty()) return out;
  out.dropped = chunker_.dropped_parts();
  out.verdict = rule_.judge({out.chunks, out.matches.size()});
  return out;
}

}  // namespace crd::detect
