// Reading chosen rows of a result table, and the small text helpers the sections share.
#include "crd/report/report_input.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <numeric>
#include <string_view>

namespace crd::report {
namespace {

constexpr std::uint64_t kBlock = 1 << 16;

// Calls take(block_first, position) for each wanted row, reading blocks of the column in order.
template <typename ReadBlock, typename Take>
void for_rows(std::uint64_t total, const std::vector<std::uint64_t>& rows, ReadBlock read_block, Take take) {
  std::vector<std::size_t> order(rows.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rows[a] < rows[b]; });
  std::uint64_t loaded = ~std::uint64_t{0};
  for (std::size_t pos : order) {
    const std::uint64_t row = rows[pos];
    const std::uint64_t block = row / kBlock * kBlock;
    if (block != loaded) {
      read_block(block, std::min(kBlock, total - block));
      loaded = block;
    }
    take(row - block, pos);
  }
}

}  // namespace

std::vector<std::string> read_strings_at(const output::ResultReader& r, const std::string& dataset,
                                         const std::vector<std::uint64_t>& rows) {
  std::vector<std::string> out(rows.size());
  std::vector<std::string> block;
  for_rows(
      r.rows(dataset), rows, [&](std::uint64_t first, std::uint64_t n) { block = r.read_strings(dataset, first, n); },
      [&](std::uint64_t i, std::size_t pos) { out[pos] = block.at(i); });
  return out;
}

std::vector<std::uint8_t> read_hashes_at(const output::ResultReader& r, const std::string& dataset,
                                         const std::vector<std::uint64_t>& rows) {
  std::vector<std::uint8_t> out(rows.size() * 20);
  std::vector<std::uint8_t> block;
  for_rows(
      r.rows(dataset), rows, [&](std::uint64_t first, std::uint64_t n) { block = r.read_matrix(dataset, first, n); },
      [&](std::uint64_t i, std::size_t pos) {
        std::copy_n(block.begin() + static_cast<std::ptrdiff_t>(i * 20), 20, out.begin() + static_cast<std::ptrdiff_t>(pos * 20));
      });
  return out;
}

std::string inspect_command(const std::string& path, std::uint64_t top) {
  const bool plain = !path.empty() && std::all_of(path.begin(), path.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '.' || c == '_' || c == '-' || c == '+';
  });
  std::string quoted = "'";
  for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  return "crd inspect " + (plain ? path : quoted) + " --top " + std::to_string(top);
}

std::string config_value(const output::ResultReader& r, const std::string& name) {
  if (!r.has_attribute("/", "config")) return "";
  const std::string config = r.attribute_string("/", "config");
  std::size_t pos = 0;
  while (pos < config.size()) {
    const std::size_t end = std::min(config.find('\n', pos), config.size());
    const std::string_view line(config.data() + pos, end - pos);
    pos = end + 1;
    const std::size_t eq = line.find(" = ");
    if (eq != std::string_view::npos && line.substr(0, eq) == name) return std::string(line.substr(eq + 3));
  }
  return "";
}

std::string format_number(double v, const char* format) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string_view host_of(std::string_view key) { return key.substr(0, key.find('/')); }

std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string truncation_note(std::uint64_t shown, std::uint64_t total, const std::string& what, const std::string& order) {
  if (shown >= total) return "";
  return "Showing the top " + grouped(shown) + " of " + grouped(total) + " " + what + " by " + order +
         " (crd report --top sets how many).";
}

}  // namespace crd::report
