// Transport: the collective operations crd's stages need, behind one small interface. The MPI
// implementation (mpi_transport.hpp) is the only code that talks to MPI; the in-process one
// (local_transport.hpp) runs N "ranks" as threads so routing logic is unit-tested without mpirun.
//
// Every method is collective: every rank of the transport must call it, in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
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

  // True on every rank iff `ok` is true on every rank: used to agree before throwing, so no rank
  // is left waiting in a collective.
  bool all_ok(bool ok) {
    std::uint64_t v = ok ? 0 : 1;
    allreduce(std::span<std::uint64_t>(&v, 1), ReduceOp::Max);
    return v == 0;
  }
  std::uint64_t sum(std::uint64_t v) {
    allreduce(std::span<std::uint64_t>(&v, 1), ReduceOp::Sum);
    return v;
  }
  std::uint64_t min(std::uint64_t v) {
    allreduce(std::span<std::uint64_t>(&v, 1), ReduceOp::Min);
    return v;
  }
  std::uint64_t max(std::uint64_t v) {
    allreduce(std::span<std::uint64_t>(&v, 1), ReduceOp::Max);
    return v;
  }

  // The first non-empty `my_error` by rank, as "rank R: …", identical on every rank; "" if every
  // rank passed "". How an error one rank met becomes one message all ranks throw alike.
  std::string first_error(std::string_view my_error) {
    std::vector<std::byte> all;
    std::vector<std::uint64_t> counts;
    allgatherv(std::as_bytes(std::span<const char>(my_error.data(), my_error.size())), all, counts);
    std::size_t at = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      if (counts[r] > 0)
        return "rank " + std::to_string(r) + ": " +
               std::string(reinterpret_cast<const char*>(all.data()) + at, counts[r]);
      at += counts[r];
    }
    return {};
  }

  // Rank 0's value on every rank; the other ranks' argument is ignored.
  std::string from_rank0(std::string_view value) {
    std::vector<std::byte> all;
    std::vector<std::uint64_t> counts;
    const auto bytes = std::as_bytes(std::span<const char>(value.data(), value.size()));
    allgatherv(rank() == 0 ? bytes : bytes.first(0), all, counts);
    return std::string(reinterpret_cast<const char*>(all.data()), all.size());
  }

  // Every rank's values, concatenated in rank order (ranks may give different numbers of them).
  template <class T>
  std::vector<T> allgather_pods(std::span<const T> mine) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<std::byte> all;
    std::vector<std::uint64_t> counts;
    allgatherv(std::as_bytes(mine), all, counts);
    std::vector<T> out(all.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), all.data(), out.size() * sizeof(T));
    return out;
  }

  // Every rank's bytes, concatenated in rank order, on rank 0; empty on the other ranks.
  std::vector<std::byte> gather_to_rank0(std::span<const std::byte> mine) {
    std::vector<std::uint64_t> to_each(static_cast<std::size_t>(size()), 0);
    to_each[0] = mine.size();
    std::vector<std::byte> all;
    std::vector<std::uint64_t> counts;
    alltoallv(mine, to_each, all, counts);
    return all;
  }

  // to_each[r] goes to rank r; returns, by source rank, the value each rank sent here.
  std::vector<std::uint64_t> alltoall(std::span<const std::uint64_t> to_each) {
    std::vector<std::byte> raw;
    std::vector<std::uint64_t> raw_counts;
    const std::vector<std::uint64_t> eight(static_cast<std::size_t>(size()), sizeof(std::uint64_t));
    alltoallv(std::as_bytes(to_each), eight, raw, raw_counts);
    std::vector<std::uint64_t> out(static_cast<std::size_t>(size()));
    std::memcpy(out.data(), raw.data(), out.size() * sizeof(std::uint64_t));
    return out;
  }
};

}  // namespace crd::comm
