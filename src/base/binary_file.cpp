// Buffered binary files for checkpoints.
#include "crd/base/binary_file.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "crd/base/error.hpp"

namespace crd {

namespace {

// A new file under `path`. Whatever the name held is unlinked first and the file created
// exclusively without following links: fopen("wb") would write through a link planted there, and
// block on a FIFO until a reader came.
std::FILE* create_new(const std::string& path) {
  ::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return nullptr;
  std::FILE* file = ::fdopen(fd, "wb");
  if (file == nullptr) ::close(fd);
  return file;
}

}  // namespace

BinaryFileWriter::BinaryFileWriter(const std::string& path) : path_(path), file_(create_new(path)) {
  if (file_ == nullptr) throw FatalError("cannot create " + path + ": " + std::strerror(errno));
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

BinaryFileWriter::~BinaryFileWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

void BinaryFileWriter::bytes(const void* data, std::size_t n) {
  if (n == 0) return;
  crc_ = static_cast<std::uint32_t>(crc32_z(crc_, static_cast<const Bytef*>(data), n));
  written_ += n;
  if (std::fwrite(data, 1, n, file_) != n && errno_ == 0) errno_ = errno != 0 ? errno : EIO;
}

void BinaryFileWriter::close() {
  if (errno_ == 0 && std::fflush(file_) != 0) errno_ = errno;
  if (errno_ == 0 && ::fsync(fileno(file_)) != 0) errno_ = errno;
  if (std::fclose(file_) != 0 && errno_ == 0) errno_ = errno;
  file_ = nullptr;
  if (errno_ != 0) throw FatalError("cannot write " + path_ + ": " + std::strerror(errno_));
}

std::uint32_t file_crc32(const std::string& path, std::uint64_t length) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw std::runtime_error("cannot open " + path);
  std::vector<unsigned char> block(1 << 20);
  uLong crc = 0;
  while (length > 0) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(length, block.size()));
    if (std::fread(block.data(), 1, want, file.get()) != want) throw std::runtime_error("cannot read " + path);
    crc = crc32_z(crc, block.data(), want);
    length -= want;
  }
  return static_cast<std::uint32_t>(crc);
}

BinaryFileReader::BinaryFileReader(const std::string& path) : file_(std::fopen(path.c_str(), "rb")) {
  if (file_ == nullptr) throw std::runtime_error("cannot open " + path);
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  if (std::fseek(file_, 0, SEEK_END) == 0) {
    const long end = std::ftell(file_);
    remaining_ = end > 0 ? static_cast<std::uint64_t>(end) : 0;
  }
  std::fseek(file_, 0, SEEK_SET);
}

BinaryFileReader::~BinaryFileReader() {
  if (file_ != nullptr) std::fclose(file_);
}

void BinaryFileReader::bytes(void* data, std::size_t n) {
  if (n > remaining_ || (n > 0 && std::fread(data, 1, n, file_) != n)) throw std::runtime_error("checkpoint truncated");
  remaining_ -= n;
}

std::size_t BinaryFileReader::checked_size(std::uint64_t n, std::size_t element_bytes) {
  if (n > remaining_ / element_bytes + 1) throw std::runtime_error("checkpoint corrupt (impossible length)");
  return static_cast<std::size_t>(n);
}

}  // namespace crd
