// Tables of a result file written and read from their rows' field lists (base/fields.hpp):
// every named field is one column, named as declared, stored as docs/schema.md says —
// a string as fixed-length bytes, a Digest as an n × 20 uint8 matrix, a vector<uint32_t> as CSR
// (NAME + NAME_offsets), a number as a 1-D column of its own type.
#pragma once

#include <cstring>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "crd/base/error.hpp"
#include "crd/hash/digest.hpp"
#include "crd/output/result_file.hpp"
#include "crd/output/result_reader.hpp"
#include "crd/base/fields.hpp"

namespace crd::output {

// A group holding one row type. Two labeled tables store LabelRow differently (files have no
// samples; chunk lengths fit uint32), which the table says rather than a second field list.
template <class Row>
struct Table {
  const char* group;
  std::string Row::*omitted = nullptr;   // a string field this table does not store
  std::uint64_t Row::*as_u32 = nullptr;  // a uint64 field stored as uint32
  double Row::*omitted_number = nullptr;  // a float64 field this table does not store

  template <class M>
  std::string column(M Row::*member) const {
    return std::string(group) + "/" + std::string(field_name(member));
  }
  // A CSR list column's row starts (n + 1 of them).
  template <class M>
  std::string offsets_column(M Row::*member) const {
    return ragged_offsets_path(column(member));
  }
  template <class M>
  bool stores(M Row::*member) const {
    if constexpr (std::is_same_v<M, std::string>) return member != omitted;
    if constexpr (std::is_same_v<M, double>) return member != omitted_number;
    return true;
  }
  template <class M>
  bool narrowed(M Row::*member) const {
    if constexpr (std::is_same_v<M, std::uint64_t>) return member == as_u32;
    return false;
  }
};

// A dataset of the schema: its dtype as docs/schema.md spells it, and what a reader checks before
// using its values (result_checks.cpp): the kind and shape of what it stores, the table whose rows
// it holds, and for a CSR list the column its row starts point into.
struct DatasetSpec {
  enum class Kind { Integer, Float, FixedString };
  std::string path;
  std::string dtype;
  std::string table;        // the group whose rows it holds: every column of a table has as many
  Kind kind = Kind::Integer;
  std::uint64_t width = 0;  // 0: one value per row (1-D); else a fixed number per row (n × width)
  std::string values;       // set on a row-starts column (NAME_offsets, n + 1 rows): NAME
  bool ragged = false;      // the values of a CSR list: as many rows as its row starts say
};

// A value narrowed to a smaller column type stops at the type's largest value: a chunk length of
// 2^63 read from a hostile labels file must not be written as 0 (docs/hostile-input.md).
template <class Out, class In>
constexpr Out narrow_saturated(In v) {
  return v > std::numeric_limits<Out>::max() ? std::numeric_limits<Out>::max() : static_cast<Out>(v);
}

namespace detail {
template <class V>
constexpr std::string_view dtype_of() {
  if constexpr (std::is_same_v<V, std::string>) return "str";
  else if constexpr (std::is_same_v<V, Digest>) return "uint8 n×20";
  else if constexpr (std::is_same_v<V, std::vector<std::uint32_t>>) return "uint32";
  else if constexpr (std::is_same_v<V, std::uint64_t>) return "uint64";
  else if constexpr (std::is_same_v<V, std::uint32_t>) return "uint32";
  else if constexpr (std::is_same_v<V, std::uint8_t>) return "uint8";
  else if constexpr (std::is_same_v<V, double>) return "float64";
  else static_assert(sizeof(V) == 0, "no column type for this field");
}

template <class Out, class Row, class M>
void write_numbers(ResultFile& file, const std::string& path, const std::vector<Row>& rows, M Row::*member) {
  std::vector<Out> values;
  values.reserve(rows.size());
  for (const auto& r : rows) values.push_back(narrow_saturated<Out>(r.*member));
  file.write_column(path, std::span<const Out>(values));
}

template <class Row, class Fn>
void for_each_column(Fn&& fn) {
  std::apply([&](auto... f) { (fn(f.member), ...); }, Row::fields());
}

template <class Row, class M>
using ValueOf = std::remove_cvref_t<decltype(std::declval<Row&>().*std::declval<M>())>;
}  // namespace detail

// Every dataset the table holds, in the order write_table creates them.
template <class Row>
std::vector<DatasetSpec> datasets(const Table<Row>& table) {
  std::vector<DatasetSpec> out;
  detail::for_each_column<Row>([&](auto member) {
    using V = detail::ValueOf<Row, decltype(member)>;
    if (!table.stores(member)) return;
    using Kind = DatasetSpec::Kind;
    const Kind kind = std::is_same_v<V, std::string> ? Kind::FixedString
                      : std::is_same_v<V, double>    ? Kind::Float
                                                     : Kind::Integer;
    const std::uint64_t width = std::is_same_v<V, Digest> ? sizeof(Digest::bytes) : 0;
    constexpr bool ragged = std::is_same_v<V, std::vector<std::uint32_t>>;
    out.push_back({table.column(member), std::string(table.narrowed(member) ? "uint32" : detail::dtype_of<V>()),
                   table.group, kind, width, {}, ragged});
    if constexpr (std::is_same_v<V, std::vector<std::uint32_t>>)
      out.push_back({table.offsets_column(member), "uint64", table.group, Kind::Integer, 0, table.column(member), false});
  });
  return out;
}

// Collective: this rank's rows, concatenated in rank order. The rows are done with: strings and
// vectors move into the columns.
template <class Row>
void write_table(ResultFile& file, const Table<Row>& table, std::vector<Row>& rows) {
  file.create_group(table.group);
  detail::for_each_column<Row>([&](auto member) {
    using V = detail::ValueOf<Row, decltype(member)>;
    if (!table.stores(member)) return;
    const std::string path = table.column(member);
    if constexpr (std::is_same_v<V, Digest>) {
      std::vector<std::uint8_t> bytes;
      bytes.reserve(rows.size() * sizeof(Digest::bytes));
      for (const auto& r : rows) bytes.insert(bytes.end(), (r.*member).bytes.begin(), (r.*member).bytes.end());
      file.write_matrix(path, bytes, sizeof(Digest::bytes));
    } else if constexpr (std::is_same_v<V, std::string> || std::is_same_v<V, std::vector<std::uint32_t>>) {
      std::vector<V> values;
      values.reserve(rows.size());
      for (auto& r : rows) values.push_back(std::move(r.*member));
      if constexpr (std::is_same_v<V, std::string>) file.write_strings(path, values);
      else file.write_ragged(path, values);
    } else if (table.narrowed(member)) {
      detail::write_numbers<std::uint32_t>(file, path, rows, member);
    } else {
      detail::write_numbers<V>(file, path, rows, member);
    }
  });
}

// Rows [first, first + count) of a table; columns absent from the file keep their defaults (a
// labeled set read from any of the groups that hold one). FatalError (one line) if the columns the
// file holds differ in length: a short column would silently drop its rows' values.
template <class Row>
std::vector<Row> read_table(const ResultReader& reader, const Table<Row>& table, std::uint64_t first = 0,
                            std::uint64_t count = ResultReader::kAll) {
  std::vector<Row> rows;
  std::string first_column;
  std::uint64_t table_rows = 0;
  detail::for_each_column<Row>([&](auto member) {
    using V = detail::ValueOf<Row, decltype(member)>;
    const std::string path = table.column(member);
    if (!table.stores(member) || !reader.has(path)) return;
    std::uint64_t n = reader.rows(path);
    if constexpr (std::is_same_v<V, std::vector<std::uint32_t>>) {  // n + 1 row starts
      const std::uint64_t starts = reader.rows(table.offsets_column(member));
      n = starts == 0 ? 0 : starts - 1;
    }
    if (first_column.empty()) {
      first_column = path;
      table_rows = n;
    } else if (n != table_rows) {
      throw FatalError("cannot read '" + reader.path() + "': " + path + " has " + std::to_string(n) + " rows but " +
                       first_column + " has " + std::to_string(table_rows));
    }
    auto fill = [&](auto&& values) {  // every column has the same length
      if (rows.empty()) rows.resize(values.size());
      for (std::size_t i = 0; i < rows.size() && i < values.size(); ++i) rows[i].*member = std::move(values[i]);
    };
    if constexpr (std::is_same_v<V, Digest>) {
      const auto bytes = reader.read_matrix(path, first, count);
      std::vector<Digest> digests(bytes.size() / sizeof(Digest::bytes));
      if (!bytes.empty()) std::memcpy(digests.data(), bytes.data(), bytes.size());  // Digest is its 20 bytes
      fill(digests);
    } else if constexpr (std::is_same_v<V, std::string>) {
      fill(reader.read_strings(path, first, count));
    } else if constexpr (std::is_same_v<V, std::vector<std::uint32_t>>) {
      const auto offsets =
          reader.read_u64(table.offsets_column(member), first, count == ResultReader::kAll ? count : count + 1);
      std::vector<V> lists;
      if (offsets.size() > 1) {
        const auto values = reader.read_u32(path, offsets.front(), offsets.back() - offsets.front());
        for (std::size_t i = 0; i + 1 < offsets.size(); ++i)
          lists.emplace_back(values.begin() + static_cast<std::ptrdiff_t>(offsets[i] - offsets.front()),
                             values.begin() + static_cast<std::ptrdiff_t>(offsets[i + 1] - offsets.front()));
      }
      fill(lists);
    } else if constexpr (std::is_same_v<V, std::uint64_t>) {
      fill(reader.read_u64(path, first, count));
    } else if constexpr (std::is_same_v<V, std::uint32_t>) {
      fill(reader.read_u32(path, first, count));
    } else if constexpr (std::is_same_v<V, std::uint8_t>) {
      fill(reader.read_u8(path, first, count));
    } else {
      static_assert(std::is_same_v<V, double>, "no column reader for this field");
      fill(reader.read_f64(path, first, count));
    }
  });
  return rows;
}

}  // namespace crd::output
