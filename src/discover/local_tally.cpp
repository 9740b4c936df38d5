// LocalTally: per-rank combining of hash occurrences before the shuffle (Thrill's pre-reduce).
#include "crd/discover/local_tally.hpp"

#include <algorithm>
#include <stdexcept>

namespace crd::discover {

LocalTally::LocalTally(std::size_t sample_bytes) : sample_bytes_(sample_bytes) {
  if (sample_bytes_ > 0) sample_offset_.push_back(0);
}

std::uint32_t LocalTally::add(const Digest& digest, std::uint64_t length, std::string_view text,
                              std::uint32_t page, const PageKeys& keys) {
  ++total_;
  bool inserted = false;
  std::uint32_t& slot = index_.find_or_insert(digest, inserted);
  if (!inserted) {
    const std::uint32_t id = slot;
    ++counts_[id];
    const std::uint32_t current = first_page_[id];
    if (page != current && keys[page] < keys[current]) first_page_[id] = page;
    return id;
  }
  const auto id = static_cast<std::uint32_t>(digests_.size());
  slot = id;
  digests_.push_back(digest);
  counts_.push_back(1);
  lengths_.push_back(length);
  first_page_.push_back(page);
  if (sample_bytes_ > 0) {
    arena_.append(text.substr(0, std::min(text.size(), sample_bytes_)));
    sample_offset_.push_back(arena_.size());
  }
  return id;
}

std::string_view LocalTally::sample(std::uint32_t id) const {
  if (sample_bytes_ == 0) return {};
  const auto begin = sample_offset_[id];
  return std::string_view(arena_).substr(begin, sample_offset_[id + 1] - begin);
}

std::int64_t LocalTally::find(const Digest& digest) const {
  const std::uint32_t* id = index_.find(digest);
  return id == nullptr ? -1 : static_cast<std::int64_t>(*id);
}

std::size_t LocalTally::memory_bytes() const {
  return index_.memory_bytes() + digests_.capacity() * sizeof(Digest) +
         (counts_.capacity() + lengths_.capacity() + sample_offset_.capacity()) * 8 +
         first_page_.capacity() * 4 + arena_.capacity();
}

void LocalTally::save(BinaryFileWriter& out) const {
  out.pod(static_cast<std::uint64_t>(sample_bytes_));
  out.pod(total_);
  out.vec(digests_);
  out.vec(counts_);
  out.vec(lengths_);
  out.vec(first_page_);
  out.vec(sample_offset_);
  out.str(arena_);
}

LocalTally LocalTally::load(BinaryFileReader& in) {
  LocalTally t(static_cast<std::size_t>(in.pod<std::uint64_t>()));
  t.total_ = in.pod<std::uint64_t>();
  t.digests_ = in.vec<Digest>();
  t.counts_ = in.vec<std::uint64_t>();
  t.lengths_ = in.vec<std::uint64_t>();
  t.first_page_ = in.vec<std::uint32_t>();
  t.sample_offset_ = in.vec<std::uint64_t>();
  t.arena_ = in.str();
  const std::size_t n = t.digests_.size();
  if (t.counts_.size() != n || t.lengths_.size() != n || t.first_page_.size() != n ||
      (t.sample_bytes_ > 0 && t.sample_offset_.size() != n + 1))
    throw std::runtime_error("checkpoint corrupt (tally columns differ in length)");
  t.index_ = DigestMap<std::uint32_t>(n);
  for (std::uint32_t id = 0; id < n; ++id) {
    bool inserted = false;
    t.index_.find_or_insert(t.digests_[id], inserted) = id;
  }
  return t;
}

}  // namespace crd::discover
