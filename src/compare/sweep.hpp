// The methods compared and the thresholds swept (paper §6.5: Nilsimsa 128 … 114). A sweep point
// says when a chunk matches the labeled set L: SHA-1, when its digest is a label's; an LSH
// function, when its best score against any label passes the threshold.
#pragma once

#include <string>
#include <vector>

#include "chunk_sketch.hpp"
#include "crd/compare/compare_hashing.hpp"

namespace crd::compare {

enum class Method { Sha1, Nilsimsa, Tlsh, Ssdeep };

const char* method_name(Method m);
// How a threshold t reads for the method ("score >= t", "distance <= t", "identical digest").
const char* method_rule(Method m);

struct SweepPoint {
  Method method = Method::Sha1;
  int threshold = 0;
  bool primary = false;  // the method's headline threshold (Table 1's column)
};

// Whether a chunk with these best scores matches L at this point (not for Sha1: exact lookup).
bool lsh_matches(const SweepPoint& p, const BestScores& best);

// SHA-1, then every Nilsimsa, TLSH and ssdeep threshold, each method's points in the order given
// and its primary threshold added when the sweep lacks it. A sweep is "A:B" (every integer from A
// to B, either direction) or "a,b,c"; a malformed one or a value out of the method's range
// (Nilsimsa −128…128, TLSH ≥ 0, ssdeep 0…100) is a UsageError naming the option.
std::vector<SweepPoint> sweep_points(const SweepOptions& options);

}  // namespace crd::compare
