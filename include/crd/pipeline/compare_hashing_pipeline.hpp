// The crd compare-hashing job (paper §6.5, Table 1): SHA-1 chunk matching against Nilsimsa, TLSH
// and ssdeep of the same chunks (compare/hashing_comparison.hpp), over the corpus as crd detect reads it.
#pragma once

#include "crd/comm/transport.hpp"
#include "crd/compare/compare_hashing.hpp"
#include "crd/pipeline/options.hpp"

namespace crd::pipeline {

// Collective. Scans the corpus (same reading, cleaning, chunking and sharding as crd detect),
// writes /compare_hashing and /run to common.output, prints the tables on rank 0.
void run_compare_hashing(const CommonOptions& common, const DiscoverOptions& stop_options,
                         const compare::CompareOptions& options, comm::Transport& transport);

}  // namespace crd::pipeline
