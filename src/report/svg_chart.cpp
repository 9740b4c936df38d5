// SVG figures: axes, log/linear scales and ticks, written as plain SVG elements with CSS classes.
#include "svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

#include "text_escape.hpp"

namespace crd::report {
namespace {

constexpr double kWidth = 640, kHeight = 300;
constexpr double kLeft = 64, kRight = 20, kTop = 34, kBottom = 46;
constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string bin_range(double lo, double hi) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g–%.4g", lo, hi);
  return buf;
}

// A tick value: as few digits as it needs (0.2, 355, 1.5e+09).
std::string tick_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

struct LinearScale {
  double lo = 0, hi = 1;
  double map(double v, double pixels) const { return (v - lo) / (hi - lo) * pixels; }
};

LinearScale linear_scale(double min, double max) {
  if (!(max > min)) return {min - 0.5, min + 0.5};
  return {min, max};
}

// 10^k as "1", "10", "10²", …
std::string decade_label(int k) {
  static const char* kSup[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  if (k == 0) return "1";
  if (k == 1) return "10";
  std::string s = "10";
  if (k < 0) s += "⁻";
  for (char c : std::to_string(std::abs(k))) s += kSup[c - '0'];
  return s;
}

struct LogScale {
  int lo = 0, hi = 1;  // decades
  double map(double v, double pixels) const { return (std::log10(v) - lo) / (hi - lo) * pixels; }
};

LogScale log_scale(double min, double max) {
  LogScale s;
  s.lo = static_cast<int>(std::floor(std::log10(std::max(min, 1.0))));
  s.hi = std::max(s.lo + 1, static_cast<int>(std::ceil(std::log10(std::max(max, 1.0)))));
  return s;
}

std::string open_svg(const std::string& title) {
  std::string s = "<svg class=\"chart\" viewBox=\"0 0 " + num(kWidth) + " " + num(kHeight) +
                  "\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\"><title>" + html_escape(title) + "</title>";
  s += "<text class=\"chart-title\" x=\"" + num(kLeft) + "\" y=\"20\">" + html_escape(title) + "</text>";
  return s;
}

std::string text(double x, double y, const std::string& anchor, const std::string& cls, const std::string& body) {
  return "<text class=\"" + cls + "\" x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\">" +
         html_escape(body) + "</text>";
}

std::string line(double x1, double y1, double x2, double y2, const std::string& cls) {
  return "<line class=\"" + cls + "\" x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" +
         num(y2) + "\"/>";
}

std::string axis_labels(const std::string& x_label, const std::string& y_label) {
  std::string s = text(kLeft + kPlotW / 2, kHeight - 8, "middle", "axis-label", x_label);
  s += "<text class=\"axis-label\" transform=\"translate(16 " + num(kTop + kPlotH / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">" + html_escape(y_label) + "</text>";
  s += "<rect class=\"frame\" x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(kPlotW) +
       "\" height=\"" + num(kPlotH) + "\"/>";
  return s;
}

std::string log_x_ticks(const LogScale& s) {
  std::string out;
  for (int k = s.lo; k <= s.hi; ++k) {
    const double x = kLeft + s.map(std::pow(10.0, k), kPlotW);
    out += line(x, kTop, x, kTop + kPlotH, "grid");
    out += text(x, kTop + kPlotH + 16, "middle", "tick", decade_label(k));
  }
  return out;
}

std::string log_y_ticks(const LogScale& s) {
  std::string out;
  for (int k = s.lo; k <= s.hi; ++k) {
    const double y = kTop + kPlotH - s.map(std::pow(10.0, k), kPlotH);
    out += line(kLeft, y, kLeft + kPlotW, y, "grid");
    out += text(kLeft - 6, y + 4, "end", "tick", decade_label(k));
  }
  return out;
}

std::string marker_line(double x, const Marker& m, int index) {
  std::string out = line(x, kTop, x, kTop + kPlotH, "marker marker-" + std::to_string(index));
  const bool right_half = x > kLeft + kPlotW * 0.7;
  out += text(right_half ? x - 4 : x + 4, kTop + 14 + 14 * index, right_half ? "end" : "start",
              "marker-label marker-" + std::to_string(index), m.label);
  return out;
}

std::string empty_chart(const std::string& title, const std::string& why) {
  return open_svg(title) + text(kWidth / 2, kHeight / 2, "middle", "tick", why) + "</svg>";
}

}  // namespace

std::string render_loglog(const LogLogChart& c) {
  double xmax = 1, ymax = 1, xmin = 0, ymin = 0;
  bool any = false;
  for (std::size_t i = 0; i < c.x.size() && i < c.y.size(); ++i) {
    if (c.x[i] < 1 || c.y[i] < 1) continue;
    xmin = any ? std::min(xmin, c.x[i]) : c.x[i];
    ymin = any ? std::min(ymin, c.y[i]) : c.y[i];
    xmax = std::max(xmax, c.x[i]);
    ymax = std::max(ymax, c.y[i]);
    any = true;
  }
  if (!any) return empty_chart(c.title, "no data");
  if (c.threshold) xmax = std::max(xmax, c.threshold->x);
  const LogScale sx = log_scale(xmin, xmax), sy = log_scale(ymin, ymax);
  std::string out = open_svg(c.title) + log_x_ticks(sx) + log_y_ticks(sy);
  std::set<std::pair<long, long>> drawn;
  out += "<g class=\"points\">";
  for (std::size_t i = 0; i < c.x.size() && i < c.y.size(); ++i) {
    if (c.x[i] < 1 || c.y[i] < 1) continue;
    const double px = kLeft + sx.map(c.x[i], kPlotW), py = kTop + kPlotH - sy.map(c.y[i], kPlotH);
    if (!drawn.emplace(std::lround(px), std::lround(py)).second) continue;
    out += "<circle cx=\"" + num(px) + "\" cy=\"" + num(py) + "\" r=\"2.2\"/>";
  }
  out += "</g>";
  if (c.threshold && c.threshold->x >= 1) out += marker_line(kLeft + sx.map(c.threshold->x, kPlotW), *c.threshold, 1);
  return out + axis_labels(c.x_label, c.y_label) + "</svg>";
}

std::string render_unit_histogram(const UnitHistogram& c) {
  if (c.values.empty() || c.bins < 1 || !(c.x_max > c.x_min)) return empty_chart(c.title, "no data");
  const double span = c.x_max - c.x_min;
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(c.bins), 0);
  for (double v : c.values) {
    if (std::isnan(v)) continue;
    const double unit = (std::clamp(v, c.x_min, c.x_max) - c.x_min) / span;
    counts[std::min(counts.size() - 1, static_cast<std::size_t>(unit * c.bins))]++;
  }
  const double top = static_cast<double>(*std::max_element(counts.begin(), counts.end()));
  const LogScale sy = log_scale(1, std::max(top, 10.0));
  std::string out = open_svg(c.title) + log_y_ticks(sy);
  if (c.label_bins) {
    for (int b = 0; b < c.bins; ++b)
      out += text(kLeft + kPlotW * (b + 0.5) / c.bins, kTop + kPlotH + 16, "middle", "tick",
                  tick_number(c.x_min + span * (b + 0.5) / c.bins));
  } else {
    for (int k = 0; k <= 5; ++k)
      out += text(kLeft + kPlotW * k / 5.0, kTop + kPlotH + 16, "middle", "tick", tick_number(c.x_min + span * k / 5.0));
  }
  const double bar_w = kPlotW / c.bins;
  out += "<g class=\"bars\">";
  for (std::size_t b = 0; b < counts.size(); ++b) {
    if (counts[b] == 0) continue;
    // log scale from 1: a bin holding one item gets a sliver, so it stays visible
    const double h = std::max(1.5, sy.map(static_cast<double>(counts[b]), kPlotH));
    out += "<rect x=\"" + num(kLeft + bar_w * static_cast<double>(b) + 0.5) + "\" y=\"" + num(kTop + kPlotH - h) +
           "\" width=\"" + num(std::max(bar_w - 1, 0.5)) + "\" height=\"" + num(h) + "\"><title>" +
           bin_range(c.x_min + span * static_cast<double>(b) / c.bins, c.x_min + span * static_cast<double>(b + 1) / c.bins) + ": " +
           std::to_string(counts[b]) + "</title></rect>";
  }
  out += "</g>";
  for (std::size_t i = 0; i < c.markers.size(); ++i) {
    const double x = kLeft + (std::clamp(c.markers[i].x, c.x_min, c.x_max) - c.x_min) / span * kPlotW;
    out += marker_line(x, c.markers[i], static_cast<int>(i));
  }
  return out + axis_labels(c.x_label, "count (log)") + "</svg>";
}

std::string render_bars(const BarChart& c) {
  if (c.values.empty()) return empty_chart(c.title, "no data");
  const double row = 20, height = kTop + row * static_cast<double>(c.values.size()) + 16;
  const double left = 170, width = kWidth - left - 90;
  const double max = std::max(*std::max_element(c.values.begin(), c.values.end()), 1e-9);
  std::string out = "<svg class=\"chart bars-chart\" viewBox=\"0 0 " + num(kWidth) + " " + num(height) +
                    "\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\"><title>" + html_escape(c.title) +
                    "</title>" + text(kLeft, 20, "start", "chart-title", c.title);
  out += "<g class=\"bars\">";
  for (std::size_t i = 0; i < c.values.size(); ++i) {
    const double y = kTop + row * static_cast<double>(i);
    const double w = std::max(1.0, c.values[i] / max * width);
    out += text(left - 8, y + 13, "end", "tick", i < c.labels.size() ? c.labels[i] : "");
    out += "<rect x=\"" + num(left) + "\" y=\"" + num(y + 3) + "\" width=\"" + num(w) + "\" height=\"" +
           num(row - 6) + "\"/>";
    char value[48];
    std::snprintf(value, sizeof value, "%.3g %s", c.values[i], c.unit.c_str());
    out += text(left + w + 6, y + 13, "start", "tick", value);
  }
  return out + "</g></svg>";
}

std::string render_lines(const LineChart& c) {
  const auto usable = [&](double x, double y) { return std::isfinite(x) && std::isfinite(y) && (!c.log_y || y >= 1); };
  double xmin = 0, xmax = 0, ymin = 0, ymax = 0;
  bool any = false;
  for (const auto& s : c.series)
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!usable(s.x[i], s.y[i])) continue;
      xmin = any ? std::min(xmin, s.x[i]) : s.x[i];
      xmax = any ? std::max(xmax, s.x[i]) : s.x[i];
      ymin = any ? std::min(ymin, s.y[i]) : s.y[i];
      ymax = any ? std::max(ymax, s.y[i]) : s.y[i];
      any = true;
    }
  if (!any) return empty_chart(c.title, "no data");
  const LinearScale sx = linear_scale(xmin, xmax);
  const LogScale ly = log_scale(std::max(ymin, 1.0), std::max(ymax, 10.0));
  const LinearScale lin_y = linear_scale(std::min(ymin, 0.0), ymax);
  const auto px = [&](double x) { return kLeft + sx.map(x, kPlotW); };
  const auto py = [&](double y) { return kTop + kPlotH - (c.log_y ? ly.map(y, kPlotH) : lin_y.map(y, kPlotH)); };
  std::string out = open_svg(c.title);
  if (c.log_y) {
    out += log_y_ticks(ly);
  } else {
    for (int k = 0; k <= 4; ++k) {
      const double v = lin_y.lo + (lin_y.hi - lin_y.lo) * k / 4.0;
      out += line(kLeft, py(v), kLeft + kPlotW, py(v), "grid");
      out += text(kLeft - 6, py(v) + 4, "end", "tick", tick_number(v));
    }
  }
  for (int k = 0; k <= 5; ++k) {
    const double v = sx.lo + (sx.hi - sx.lo) * k / 5.0;
    out += text(px(v), kTop + kPlotH + 16, "middle", "tick", tick_number(v));
  }
  for (std::size_t s = 0; s < c.series.size(); ++s) {
    const auto& series = c.series[s];
    const std::string cls = "series series-" + std::to_string(s % 6) + (series.dashed ? " dashed" : "");
    std::string points;
    std::string dots;
    for (std::size_t i = 0; i < series.x.size() && i < series.y.size(); ++i) {
      if (!usable(series.x[i], series.y[i])) continue;
      points += num(px(series.x[i])) + "," + num(py(series.y[i])) + " ";
      dots += "<circle cx=\"" + num(px(series.x[i])) + "\" cy=\"" + num(py(series.y[i])) + "\" r=\"2.5\"><title>" +
              html_escape(series.name + ": " + tick_number(series.x[i]) + " → " + tick_number(series.y[i])) +
              "</title></circle>";
    }
    out += "<g class=\"" + cls + "\"><polyline points=\"" + points + "\"/>" + dots + "</g>";
    out += "<g class=\"" + cls + "\">" + line(kLeft + kPlotW - 150, kTop + 12 + 14 * static_cast<double>(s),
                                            kLeft + kPlotW - 130, kTop + 12 + 14 * static_cast<double>(s), "legend-line") +
           text(kLeft + kPlotW - 126, kTop + 16 + 14 * static_cast<double>(s), "start", "legend", series.name) + "</g>";
  }
  for (std::size_t i = 0; i < c.markers.size(); ++i)
    if (c.markers[i].x >= sx.lo && c.markers[i].x <= sx.hi) out += marker_line(px(c.markers[i].x), c.markers[i], static_cast<int>(i));
  return out + axis_labels(c.x_label, c.y_label) + "</svg>";
}

}  // namespace crd::report
