// The checks across the shared options (options.hpp).
#include "crd/pipeline/options.hpp"

#include "crd/chunk/chunker.hpp"

namespace crd::pipeline {

std::string CommonOptions::problem() const {
  if (resume && work_dir.empty()) return "--resume needs --work-dir";
  return chunk::chunking_problem(scan.chunker, scan.chunking);
}

}  // namespace crd::pipeline
