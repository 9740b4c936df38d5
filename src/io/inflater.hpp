// Inflater: the one deflate decoder of crd's readers (ISA-L's igzip, streaming), for archive
// members and HTTP bodies alike.
//
// Why ISA-L and not libdeflate (perf/RESULTS.md "Inflate"): libdeflate is a little faster on
// whole members but decodes whole members only, into an output buffer big enough for all of it: a
// one-member multi-GB archive would have to be held whole, and a member's decoded size is not
// known before its end. ISA-L streams (bounded memory for any member) at 3-5x zlib's speed, and
// its state is one plain struct, so a copy of it is a point to come back to (ByteStream::mark).
//
// Damaged input must read the same whatever the readers' buffer sizes (tests read every archive
// again with 7- and 64-byte buffers). ISA-L's output before it reports damage depends on how it
// is called: it may decode bytes past the point where zlib stops (a distance reaching before the
// stream's start is caught late), and how many depends on the room it was given. So ISA-L is
// always called the same way: at most kFrame input bytes and exactly kStage bytes of room a call
// (the caller's buffer when it has that room, else this object's stage, copied out from there);
// nothing of a call that found damage is delivered; and the stream is then decoded again by zlib
// from its start (redo_with_zlib), which delivers every byte before the damage, as crd's reader
// did before ISA-L.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

struct inflate_state;  // ISA-L's decoder state (isa-l/igzip_lib.h): kept out of the readers' headers

namespace crd::io::detail {

class Inflater {
 public:
  enum class Wrapper { Gzip, Zlib, Raw };  // RFC 1952 member, RFC 1950 stream, bare RFC 1951 deflate
  enum class Status {
    More,      // input used up or output full: call again with more of either
    End,       // the stream ended and passed its check; for gzip, `used` stops right after its last byte
    BadCheck,  // the data decoded but its CRC-32 (or Adler-32) or length did not match the trailer
    Corrupt,   // not a valid stream (bad header, block, code or distance)
  };
  // ISA-L reports BadCheck and Corrupt without delivering the bytes of the frame that failed: redo
  // the stream with zlib then, for the exact bytes before the damage.
  struct Step {
    std::size_t used = 0;      // input bytes consumed
    std::size_t produced = 0;  // output bytes written
    Status status = Status::More;
  };
  // Input bytes given to ISA-L per call. A caller gives at least this many whenever the file
  // holds them, so that the calls, and what damaged input decodes to, are the same for any buffer.
  static constexpr std::size_t kFrame = 64 << 10;

  explicit Inflater(Wrapper wrapper = Wrapper::Gzip);
  ~Inflater();
  // A copy decodes on from the same point as the original.
  Inflater(const Inflater& other);
  Inflater& operator=(const Inflater& other) = delete;

  // Starts a new stream (the next gzip member), decoded by ISA-L.
  void reset();
  // Decodes from `in` into `out`; the decoder keeps whatever it needs across calls.
  Step step(const unsigned char* in, std::size_t in_len, char* out, std::size_t out_room);
  // Decoded bytes not yet copied out: the next step delivers them before it needs input.
  bool has_output() const { return staged_begin_ < staged_end_; }

  // Decodes the current stream again with zlib, from its first byte, which the caller feeds next;
  // the first `delivered` output bytes (what the caller got from ISA-L) are decoded and dropped.
  void redo_with_zlib(std::uint64_t delivered);
  bool zlib() const { return zlib_ != nullptr; }
  // After zlib ended the stream: how many of the bytes ISA-L delivered lie past zlib's end.
  std::uint64_t overshoot() const;

 private:
  static constexpr std::size_t kStage = 256 << 10;
  struct Zlib;
  struct ZlibDeleter {
    void operator()(Zlib* z) const;
  };
  Step step_zlib(const unsigned char* in, std::size_t in_len, char* out, std::size_t out_room);

  Wrapper wrapper_;
  std::unique_ptr<inflate_state> state_;  // 87 KB: one allocation per reader, not per member
  std::vector<char> stage_;  // ISA-L's output when the caller's room is short: [staged_begin_, staged_end_)
  std::size_t staged_begin_ = 0;
  std::size_t staged_end_ = 0;
  Status staged_status_ = Status::More;      // what the stream reached once the staged bytes are out
  std::unique_ptr<Zlib, ZlibDeleter> zlib_;  // set while a damaged stream is redone
};

}  // namespace crd::io::detail
