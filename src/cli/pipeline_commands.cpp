// crd discover / label / detect / run / merge: parsed options → pipeline (commands.cpp has their entries).
#include "commands.hpp"
#include "crd/base/error.hpp"
#include "crd/pipeline/detect_pipeline.hpp"
#include "crd/pipeline/discover_pipeline.hpp"
#include "crd/pipeline/merge_pipeline.hpp"

namespace crd::cli {

int run_discover(Invocation& in) {
  pipeline::run_discover(in.settings.common, in.settings.discover, *in.transport);
  return 0;
}

int run_label(Invocation& in) {
  pipeline::run_label(in.settings.common, in.settings.discover, *in.transport);
  return 0;
}

void check_scoring(const Settings& s) {
  if (s.common.scan.chunker == chunk::ChunkerKind::WinnowScan && !s.detect.detect.page_threshold.binomial)
    throw UsageError("option --page-threshold: --chunker winnow+scan flags pages by the binomial rule of each part; "
                     "give binomial[:R[:ALPHA]] (the default)");
}

int run_detect(Invocation& in) {
  Settings& s = in.settings;
  pipeline::run_detect(s.common, s.discover, s.detect, *in.transport);
  return 0;
}

int run_run(Invocation& in) {
  Settings& s = in.settings;
  pipeline::run_discover_detect(s.common, s.discover, s.detect, *in.transport);
  return 0;
}

int run_merge(Invocation& in) {
  pipeline::run_merge(in.settings.common, in.settings.discover, *in.transport);
  return 0;
}

}  // namespace crd::cli
