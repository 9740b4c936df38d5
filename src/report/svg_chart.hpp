// Inline SVG figures for the report, drawn by crd itself (no plotting library, no network): the
// paper's frequency–occurrence distributions (Figs. 1, 2) and the badness/containment histograms
// with their thresholds (Fig. 12). Styling is by CSS class (the report's stylesheet), never by
// style attributes, so the page's Content-Security-Policy needs no 'unsafe-inline'.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace crd::report {

struct Marker {
  double x = 0;
  std::string label;  // drawn beside the line
};

// Log–log scatter of (x, y) points with x, y ≥ 1 (others are skipped); points that fall on the
// same pixel are drawn once, so the SVG stays small for any number of points.
struct LogLogChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<double> x;
  std::vector<double> y;
  std::optional<Marker> threshold;
};
std::string render_loglog(const LogLogChart& chart);

// Histogram of values in [x_min, x_max] (clipped; [0, 1] unless set) in `bins` bins, log-scaled
// counts, with vertical marker lines (e.g. mean and threshold).
struct UnitHistogram {
  std::string title;
  std::string x_label;
  std::vector<double> values;
  int bins = 50;
  std::vector<Marker> markers;
  double x_min = 0;
  double x_max = 1;
  bool label_bins = false;  // tick each bin's centre (for a few whole-number bins) instead of sixths
};
std::string render_unit_histogram(const UnitHistogram& chart);

// Horizontal bars, one per label (e.g. seconds per phase).
struct BarChart {
  std::string title;
  std::string unit;
  std::vector<std::string> labels;
  std::vector<double> values;
};
std::string render_bars(const BarChart& chart);

// Lines through (x, y) points, one per series, on linear axes (y optionally log), with a legend.
// A dashed series marks values that are not measured (an extrapolation).
struct LineSeries {
  std::string name;
  std::vector<double> x;
  std::vector<double> y;
  bool dashed = false;
};
struct LineChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<LineSeries> series;
  bool log_y = false;  // points with y < 1 are then left out
  std::vector<Marker> markers;
};
std::string render_lines(const LineChart& chart);

}  // namespace crd::report
