// LocalTally: per-rank combining of hash occurrences before the shuffle (Thrill's pre-reduce).
#include "crd/discover/local_tally.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "crd/base/prefault.hpp"

namespace crd::discover {

LocalTally::LocalTally(std::size_t sample_bytes) : sample_bytes_(sample_bytes) {
  if (sample_bytes_ > kBlockBytes || sample_bytes_ >= (std::size_t{1} << (64 - kLengthShift)))
    throw std::invalid_argument("LocalTally: sample_bytes too large");
}

void LocalTally::keep_sample(std::string_view sample) {
  if (blocks_.empty() || block_used_ + sample.size() > kBlockBytes) {
    // new char[] leaves the block uninitialized (no memset); its pages are mapped in one call,
    // not faulted in one by one as samples fill it.
    blocks_.push_back(std::unique_ptr<char[]>(new char[kBlockBytes]));
    prefault_writable(blocks_.back().get(), kBlockBytes);
    block_used_ = 0;
  }
  std::memcpy(blocks_.back().get() + block_used_, sample.data(), sample.size());
  const auto at = (static_cast<std::uint64_t>(blocks_.size() - 1) << kBlockBits) | block_used_;
  sample_at_.push_back(at | (static_cast<std::uint64_t>(sample.size()) << kLengthShift));
  block_used_ += sample.size();
}

std::uint64_t LocalTally::key_prefix(const std::string& key) {
  std::uint64_t prefix = 0;
  for (std::size_t i = 0; i < 8; ++i) prefix = prefix << 8 | (i < key.size() ? static_cast<unsigned char>(key[i]) : 0u);
  return prefix;
}

void LocalTally::note_page(std::uint32_t page, const PageKeys& keys) {
  if (page == last_page_) return;
  last_page_ = page;
  // Every page the keys hold, not only up to this one: first_page may name any (pages come in any
  // order, and a loaded checkpoint names pages this object has not seen).
  while (key_prefix_.size() < keys.size()) key_prefix_.push_back(key_prefix(keys[key_prefix_.size()]));
  page_is_greatest_ = greatest_known_ && (greatest_page_ == kNoPage || !key_less(page, greatest_page_, keys));
  if (page_is_greatest_) greatest_page_ = page;
}

// Doubles the columns' capacity, the new part mapped writable at once (see prefault_writable).
void LocalTally::grow_columns() {
  const std::size_t capacity = std::max<std::size_t>(1024, digests_.capacity() * 2);
  reserve_writable(digests_, capacity);
  reserve_writable(counts_, capacity);
  reserve_writable(lengths_, capacity);
  reserve_writable(first_page_, capacity);
  if (sample_bytes_ > 0) reserve_writable(sample_at_, capacity);
}

std::uint32_t LocalTally::add(const Digest& digest, std::uint64_t length, std::string_view text,
                              std::uint32_t page, const PageKeys& keys) {
  ++total_;
  note_page(page, keys);
  const DigestIndex::Found found = index_.find_or_insert(digest, digests_);
  if (!found.inserted) {
    const std::uint32_t id = found.id;
    ++counts_[id];
    // A page whose key sorts at or after every page added before cannot take first_page over.
    if (page_is_greatest_) return id;
    const std::uint32_t current = first_page_[id];
    if (page != current && key_less(page, current, keys)) first_page_[id] = page;
    return id;
  }
  const std::uint32_t id = found.id;  // digests_.size(): appended below, as the index requires
  if (digests_.size() == digests_.capacity()) grow_columns();
  digests_.push_back(digest);
  counts_.push_back(1);
  lengths_.push_back(length);
  first_page_.push_back(page);
  if (sample_bytes_ > 0) keep_sample(text.substr(0, std::min(text.size(), sample_bytes_)));
  return id;
}

std::string_view LocalTally::sample(std::uint32_t id) const {
  if (sample_bytes_ == 0) return {};
  const SampleSpot spot = unpack(sample_at_[id]);
  return {blocks_[spot.block].get() + spot.offset, spot.length};
}

std::int64_t LocalTally::find(const Digest& digest) const {
  const std::uint32_t id = index_.find(digest, digests_);
  return id == DigestIndex::kNone ? -1 : static_cast<std::int64_t>(id);
}

std::size_t LocalTally::memory_bytes() const {
  return index_.memory_bytes() + digests_.capacity() * sizeof(Digest) + key_prefix_.capacity() * 8 +
         (counts_.capacity() + lengths_.capacity() + sample_at_.capacity()) * 8 + first_page_.capacity() * 4 +
         (blocks_.empty() ? 0 : (blocks_.size() - 1) * kBlockBytes + block_used_);
}

void LocalTally::save(BinaryFileWriter& out) const {
  out.pod(static_cast<std::uint64_t>(sample_bytes_));
  out.pod(total_);
  out.vec(digests_);
  out.vec(counts_);
  out.vec(lengths_);
  out.vec(first_page_);
  out.vec(sample_at_);
  out.pod(static_cast<std::uint64_t>(blocks_.size()));
  for (std::size_t b = 0; b < blocks_.size(); ++b) out.str(std::string_view(blocks_[b].get(), used_in(b)));
}

LocalTally LocalTally::load(BinaryFileReader& in) {
  LocalTally t(static_cast<std::size_t>(in.pod<std::uint64_t>()));
  t.total_ = in.pod<std::uint64_t>();
  t.digests_ = in.vec<Digest>();
  t.counts_ = in.vec<std::uint64_t>();
  t.lengths_ = in.vec<std::uint64_t>();
  t.first_page_ = in.vec<std::uint32_t>();
  t.sample_at_ = in.vec<std::uint64_t>();
  const auto blocks = in.pod<std::uint64_t>();
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::string block = in.str();
    // Every block but the last was saved whole: a file cannot ask for more blocks than it holds.
    if (block.size() > kBlockBytes || (b + 1 < blocks && block.size() != kBlockBytes))
      throw std::runtime_error("checkpoint corrupt (sample block of a wrong size)");
    t.blocks_.push_back(std::unique_ptr<char[]>(new char[kBlockBytes]));
    std::memcpy(t.blocks_.back().get(), block.data(), block.size());
    t.block_used_ = block.size();
  }
  const std::size_t n = t.digests_.size();
  if (t.counts_.size() != n || t.lengths_.size() != n || t.first_page_.size() != n ||
      (t.sample_bytes_ > 0 && t.sample_at_.size() != n))
    throw std::runtime_error("checkpoint corrupt (tally columns differ in length)");
  for (const std::uint64_t at : t.sample_at_) {  // every sample must lie inside a loaded block
    const SampleSpot spot = unpack(at);
    if (spot.block >= t.blocks_.size() || spot.offset + spot.length > t.used_in(spot.block))
      throw std::runtime_error("checkpoint corrupt (sample outside its block)");
  }
  t.greatest_known_ = n == 0;  // the keys of the pages already counted are not known here
  if (!t.index_.rebuild(t.digests_)) throw std::runtime_error("checkpoint corrupt (a digest twice in a tally)");
  return t;
}

}  // namespace crd::discover
