// The combined chunker: the scan chunker's chunks, then the winnow chunker's grams, marked.
#include "combined_chunker.hpp"

namespace crd::chunk::detail {

std::string_view CombinedChunker::chunk(std::string_view page, std::string_view charset,
                                        const std::function<void(std::string_view)>& emit) {
  bool any = false;
  const auto counted = [&](std::string_view normalized) {
    any = true;
    emit(normalized);
  };
  const std::string_view scan_skipped = scan_.chunk(page, charset, counted);
  const std::string_view winnow_skipped = winnow_.chunk(page, charset, [&](std::string_view gram) {
    marked_.assign(1, kGramMark);
    marked_ += gram;
    counted(marked_);
  });
  if (any) return {};
  return winnow_skipped.empty() ? scan_skipped : winnow_skipped;
}

}  // namespace crd::chunk::detail
