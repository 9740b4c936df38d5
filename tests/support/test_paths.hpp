// Where tests find data outside the repo. Tests that need it call GTEST_SKIP with the message
// from these helpers when it is absent (a user's fresh clone has no ../shared).
#pragma once

#include <optional>
#include <string>

namespace crd::testing {

// ../shared/data/warc-samples, or nullopt.
std::optional<std::string> warc_samples_dir();
// The Debian documentation corpus fetched by scripts/fetch_corpus.sh, or nullopt.
std::optional<std::string> corpus_dir();
// A fresh empty directory under the system temp dir, removed at process exit.
std::string make_temp_dir(const std::string& tag);

}  // namespace crd::testing
