// Segmented WARC records (WARC 1.1, section 5.8 "continuation"): a record too large for one file
// is written as a first segment (WARC-Segment-Number: 1) and continuation records that name it
// (WARC-Segment-Origin-ID), the last one with WARC-Segment-Total-Length. A segment alone is part of
// a page, and hashing it as a page would be wrong: the segments are joined when they all are in
// one input, else each is counted as skipped (warc.segmented).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace crd::io::detail {

// The segmentation fields of one record's header.
struct SegmentFields {
  std::string record_id;                      // WARC-Record-ID
  std::optional<std::uint64_t> number;        // WARC-Segment-Number
  std::string origin_id;                      // WARC-Segment-Origin-ID (continuations)
  std::optional<std::uint64_t> total_length;  // WARC-Segment-Total-Length (the last segment)
  bool segmented() const { return number.has_value(); }
};

// Joins the segments of one input. The caller keeps the first segment's own header (`Origin`)
// beside its block; what is held is bounded by `max_bytes` of blocks (past that a chain is
// dropped and its segments counted).
template <typename Origin>
class SegmentJoiner {
 public:
  explicit SegmentJoiner(std::uint64_t max_bytes) : max_bytes_(max_bytes) {}

  // A first segment: held until its chain is complete. False when it cannot be held (no record
  // ID, a number other than 1, over the bound, or an ID already held): the caller counts it.
  bool start(const SegmentFields& f, Origin origin, std::string_view block) {
    if (f.record_id.empty() || f.number != 1u || chains_.count(f.record_id) != 0) return false;
    if (held_ + block.size() > max_bytes_) return false;
    held_ += block.size();
    chains_.emplace(f.record_id, Chain{std::move(origin), std::string(block), 2});
    return true;
  }

  enum class Step { Held, Complete, Unknown, Broken };
  struct Continued {
    Step step;
    std::uint64_t segments = 0;  // Complete or Broken: how many records the chain held, this one included
  };
  // A continuation record. Complete: the joined block and the origin's header are in `origin` and
  // `block`. Broken (out of order, a wrong total, over the bound): the chain is dropped. Unknown:
  // no held chain has that origin (its first segment is in another input, or was dropped).
  Continued add(const SegmentFields& f, std::string_view part, Origin& origin, std::string& block) {
    auto it = chains_.find(f.origin_id);
    if (it == chains_.end()) return {Step::Unknown};
    Chain& c = it->second;
    const std::uint64_t segments = c.next;
    if (f.number != c.next || held_ + part.size() > max_bytes_) {
      drop(it);
      return {Step::Broken, segments};
    }
    held_ += part.size();
    c.block.append(part);
    ++c.next;
    if (!f.total_length) return {Step::Held};
    const bool whole = *f.total_length == c.block.size();
    held_ -= c.block.size();
    origin = std::move(c.origin);
    block = std::move(c.block);
    chains_.erase(it);
    return {whole ? Step::Complete : Step::Broken, segments};
  }

  // At the end of the input: how many held records belong to chains that never completed.
  std::uint64_t abandon() {
    std::uint64_t n = 0;
    for (const auto& [id, c] : chains_) n += c.next - 1;
    chains_.clear();
    held_ = 0;
    return n;
  }

 private:
  struct Chain {
    Origin origin;
    std::string block;
    std::uint64_t next;  // the segment number expected next
  };
  void drop(typename std::map<std::string, Chain>::iterator it) {
    held_ -= it->second.block.size();
    chains_.erase(it);
  }

  std::uint64_t max_bytes_;
  std::uint64_t held_ = 0;
  std::map<std::string, Chain> chains_;
};

}  // namespace crd::io::detail
