// The median and the median absolute deviation (MAD) of values in [0, 1] spread over ranks, exact
// and identical for any rank count: each value is rounded once to the same fixed point as
// ExactMoments, and every order statistic is found by bisection over that integer range with one
// allreduce of counts per step (61 steps), so no rank ever holds more than its own values.
#pragma once

#include <span>

#include "crd/comm/transport.hpp"

namespace crd::detect {

struct MedianMad {
  double median = 0;  // of an even count: the mean of the two middle values
  double mad = 0;     // median of |x − median|, unscaled
};

// Collective: every rank must call, with its own values (any number, possibly none).
MedianMad exact_median_mad(comm::Transport& transport, std::span<const double> values);

}  // namespace crd::detect
