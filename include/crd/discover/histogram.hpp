// Frequency–occurrence histogram (paper Figs. 1–2): for each occurrence count c, how many
// distinct items occur exactly c times.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/base/fields.hpp"

namespace crd::discover {

struct HistogramRow {
  std::uint64_t occurrences = 0;
  std::uint64_t distinct = 0;
  static constexpr auto fields() {
    return std::tuple(field("occurrences", &HistogramRow::occurrences),
                      field("distinct", &HistogramRow::distinct));
  }
};

// Occurrence count → distinct items, tallied on one rank. Most items occur a few times: their
// counts go to an array, the rest to a map (a map insert per item would cost more than the count).
class OccurrenceTally {
 public:
  void add(std::uint64_t occurrences) {
    if (occurrences < few_.size()) {
      ++few_[occurrences];
    } else {
      ++many_[occurrences];
    }
  }
  // Every count added, ascending by occurrences.
  std::map<std::uint64_t, std::uint64_t> take();

 private:
  std::array<std::uint64_t, 256> few_{};
  std::map<std::uint64_t, std::uint64_t> many_;
};

// Collective. counts: the global counts of the items this rank owns. Returns this rank's slice of
// the global histogram, ascending by occurrences across ranks.
std::vector<HistogramRow> build_histogram(comm::Transport& transport,
                                          const std::vector<std::uint64_t>& counts,
                                          std::size_t round_bytes);

// Collective. The same from counts already combined on this rank (occurrences → distinct items), as
// out-of-core counting gathers them over its passes.
std::vector<HistogramRow> build_histogram(comm::Transport& transport, const std::map<std::uint64_t, std::uint64_t>& local,
                                          std::size_t round_bytes);

}  // namespace crd::discover
