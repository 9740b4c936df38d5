// crd neardup: near-duplicate pages by Broder's shingles, Charikar's simhash or both (Henzinger 2006),
// reading, cleaning and sharding the corpus exactly as discover does.
#pragma once

#include <string>

#include "crd/comm/transport.hpp"
#include "crd/neardup/candidates.hpp"
#include "crd/neardup/sketch.hpp"
#include "crd/pipeline/options.hpp"

namespace crd::pipeline {

struct NeardupOptions {
  neardup::SketchParams sketch;
  neardup::PairRules rules;

  // "" if the options fit together, else why not (names the option): checked before any input is read.
  std::string problem() const;
};

// Collective. Writes /neardup and /run to common.output.
void run_neardup(const CommonOptions& common, const NeardupOptions& options, comm::Transport& transport);

}  // namespace crd::pipeline
