// BinaryFileWriter / BinaryFileReader: buffered native-endian records in a file, for checkpoints
// that the same binary on the same machine reads back (not an exchange format).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace crd {

class BinaryFileWriter {
 public:
  // A new file: whatever `path` named is unlinked first, never written through (a link) or opened
  // (a FIFO). Throws FatalError if it cannot be created.
  explicit BinaryFileWriter(const std::string& path);
  ~BinaryFileWriter();
  BinaryFileWriter(const BinaryFileWriter&) = delete;
  BinaryFileWriter& operator=(const BinaryFileWriter&) = delete;

  void bytes(const void* data, std::size_t n);
  template <class T>
  void pod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(&v, sizeof v);
  }
  void str(std::string_view s) {
    pod(static_cast<std::uint64_t>(s.size()));
    bytes(s.data(), s.size());
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    pod(static_cast<std::uint64_t>(v.size()));
    bytes(v.data(), v.size() * sizeof(T));
  }
  void strings(const std::vector<std::string>& v) {
    pod(static_cast<std::uint64_t>(v.size()));
    for (const auto& s : v) str(s);
  }
  // Flushes and fsyncs; throws FatalError on any write error so far (naming the file and errno).
  void close();

  // CRC-32 (zlib's) of every byte written so far, and how many: a checkpoint ends with them.
  std::uint32_t crc32() const { return crc_; }
  std::uint64_t written() const { return written_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  int errno_ = 0;  // the first write error, 0 if none
  std::uint32_t crc_ = 0;
  std::uint64_t written_ = 0;
};

// CRC-32 of a file's first `length` bytes; throws std::runtime_error if they cannot be read.
std::uint32_t file_crc32(const std::string& path, std::uint64_t length);

// Every read throws std::runtime_error on a short or corrupt file.
class BinaryFileReader {
 public:
  explicit BinaryFileReader(const std::string& path);  // throws std::runtime_error if unreadable
  ~BinaryFileReader();
  BinaryFileReader(const BinaryFileReader&) = delete;
  BinaryFileReader& operator=(const BinaryFileReader&) = delete;

  void bytes(void* data, std::size_t n);
  template <class T>
  T pod() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v;
    bytes(&v, sizeof v);
    return v;
  }
  std::string str() {
    std::string s(checked_size(pod<std::uint64_t>(), 1), '\0');
    bytes(s.data(), s.size());
    return s;
  }
  template <class T>
  std::vector<T> vec() {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<T> v(checked_size(pod<std::uint64_t>(), sizeof(T)));
    bytes(v.data(), v.size() * sizeof(T));
    return v;
  }
  std::vector<std::string> strings() {
    std::vector<std::string> v(checked_size(pod<std::uint64_t>(), 8));
    for (auto& s : v) s = str();
    return v;
  }
  std::uint64_t remaining() const { return remaining_; }  // bytes not read yet

 private:
  // A length read from the file may be garbage: refuse one larger than what is left to read.
  std::size_t checked_size(std::uint64_t n, std::size_t element_bytes);

  std::FILE* file_ = nullptr;
  std::uint64_t remaining_ = 0;
};

}  // namespace crd
