// What every report section reads: the result file and the report's options, plus helpers to read
// the chosen rows of a large table without loading its string columns whole.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "crd/output/result_reader.hpp"

namespace crd::report {

struct ReportOptions {
  std::uint64_t top = 20000;  // rows kept per table (the top by the table's ranking)
};

struct ReportInput {
  const output::ResultReader& reader;
  std::string path;  // as given on the command line (shown, and used in the crd inspect hint)
  ReportOptions options;
};

// Rows `rows` (any order, repeats allowed) of a string column / n × 20 hash column, in that order.
// Reads the column in blocks and keeps only the rows asked for.
std::vector<std::string> read_strings_at(const output::ResultReader& r, const std::string& dataset,
                                         const std::vector<std::uint64_t>& rows);
std::vector<std::uint8_t> read_hashes_at(const output::ResultReader& r, const std::string& dataset,
                                         const std::vector<std::uint64_t>& rows);

template <typename T>
std::vector<T> gather(const std::vector<T>& column, const std::vector<std::uint64_t>& rows) {
  std::vector<T> out;
  out.reserve(rows.size());
  for (auto i : rows) out.push_back(column.at(i));
  return out;
}

// The first `n` row indices of [0, size) ordered by `before` (a strict weak order; ties keep row
// order), in that order.
template <typename Less>
std::vector<std::uint64_t> top_rows(std::uint64_t size, std::uint64_t n, Less before);

// "crd inspect PATH --top N" with PATH quoted for a POSIX shell when it needs quoting.
std::string inspect_command(const std::string& path, std::uint64_t top);
// "Showing the top N of M WHAT by ORDER." when truncated, else "".
std::string truncation_note(std::uint64_t shown, std::uint64_t total, const std::string& what, const std::string& order);
// The value of `name` in the result's effective configuration (the root `config` attribute,
// `name = value` lines), or "" when the result does not record it.
std::string config_value(const output::ResultReader& r, const std::string& name);
// The host of a URL key (`host/path`, as crd writes pages): the text before the first '/'.
std::string_view host_of(std::string_view key);
// `v` printed with a printf format for one double ("%.4f", "%.3g").
std::string format_number(double v, const char* format);
// 1234567 → "1,234,567".
std::string grouped(std::uint64_t n);

}  // namespace crd::report

#include <algorithm>
#include <numeric>

namespace crd::report {

template <typename Less>
std::vector<std::uint64_t> top_rows(std::uint64_t size, std::uint64_t n, Less before) {
  std::vector<std::uint64_t> order(size);
  std::iota(order.begin(), order.end(), std::uint64_t{0});
  const auto k = static_cast<std::ptrdiff_t>(std::min(n, size));
  const auto cmp = [&](std::uint64_t a, std::uint64_t b) { return before(a, b) || (!before(b, a) && a < b); };
  std::partial_sort(order.begin(), order.begin() + k, order.end(), cmp);
  order.resize(static_cast<std::size_t>(k));
  return order;
}

}  // namespace crd::report
