// MPI implementation of Transport, MPI start-up/shut-down, and the "one rank knows" abort.
// With output/ (parallel HDF5 needs the communicator) this is the only code that includes <mpi.h>.
#pragma once

#include <mpi.h>

#include <array>
#include <stdexcept>
#include <vector>
#include <string>

#include "crd/comm/transport.hpp"

namespace crd::comm {

// A failed MPI call, with MPI_Error_string's text. The communicator is set to MPI_ERRORS_RETURN
// so failures surface here instead of aborting inside MPI.
class MpiError : public std::runtime_error {
 public:
  MpiError(const std::string& call, int code);
  int code() const { return code_; }

 private:
  int code_;
};

// RAII MPI_Init_thread / MPI_Finalize.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  bool owns_ = false;  // finalize only what this session initialized
};

class MpiTransport final : public Transport {
 public:
  explicit MpiTransport(MPI_Comm comm = MPI_COMM_WORLD);
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int ranks_on_node() const override { return ranks_on_node_; }
  void alltoallv(std::span<const std::byte> send, std::span<const std::uint64_t> send_counts,
                 std::vector<std::byte>& recv, std::vector<std::uint64_t>& recv_counts) override;
  void allgatherv(std::span<const std::byte> send, std::vector<std::byte>& recv,
                  std::vector<std::uint64_t>& counts) override;
  void allreduce(std::span<std::uint64_t> inout, ReduceOp op) override;
  void allreduce(std::span<double> inout, ReduceOp op) override;
  std::uint64_t exscan_sum(std::uint64_t value) override;
  void barrier() override;
  void progress_post(std::uint64_t bytes, std::uint64_t documents) override;
  bool progress_totals(std::uint64_t& bytes, std::uint64_t& documents) override;
  void progress_close() override;
  [[noreturn]] void abort_all(const std::string& message) override;
  ~MpiTransport() override;
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;

  MPI_Comm native() const { return comm_; }

  // Largest buffer handed to one MPI call (default INT_MAX bytes); bigger exchanges go in several
  // rounds. Every rank must set the same value. Lowered by tests to exercise the split path.
  void set_max_message_bytes(std::uint64_t bytes);

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
  std::uint64_t max_message_bytes_ = 2147483647u;
  int ranks_on_node_ = 1;

  // Progress side channel: its own communicator, so its messages never match a collective's.
  void progress_drain();
  MPI_Comm progress_comm_ = MPI_COMM_NULL;
  MPI_Request progress_request_ = MPI_REQUEST_NULL;
  std::array<std::uint64_t, 3> progress_out_{};              // bytes, documents, final flag
  std::vector<std::array<std::uint64_t, 2>> progress_latest_;  // rank 0: per rank
  int progress_finals_ = 0;                                    // rank 0: final posts received
};

// Used when only this rank knows of a fatal condition: prints "crd: rank R: message" on stderr
// and aborts the whole job with MPI_Abort, so no other rank waits forever in a collective.
[[noreturn]] void abort_job(const std::string& message, int exit_code = 1);

}  // namespace crd::comm
