// ByteStream: buffered reading and streaming gunzip with resynchronisation after damaged members.
#include "byte_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace crd::io::detail {

ByteStream::ByteStream() = default;

ByteStream::~ByteStream() {
  if (fd_ >= 0) ::close(fd_);
}

bool ByteStream::open(const std::string& path, StreamSizes sizes) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) return false;
  sizes_ = sizes;
  if (sizes_.initial_buffer > StreamSizes::peek().initial_buffer) ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  // Room for a whole frame of ISA-L's input, however small the reads (Inflater::kFrame).
  in_buf_.resize(std::max(sizes_.input_chunk, Inflater::kFrame));
  buf_.resize(sizes_.initial_buffer);
  ensure_input(2);
  gzip_ = in_len_ >= 2 && in_buf_[0] == 0x1f && in_buf_[1] == 0x8b;
  if (gzip_) inflater_ = std::make_unique<Inflater>(Inflater::Wrapper::Gzip);
  return true;
}

std::size_t ByteStream::fill(std::size_t n) {
  while (available() < n && !has_break_ && !eof_) produce(n);
  return available();
}

void ByteStream::consume(std::size_t n) {
  n = std::min(n, available());
  begin_ += n;
  pos_ += n;
}

std::uint64_t ByteStream::discard(std::uint64_t n) {
  std::uint64_t left = n;
  std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(left, available()));
  consume(take);
  left -= take;
  if (!gzip_) {
    // Raw files: whatever is left of the first read, then seek instead of reading.
    std::size_t t = static_cast<std::size_t>(std::min<std::uint64_t>(left, in_len_ - in_pos_));
    in_pos_ += t;
    pos_ += t;
    left -= t;
    if (left > 0 && !eof_) {
      struct stat st {};
      off_t cur = ::lseek(fd_, 0, SEEK_CUR);
      if (cur >= 0 && ::fstat(fd_, &st) == 0) {
        std::uint64_t remain = static_cast<std::uint64_t>(st.st_size) > static_cast<std::uint64_t>(cur)
                                   ? static_cast<std::uint64_t>(st.st_size - cur)
                                   : 0;
        std::uint64_t can = std::min(left, remain);
        ::lseek(fd_, cur + static_cast<off_t>(can), SEEK_SET);
        pos_ += can;
        left -= can;
      }
    }
    return n - left;
  }
  while (left > 0 && !has_break_ && !eof_) {
    begin_ = end_ = 0;  // nothing buffered: decode into the existing buffer, never grow it
    produce(1);
    take = static_cast<std::size_t>(std::min<std::uint64_t>(left, available()));
    consume(take);
    left -= take;
  }
  return n - left;
}

std::uint64_t ByteStream::disk_offset() {
  if (!gzip_) return pos_;
  while (members_.size() > 1 && members_[1].logical <= pos_) members_.pop_front();
  return members_.empty() ? member_disk_ : members_.front().disk;
}

std::uint64_t ByteStream::member_end_logical() {
  disk_offset();
  if (members_.size() > 1) return members_[1].logical;
  // The only member known: finished once the decoder has left it, still going otherwise.
  return gz_state_ == GzState::InMember ? UINT64_MAX : pos_ + available();
}

std::uint64_t ByteStream::discard_in_member(std::uint64_t n) {
  std::uint64_t left = n;
  for (;;) {
    const std::uint64_t end = member_end_logical();
    const std::uint64_t in_member = end - pos_;
    const std::size_t take = static_cast<std::size_t>(std::min({left, in_member, std::uint64_t{available()}}));
    consume(take);
    left -= take;
    if (left == 0 || pos_ == end || has_break_ || eof_) break;
    begin_ = end_ = 0;  // nothing buffered: decode into the existing buffer, never grow it
    produce(1);
  }
  return n - left;
}

void ByteStream::mark() {
  forget_mark();
  if (!gzip_) return;
  saved_.inflater = std::make_unique<Inflater>(*inflater_);
  saved_.bytes.assign(data(), data() + available());
  saved_.pos = pos_;
  saved_.in_disk = in_disk();
  saved_.gz_state = gz_state_;
  saved_.member_disk = member_disk_;
  saved_.member_output = member_output_;
  saved_.resyncing = resyncing_;
  saved_.eof = eof_;
  saved_.has_break = has_break_;
  saved_.pos_shift = pos_shift_;
  saved_.brk = break_;
  saved_.members = members_;
}

void ByteStream::forget_mark() { saved_ = Saved{}; }

bool ByteStream::rewind() {
  if (!saved_.inflater || saved_.pos > pos_) return false;
  if (at_end()) known_end_ = pos_;
  furthest_ = std::max(furthest_, pos_);
  const std::uint64_t waste = pos_ - saved_.pos;
  if (wasted_ + waste > 2 * furthest_) {
    forget_mark();
    return false;
  }
  inflater_ = std::move(saved_.inflater);
  wasted_ += waste;
  seek_input(saved_.in_disk);
  begin_ = 0;
  end_ = saved_.bytes.size();
  if (buf_.size() < end_) buf_.resize(end_);
  std::memcpy(buf_.data(), saved_.bytes.data(), end_);
  pos_ = saved_.pos;
  gz_state_ = saved_.gz_state;
  member_disk_ = saved_.member_disk;
  member_output_ = saved_.member_output;
  resyncing_ = saved_.resyncing;
  eof_ = saved_.eof;
  has_break_ = saved_.has_break;
  pos_shift_ = saved_.pos_shift;
  break_ = saved_.brk;
  members_ = std::move(saved_.members);
  forget_mark();
  return true;
}

std::string ByteStream::peek_at(std::uint64_t pos, std::size_t n) {
  std::string out(n, '\0');
  if (gzip_) return {};
  ssize_t got;
  do {
    got = ::pread(fd_, out.data(), n, static_cast<off_t>(pos));
  } while (got < 0 && errno == EINTR);
  out.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  return out;
}

StreamBreak ByteStream::take_break() {
  consume(available());
  pos_ -= pos_shift_;
  pos_shift_ = 0;
  has_break_ = false;
  return std::move(break_);
}

void ByteStream::set_break(std::string reason, std::uint64_t disk, bool damages) {
  has_break_ = true;
  const std::uint64_t member_start = gzip_ && !members_.empty() ? members_.back().logical : pos_ + available();
  break_ = StreamBreak{std::move(reason), disk, damages, damages ? member_start : pos_ + available()};
}

void ByteStream::make_room(std::size_t want) {
  std::size_t avail = available();
  if (avail == 0) begin_ = end_ = 0;
  std::size_t need = std::max(want, avail + sizes_.min_output);
  if (sizes_.relocate) {  // test knob: every refill moves the bytes to a new allocation
    UninitializedBuffer<char> moved(std::max(need, buf_.size()));
    std::memcpy(moved.data(), buf_.data() + begin_, avail);
    buf_.swap(moved);
    std::memset(moved.data(), '#', moved.size());  // what a stale view reads, if ASan is not on
    begin_ = 0;
    end_ = avail;
    return;
  }
  if (buf_.size() - begin_ < need) {
    if (begin_ > 0) {
      std::memmove(buf_.data(), buf_.data() + begin_, avail);
      begin_ = 0;
      end_ = avail;
    }
    if (buf_.size() < need) buf_.resize(std::max(need, buf_.size() + buf_.size() / 2));
  }
}

void ByteStream::produce(std::size_t want) {
  make_room(want);
  if (gzip_) {
    produce_gzip();
  } else {
    produce_raw();
  }
}

void ByteStream::produce_raw() {
  std::size_t room = buf_.size() - end_;
  if (in_pos_ < in_len_) {  // bytes of the first read, taken to detect gzip
    std::size_t t = std::min(room, in_len_ - in_pos_);
    std::memcpy(buf_.data() + end_, in_buf_.data() + in_pos_, t);
    in_pos_ += t;
    end_ += t;
    return;
  }
  ssize_t r;
  do {
    r = ::read(fd_, buf_.data() + end_, room);
  } while (r < 0 && errno == EINTR);
  if (r < 0) {
    set_break("input.read_error", pos_ + available(), true);
    eof_ = true;
  } else if (r == 0) {
    eof_ = true;
  } else {
    end_ += static_cast<std::size_t>(r);
    bytes_read_ += static_cast<std::uint64_t>(r);
  }
}

bool ByteStream::read_input() {
  if (in_eof_) return false;
  if (in_pos_ > 0) {
    std::memmove(in_buf_.data(), in_buf_.data() + in_pos_, in_len_ - in_pos_);
    in_disk_ += in_pos_;
    in_len_ -= in_pos_;
    in_pos_ = 0;
  }
  if (in_len_ == in_buf_.size()) return false;  // full: nothing to read into (not the end of the file)
  ssize_t r;
  do {
    r = ::read(fd_, in_buf_.data() + in_len_, std::min(in_buf_.size() - in_len_, sizes_.input_chunk));
  } while (r < 0 && errno == EINTR);
  if (r <= 0) {  // a read error ends the file like EOF; the member in progress reports it
    in_eof_ = true;
    return false;
  }
  in_len_ += static_cast<std::size_t>(r);
  bytes_read_ += static_cast<std::uint64_t>(r);
  return true;
}

bool ByteStream::ensure_input(std::size_t n) {
  while (in_len_ - in_pos_ < n) {
    if (!read_input()) return false;
  }
  return true;
}

void ByteStream::seek_input(std::uint64_t disk) {
  // in_buf_ holds the file's bytes [in_disk_, in_disk_ + in_len_): a target still in it is reached
  // without touching the disk. Re-reading a whole buffer for every damaged (or false) member made
  // a file dense with false gzip magics cost its size times the number of magics.
  if (disk >= in_disk_ && disk <= in_disk_ + in_len_) {
    in_pos_ = static_cast<std::size_t>(disk - in_disk_);
    return;
  }
  ::lseek(fd_, static_cast<off_t>(disk), SEEK_SET);
  in_pos_ = in_len_ = 0;
  in_disk_ = disk;
  in_eof_ = false;
}

void ByteStream::scan_for_member() {
  for (;;) {
    while (in_len_ - in_pos_ >= 4) {
      const unsigned char* base = in_buf_.data() + in_pos_;
      const void* hit = std::memchr(base, 0x1f, in_len_ - in_pos_);
      if (hit == nullptr) {
        in_pos_ = in_len_;
        break;
      }
      in_pos_ = static_cast<std::size_t>(static_cast<const unsigned char*>(hit) - in_buf_.data());
      if (in_len_ - in_pos_ < 4) break;
      const unsigned char* p = in_buf_.data() + in_pos_;
      if (p[1] == 0x8b && p[2] == 8 && (p[3] & 0xe0) == 0) {  // deflate, reserved flags clear
        gz_state_ = GzState::MemberStart;
        return;
      }
      ++in_pos_;
    }
    if (!read_input()) {
      in_pos_ = in_len_;
      gz_state_ = GzState::Done;
      return;
    }
  }
}

bool ByteStream::redo_member_with_zlib() {
  if (inflater_->zlib()) return false;
  inflater_->redo_with_zlib(member_output_);
  seek_input(member_disk_);
  return true;
}

void ByteStream::drop_overshoot() {
  const std::uint64_t over = inflater_->overshoot();
  member_output_ -= over;
  // Still buffered: taken back. Already consumed by the reader (it holds bytes of an unchecked
  // member and drops them at the break): the positions after the break are moved back instead.
  const std::size_t back = static_cast<std::size_t>(std::min<std::uint64_t>(over, available()));
  end_ -= back;
  pos_shift_ = over - back;
  if (resyncing_ && member_output_ == 0) {  // a false magic's member: no break will come to take it
    pos_ -= pos_shift_;
    pos_shift_ = 0;
  }
}

void ByteStream::produce_gzip() {
  for (;;) {
    switch (gz_state_) {
      case GzState::Done:
        eof_ = true;
        return;
      case GzState::Scan:
        scan_for_member();
        continue;
      case GzState::MemberStart: {
        if (!ensure_input(2)) {
          if (in_len_ > in_pos_ && !resyncing_) set_break("gzip.garbage", in_disk(), false);
          gz_state_ = GzState::Done;
          if (has_break_) return;
          continue;
        }
        if (in_buf_[in_pos_] != 0x1f || in_buf_[in_pos_ + 1] != 0x8b) {
          if (!resyncing_) set_break("gzip.garbage", in_disk(), false);
          resyncing_ = true;
          gz_state_ = GzState::Scan;
          if (has_break_) return;
          continue;
        }
        member_disk_ = in_disk();
        members_.push_back(MemberStart{pos_ + available(), member_disk_});
        inflater_->reset();
        member_output_ = 0;
        gz_state_ = GzState::InMember;
        continue;
      }
      case GzState::InMember:
        break;
    }
    if (!inflater_->has_output()) {  // decoded bytes still staged go out before input is needed
      if (inflater_->zlib()) {
        if (in_pos_ == in_len_) read_input();
      } else {
        ensure_input(Inflater::kFrame);  // whole frames wherever the file has them
      }
    }
    const Inflater::Step step =
        inflater_->step(in_buf_.data() + in_pos_, in_len_ - in_pos_, buf_.data() + end_, buf_.size() - end_);
    end_ += step.produced;
    member_output_ += step.produced;
    in_pos_ += step.used;
    if (step.status == Inflater::Status::End) {
      verified_ = pos_ + available();  // the member's CRC-32 and length were checked
      gz_state_ = GzState::MemberStart;
      resyncing_ = false;
      if (end_ == buf_.size()) return;
      continue;
    }
    if (step.status == Inflater::Status::More) {
      if (end_ == buf_.size()) return;  // output full; the caller consumes and comes back
      // A decoder that took nothing and gave nothing wants more input than is buffered: append to
      // what is there, or the file ended inside the member.
      if (!(step.used == 0 && step.produced == 0) || read_input()) continue;
      if (redo_member_with_zlib()) continue;
      drop_overshoot();
      // A member that gave nothing leaves the bytes before it (the previous member's) intact.
      if (!(resyncing_ && member_output_ == 0)) set_break("gzip.truncated", member_disk_, member_output_ > 0);
      gz_state_ = GzState::Done;
      if (has_break_) return;
      continue;
    }
    if (redo_member_with_zlib()) continue;
    drop_overshoot();
    // A damaged member is lost; look for the next one after its start.
    if (!(resyncing_ && member_output_ == 0)) {
      set_break(step.status == Inflater::Status::BadCheck ? "gzip.crc" : "gzip.corrupt", member_disk_,
                member_output_ > 0);
    }
    seek_input(member_disk_ + 1);
    resyncing_ = true;
    gz_state_ = GzState::Scan;
    if (has_break_) return;
  }
}

}  // namespace crd::io::detail
