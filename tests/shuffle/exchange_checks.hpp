// Invariants of exchange(), checked on any Transport: nothing lost or duplicated, every record
// at its owner, per-source insertion order, round/source delivery order, bounded rounds.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "crd/comm/collectives.hpp"
#include "crd/comm/transport.hpp"
#include "crd/shuffle/exchange.hpp"
#include "shuffle_fixtures.hpp"

namespace crd::shuffle::testing {

// Forwards to a real transport and records what each alltoallv (one exchange round) sent.
class RecordingTransport final : public comm::Transport {
 public:
  explicit RecordingTransport(comm::Transport& inner) : inner_(inner) {}
  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  void alltoallv(std::span<const std::byte> send, std::span<const std::uint64_t> send_counts,
                 std::vector<std::byte>& recv, std::vector<std::uint64_t>& recv_counts) override {
    round_bytes_sent.push_back(send.size());
    inner_.alltoallv(send, send_counts, recv, recv_counts);
  }
  void allgatherv(std::span<const std::byte> send, std::vector<std::byte>& recv,
                  std::vector<std::uint64_t>& counts) override {
    inner_.allgatherv(send, recv, counts);
  }
  void allreduce(std::span<std::uint64_t> inout, comm::ReduceOp op) override { inner_.allreduce(inout, op); }
  void allreduce(std::span<double> inout, comm::ReduceOp op) override { inner_.allreduce(inout, op); }
  std::uint64_t exscan_sum(std::uint64_t value) override { return inner_.exscan_sum(value); }
  void barrier() override { inner_.barrier(); }
  [[noreturn]] void abort_all(const std::string& message) override { inner_.abort_all(message); }

  std::vector<std::uint64_t> round_bytes_sent;

 private:
  comm::Transport& inner_;
};

struct Routed {
  int source;
  Item item;
};

// `fixed`: the items without their text (key and serial, 28 bytes each) in unframed buckets;
// `whole_runs` (with fixed): written with append_records and received with exchange_fixed, a
// source's run of a round at a time; `in_place` (with both): written back to back per destination
// in plain arrays, not Buckets, and sent from them with exchange_in_place.
inline void check_exchange(comm::Transport& real, std::uint64_t total, std::size_t round_bytes, bool skew,
                           bool fixed = false, bool whole_runs = false, bool in_place = false) {
  RecordingTransport t(real);
  const int me = t.rank(), n = t.size();
  const auto mine = local_items(7, total, 0, me, n, skew);
  constexpr std::size_t kFixed = sizeof(Digest) + sizeof(std::uint64_t);
  Buckets buckets(n, fixed ? kFixed : 0);
  std::vector<std::vector<std::byte>> arrays(static_cast<std::size_t>(n));  // in_place: records by destination
  ByteWriter w;
  std::uint64_t largest = 0;
  for (const auto& it : mine) {
    w.clear();
    if (fixed) {
      w.pod(it.key).pod(it.serial);
    } else {
      encode_item(it, w);
    }
    largest = std::max<std::uint64_t>(largest, w.bytes().size());
    if (in_place) {
      auto& to = arrays[static_cast<std::size_t>(owner_of(it.key, n))];
      to.insert(to.end(), w.bytes().begin(), w.bytes().end());
    } else if (whole_runs) {
      std::memcpy(buckets.append_records(owner_of(it.key, n), 1), w.bytes().data(), kFixed);
    } else {
      buckets.add(owner_of(it.key, n), w.bytes());
    }
  }
  EXPECT_EQ(buckets.records(), in_place ? 0 : mine.size());

  std::vector<Routed> got;
  const auto on_record = [&](int source, std::span<const std::byte> rec) {
    ByteReader r(rec);
    if (fixed) {
      Item it;
      it.key = r.pod<Digest>();
      it.serial = r.pod<std::uint64_t>();
      got.push_back({source, it});
    } else {
      got.push_back({source, decode_item(r)});
    }
    EXPECT_TRUE(r.done());
  };
  std::uint64_t runs = 0;
  const auto on_run = [&](int source, std::span<const std::byte> run) {
    ++runs;
    EXPECT_FALSE(run.empty());
    EXPECT_EQ(run.size() % kFixed, 0u);
    for (std::size_t at = 0; at < run.size(); at += kFixed) on_record(source, run.subspan(at, kFixed));
  };
  const std::vector<std::span<const std::byte>> spans(arrays.begin(), arrays.end());
  const auto stats = in_place     ? exchange_in_place(t, spans, kFixed, round_bytes, on_run)
                     : whole_runs ? exchange_fixed(t, buckets, round_bytes, on_run)
                                  : exchange(t, buckets, round_bytes, on_record);
  if (whole_runs) EXPECT_LE(runs, stats.rounds * static_cast<std::uint64_t>(n));  // one per source and round
  EXPECT_EQ(buckets.records(), 0u);
  EXPECT_EQ(buckets.bytes(), 0u);

  // Every record is at its owner and came from the rank that held it.
  for (const auto& g : got) {
    EXPECT_EQ(owner_of(g.item.key, n), me);
    EXPECT_EQ(g.source, skew ? 0 : static_cast<int>((g.item.serial * 7 + g.item.serial / 3) % static_cast<unsigned>(n)));
  }
  // Order: within one round sources ascend; within a source, insertion (= serial) order.
  std::uint64_t source_drops = 0;
  std::vector<std::int64_t> last_serial(static_cast<std::size_t>(n), -1);
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (i > 0 && got[i].source < got[i - 1].source) ++source_drops;
    auto& last = last_serial[static_cast<std::size_t>(got[i].source)];
    EXPECT_LT(last, static_cast<std::int64_t>(got[i].item.serial));
    last = static_cast<std::int64_t>(got[i].item.serial);
  }
  EXPECT_LE(source_drops + (got.empty() ? 0 : 1), std::max<std::uint64_t>(stats.rounds, got.empty() ? 0 : 1));

  // Nothing lost or duplicated: the union over ranks is exactly 0..total-1.
  const std::uint64_t received = comm::sum(t, got.size());
  EXPECT_EQ(received, total);
  std::vector<std::uint64_t> seen(total, 0);
  for (const auto& g : got) {
    ASSERT_LT(g.item.serial, total);
    Item expected = make_item(7, g.item.serial, 0);
    if (fixed) expected.text.clear();
    EXPECT_EQ(g.item, expected);
    seen[g.item.serial] = 1;
  }
  t.allreduce(seen, comm::ReduceOp::Sum);
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](std::uint64_t c) { return c == 1; }));

  // Byte accounting and round bound: everyone agrees on the round count.
  EXPECT_EQ(comm::sum(t, stats.bytes_sent), comm::sum(t, stats.bytes_received));
  EXPECT_EQ(comm::max(t, stats.rounds), stats.rounds);
  if (total == 0) {
    EXPECT_EQ(stats.rounds, 0u);
  }
  // Every rank took part in every round, and no round went over budget by more than the one
  // record per destination that is always allowed (+1: the varint frame at these sizes).
  const std::uint64_t frame = comm::max(t, largest) + (fixed ? 0 : 1);
  EXPECT_EQ(t.round_bytes_sent.size(), stats.rounds);
  for (const auto sent : t.round_bytes_sent) EXPECT_LE(sent, round_bytes + static_cast<std::uint64_t>(n) * frame);
  // No wasted rounds: a round ends early only when the next record does not fit, so every
  // round but the last carries more than round_bytes - frame.
  const std::uint64_t wire = std::accumulate(t.round_bytes_sent.begin(), t.round_bytes_sent.end(), std::uint64_t{0});
  if (fixed) {  // no frames on the wire: exactly the records' bytes
    EXPECT_EQ(wire, mine.size() * kFixed);
  }
  if (round_bytes > frame) {
    EXPECT_LE(stats.rounds, comm::max(t, wire == 0 ? 0 : wire / (round_bytes - frame) + 1));
  }
}

}  // namespace crd::shuffle::testing
