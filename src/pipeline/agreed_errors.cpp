// agree_on_errors (agreed_errors.hpp).
#include "agreed_errors.hpp"

#include <string>

#include "crd/comm/collectives.hpp"
#include "crd/base/error.hpp"

namespace crd::pipeline {

void agree_on_errors(comm::Transport& transport, const std::function<void()>& local) {
  std::string error;
  bool fatal = false;
  try {
    local();
  } catch (const UsageError& e) {
    error = e.what();
  } catch (const FatalError& e) {
    error = e.what();
    fatal = true;
  }
  const std::string agreed = comm::first_error(transport, error);
  if (agreed.empty()) return;
  const std::string text = error.empty() ? agreed : error;
  if (comm::all_ok(transport, !fatal)) throw UsageError(text);
  throw FatalError(text);
}

}  // namespace crd::pipeline
