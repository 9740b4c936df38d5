// Inflater (ISA-L, with zlib for damaged streams): round trips at any input and output split, the
// checks it reports, exactly zlib's bytes before damage, and copies that decode on.
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>
#include <vector>

#include "inflater.hpp"

namespace crd::io::detail {
namespace {

// Text that compresses like HTML: words from a small vocabulary, with some random bytes.
std::string sample(std::mt19937& rng, std::size_t n) {
  static const char* words[] = {"<p>", "</p>", "<div class=\"x\">", "the ", "copied ", "content ", "\n", "  "};
  std::string s;
  while (s.size() < n) {
    if (rng() % 8 == 0) {
      s += static_cast<char>(rng());
    } else {
      s += words[rng() % 8];
    }
  }
  s.resize(n);
  return s;
}

std::string compress(const std::string& data, int window_bits) {
  z_stream zs{};
  if (deflateInit2(&zs, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(out.size() - zs.avail_out);
  deflateEnd(&zs);
  return out;
}

struct Decoded {
  std::string bytes;
  Inflater::Status status = Inflater::Status::More;
};

// Decodes one stream, `in_step` input bytes and `room` output bytes a call at most; a damaged or
// cut stream is finished by zlib, as the readers do.
Decoded decode(Inflater& inf, const std::string& in, std::size_t in_step, std::size_t room,
               std::size_t* used = nullptr) {
  Decoded d;
  std::vector<char> out(room);
  std::size_t at = 0;
  for (;;) {
    const std::size_t give = std::min(in.size() - at, in_step);
    const Inflater::Step s = inf.step(reinterpret_cast<const unsigned char*>(in.data()) + at, give, out.data(), room);
    d.bytes.append(out.data(), s.produced);
    at += s.used;
    const bool stuck = s.status == Inflater::Status::More && s.used == 0 && s.produced == 0 && at == in.size();
    if ((s.status != Inflater::Status::More && s.status != Inflater::Status::End) || stuck) {
      if (inf.zlib()) {
        d.status = s.status;
        break;
      }
      inf.redo_with_zlib(d.bytes.size());
      at = 0;
      continue;
    }
    if (s.status == Inflater::Status::End) {
      d.status = s.status;
      break;
    }
  }
  if (used != nullptr) *used = at;
  return d;
}

// zlib's own answer: every byte it decodes before the stream ends or breaks.
std::string zlib_bytes(const std::string& in, int window_bits) {
  z_stream zs{};
  inflateInit2(&zs, window_bits);
  std::string out(1 << 22, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  inflate(&zs, Z_NO_FLUSH);
  out.resize(out.size() - zs.avail_out);
  inflateEnd(&zs);
  return out;
}

TEST(Inflater, RoundTripsEveryWrapperAtAnyInputAndRoom) {
  std::mt19937 rng(7);
  const struct {
    Inflater::Wrapper wrapper;
    int bits;
  } kinds[] = {{Inflater::Wrapper::Gzip, 16 + MAX_WBITS},
               {Inflater::Wrapper::Zlib, MAX_WBITS},
               {Inflater::Wrapper::Raw, -MAX_WBITS}};
  for (int round = 0; round < 40; ++round) {
    // Small splits on small streams, any split on streams past a frame and a stage.
    const bool small = round % 2 == 0;
    const std::string data = sample(rng, small ? rng() % 20000 : rng() % 400000);
    for (const auto& k : kinds) {
      const std::string z = compress(data, k.bits);
      Inflater inf(k.wrapper);
      const std::size_t in_step = 1 + rng() % (small ? 50 : 200000);
      const std::size_t room = 1 + rng() % (small ? 70 : 600000);
      std::size_t used = 0;
      const Decoded d = decode(inf, z + "trailing", in_step, room, &used);
      ASSERT_EQ(d.status, Inflater::Status::End) << "in " << in_step << " room " << room;
      EXPECT_FALSE(inf.zlib());  // a good stream is ISA-L's alone
      ASSERT_EQ(d.bytes, data) << "in " << in_step << " room " << room;
      // A gzip member's input stops right after it: the next member starts there.
      if (k.wrapper == Inflater::Wrapper::Gzip) {
        EXPECT_EQ(used, z.size()) << "in " << in_step << " room " << room;
      }
    }
  }
}

TEST(Inflater, ChecksAreReportedAsZlibReportsThem) {
  std::mt19937 rng(8);
  const std::string data = sample(rng, 5000);
  const std::string good = compress(data, 16 + MAX_WBITS);
  for (std::size_t from_end : {8u, 3u, 1u}) {  // CRC-32's first byte, its last, ISIZE's last
    std::string bad = good;
    bad[bad.size() - from_end] = static_cast<char>(bad[bad.size() - from_end] ^ 0x40);
    Inflater inf(Inflater::Wrapper::Gzip);
    const Decoded d = decode(inf, bad, 1 << 20, 1 << 20);
    EXPECT_EQ(d.status, Inflater::Status::BadCheck) << from_end;
    EXPECT_EQ(d.bytes, data) << "every byte is delivered before the check fails";
  }
  std::string method = good;
  method[2] = 7;  // not deflate
  Inflater inf(Inflater::Wrapper::Gzip);
  EXPECT_EQ(decode(inf, method, 1 << 20, 1 << 20).status, Inflater::Status::Corrupt);
}

// ISA-L decodes past some damage that zlib stops at (distances reaching before the stream's
// start), and how far depends on its output room. The readers' bytes must not depend on the
// room, so what comes out of a damaged stream is zlib's, whatever the output room, when the caller
// gives whole frames of input as ByteStream does.
TEST(Inflater, DamagedStreamsGiveZlibsBytesWhateverTheRoom) {
  std::mt19937 rng(9);
  int damaged = 0;
  for (int round = 0; round < 200; ++round) {
    std::string z = compress(sample(rng, 200 + rng() % 30000), 16 + MAX_WBITS);
    for (int e = 1 + static_cast<int>(rng() % 4); e > 0; --e) {
      const std::size_t at = 10 + rng() % (z.size() - 10);  // the header stays a gzip header
      switch (rng() % 3) {
        case 0:
          z[at] = static_cast<char>(rng());
          break;
        case 1:
          z.erase(at, rng() % 32);
          break;
        default:
          z.insert(at, std::string(rng() % 32, static_cast<char>(rng())));
          break;
      }
    }
    const std::string want = zlib_bytes(z, 16 + MAX_WBITS);
    for (std::size_t room : {std::size_t{7}, std::size_t{4096}, std::size_t{1} << 20}) {
      Inflater inf(Inflater::Wrapper::Gzip);
      const Decoded d = decode(inf, z, Inflater::kFrame, room);
      if (d.status == Inflater::Status::End) continue;  // the edits missed the data (or CRC)
      ++damaged;
      ASSERT_EQ(inf.overshoot(), 0u) << "round " << round << " room " << room;
      ASSERT_EQ(d.bytes, want) << "round " << round << " room " << room;
    }
  }
  EXPECT_GT(damaged, 150);
}

// A copy is a point to come back to (ByteStream::mark): both decode on to the same bytes.
TEST(Inflater, CopyDecodesOnFromTheSamePoint) {
  std::mt19937 rng(10);
  const std::string data = sample(rng, 900000);
  const std::string z = compress(data, 16 + MAX_WBITS);
  for (std::size_t room : {std::size_t{1000}, std::size_t{1} << 20}) {
    Inflater inf(Inflater::Wrapper::Gzip);
    std::vector<char> out(room);
    std::string head;
    std::size_t at = 0;
    while (head.size() < 300000) {
      const Inflater::Step s =
          inf.step(reinterpret_cast<const unsigned char*>(z.data()) + at, z.size() - at, out.data(), room);
      head.append(out.data(), s.produced);
      at += s.used;
    }
    Inflater copy(inf);
    const std::string rest = z.substr(at);
    const Decoded a = decode(inf, rest, 1 << 20, 1 << 20);
    const Decoded b = decode(copy, rest, 1 << 20, 1 << 20);
    EXPECT_EQ(a.status, Inflater::Status::End);
    EXPECT_EQ(head + a.bytes, data);
    EXPECT_EQ(b.bytes, a.bytes);
  }
}

}  // namespace
}  // namespace crd::io::detail
