// crd compare-hashing: parsed options → the comparison job (compare/compare_hashing.hpp).
#include "commands.hpp"
#include "crd/compare/compare_hashing.hpp"

namespace crd::cli {

int run_compare_hashing(Invocation& in) {
  compare::run_compare_hashing(in.settings.common, in.settings.discover, in.settings.hashing, *in.transport);
  return 0;
}

}  // namespace crd::cli
