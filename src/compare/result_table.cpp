// Text tables of a comparison (result_table.hpp).
#include "result_table.hpp"

#include <cstdio>

namespace crd::compare {
namespace {

std::string fmt(const char* format, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, args...);
  return buf;
}

std::string column_name(const output::ConfusionRow& r) {
  if (r.method == "sha1") return "sha1";
  const char* op = r.rule.starts_with("distance") ? "<=" : ">=";
  return fmt("%s%s%g", r.method.c_str(), op, r.threshold);
}

}  // namespace

std::string format_tables(const std::vector<output::ConfusionRow>& rows, double extrapolate_pages) {
  std::vector<const output::ConfusionRow*> primary;
  for (const auto& r : rows)
    if (r.primary) primary.push_back(&r);
  std::string out = "Page detection against L, one column per method at its headline threshold (paper Table 1)\n";
  out += fmt("%-28s", "");
  for (auto* r : primary) out += fmt("%16s", column_name(*r).c_str());
  out += "\n";
  auto line = [&](const char* name, auto value) {
    out += fmt("%-28s", name);
    for (auto* r : primary) out += value(*r);
    out += "\n";
  };
  line("positive, flagged (TP)", [](const auto& r) { return fmt("%16llu", static_cast<unsigned long long>(r.tp)); });
  line("positive, missed (FN)", [](const auto& r) { return fmt("%16llu", static_cast<unsigned long long>(r.fn)); });
  line("negative, flagged (FP)", [](const auto& r) { return fmt("%16llu", static_cast<unsigned long long>(r.fp)); });
  line("negative, clean (TN)", [](const auto& r) { return fmt("%16llu", static_cast<unsigned long long>(r.tn)); });
  line("false-positive rate", [](const auto& r) { return fmt("%15.4f%%", 100 * r.fpr); });
  line(fmt("FP at %.3g pages", extrapolate_pages).c_str(),
       [](const auto& r) { return fmt("%16.3g", r.extrapolated_fp); });
  line("page threshold", [](const auto& r) { return fmt("%16.4f", r.page_threshold); });

  out += "\nEvery method and threshold\n";
  out += fmt("%-9s %-16s %9s %8s %8s %8s %8s %8s %9s %12s\n", "method", "rule", "threshold", "page_thr", "TP", "FN",
             "FP", "TN", "FPR", "FP_extrap");
  for (const auto& r : rows)
    out += fmt("%-9s %-16s %9g %8.4f %8llu %8llu %8llu %8llu %8.4f%% %12.4g\n", r.method.c_str(), r.rule.c_str(),
               r.threshold, r.page_threshold, static_cast<unsigned long long>(r.tp),
               static_cast<unsigned long long>(r.fn), static_cast<unsigned long long>(r.fp),
               static_cast<unsigned long long>(r.tn), 100 * r.fpr, r.extrapolated_fp);
  return out;
}

}  // namespace crd::compare
