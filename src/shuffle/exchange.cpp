// exchange(): MR-MPI-style bounded rounds over Transport::alltoallv, with varint-framed records
// (or unframed records of one fixed size).
#include "crd/shuffle/exchange.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "crd/base/prefault.hpp"
#include "crd/comm/collectives.hpp"

namespace crd::shuffle {

// Framing: each record is a LEB128 varint length followed by its bytes. Records here are mostly
// a few dozen bytes (digest + count), so one length byte instead of a fixed 4 or 8 matters.
struct BucketsAccess {
  static std::vector<std::vector<std::byte>>& data(Buckets& b) { return b.data_; }
  static void reset(Buckets& b) {
    for (auto& d : b.data_) std::vector<std::byte>().swap(d);  // release memory, not just size
    b.records_ = 0;
    b.payload_bytes_ = 0;
  }
};

namespace {

std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}

void put_varint(std::vector<std::byte>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::byte>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::byte>(v));
}

// Decodes a varint at `at`, advancing it; false if the bytes end or the value overflows.
bool get_varint(std::span<const std::byte> in, std::size_t& at, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && at < in.size(); shift += 7) {
    const auto b = std::to_integer<std::uint64_t>(in[at++]);
    v |= (b & 0x7f) << shift;
    if ((b & 0x80) == 0) return true;
  }
  return false;
}

// Byte length of the framed record starting at `at` (frame + payload); with fixed records, the
// record size.
std::size_t framed_size(std::span<const std::byte> in, std::size_t at, std::size_t fixed,
                        std::uint64_t* payload = nullptr) {
  if (fixed != 0) {
    if (in.size() - at < fixed) throw std::runtime_error("exchange: corrupt record framing");
    if (payload != nullptr) *payload = fixed;
    return fixed;
  }
  std::size_t p = at;
  std::uint64_t n = 0;
  if (!get_varint(in, p, n) || n > in.size() - p) throw std::runtime_error("exchange: corrupt record framing");
  if (payload != nullptr) *payload = n;
  return p - at + static_cast<std::size_t>(n);
}

// Picks this round's slice for every destination: a fair share of the budget each, at least one
// record per non-empty destination, then leftover budget to whoever still has records.
std::vector<std::uint64_t> plan_round(const std::vector<std::span<const std::byte>>& data, std::size_t fixed,
                                      std::vector<std::size_t>& cursor, std::size_t round_bytes,
                                      std::uint64_t& payload_out) {
  const std::size_t n = data.size();
  std::vector<std::uint64_t> take(n, 0);
  const std::size_t share = std::max<std::size_t>(1, round_bytes / n);
  std::size_t used = 0;
  const auto room = [](std::size_t limit, std::size_t taken) { return limit - std::min(limit, taken); };
  auto grab = [&](std::size_t d, std::size_t limit, bool force_one) {
    const std::span<const std::byte> buf = data[d];
    if (fixed != 0) {  // the same rule as below, in whole records at once
      std::size_t k = std::min({(buf.size() - cursor[d]) / fixed, room(limit, take[d]) / fixed,
                                room(round_bytes, used) / fixed});
      if (k == 0 && take[d] == 0 && force_one && cursor[d] < buf.size()) k = 1;
      take[d] += k * fixed;
      cursor[d] += k * fixed;
      used += k * fixed;
      payload_out += k * fixed;
      return;
    }
    while (cursor[d] < buf.size()) {
      std::uint64_t payload = 0;
      const std::size_t sz = framed_size(buf, cursor[d], 0, &payload);
      const bool first = take[d] == 0 && force_one;
      if (!first && take[d] + sz > limit) break;
      if (!first && used + sz > round_bytes) break;
      take[d] += sz;
      cursor[d] += sz;
      used += sz;
      payload_out += payload;
    }
  };
  for (std::size_t d = 0; d < n; ++d) grab(d, share, true);
  for (std::size_t d = 0; d < n && used < round_bytes; ++d) grab(d, round_bytes, false);
  return take;
}

}  // namespace

Buckets::Buckets(int nranks, std::size_t fixed_bytes)
    : data_(static_cast<std::size_t>(std::max(nranks, 0))), fixed_bytes_(fixed_bytes) {
  if (nranks < 1) throw std::invalid_argument("Buckets: nranks must be >= 1");
}

int Buckets::nranks() const { return static_cast<int>(data_.size()); }

std::vector<std::byte>& Buckets::bucket(int dest) {
  if (dest < 0 || dest >= nranks())
    throw std::out_of_range("Buckets: destination " + std::to_string(dest) + " out of range");
  return data_[static_cast<std::size_t>(dest)];
}

std::byte* Buckets::extend(int dest, std::size_t bytes) {
  auto& buf = bucket(dest);
  if (fixed_bytes_ != 0 && bytes != fixed_bytes_)
    throw std::invalid_argument("Buckets: a record of " + std::to_string(bytes) + " bytes among records of " +
                                std::to_string(fixed_bytes_));
  if (fixed_bytes_ == 0) put_varint(buf, bytes);
  const std::size_t at = buf.size();
  buf.resize(at + bytes);
  ++records_;
  payload_bytes_ += bytes;
  return buf.data() + at;
}

void Buckets::add(int dest, std::span<const std::byte> record) {
  std::byte* at = extend(dest, record.size());
  if (!record.empty()) std::memcpy(at, record.data(), record.size());
}

std::byte* Buckets::append(int dest, std::size_t bytes) { return extend(dest, bytes); }

std::byte* Buckets::append_records(int dest, std::size_t count) {
  auto& buf = bucket(dest);
  if (fixed_bytes_ == 0) throw std::invalid_argument("Buckets: append_records needs fixed-size records");
  const std::size_t at = buf.size();
  reserve_writable(buf, at + count * fixed_bytes_);  // the resize's zeroing then faults no page
  buf.resize(at + count * fixed_bytes_);
  records_ += count;
  payload_bytes_ += count * fixed_bytes_;
  return buf.data() + at;
}

std::size_t Buckets::framed_bytes(std::size_t bytes) const {
  return fixed_bytes_ != 0 ? bytes : varint_size(bytes) + bytes;
}

void Buckets::reserve(int dest, std::size_t framed) {
  auto& buf = bucket(dest);
  reserve_writable(buf, buf.size() + framed);
}

std::uint64_t Buckets::bytes() const { return payload_bytes_; }

std::uint64_t Buckets::records() const { return records_; }

namespace {

// The rounds of every exchange: data[d] holds the framed (or fixed-size) records for rank d, and
// on_slice(source, bytes) gets each source's whole records of a round. Fills every statistic but
// bytes_received.
ExchangeStats exchange_rounds(comm::Transport& transport, const std::vector<std::span<const std::byte>>& data,
                              std::size_t fixed, std::size_t round_bytes,
                              const std::function<void(int source, std::span<const std::byte> slice)>& on_slice) {
  const std::size_t n = data.size();
  if (n != static_cast<std::size_t>(transport.size()))
    throw std::invalid_argument("exchange: records for " + std::to_string(n) + " ranks, transport has " +
                                std::to_string(transport.size()));
  std::vector<std::size_t> cursor(n, 0);
  auto all_sent = [&] {
    for (std::size_t d = 0; d < n; ++d)
      if (cursor[d] < data[d].size()) return false;
    return true;
  };

  ExchangeStats stats;
  std::vector<std::byte> send, recv;
  std::vector<std::uint64_t> recv_counts;
  // Every rank joins every round, even with nothing left, until all agree that all is sent.
  while (!comm::all_ok(transport, all_sent())) {
    const auto take = plan_round(data, fixed, cursor, round_bytes, stats.bytes_sent);
    // This round's slice of each bucket ends at the advanced cursor. When one destination has
    // them all (each round of a 2-rank reduce_by_key: no rank routes records to itself), the
    // slice is sent from the bucket itself: the copy was as many fresh pages as the records.
    std::size_t to = n, destinations = 0;
    std::uint64_t round = 0;
    for (std::size_t d = 0; d < n; ++d) {
      round += take[d];
      if (take[d] != 0) {
        to = d;
        ++destinations;
      }
    }
    const auto slice = [&](std::size_t d) { return data[d].subspan(cursor[d] - take[d], take[d]); };
    if (destinations == 1) {
      transport.alltoallv(slice(to), take, recv, recv_counts);
    } else {
      send.clear();
      reserve_writable(send, round);
      for (std::size_t d = 0; d < n; ++d) send.insert(send.end(), slice(d).begin(), slice(d).end());
      transport.alltoallv(send, take, recv, recv_counts);
    }
    ++stats.rounds;

    std::size_t at = 0;
    for (std::size_t s = 0; s < n; ++s) {
      if (recv_counts[s] != 0) on_slice(static_cast<int>(s), std::span<const std::byte>(recv).subspan(at, recv_counts[s]));
      at += recv_counts[s];
    }
  }
  return stats;
}

// What Buckets hold, as exchange_rounds reads it (reset the buckets after).
std::vector<std::span<const std::byte>> bucket_spans(comm::Transport& transport, Buckets& buckets) {
  if (buckets.nranks() != transport.size())
    throw std::invalid_argument("exchange: Buckets built for " + std::to_string(buckets.nranks()) +
                                " ranks, transport has " + std::to_string(transport.size()));
  return {BucketsAccess::data(buckets).begin(), BucketsAccess::data(buckets).end()};
}

// Fixed-size records: checks each slice and counts the bytes received.
ExchangeStats exchange_whole_records(comm::Transport& transport, const std::vector<std::span<const std::byte>>& data,
                                     std::size_t fixed, std::size_t round_bytes,
                                     const std::function<void(int source, std::span<const std::byte> records)>& on_records) {
  std::uint64_t received = 0;
  ExchangeStats stats = exchange_rounds(transport, data, fixed, round_bytes, [&](int source, std::span<const std::byte> slice) {
    if (slice.size() % fixed != 0) throw std::runtime_error("exchange: corrupt record framing");
    on_records(source, slice);
    received += slice.size();
  });
  stats.bytes_received = received;
  return stats;
}

}  // namespace

ExchangeStats exchange(comm::Transport& transport, Buckets& buckets, std::size_t round_bytes,
                       const std::function<void(int source, std::span<const std::byte> record)>& on_record) {
  const std::size_t fixed = buckets.fixed_bytes();
  std::uint64_t received = 0;
  ExchangeStats stats =
      exchange_rounds(transport, bucket_spans(transport, buckets), fixed, round_bytes, [&](int source, std::span<const std::byte> slice) {
        for (std::size_t at = 0; at < slice.size();) {
          std::uint64_t payload = 0;
          const std::size_t sz = framed_size(slice, at, fixed, &payload);
          on_record(source, slice.subspan(at + sz - static_cast<std::size_t>(payload), static_cast<std::size_t>(payload)));
          received += payload;
          at += sz;
        }
      });
  BucketsAccess::reset(buckets);
  stats.bytes_received = received;
  return stats;
}

ExchangeStats exchange_fixed(comm::Transport& transport, Buckets& buckets, std::size_t round_bytes,
                             const std::function<void(int source, std::span<const std::byte> records)>& on_records) {
  const std::size_t fixed = buckets.fixed_bytes();
  if (fixed == 0) throw std::invalid_argument("exchange_fixed: the buckets hold records of any size");
  ExchangeStats stats = exchange_whole_records(transport, bucket_spans(transport, buckets), fixed, round_bytes, on_records);
  BucketsAccess::reset(buckets);
  return stats;
}

ExchangeStats exchange_in_place(comm::Transport& transport, const std::vector<std::span<const std::byte>>& per_dest,
                                std::size_t record_bytes, std::size_t round_bytes,
                                const std::function<void(int source, std::span<const std::byte> records)>& on_records) {
  if (record_bytes == 0) throw std::invalid_argument("exchange_in_place: records of 0 bytes");
  for (const std::span<const std::byte> records : per_dest)
    if (records.size() % record_bytes != 0) throw std::invalid_argument("exchange_in_place: a partial record");
  return exchange_whole_records(transport, per_dest, record_bytes, round_bytes, on_records);
}

}  // namespace crd::shuffle
