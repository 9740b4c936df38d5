// Transport: the collective operations crd's stages need, behind one small interface. The MPI
// implementation (mpi_transport.hpp) is the only code that talks to MPI; the in-process one
// (local_transport.hpp) runs N "ranks" as threads so routing logic is unit-tested without mpirun.
//
// Every method is collective: every rank of the transport must call it, in the same order. The
// interface moves bytes (and reduces integers and doubles) only: the typed collectives built on it
// are free functions, one per header, in collectives/ (collectives.hpp includes them all).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace crd::comm {

enum class ReduceOp { Sum, Min, Max };

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Ranks of this transport running on this rank's node (shared memory); not collective.
  virtual int ranks_on_node() const { return 1; }

  // send holds the bytes for rank 0, then rank 1, …; send_counts[i] bytes go to rank i.
  // On return recv holds the bytes from rank 0, then rank 1, …; recv_counts[i] from rank i.
  // Counts are 64-bit; the implementation splits messages that exceed MPI's int limits.
  virtual void alltoallv(std::span<const std::byte> send, std::span<const std::uint64_t> send_counts,
                         std::vector<std::byte>& recv, std::vector<std::uint64_t>& recv_counts) = 0;

  // Concatenation of every rank's bytes in rank order; counts[i] = bytes from rank i.
  virtual void allgatherv(std::span<const std::byte> send, std::vector<std::byte>& recv,
                          std::vector<std::uint64_t>& counts) = 0;

  // Element-wise reduction in place.
  virtual void allreduce(std::span<std::uint64_t> inout, ReduceOp op) = 0;
  virtual void allreduce(std::span<double> inout, ReduceOp op) = 0;

  // Sum of `value` over ranks 0..rank-1 (0 on rank 0).
  virtual std::uint64_t exscan_sum(std::uint64_t value) = 0;

  virtual void barrier() = 0;

  // Progress side channel, for reporting only: progress_post and progress_totals never wait for
  // another rank (and are not collective); progress_close is collective and leaves no message in
  // flight. A transport without a channel keeps the defaults, and callers extrapolate instead.
  virtual void progress_post(std::uint64_t bytes, std::uint64_t documents) {
    (void)bytes;
    (void)documents;
  }
  // Rank 0: the latest totals posted by every rank (its own included). False if there is no channel.
  virtual bool progress_totals(std::uint64_t& bytes, std::uint64_t& documents) {
    (void)bytes;
    (void)documents;
    return false;
  }
  virtual void progress_close() {}

  // "One rank knows": this rank met a failure outside any agreed step, which the other ranks cannot
  // learn of. Ends the job so that no rank waits forever in a collective. MPI prints
  // "crd: rank R: message" and aborts every process (abort_job); the thread transport fails every
  // rank's pending and later collectives (PeerFailed) and rethrows the exception being handled on
  // this rank, or throws `message` outside a handler. Not collective.
  [[noreturn]] virtual void abort_all(const std::string& message) = 0;
};

}  // namespace crd::comm
