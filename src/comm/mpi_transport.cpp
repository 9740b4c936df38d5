// MpiTransport: Transport over an MPI communicator, with 64-bit counts split into int-sized rounds.
#include "crd/comm/mpi_transport.hpp"

#include "crd/comm/abort_cleanup.hpp"
#include "mpi_startup.hpp"
#include "crd/base/prefault.hpp"
#include "crd/base/printable.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <stdexcept>

namespace crd::comm {
namespace {

std::string describe(const std::string& call, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) return call + ": MPI error " + std::to_string(code);
  return call + ": " + std::string(text, static_cast<std::size_t>(len));
}

void check(int code, const char* call) {
  if (code != MPI_SUCCESS) throw MpiError(call, code);
}

int to_int(std::uint64_t v) { return static_cast<int>(v); }  // callers keep v <= INT_MAX

// Bytes of a `count`-byte message that move in round `round` when messages go `piece` at a time.
std::uint64_t slice(std::uint64_t count, std::uint64_t round, std::uint64_t piece) {
  const std::uint64_t begin = round * piece;
  return begin >= count ? 0 : std::min(piece, count - begin);
}

std::uint64_t total_of(std::span<const std::uint64_t> counts) {
  return std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
}

// MPI reductions take an int element count: reduce long arrays in slices.
template <class T>
void allreduce_sliced(MPI_Comm comm, std::span<T> inout, MPI_Datatype type, ReduceOp op) {
  MPI_Op mop = op == ReduceOp::Sum ? MPI_SUM : op == ReduceOp::Min ? MPI_MIN : MPI_MAX;
  constexpr std::size_t kSlice = 1u << 28;
  for (std::size_t at = 0; at < inout.size(); at += kSlice) {
    std::size_t n = std::min(kSlice, inout.size() - at);
    check(MPI_Allreduce(MPI_IN_PLACE, inout.data() + at, to_int(n), type, mop, comm), "MPI_Allreduce");
  }
}

}  // namespace

MpiError::MpiError(const std::string& call, int code) : std::runtime_error(describe(call, code)), code_(code) {}

MpiSession::MpiSession(int& argc, char**& argv) {
  int initialized = 0;
  check(MPI_Initialized(&initialized), "MPI_Initialized");
  if (initialized) return;
  prefer_single_node_start();
  avoid_shared_file_pointer_files();
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  disable_nagle_on_loopback_connections();
  owns_ = true;
}

MpiSession::~MpiSession() {
  if (!owns_) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

MpiTransport::MpiTransport(MPI_Comm comm) : comm_(comm) {
  check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
  check(MPI_Comm_dup(comm_, &progress_comm_), "MPI_Comm_dup");
  check(MPI_Comm_set_errhandler(progress_comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  progress_latest_.assign(static_cast<std::size_t>(size_), {0, 0});
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  check(MPI_Comm_size(node, &ranks_on_node_), "MPI_Comm_size");
  check(MPI_Comm_free(&node), "MPI_Comm_free");
}

MpiTransport::~MpiTransport() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized != 0) return;
  if (progress_request_ != MPI_REQUEST_NULL) MPI_Request_free(&progress_request_);
  if (progress_comm_ != MPI_COMM_NULL) MPI_Comm_free(&progress_comm_);
}

namespace {
constexpr int kProgressTag = 7;
}

void MpiTransport::progress_post(std::uint64_t bytes, std::uint64_t documents) {
  if (rank_ == 0) {
    progress_latest_[0] = {bytes, documents};
    return;
  }
  if (progress_request_ != MPI_REQUEST_NULL) {
    int done = 0;
    check(MPI_Test(&progress_request_, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done == 0) return;  // the previous post is still on its way: skip this one, never queue
  }
  progress_out_ = {bytes, documents, 0};
  check(MPI_Isend(progress_out_.data(), 3, MPI_UINT64_T, 0, kProgressTag, progress_comm_, &progress_request_),
        "MPI_Isend");
}

void MpiTransport::progress_drain() {
  for (;;) {
    int flag = 0;
    MPI_Status status;
    check(MPI_Iprobe(MPI_ANY_SOURCE, kProgressTag, progress_comm_, &flag, &status), "MPI_Iprobe");
    if (flag == 0) return;
    std::array<std::uint64_t, 3> in{};
    check(MPI_Recv(in.data(), 3, MPI_UINT64_T, status.MPI_SOURCE, kProgressTag, progress_comm_, MPI_STATUS_IGNORE),
          "MPI_Recv");
    progress_latest_[static_cast<std::size_t>(status.MPI_SOURCE)] = {in[0], in[1]};
    if (in[2] != 0) ++progress_finals_;
  }
}

bool MpiTransport::progress_totals(std::uint64_t& bytes, std::uint64_t& documents) {
  if (rank_ != 0) return false;
  progress_drain();
  bytes = 0;
  documents = 0;
  for (const auto& [b, d] : progress_latest_) {
    bytes += b;
    documents += d;
  }
  return true;
}

void MpiTransport::progress_close() {
  if (rank_ == 0) {
    // Every other rank ends with one final post; receive until all have arrived.
    while (progress_finals_ < size_ - 1) {
      std::array<std::uint64_t, 3> in{};
      MPI_Status status;
      check(MPI_Recv(in.data(), 3, MPI_UINT64_T, MPI_ANY_SOURCE, kProgressTag, progress_comm_, &status), "MPI_Recv");
      progress_latest_[static_cast<std::size_t>(status.MPI_SOURCE)] = {in[0], in[1]};
      if (in[2] != 0) ++progress_finals_;
    }
    progress_finals_ = 0;
    progress_latest_.assign(static_cast<std::size_t>(size_), {0, 0});
    return;
  }
  if (progress_request_ != MPI_REQUEST_NULL) check(MPI_Wait(&progress_request_, MPI_STATUS_IGNORE), "MPI_Wait");
  progress_out_[2] = 1;
  check(MPI_Send(progress_out_.data(), 3, MPI_UINT64_T, 0, kProgressTag, progress_comm_), "MPI_Send");
}

void MpiTransport::set_max_message_bytes(std::uint64_t bytes) {
  max_message_bytes_ = std::clamp<std::uint64_t>(bytes, 1, INT_MAX);
}

void MpiTransport::alltoallv(std::span<const std::byte> send, std::span<const std::uint64_t> send_counts,
                             std::vector<std::byte>& recv, std::vector<std::uint64_t>& recv_counts) {
  const auto n = static_cast<std::size_t>(size_);
  if (send_counts.size() != n || total_of(send_counts) != send.size())
    throw std::invalid_argument("MpiTransport::alltoallv: send_counts do not match send buffer");

  recv_counts.assign(n, 0);
  check(MPI_Alltoall(send_counts.data(), 1, MPI_UINT64_T, recv_counts.data(), 1, MPI_UINT64_T, comm_),
        "MPI_Alltoall");
  const std::uint64_t recv_total = total_of(recv_counts);
  reserve_writable(recv, recv_total);  // mapped in one call, not faulted a page at a time by the resize
  recv.resize(recv_total);

  std::vector<std::uint64_t> send_displs(n, 0), recv_displs(n, 0);
  std::exclusive_scan(send_counts.begin(), send_counts.end(), send_displs.begin(), std::uint64_t{0});
  std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_displs.begin(), std::uint64_t{0});

  // Every rank must take the same path: decide on the largest buffer anywhere.
  std::uint64_t largest = std::max<std::uint64_t>(send.size(), recv_total);
  check(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UINT64_T, MPI_MAX, comm_), "MPI_Allreduce");

  std::vector<int> sc(n), sd(n), rc(n), rd(n);
  if (largest <= max_message_bytes_) {
    for (std::size_t i = 0; i < n; ++i) {
      sc[i] = to_int(send_counts[i]);
      sd[i] = to_int(send_displs[i]);
      rc[i] = to_int(recv_counts[i]);
      rd[i] = to_int(recv_displs[i]);
    }
    check(MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_BYTE, recv.data(), rc.data(), rd.data(), MPI_BYTE,
                        comm_),
          "MPI_Alltoallv");
    return;
  }

  // Large exchange: in round r every pair moves bytes [r*piece, (r+1)*piece) of its message, so
  // each round's buffers hold at most size*piece <= max_message_bytes_ and fit in int displacements.
  const std::uint64_t piece = std::max<std::uint64_t>(1, max_message_bytes_ / n);
  std::uint64_t longest = 0;
  for (std::size_t i = 0; i < n; ++i) longest = std::max({longest, send_counts[i], recv_counts[i]});
  std::uint64_t rounds = (longest + piece - 1) / piece;
  check(MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_UINT64_T, MPI_MAX, comm_), "MPI_Allreduce");

  std::vector<std::byte> send_stage, recv_stage;
  for (std::uint64_t r = 0; r < rounds; ++r) {
    std::uint64_t s_at = 0, r_at = 0;
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t s = slice(send_counts[i], r, piece), q = slice(recv_counts[i], r, piece);
      sc[i] = to_int(s);
      sd[i] = to_int(s_at);
      rc[i] = to_int(q);
      rd[i] = to_int(r_at);
      s_at += s;
      r_at += q;
    }
    send_stage.resize(s_at);
    recv_stage.resize(r_at);
    for (std::size_t i = 0; i < n; ++i) {
      if (sc[i] > 0)
        std::memcpy(send_stage.data() + sd[i], send.data() + send_displs[i] + r * piece,
                    static_cast<std::size_t>(sc[i]));
    }
    check(MPI_Alltoallv(send_stage.data(), sc.data(), sd.data(), MPI_BYTE, recv_stage.data(), rc.data(), rd.data(),
                        MPI_BYTE, comm_),
          "MPI_Alltoallv");
    for (std::size_t i = 0; i < n; ++i) {
      if (rc[i] > 0)
        std::memcpy(recv.data() + recv_displs[i] + r * piece, recv_stage.data() + rd[i],
                    static_cast<std::size_t>(rc[i]));
    }
  }
}

void MpiTransport::allgatherv(std::span<const std::byte> send, std::vector<std::byte>& recv,
                              std::vector<std::uint64_t>& counts) {
  const auto n = static_cast<std::size_t>(size_);
  counts.assign(n, 0);
  std::uint64_t mine = send.size();
  check(MPI_Allgather(&mine, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, comm_), "MPI_Allgather");
  const std::uint64_t total = total_of(counts);
  recv.resize(total);
  std::vector<std::uint64_t> displs(n, 0);
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), std::uint64_t{0});

  std::vector<int> rc(n), rd(n);
  if (total <= max_message_bytes_) {  // total is the same on every rank: all take one path
    for (std::size_t i = 0; i < n; ++i) {
      rc[i] = to_int(counts[i]);
      rd[i] = to_int(displs[i]);
    }
    check(MPI_Allgatherv(send.data(), to_int(mine), MPI_BYTE, recv.data(), rc.data(), rd.data(), MPI_BYTE, comm_),
          "MPI_Allgatherv");
    return;
  }

  const std::uint64_t piece = std::max<std::uint64_t>(1, max_message_bytes_ / n);
  const std::uint64_t longest = *std::max_element(counts.begin(), counts.end());
  const std::uint64_t rounds = (longest + piece - 1) / piece;
  std::vector<std::byte> stage;
  for (std::uint64_t r = 0; r < rounds; ++r) {
    std::uint64_t at = 0;
    for (std::size_t i = 0; i < n; ++i) {
      rc[i] = to_int(slice(counts[i], r, piece));
      rd[i] = to_int(at);
      at += static_cast<std::uint64_t>(rc[i]);
    }
    stage.resize(at);
    const std::uint64_t my_slice = slice(mine, r, piece);
    const std::byte* from = my_slice > 0 ? send.data() + r * piece : send.data();
    check(MPI_Allgatherv(from, to_int(my_slice), MPI_BYTE, stage.data(), rc.data(), rd.data(), MPI_BYTE, comm_),
          "MPI_Allgatherv");
    for (std::size_t i = 0; i < n; ++i) {
      if (rc[i] > 0)
        std::memcpy(recv.data() + displs[i] + r * piece, stage.data() + rd[i], static_cast<std::size_t>(rc[i]));
    }
  }
}

void MpiTransport::allreduce(std::span<std::uint64_t> inout, ReduceOp op) {
  allreduce_sliced(comm_, inout, MPI_UINT64_T, op);
}

void MpiTransport::allreduce(std::span<double> inout, ReduceOp op) { allreduce_sliced(comm_, inout, MPI_DOUBLE, op); }

std::uint64_t MpiTransport::exscan_sum(std::uint64_t value) {
  std::uint64_t out = 0;
  check(MPI_Exscan(&value, &out, 1, MPI_UINT64_T, MPI_SUM, comm_), "MPI_Exscan");
  return rank_ == 0 ? 0 : out;  // MPI leaves rank 0's result undefined
}

void MpiTransport::barrier() { check(MPI_Barrier(comm_), "MPI_Barrier"); }

void MpiTransport::abort_all(const std::string& message) { abort_job(message); }

void abort_job(const std::string& message, int exit_code) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  int rank = 0;
  if (initialized && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "crd: rank %d: %s\n", rank, printable(message).c_str());  // may name a file or URL
  std::fflush(stderr);
  run_abort_cleanup();
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);  // MPI not running (or MPI_Abort returned): still stop this process
}

}  // namespace crd::comm
