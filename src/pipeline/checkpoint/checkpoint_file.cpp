// Checkpoint file framing: written with a CRC-32, verified in full before the payload is decoded.
//
// Why CRC-32 (zlib's) and not SHA-1: the threat is accidental damage — a flipped bit on disk, a
// torn or truncated write, a file copied in part — not someone forging checkpoints (whoever can
// write the work directory can write a matching SHA-1 as easily). CRC-32 catches every error burst
// up to 32 bits and all but 1 in 2^32 other damage, is what gzip and PNG use for the same job,
// and runs at disk speed.
#include "checkpoint_file.hpp"

#include <array>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>

#include "crd/base/error.hpp"

namespace crd::pipeline {
namespace {
namespace fs = std::filesystem;

constexpr std::uint64_t kMagic = 0x0a54504b43445243ull;         // "CRDCKPT\n"
constexpr std::uint64_t kMagicFormat2 = 0x32544b4344524331ull;  // "1CRDCKT2": before the CRC-32
constexpr std::uint64_t kEndMarker = 0x21444e4554504b43ull;     // "CKPTEND!"
constexpr std::uint64_t kHeadBytes = sizeof(std::uint64_t) + sizeof(std::uint32_t);
constexpr std::uint64_t kTailBytes = 2 * sizeof(std::uint64_t) + sizeof(std::uint32_t);

struct Tail {
  std::uint64_t end_marker;
  std::uint64_t count;
  std::uint32_t crc;
};

// Reads `n` bytes at `offset`; false if the file is shorter.
bool read_at(const std::string& path, std::uint64_t offset, void* out, std::size_t n) {
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(static_cast<char*>(out), static_cast<std::streamsize>(n));
  return static_cast<std::size_t>(in.gcount()) == n;
}

// Why the file's frame is not intact, or "".
std::string check_frame(const std::string& path) {
  std::error_code ec;
  const std::uint64_t size = fs::file_size(path, ec);
  if (ec) return "cannot be read (" + ec.message() + ")";
  std::array<unsigned char, kHeadBytes> head{};
  if (size < sizeof(std::uint64_t) || !read_at(path, 0, head.data(), std::min<std::uint64_t>(size, head.size())))
    return "is truncated (" + std::to_string(size) + " bytes)";
  std::uint64_t magic = 0;
  std::memcpy(&magic, head.data(), sizeof magic);
  if (magic == kMagicFormat2)
    return "has checkpoint format 2; this crd reads format " + std::to_string(kCheckpointFormat);
  if (magic != kMagic) return "is not a crd checkpoint (unknown magic number)";
  if (size < kHeadBytes) return "is truncated (" + std::to_string(size) + " bytes)";
  std::uint32_t format = 0;
  std::memcpy(&format, head.data() + sizeof magic, sizeof format);
  if (format != kCheckpointFormat)
    return "has checkpoint format " + std::to_string(format) + "; this crd reads format " +
           std::to_string(kCheckpointFormat);
  std::array<unsigned char, kTailBytes> raw{};
  Tail tail{};
  if (size < kHeadBytes + kTailBytes || !read_at(path, size - kTailBytes, raw.data(), raw.size()))
    return "is truncated (" + std::to_string(size) + " bytes)";
  std::memcpy(&tail.end_marker, raw.data(), 8);
  std::memcpy(&tail.count, raw.data() + 8, 8);
  std::memcpy(&tail.crc, raw.data() + 16, 4);
  if (tail.end_marker != kEndMarker || tail.count != size - sizeof(std::uint32_t))
    return "is truncated or damaged at its end (" + std::to_string(size) + " bytes, no end marker)";
  try {
    const std::uint32_t crc = file_crc32(path, size - sizeof(std::uint32_t));
    if (crc != tail.crc) return "fails its CRC-32 check (the file is damaged)";
  } catch (const std::exception& e) {
    return std::string("cannot be read (") + e.what() + ")";
  }
  return {};
}

}  // namespace

void write_checkpoint_file(const std::string& path, const std::string& phase, const CheckpointOwner& owner,
                           const std::function<void(BinaryFileWriter&)>& write) {
  BinaryFileWriter out(path);
  out.pod(kMagic);
  out.pod(kCheckpointFormat);
  out.str(phase);
  out.str(owner.job);
  out.pod(owner.rank);
  out.pod(owner.ranks);
  write(out);
  out.pod(kEndMarker);
  out.pod(out.written() + sizeof(std::uint64_t));  // the bytes before the CRC, this count included
  out.pod(out.crc32());
  out.close();
}

std::string read_checkpoint_file(const std::string& path, const std::string& phase, const CheckpointOwner& owner,
                                 const std::function<void(BinaryFileReader&)>& read) {
  if (std::string why = check_frame(path); !why.empty()) return why;
  // The bytes are those written; what follows only fails if they were written for someone else,
  // or this crd decodes them differently.
  try {
    BinaryFileReader in(path);
    in.pod<std::uint64_t>();
    in.pod<std::uint32_t>();
    if (in.str() != phase) return "holds another phase";
    CheckpointOwner found;
    found.job = in.str();
    found.rank = in.pod<std::uint32_t>();
    found.ranks = in.pod<std::uint32_t>();
    if (found.job != owner.job)
      return "belongs to another job (fingerprint " + found.job.substr(0, 16) + ", this job's is " +
             owner.job.substr(0, 16) + ")";
    if (found.rank != owner.rank || found.ranks != owner.ranks)
      return "belongs to rank " + std::to_string(found.rank) + " of " + std::to_string(found.ranks) + ", not rank " +
             std::to_string(owner.rank) + " of " + std::to_string(owner.ranks);
    read(in);
    if (in.remaining() != kTailBytes || in.pod<std::uint64_t>() != kEndMarker)
      return "cannot be decoded (its payload does not end at the end marker)";
  } catch (const std::exception& e) {
    return std::string("cannot be decoded (") + e.what() + ")";
  }
  return {};
}

}  // namespace crd::pipeline
