// Two-lane SHA-1 on SHA-NI (see document_hasher.hpp for why it is written here; the compression
// itself is in sha1_ni.hpp).
#include <cstring>

#include "crd/hash/document_hasher.hpp"
#include "sha1_ni.hpp"

namespace crd {
namespace {

using sha1_ni::compress_one;
using sha1_ni::compress_two;
using sha1_ni::cpu_has_sha_ni;
using sha1_ni::kInit;

Digest digest_of(const std::uint32_t (&state)[5]) {
  Digest d;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j)
      d.bytes[static_cast<std::size_t>(4 * i + j)] = static_cast<std::uint8_t>(state[i] >> (24 - 8 * j));
  return d;
}

}  // namespace

void DocumentHasher::Blocks::reset(std::string_view message) {
  data = reinterpret_cast<const unsigned char*>(message.data());
  full = message.size() / 64;
  next = 0;
  const std::size_t rest = message.size() - 64 * full;
  tail_blocks = rest + 9 <= 64 ? 1 : 2;  // the 0x80 byte and the 8-byte length must fit
  std::memset(tail, 0, 64 * tail_blocks);
  if (rest > 0) std::memcpy(tail, data + 64 * full, rest);
  tail[rest] = 0x80;
  const std::uint64_t bits = static_cast<std::uint64_t>(message.size()) * 8;
  for (int i = 0; i < 8; ++i)
    tail[64 * tail_blocks - 1 - static_cast<std::size_t>(i)] = static_cast<unsigned char>(bits >> (8 * i));
}

DocumentHasher::DocumentHasher(bool lanes) : lanes_(lanes && cpu_has_sha_ni()) {}

void DocumentHasher::start(std::string_view document) {
  document_ = document;
  if (!lanes_) return;
  doc_.reset(document);
  std::memcpy(doc_state_, kInit, sizeof kInit);
}

Digest DocumentHasher::chunk(std::string_view chunk) {
  if (!lanes_) return openssl_(chunk);
  chunk_.reset(chunk);
  std::uint32_t state[5];
  std::memcpy(state, kInit, sizeof kInit);
  while (chunk_.left() > 0) {
    const unsigned char* b = chunk_.take();
    if (doc_.left() > 0) {
      compress_two(state, b, doc_state_, doc_.take());
    } else {
      compress_one(state, b);
    }
  }
  return digest_of(state);
}

Digest DocumentHasher::finish() {
  if (!lanes_) return openssl_(document_);
  while (doc_.left() > 0) compress_one(doc_state_, doc_.take());
  return digest_of(doc_state_);
}

}  // namespace crd
