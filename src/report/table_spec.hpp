// TableSpec: one interactive table of the report, sent to the page as JSON and drawn there by
// report.js (sortable, filterable, paged). Columns are stored column-wise (one JSON array each),
// which is compact for 10⁵ rows and lets the page sort an index instead of moving rows.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "crd/report/json_writer.hpp"

namespace crd::report {

// How the page shows (and sorts) a column:
//   int, float (4 decimals), text (long text, wrapped), url, hash (40 hex, shown shortened),
//   flag (0/1 as a mark), list (strings, one per line), refs (a list of row indices into another table,
//   named by `ref`, expanded on click).
struct TableColumn {
  std::string key;
  std::string label;
  std::string type;
  std::string values_json;  // a JSON array, one value per row
  std::string ref;          // refs only: the id of the table the indices point into
  std::string title;        // tooltip of the header
};

// Per-row marks a reviewer sets in the page (a menu per row, kept in localStorage by run id) and
// exports: `csv` downloads "key,mark" lines, `urls` the keys marked with choices[0], one per line
// (what `crd quilts --exclude-pages` reads). Keyed by the text column `key`.
struct RowMarks {
  std::string key;
  std::vector<std::string> choices;
  std::string export_format;  // csv | urls
  std::string export_name;    // download file name, before "-RUNID.csv/.txt"
};

struct TableSpec {
  std::string id;
  std::uint64_t total_rows = 0;  // rows in the result; more than shown when truncated
  std::string truncated_note;    // why and how rows were kept, when truncated
  std::string inspect_command;   // how to see the rest, when truncated
  std::string sort_key;          // the initial order
  bool sort_descending = true;
  bool pruning = false;          // chunk table: benign checkbox and category per row, by its hash column
  std::optional<RowMarks> marks;  // any other table a reviewer marks row by row
  int page_size = 50;
  std::vector<TableColumn> columns;

  std::uint64_t rows() const;  // rows of the first column

  // Column helpers (values in row order).
  void add_uint(const std::string& key, const std::string& label, std::span<const std::uint64_t> values);
  void add_float(const std::string& key, const std::string& label, std::span<const double> values);
  void add_text(const std::string& key, const std::string& label, const std::vector<std::string>& values,
                const std::string& type = "text");
  // `bytes`: n × 20 uint8 digests.
  void add_hash(const std::string& key, const std::string& label, std::span<const std::uint8_t> bytes);
  void add_flag(const std::string& key, const std::string& label, std::span<const std::uint8_t> values);
  void add_refs(const std::string& key, const std::string& label, const std::vector<std::vector<std::uint64_t>>& lists,
                const std::string& ref_table);
  void add_text_lists(const std::string& key, const std::string& label, const std::vector<std::vector<std::string>>& lists);

  std::string to_json() const;

 private:
  std::uint64_t rows_ = 0;
};

}  // namespace crd::report
