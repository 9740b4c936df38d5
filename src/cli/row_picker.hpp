// Reads chosen rows of a result column in few reads (internal to crd inspect). One HDF5 read per
// row shown cost about 1.8 ms (each decompresses a chunk): inspect --top 16000 took 29 s.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "crd/output/result_reader.hpp"

namespace crd::cli {

// Rows read together: a block is read once, from the first row wanted in it.
inline constexpr std::uint64_t kPickBlockRows = 65536;
// Up to this many rows are read one by one (a block of 65536 for each of --top 10 would be slower).
inline constexpr std::size_t kPickSingly = 32;

// The values of `rows` (any order, repeats allowed) of a column of `total` rows, in the order of
// `rows`. `read(first, count)` returns rows first..first+count-1; `width` values per row (a matrix
// column's bytes per row, else 1). Time is linear in the rows read, each read at most once.
template <typename T, typename Read>
std::vector<std::vector<T>> pick_rows(const std::vector<std::uint64_t>& rows, std::uint64_t total, Read&& read,
                                      std::size_t width = 1) {
  std::vector<std::vector<T>> out(rows.size());
  std::vector<std::size_t> by_row(rows.size());
  std::iota(by_row.begin(), by_row.end(), 0);
  std::sort(by_row.begin(), by_row.end(), [&](std::size_t a, std::size_t b) { return rows[a] < rows[b]; });
  const std::uint64_t block_rows = rows.size() <= kPickSingly ? 1 : kPickBlockRows;
  std::vector<T> block;
  std::uint64_t first = 0, count = 0;
  for (const std::size_t j : by_row) {
    const std::uint64_t row = rows[j];
    if (row < first || row >= first + count) {
      first = row;
      count = row < total ? std::min(block_rows, total - row) : 1;  // past the end: the read refuses it
      block = read(first, count);
    }
    const auto at = block.begin() + static_cast<std::ptrdiff_t>((row - first) * width);
    out[j].assign(at, at + static_cast<std::ptrdiff_t>(width));
  }
  return out;
}

// The rows `rows` of a string column, read in blocks.
inline std::vector<std::string> strings_at(const output::ResultReader& r, const std::string& column,
                                           const std::vector<std::uint64_t>& rows) {
  const auto picked = pick_rows<std::string>(rows, r.rows(column), [&](std::uint64_t first, std::uint64_t count) {
    return r.read_strings(column, first, count);
  });
  std::vector<std::string> out;
  out.reserve(picked.size());
  for (const auto& v : picked) out.push_back(v.at(0));
  return out;
}

}  // namespace crd::cli
