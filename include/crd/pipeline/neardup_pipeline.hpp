// crd neardup: near-duplicate pages by Broder's shingles, Charikar's simhash or both (Henzinger 2006),
// reading, cleaning and sharding the corpus exactly as discover does.
#pragma once

#include <cstdint>
#include <string>

#include "crd/comm/transport.hpp"
#include "crd/neardup/candidates.hpp"
#include "crd/neardup/sketch.hpp"
#include "crd/pipeline/options.hpp"

namespace crd::pipeline {

struct NeardupOptions {
  neardup::SketchParams sketch;
  neardup::PairRules rules;
  bool normalize_text = false;          // --normalize-text: terms lower-cased, punctuation out, digits as 0
  std::uint64_t boilerplate_pages = 0;  // --boilerplate-pages: blocks on this many pages of a host left out (0: off)

  // "" if the options fit together, else why not (names the option): checked before any input is read.
  std::string problem() const;
};

// Collective. Writes /neardup and /run to common.output.
void run_neardup(const CommonOptions& common, const NeardupOptions& options, comm::Transport& transport);

}  // namespace crd::pipeline
