// crd compare-hashing (paper §6.5, Table 1): page detection against a labeled set L with SHA-1
// chunk hashes (crd's own) and with three locality-sensitive hashes of the same chunks — Nilsimsa,
// TLSH, ssdeep — scored against a known truth, over a sweep of each LSH threshold: its options.
// The comparison is compare/hashing_comparison.hpp; the job, pipeline/compare_hashing_pipeline.hpp.
#pragma once

#include <string>
#include <vector>

#include "crd/detect/threshold.hpp"

namespace crd::compare {

// The thresholds compared: each LSH method's headline threshold (Table 1's column) and its sweep,
// "A:B" (every integer from A to B) or "a,b,c".
struct SweepOptions {
  int nilsimsa_threshold = 115;  // the paper's choice
  int tlsh_threshold = 30;
  int ssdeep_threshold = 50;
  std::string nilsimsa_sweep = "128:100";
  std::string tlsh_sweep = "0,10,20,30,40,50,60,70,80,90,100,150,200";
  std::string ssdeep_sweep = "100,90,80,70,60,50,40,30,20,10,1";
};

struct CompareOptions {
  std::vector<std::string> labels;   // result files holding L (as crd detect --labels)
  std::string truth;                 // file: one positive URL prefix (page key) per line
  detect::Threshold page_threshold;  // one for all methods; auto = mean + σ of SHA-1 containments
  std::uint64_t min_labeled = 1;
  double extrapolate_pages = 2.86e9;  // Common Crawl's files in §6.5
  SweepOptions sweep;
};

}  // namespace crd::compare
