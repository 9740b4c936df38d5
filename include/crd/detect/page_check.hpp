// crd check's work on one page (the phishing use case, paper §8.2): chunk it, hash its chunks, drop
// stop chunks, look the rest up in a labeled set and apply the page rule. The CLI reads and prints.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "crd/chunk/chunker.hpp"
#include "crd/detect/page_rule.hpp"
#include "crd/discover/digest_map.hpp"
#include "crd/discover/label_rules.hpp"
#include "crd/hash/sha1.hpp"

namespace crd::detect {

struct LabeledChunk {
  std::uint32_t position = 0;  // among the page's chunks after stop-chunk removal
  std::string text;            // the normalized bytes hashed
  std::uint32_t label = 0;     // what the label index maps the chunk's hash to
};

struct PageCheck {
  std::string_view skipped;  // "": the page was chunked; else why not (a chunker reason), nothing else set
  std::uint32_t chunks = 0;  // after stop-chunk removal
  std::vector<LabeledChunk> matches;
  chunk::Chunker::Dropped dropped;  // parts the chunker left out of a page it chunked
  PageVerdict verdict;
};

// One process, no MPI. Holds references: the chunker, stop rules and label index outlive it.
class PageChecker {
 public:
  PageChecker(chunk::Chunker& chunker, const discover::LabelRules& stop,
              const discover::DigestMap<std::uint32_t>& labels, PageRule rule)
      : chunker_(chunker), stop_(stop), labels_(labels), rule_(std::move(rule)) {}

  PageCheck check(std::string_view page);

 private:
  chunk::Chunker& chunker_;
  const discover::LabelRules& stop_;
  const discover::DigestMap<std::uint32_t>& labels_;
  PageRule rule_;
  Sha1 sha1_;
};

}  // namespace crd::detect
