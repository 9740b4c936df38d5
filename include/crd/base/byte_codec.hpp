// Little helpers to pack variable-length records (integers, strings) into bytes and back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace crd {

class ByteWriter {
 public:
  template <class T>
  ByteWriter& pod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    buf_.insert(buf_.end(), p, p + sizeof(T));
    return *this;
  }
  ByteWriter& str(std::string_view s) {
    pod(static_cast<std::uint32_t>(s.size()));
    const auto* p = reinterpret_cast<const std::byte*>(s.data());
    buf_.insert(buf_.end(), p, p + s.size());
    return *this;
  }
  std::span<const std::byte> bytes() const { return buf_; }
  void clear() { buf_.clear(); }
  void reserve(std::size_t bytes) { buf_.reserve(bytes); }

 private:
  std::vector<std::byte> buf_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  template <class T>
  T pod() {
    static_assert(std::is_trivially_copyable_v<T>);
    need(sizeof(T));
    T v;
    std::memcpy(&v, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  std::string_view str() {
    auto n = pod<std::uint32_t>();
    need(n);
    std::string_view s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return s;
  }
  bool done() const { return pos_ == bytes_.size(); }

 private:
  void need(std::size_t n) const {
    if (bytes_.size() - pos_ < n) throw std::runtime_error("ByteReader: record truncated");
  }
  std::span<const std::byte> bytes_;
  std::size_t pos_ = 0;
};

}  // namespace crd
