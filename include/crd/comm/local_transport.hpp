// In-process Transport: N ranks as N threads sharing memory. For unit tests of routing,
// aggregation and pipeline logic without mpirun (cf. Thrill's mock network, LevelDB's Env).
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>

#include "crd/comm/transport.hpp"

namespace crd::comm {

// Thrown by a collective of run_local when another rank's body failed (threw) or returned while
// this rank still expected it in a collective: the collective can never complete.
class PeerFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs body(transport) on nranks threads, each with its own rank, and joins them. If any body
// throws, the first exception (by rank) is rethrown here after all threads finish; a body that
// throws before a collective must not leave others blocked (the implementation aborts pending
// collectives of the other threads, which then throw PeerFailed). The rethrown exception is the
// lowest rank's own failure, not a PeerFailed caused by it.
void run_local(int nranks, const std::function<void(Transport&)>& body);

// A one-rank job on the calling thread, without MPI: how crd runs when no MPI launcher started it
// (job_transport.hpp). Its collectives return at once; progress totals are the rank's own posts;
// abort_all ends the process as the MPI transport does (abort_job: "crd: rank 0: message" on
// stderr, the result's temporary removed, exit status 1).
std::unique_ptr<Transport> make_single_rank_transport();

}  // namespace crd::comm
