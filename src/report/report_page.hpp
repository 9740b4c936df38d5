// ReportPage: assembles the self-contained HTML report — sections of escaped HTML and inline SVG,
// the tables' data as one JSON element, and the embedded stylesheet and script — under a strict
// Content-Security-Policy that allows exactly that stylesheet and script (by SHA-256) and nothing
// else (no network, no other script, no inline style attributes, images only as data: URIs).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "table_spec.hpp"

namespace crd::report {

struct PageHeader {
  std::string title;     // plain text
  std::string subtitle;  // plain text
  std::string run_id;    // keys the page's saved marks (localStorage)
};

class ReportPage {
 public:
  // `id` names the section's anchor in the navigation; `html` is trusted markup built with
  // html_escape for every piece of data in it.
  void add_section(std::string id, std::string nav_label, std::string html);
  void add_table(const TableSpec& table);
  // A top-level value of the page's JSON data (already encoded).
  void add_data(std::string key, std::string json);

  std::string render(const PageHeader& header) const;

 private:
  struct Section {
    std::string id, nav_label, html;
  };
  std::vector<Section> sections_;
  std::vector<std::string> tables_json_;
  std::vector<std::pair<std::string, std::string>> data_;
};

// The placeholder report.js fills with table `id`.
std::string table_slot(const std::string& id);

// <section> helpers: a heading and a definition list of facts (both escaped).
std::string heading(const std::string& text, int level = 2);
struct Fact {
  std::string name, value;
};
std::string facts(const std::vector<Fact>& items);

}  // namespace crd::report
