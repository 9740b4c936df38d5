// ReportPage: the HTML document around the sections.
#include "report_page.hpp"

#include "crd/report/embedded_assets.hpp"
#include "crd/report/json_writer.hpp"
#include "sha256.hpp"
#include "text_escape.hpp"

namespace crd::report {

void ReportPage::add_section(std::string id, std::string nav_label, std::string html) {
  sections_.push_back({std::move(id), std::move(nav_label), std::move(html)});
}

void ReportPage::add_table(const TableSpec& table) { tables_json_.push_back(table.to_json()); }

void ReportPage::add_data(std::string key, std::string json) { data_.emplace_back(std::move(key), std::move(json)); }

std::string ReportPage::render(const PageHeader& header) const {
  const std::string_view css = kReportCss;
  const std::string_view js = kReportJs;
  // The policy names the exact bytes of the one <style> and the one executable <script>; the
  // data element (type application/json) is never executed. No source may be fetched at all.
  const std::string csp = "default-src 'none'; script-src 'sha256-" + sha256_base64(js) + "'; style-src 'sha256-" +
                          sha256_base64(css) + "'; img-src data:; base-uri 'none'; form-action 'none'";
  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"" + html_escape(csp) + "\">\n";
  out += "<meta name=\"referrer\" content=\"no-referrer\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + html_escape(header.title) + "</title>\n<style>";
  out += css;
  out += "</style></head>\n<body>\n<header class=\"top\"><div class=\"wrap\"><h1>" + html_escape(header.title) +
         "</h1><p class=\"sub\">" + html_escape(header.subtitle) + "</p><nav>";
  for (const auto& s : sections_)
    out += "<a href=\"#" + html_escape(s.id) + "\">" + html_escape(s.nav_label) + "</a>";
  out += "</nav></div></header>\n<main class=\"wrap\">\n";
  out += "<noscript><p class=\"note\">Tables and the pruning tools need JavaScript; the figures and "
         "summaries above and below do not.</p></noscript>\n";
  for (const auto& s : sections_)
    out += "<section id=\"" + html_escape(s.id) + "\">\n" + s.html + "\n</section>\n";
  out += "</main>\n<footer class=\"wrap\">Made by crd report. Self-contained: no network access; your marks "
         "stay in this browser (localStorage).</footer>\n";

  JsonWriter data;
  data.begin_object();
  data.key("runId").value(header.run_id);
  for (const auto& [key, json] : data_) data.key(key).raw(json);
  data.key("tables").begin_array();
  for (const auto& t : tables_json_) data.raw(t);
  data.end_array();
  data.end_object();
  // append_json_string escapes < > & in every string, so the element cannot be closed early.
  out += "<script type=\"application/json\" id=\"crd-data\">" + data.str() + "</script>\n";
  out += "<script>";
  out += js;
  out += "</script>\n</body></html>\n";
  return out;
}

std::string table_slot(const std::string& id) {
  return "<div class=\"table-slot\" data-table=\"" + html_escape(id) + "\"></div>";
}

std::string heading(const std::string& text, int level) {
  const std::string tag = "h" + std::to_string(level);
  return "<" + tag + ">" + html_escape(text) + "</" + tag + ">";
}

std::string facts(const std::vector<Fact>& items) {
  std::string out = "<dl class=\"facts\">";
  for (const auto& f : items)
    out += "<div><dt>" + html_escape(f.name) + "</dt><dd>" + html_escape(f.value) + "</dd></div>";
  return out + "</dl>";
}

}  // namespace crd::report
