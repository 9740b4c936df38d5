// TableSpec: columns as JSON arrays, and the table's description for report.js.
#include "table_spec.hpp"

namespace crd::report {

std::uint64_t TableSpec::rows() const { return rows_; }

void TableSpec::add_uint(const std::string& key, const std::string& label, std::span<const std::uint64_t> values) {
  JsonWriter w;
  w.array(values);
  rows_ = values.size();
  columns.push_back({key, label, "int", w.take(), "", ""});
}

void TableSpec::add_float(const std::string& key, const std::string& label, std::span<const double> values) {
  JsonWriter w;
  w.array(values);
  rows_ = values.size();
  columns.push_back({key, label, "float", w.take(), "", ""});
}

void TableSpec::add_text(const std::string& key, const std::string& label, const std::vector<std::string>& values,
                         const std::string& type) {
  JsonWriter w;
  w.array(values);
  rows_ = values.size();
  columns.push_back({key, label, type, w.take(), "", ""});
}

void TableSpec::add_hash(const std::string& key, const std::string& label, std::span<const std::uint8_t> bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::vector<std::string> hex(bytes.size() / 20);
  for (std::size_t i = 0; i < hex.size(); ++i)
    for (std::size_t k = 0; k < 20; ++k) {
      hex[i] += kHex[bytes[i * 20 + k] >> 4];
      hex[i] += kHex[bytes[i * 20 + k] & 15];
    }
  add_text(key, label, hex, "hash");
}

void TableSpec::add_flag(const std::string& key, const std::string& label, std::span<const std::uint8_t> values) {
  JsonWriter w;
  w.array(values);
  rows_ = values.size();
  columns.push_back({key, label, "flag", w.take(), "", ""});
}

void TableSpec::add_refs(const std::string& key, const std::string& label,
                         const std::vector<std::vector<std::uint64_t>>& lists, const std::string& ref_table) {
  JsonWriter w;
  w.begin_array();
  for (const auto& list : lists) w.array(std::span<const std::uint64_t>(list));
  w.end_array();
  rows_ = lists.size();
  columns.push_back({key, label, "refs", w.take(), ref_table, ""});
}

void TableSpec::add_text_lists(const std::string& key, const std::string& label,
                               const std::vector<std::vector<std::string>>& lists) {
  JsonWriter w;
  w.begin_array();
  for (const auto& list : lists) w.array(list);
  w.end_array();
  rows_ = lists.size();
  columns.push_back({key, label, "list", w.take(), "", ""});
}

std::string TableSpec::to_json() const {
  JsonWriter w;
  w.begin_object();
  w.key("id").value(id);
  w.key("rows").value(rows_);
  w.key("total").value(total_rows);
  w.key("truncated").value(truncated_note);
  w.key("inspect").value(inspect_command);
  w.key("sort").value(sort_key);
  w.key("desc").value(sort_descending);
  w.key("pruning").value(pruning);
  w.key("pageSize").value(static_cast<std::uint64_t>(page_size));
  if (marks) {
    w.key("marks").begin_object().key("key").value(marks->key).key("format").value(marks->export_format);
    w.key("name").value(marks->export_name).key("choices").array(marks->choices).end_object();
  }
  w.key("columns").begin_array();
  for (const auto& c : columns) {
    w.begin_object().key("key").value(c.key).key("label").value(c.label).key("type").value(c.type);
    if (!c.ref.empty()) w.key("ref").value(c.ref);
    if (!c.title.empty()) w.key("title").value(c.title);
    w.end_object();
  }
  w.end_array();
  w.key("data").begin_object();
  for (const auto& c : columns) w.key(c.key).raw(c.values_json);
  w.end_object();
  w.end_object();
  return w.take();
}

}  // namespace crd::report
