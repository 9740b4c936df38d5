// Buffered binary files for checkpoints.
#include "crd/core/binary_file.hpp"

#include <unistd.h>

#include <stdexcept>

#include "crd/core/error.hpp"

namespace crd {

BinaryFileWriter::BinaryFileWriter(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "wb")) {
  if (file_ == nullptr) throw FatalError("cannot create " + path);
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

BinaryFileWriter::~BinaryFileWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

void BinaryFileWriter::bytes(const void* data, std::size_t n) {
  if (n > 0 && std::fwrite(data, 1, n, file_) != n) failed_ = true;
}

void BinaryFileWriter::close() {
  bool ok = !failed_ && std::fflush(file_) == 0 && ::fsync(fileno(file_)) == 0;
  ok = (std::fclose(file_) == 0) && ok;
  file_ = nullptr;
  if (!ok) throw FatalError("cannot write " + path_);
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
