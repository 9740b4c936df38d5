// Local work whose failure every rank must learn of before the next collective: a file one rank
// cannot read (node-local paths, a bad block in a column only some ranks read) must not leave the
// others waiting.
#pragma once

#include <functional>

#include "crd/comm/transport.hpp"

namespace crd::pipeline {

// Collective. Runs `local` on every rank; if it threw UsageError or FatalError on any rank, every
// rank throws the same kind with one text (the rank's own, else the first rank's): FatalError if
// any rank's was fatal. Other exceptions pass through (one rank's own failure).
void agree_on_errors(comm::Transport& transport, const std::function<void()>& local);

}  // namespace crd::pipeline
