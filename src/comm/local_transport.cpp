// run_local: N ranks as N threads; collectives meet at a shared rendezvous guarded by a mutex.
#include "crd/comm/local_transport.hpp"

#include "crd/comm/mpi_transport.hpp"  // abort_job

#include <algorithm>
#include <array>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>

namespace crd::comm {
namespace {

enum class Kind { Alltoallv, Allgatherv, ReduceU64, ReduceF64, Exscan, Barrier };

// What one rank brings to a collective. Spans point into that rank's own memory, which stays
// valid because the rank waits until every rank has finished reading.
struct Contribution {
  Kind kind = Kind::Barrier;
  std::span<const std::byte> bytes;
  std::span<const std::uint64_t> counts;
  const void* values = nullptr;
  std::size_t nvalues = 0;
  ReduceOp op = ReduceOp::Sum;
  std::uint64_t scalar = 0;
};

// Two-phase meeting point: ranks deposit contributions; once all have, each reads all of them;
// nobody leaves until everybody has read.
class Rendezvous {
 public:
  explicit Rendezvous(int n) : n_(n), slots_(static_cast<std::size_t>(n), nullptr) {}

  template <class Use>
  void meet(int rank, const Contribution& mine, Use&& use) {
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return !reading_ || broken(); });
      if (broken()) throw_broken();
      slots_[static_cast<std::size_t>(rank)] = &mine;
      if (++arrived_ == n_) {
        reading_ = true;
        cv_.notify_all();
      } else {
        cv_.wait(lock, [&] { return reading_ || broken(); });
        if (!reading_) throw_broken();
      }
    }
    std::exception_ptr error;
    try {
      check_same_kind(mine.kind);
      use(slots_);
    } catch (...) {
      error = std::current_exception();
    }
    {
      // Every rank is inside this collective now, so the departure phase always completes.
      std::unique_lock lock(mutex_);
      if (++departed_ == n_) {
        arrived_ = departed_ = 0;
        reading_ = false;
        ++generation_;
        cv_.notify_all();
      } else {
        const auto gen = generation_;
        cv_.wait(lock, [&] { return generation_ != gen; });
      }
    }
    if (error) std::rethrow_exception(error);
  }

  void rank_failed() {
    std::lock_guard lock(mutex_);
    failed_ = true;
    cv_.notify_all();
  }
  void rank_finished() {
    std::lock_guard lock(mutex_);
    ++finished_;
    cv_.notify_all();
  }

 private:
  bool broken() const { return failed_ || finished_ > 0; }
  [[noreturn]] void throw_broken() const {
    if (failed_) throw PeerFailed("run_local: another rank failed; collective abandoned");
    throw PeerFailed("run_local: another rank returned while this rank waits in a collective");
  }
  void check_same_kind(Kind k) const {
    for (const auto* c : slots_)
      if (c->kind != k) throw std::logic_error("run_local: ranks called different collectives");
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  const int n_;
  std::vector<const Contribution*> slots_;
  int arrived_ = 0;
  int departed_ = 0;
  bool reading_ = false;
  std::uint64_t generation_ = 0;
  bool failed_ = false;
  int finished_ = 0;
};

using Slots = std::vector<const Contribution*>;

template <class T>
void reduce_into(const Slots& slots, std::size_t n, ReduceOp op, std::vector<T>& out) {
  for (const auto* c : slots)
    if (c->nvalues != n || c->op != op) throw std::logic_error("run_local: allreduce arguments differ by rank");
  out.assign(static_cast<const T*>(slots[0]->values), static_cast<const T*>(slots[0]->values) + n);
  for (std::size_t s = 1; s < slots.size(); ++s) {
    const T* v = static_cast<const T*>(slots[s]->values);
    for (std::size_t i = 0; i < n; ++i) {
      switch (op) {
        case ReduceOp::Sum: out[i] += v[i]; break;
        case ReduceOp::Min: out[i] = std::min(out[i], v[i]); break;
        case ReduceOp::Max: out[i] = std::max(out[i], v[i]); break;
      }
    }
  }
}

class LocalTransport final : public Transport {
 public:
  LocalTransport(Rendezvous& rv, int rank, int size) : rv_(rv), rank_(rank), size_(size) {}
  // The whole job, one rank in this process (make_single_rank_transport).
  LocalTransport() : own_rv_(std::make_unique<Rendezvous>(1)), rv_(*own_rv_), rank_(0), size_(1), whole_job_(true) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void alltoallv(std::span<const std::byte> send, std::span<const std::uint64_t> send_counts,
                 std::vector<std::byte>& recv, std::vector<std::uint64_t>& recv_counts) override {
    if (send_counts.size() != static_cast<std::size_t>(size_) ||
        std::accumulate(send_counts.begin(), send_counts.end(), std::uint64_t{0}) != send.size())
      throw std::invalid_argument("LocalTransport::alltoallv: send_counts do not match send buffer");
    Contribution c;
    c.kind = Kind::Alltoallv;
    c.bytes = send;
    c.counts = send_counts;
    std::vector<std::byte> data;
    std::vector<std::uint64_t> counts;
    const auto me = static_cast<std::size_t>(rank_);
    rv_.meet(rank_, c, [&](const Slots& slots) {
      for (const auto* s : slots) {
        const auto offset = std::accumulate(s->counts.begin(), s->counts.begin() + static_cast<long>(me),
                                            std::uint64_t{0});
        const auto n = s->counts[me];
        counts.push_back(n);
        data.insert(data.end(), s->bytes.begin() + static_cast<long>(offset),
                    s->bytes.begin() + static_cast<long>(offset + n));
      }
    });
    recv = std::move(data);
    recv_counts = std::move(counts);
  }

  void allgatherv(std::span<const std::byte> send, std::vector<std::byte>& recv,
                  std::vector<std::uint64_t>& counts) override {
    Contribution c;
    c.kind = Kind::Allgatherv;
    c.bytes = send;
    std::vector<std::byte> data;
    std::vector<std::uint64_t> sizes;
    rv_.meet(rank_, c, [&](const Slots& slots) {
      for (const auto* s : slots) {
        sizes.push_back(s->bytes.size());
        data.insert(data.end(), s->bytes.begin(), s->bytes.end());
      }
    });
    recv = std::move(data);
    counts = std::move(sizes);
  }

  void allreduce(std::span<std::uint64_t> inout, ReduceOp op) override { reduce(Kind::ReduceU64, inout, op); }
  void allreduce(std::span<double> inout, ReduceOp op) override { reduce(Kind::ReduceF64, inout, op); }

  std::uint64_t exscan_sum(std::uint64_t value) override {
    Contribution c;
    c.kind = Kind::Exscan;
    c.scalar = value;
    std::uint64_t out = 0;
    rv_.meet(rank_, c, [&](const Slots& slots) {
      for (int r = 0; r < rank_; ++r) out += slots[static_cast<std::size_t>(r)]->scalar;
    });
    return out;
  }

  void barrier() override {
    Contribution c;  // a barrier brings nothing but its presence
    rv_.meet(rank_, c, [](const Slots&) {});
  }

  // One rank knows its totals exactly: report them as they are, not as an estimate.
  void progress_post(std::uint64_t bytes, std::uint64_t documents) override { posted_ = {bytes, documents}; }
  bool progress_totals(std::uint64_t& bytes, std::uint64_t& documents) override {
    if (!whole_job_) return false;
    bytes = posted_[0];
    documents = posted_[1];
    return true;
  }
  void progress_close() override { posted_ = {0, 0}; }

  // The job is one process: failing the rendezvous releases every other rank, and the exception
  // reaches run_local, which reports the lowest rank's own failure. A whole job ends as under MPI.
  [[noreturn]] void abort_all(const std::string& message) override {
    if (whole_job_) abort_job(message);
    rv_.rank_failed();
    if (std::current_exception()) std::rethrow_exception(std::current_exception());
    throw std::runtime_error("rank " + std::to_string(rank_) + ": " + message);
  }

 private:
  template <class T>
  void reduce(Kind kind, std::span<T> inout, ReduceOp op) {
    Contribution c;
    c.kind = kind;
    c.values = inout.data();
    c.nvalues = inout.size();
    c.op = op;
    std::vector<T> out;
    rv_.meet(rank_, c, [&](const Slots& slots) { reduce_into(slots, inout.size(), op, out); });
    std::copy(out.begin(), out.end(), inout.begin());  // only now: others read inout until meet returns
  }

  std::unique_ptr<Rendezvous> own_rv_;  // before rv_, which may refer to it
  Rendezvous& rv_;
  int rank_;
  int size_;
  bool whole_job_ = false;
  std::array<std::uint64_t, 2> posted_{};
};

}  // namespace

void run_local(int nranks, const std::function<void(Transport&)>& body) {
  if (nranks < 1) throw std::invalid_argument("run_local: nranks must be >= 1");
  Rendezvous rv(nranks);
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(nranks));
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(nranks));
  for (int r = 0; r < nranks; ++r) {
    threads.emplace_back([&, r] {
      LocalTransport transport(rv, r, nranks);
      try {
        body(transport);
        rv.rank_finished();
      } catch (...) {
        errors[static_cast<std::size_t>(r)] = std::current_exception();
        rv.rank_failed();
      }
    });
  }
  for (auto& t : threads) t.join();

  // Prefer a rank's own failure over the PeerFailed it caused elsewhere.
  std::exception_ptr first_peer_failed;
  for (const auto& e : errors) {
    if (!e) continue;
    try {
      std::rethrow_exception(e);
    } catch (const PeerFailed&) {
      if (!first_peer_failed) first_peer_failed = e;
    } catch (...) {
      throw;
    }
  }
  if (first_peer_failed) std::rethrow_exception(first_peer_failed);
}

std::unique_ptr<Transport> make_single_rank_transport() { return std::make_unique<LocalTransport>(); }

}  // namespace crd::comm
