// ByteStream: the bytes of one archive file, gunzipped when it starts with the gzip magic (any
// number of members), buffered for record parsers, with "breaks" where damage dropped data.
//
// The rule for readers: a pointer or view into data() is valid only until the next call that may
// buffer more (fill, at_end, discard, take_break, skip_member). A refill may move the buffered
// bytes or reallocate the buffer, so whatever a reader keeps across one (a header's URL, its
// content type) it copies first. StreamSizes::tiny makes every refill move the buffer, so a
// reader that breaks the rule reads freed memory in the tests (ASan reports it) instead of
// silently reading other bytes once every few MiB in production (docs/hostile-input.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "inflater.hpp"
#include "uninitialized_buffer.hpp"

namespace crd::io::detail {

// Buffer and read sizes. production() and peek() are what crd uses; tiny(n) is a test knob.
// Production reads 256 KiB at a time into a 512 KiB buffer (grown only for a record that needs
// more): read(2)'s copy then writes into lines still in the core's 1 MiB L2, where the record
// parser, SHA-1 and the chunker read them next. A 4 MiB buffer sent every pass through L3.
struct StreamSizes {
  std::size_t input_chunk;     // compressed bytes per read()
  std::size_t min_output;      // decoded room made available per refill
  std::size_t initial_buffer;  // decoded buffer before it grows
  bool relocate;               // move the buffer on every refill (tests: stale views fail loudly)
  static StreamSizes production() { return {256u << 10, 256u << 10, 512u << 10, false}; }
  static StreamSizes peek() { return {4u << 10, 4u << 10, 4u << 10, false}; }  // a format sniff
  static StreamSizes tiny(std::size_t n) { return {n, n, n, true}; }
};

// A point in the stream where data was lost or is suspect. The bytes available before it are
// delivered first; production stops until the reader takes the break.
struct StreamBreak {
  std::string reason;             // counter suffix: gzip.truncated, gzip.corrupt, gzip.crc, ...
  std::uint64_t disk_offset = 0;  // member start, or first garbage byte
  bool damages_preceding = true;  // false for garbage between members: bytes before are intact
  // With damages_preceding: the decoded position where the damaged member's bytes begin. Bytes
  // from there up to the break came from a member that failed its check and must not be used.
  std::uint64_t damaged_from = 0;
};

class ByteStream {
 public:
  ByteStream();
  ~ByteStream();
  ByteStream(const ByteStream&) = delete;
  ByteStream& operator=(const ByteStream&) = delete;

  // Opens a file and detects gzip by its first two bytes. False if it cannot be opened. The bytes
  // delivered are the same for any sizes.
  bool open(const std::string& path, StreamSizes sizes = StreamSizes::production());

  // Buffers at least n bytes unless a break or the end comes first; returns available().
  std::size_t fill(std::size_t n);
  const char* data() const { return buf_.data() + begin_; }
  std::size_t available() const { return end_ - begin_; }
  void consume(std::size_t n);
  // Drops n bytes without buffering them all; returns how many (fewer at a break or the end).
  std::uint64_t discard(std::uint64_t n);

  std::uint64_t position() const { return pos_; }  // offset of data() in the decoded stream
  std::uint64_t disk_offset();                     // offset on disk of the member holding data()
  std::uint64_t bytes_read() const { return bytes_read_; }
  bool gzip() const { return gzip_; }

  // Decoded bytes before this position passed their check: raw files have none to pass, gzip
  // members have passed their CRC-32 and length check once their end was decoded.
  std::uint64_t verified_through() const { return gzip_ ? verified_ : UINT64_MAX; }
  // gzip: drops bytes up to the end of the member holding data(), at most n; returns how many.
  // Writers end a record with its member, so a declared length past the member's end is wrong.
  std::uint64_t discard_in_member(std::uint64_t n);
  // gzip: saves the stream at data() (the decoder's state and the bytes buffered after data()),
  // so that rewind() can come back after the reader decoded ahead to check a record's declared
  // end; forget_mark() drops it when the end was right.
  void mark();
  void forget_mark();
  // Comes back to the mark (and drops it). Bounded: the bytes decoded ahead and then thrown away
  // never exceed twice the furthest position reached, so a file of wrong lengths costs at most
  // three times its decoding; false, the stream where it is, past that. Only positions the reader
  // reached count, never how far the buffer ran ahead, so the outcome is the same for any buffer
  // size. (The first length past the end decodes to the end; known_end() spares the next ones.)
  bool rewind();
  // Decoded position where a rewind() found the stream ended (UINT64_MAX until one has): a record
  // declared to end past it cannot be whole, and there is no need to decode ahead to learn so.
  std::uint64_t known_end() const { return known_end_; }

  // Raw files: up to n bytes at decoded position pos (which may be far past what is buffered),
  // read without disturbing the stream. Used to check that a long record's declared end is a
  // record boundary before skipping to it.
  std::string peek_at(std::uint64_t pos, std::size_t n);

  // A break follows the available bytes (valid after fill() returned fewer than asked).
  bool break_pending() const { return has_break_; }
  const StreamBreak& pending_break() const { return break_; }
  // Drops the available bytes (the remains of whatever the break cut) and resumes after it.
  StreamBreak take_break();
  // Nothing available, no break pending, and nothing more to come.
  bool at_end() { return fill(1) == 0 && !has_break_; }

 private:
  enum class GzState { MemberStart, InMember, Scan, Done };
  struct MemberStart {
    std::uint64_t logical;
    std::uint64_t disk;
  };
  std::uint64_t member_end_logical();  // logical end of the member holding data(), if known

  void produce(std::size_t want);
  void make_room(std::size_t want);
  void produce_raw();
  void produce_gzip();
  bool read_input();  // appends to in_buf_; false at end of file or read error
  bool ensure_input(std::size_t n);
  void seek_input(std::uint64_t disk);
  void scan_for_member();
  // A member ISA-L found damaged, or cut, is decoded again by zlib from its start (inflater.hpp
  // says why); false when zlib decodes it already.
  bool redo_member_with_zlib();
  // When zlib's redo ended: the bytes ISA-L delivered past zlib's end are not the stream's.
  void drop_overshoot();
  void set_break(std::string reason, std::uint64_t disk, bool damages);
  std::uint64_t in_disk() const { return in_disk_ + in_pos_; }

  int fd_ = -1;
  bool gzip_ = false;
  bool eof_ = false;  // nothing more will be produced (after any pending break)
  bool has_break_ = false;
  StreamBreak break_;

  UninitializedBuffer<char> buf_;  // decoded bytes [begin_, end_)
  StreamSizes sizes_ = StreamSizes::production();
  std::uint64_t verified_ = 0;  // logical end of the last member that passed its check
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::uint64_t pos_ = 0;

  UninitializedBuffer<unsigned char> in_buf_;  // compressed input [in_pos_, in_len_)
  std::size_t in_pos_ = 0;
  std::size_t in_len_ = 0;
  std::uint64_t in_disk_ = 0;  // disk offset of in_buf_[0]
  bool in_eof_ = false;
  std::uint64_t bytes_read_ = 0;

  std::unique_ptr<Inflater> inflater_;  // gzip files only
  GzState gz_state_ = GzState::MemberStart;
  std::uint64_t member_disk_ = 0;
  std::uint64_t member_output_ = 0;
  bool resyncing_ = false;       // silence failures of false gzip magics found while scanning
  std::uint64_t pos_shift_ = 0;  // drop_overshoot's bytes already consumed: taken off at the break
  // What mark() saved: enough to decode on from the same point.
  struct Saved {
    std::unique_ptr<Inflater> inflater;  // a copy of the decoder's state; null: no mark
    std::vector<char> bytes;             // buffered after data()
    std::uint64_t pos = 0;
    std::uint64_t in_disk = 0;
    GzState gz_state = GzState::MemberStart;
    std::uint64_t member_disk = 0;
    std::uint64_t member_output = 0;
    bool resyncing = false;
    bool eof = false;
    bool has_break = false;
    std::uint64_t pos_shift = 0;
    StreamBreak brk;
    std::deque<MemberStart> members;
  };
  Saved saved_;
  std::uint64_t known_end_ = UINT64_MAX;
  std::uint64_t furthest_ = 0;  // furthest position of data() seen by rewind()
  std::uint64_t wasted_ = 0;    // decoded ahead, then thrown away by rewind()
  std::deque<MemberStart> members_;
};

}  // namespace crd::io::detail
