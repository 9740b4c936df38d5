// Error types: UsageError (bad options or inputs the user gave; exit 2) and FatalError (cannot
// continue, e.g. unwritable output; exit 1). Per-record problems are never exceptions: they are
// counted in Counters and the record is skipped.
#pragma once

#include <stdexcept>
#include <string>

namespace crd {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class FatalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace crd
