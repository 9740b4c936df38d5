// Inflater over ISA-L's streaming isal_inflate.
#include "inflater.hpp"

#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace crd::io::detail {
namespace {

std::uint32_t crc_flag(Inflater::Wrapper w) {
  switch (w) {
    case Inflater::Wrapper::Gzip:
      return ISAL_GZIP;
    case Inflater::Wrapper::Zlib:
      return ISAL_ZLIB;
    case Inflater::Wrapper::Raw:
      break;
  }
  return ISAL_DEFLATE;
}

// isal_inflate and inflate count in 32 bits.
constexpr std::size_t kMaxStep = UINT32_MAX;

int window_bits(Inflater::Wrapper w) {
  switch (w) {
    case Inflater::Wrapper::Gzip:
      return 16 + MAX_WBITS;
    case Inflater::Wrapper::Zlib:
      return MAX_WBITS;
    case Inflater::Wrapper::Raw:
      break;
  }
  return -MAX_WBITS;
}

bool is_check_message(const char* msg) {
  return msg != nullptr &&
         (std::strstr(msg, "incorrect data check") != nullptr || std::strstr(msg, "incorrect length check") != nullptr);
}

}  // namespace

struct Inflater::Zlib {
  z_stream zs{};
  std::uint64_t skip = 0;  // output bytes still to drop
};

void Inflater::ZlibDeleter::operator()(Zlib* z) const {
  inflateEnd(&z->zs);
  delete z;
}

Inflater::Inflater(Wrapper wrapper)
    : wrapper_(wrapper), state_(new inflate_state()) {  // zeroed: ISA-L's history starts known
  reset();
}

Inflater::~Inflater() = default;

Inflater::Inflater(const Inflater& other)
    : wrapper_(other.wrapper_),
      state_(new inflate_state(*other.state_)),  // pointers only into the caller's buffers, reset each call
      stage_(other.stage_),
      staged_begin_(other.staged_begin_),
      staged_end_(other.staged_end_),
      staged_status_(other.staged_status_) {
  if (other.zlib_) {
    zlib_.reset(new Zlib);
    zlib_->skip = other.zlib_->skip;
    // zlib's state points back at its z_stream, so it is copied by zlib, not by value.
    if (inflateCopy(&zlib_->zs, const_cast<z_stream*>(&other.zlib_->zs)) != Z_OK) std::abort();
  }
}

void Inflater::reset() {
  zlib_.reset();
  staged_begin_ = staged_end_ = 0;
  staged_status_ = Status::More;
  isal_inflate_init(state_.get());
  state_->crc_flag = crc_flag(wrapper_);
}

void Inflater::redo_with_zlib(std::uint64_t delivered) {
  staged_begin_ = staged_end_ = 0;  // ISA-L's bytes not yet delivered are zlib's to give now
  staged_status_ = Status::More;
  zlib_.reset(new Zlib);
  if (inflateInit2(&zlib_->zs, window_bits(wrapper_)) != Z_OK) std::abort();
  zlib_->skip = delivered;
}

std::uint64_t Inflater::overshoot() const { return zlib_ ? zlib_->skip : 0; }

Inflater::Step Inflater::step_zlib(const unsigned char* in, std::size_t in_len, char* out, std::size_t out_room) {
  z_stream& zs = zlib_->zs;
  Step r;
  for (;;) {
    // The bytes already delivered are decoded into a scratch buffer first, and dropped.
    char scratch[4096];
    const bool skipping = zlib_->skip > 0;
    char* dst = skipping ? scratch : out + r.produced;
    const std::size_t room = skipping ? std::min<std::uint64_t>(zlib_->skip, sizeof scratch) : out_room - r.produced;
    zs.next_in = const_cast<Bytef*>(in + r.used);
    zs.avail_in = static_cast<uInt>(std::min(in_len - r.used, kMaxStep));
    zs.next_out = reinterpret_cast<Bytef*>(dst);
    zs.avail_out = static_cast<uInt>(std::min(room, kMaxStep));
    const uInt in_before = zs.avail_in;
    const uInt out_before = zs.avail_out;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    const std::size_t got = out_before - zs.avail_out;
    r.used += in_before - zs.avail_in;
    if (skipping) {
      zlib_->skip -= got;
    } else {
      r.produced += got;
    }
    if (rc == Z_STREAM_END) {
      r.status = Status::End;
      return r;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      r.status = is_check_message(zs.msg) ? Status::BadCheck : Status::Corrupt;
      return r;
    }
    // More: stop when the input is used up or the caller's room is full; go on while skipping.
    if (r.used == in_len || (!skipping && r.produced == out_room) || (in_before == zs.avail_in && got == 0)) return r;
  }
}

Inflater::Step Inflater::step(const unsigned char* in, std::size_t in_len, char* out, std::size_t out_room) {
  if (zlib_) return step_zlib(in, in_len, out, out_room);
  Step r;
  if (!has_output() && staged_status_ == Status::More) {
    // Always kStage bytes of room: straight into the caller's buffer when it has that much, else
    // into the stage, copied out below.
    const bool direct = out_room >= kStage;
    if (!direct && stage_.empty()) stage_.resize(kStage);
    inflate_state& s = *state_;
    const auto avail_in = static_cast<std::uint32_t>(std::min(in_len, kFrame));
    s.next_in = const_cast<unsigned char*>(in);  // ISA-L's field is not const; it only reads there
    s.avail_in = avail_in;
    s.next_out = reinterpret_cast<std::uint8_t*>(direct ? out : stage_.data());
    s.avail_out = static_cast<std::uint32_t>(kStage);
    const int rc = isal_inflate(&s);
    r.used = avail_in - s.avail_in;
    const std::size_t n = kStage - s.avail_out;
    if (rc == ISAL_INCORRECT_CHECKSUM) {
      // The trailer's check is read last, once every byte was delivered; a gzip header's own
      // CRC-16 fails before: that is a damaged header, as zlib reports it.
      staged_status_ = s.block_state == ISAL_BLOCK_FINISH ? Status::BadCheck : Status::Corrupt;
    } else if (rc < 0 || rc == ISAL_NEED_DICT) {
      staged_status_ = Status::Corrupt;  // a preset dictionary is nothing HTTP or WARC sends
    } else if (s.block_state == ISAL_BLOCK_FINISH) {
      staged_status_ = Status::End;
    }
    if (staged_status_ == Status::Corrupt || staged_status_ == Status::BadCheck) {
      // Nothing of a damaged frame goes out: ISA-L may have decoded past the damage. The caller
      // redoes the stream with zlib, which delivers exactly the bytes before it.
      r.status = staged_status_;
      return r;
    }
    if (direct) {
      r.produced = n;
      r.status = staged_status_;
      return r;
    }
    staged_begin_ = 0;
    staged_end_ = n;
  }
  const std::size_t n = std::min(staged_end_ - staged_begin_, out_room);
  std::memcpy(out, stage_.data() + staged_begin_, n);
  staged_begin_ += n;
  r.produced = n;
  if (!has_output()) r.status = staged_status_;
  return r;
}

}  // namespace crd::io::detail
