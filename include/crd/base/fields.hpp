// Records declared by their field list: a type lists its members once, and every encoding (the
// shuffle's wire records here, any writer with pod()/str() and reader with pod<T>()/str()) is
// derived from that list instead of being written by hand.
//
//   struct CountRecord {
//     Digest digest;
//     std::uint64_t count = 0;
//     static constexpr auto fields() { return std::tuple(&CountRecord::digest, &CountRecord::count); }
//   };
//
// A field may carry a name, field("count", &CountRecord::count): rows written to a result file
// take their HDF5 column names from it (output/table_io.hpp), and field_name() finds it again.
//
// A field is a trivially copyable value (integers, Digest, any POD: copied as its bytes), a
// std::string (length + bytes), a std::vector of fields (u64 count + elements), or a type that
// itself declares fields(). Types with fields() are encoded member by member, so padding never
// travels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace crd {

template <class T>
concept HasFields = requires {
  T::fields();
};

// A member with its column name.
template <class M>
struct Field {
  std::string_view name;
  M member;
};

template <class M>
  requires std::is_member_object_pointer_v<M>
constexpr Field<M> field(std::string_view name, M member) {
  return {name, member};
}

namespace detail {
template <class T>
struct IsVector : std::false_type {};
template <class E, class A>
struct IsVector<std::vector<E, A>> : std::true_type {};

// The member pointer of an entry of fields(): a bare member pointer or a Field.
template <class F>
constexpr auto member_of(F f) {
  if constexpr (std::is_member_object_pointer_v<F>) {
    return f;
  } else {
    return f.member;
  }
}
}  // namespace detail

// The declared name of a member (compile time when constant): field_name(&PageRow::url) == "url".
template <class T, class M>
constexpr std::string_view field_name(M T::*member) {
  std::string_view found;
  auto visit = [&](auto entry) {
    if constexpr (!std::is_member_object_pointer_v<decltype(entry)>) {
      if constexpr (std::is_same_v<decltype(entry.member), M T::*>)
        if (entry.member == member) found = entry.name;
    }
  };
  std::apply([&](auto... f) { (visit(f), ...); }, T::fields());
  return found;
}

// Lexicographic order over the fields in declared order: a sort key derived from the list, so
// adding a field cannot leave the comparator behind.
struct FieldLess {
  template <class T>
  requires HasFields<T>
  bool operator()(const T& a, const T& b) const { return order(a, b) < 0; }

 private:
  template <class V>
  static int order(const V& a, const V& b) {
    if constexpr (HasFields<V>) {
      int c = 0;  // the first field that differs decides
      std::apply([&](auto... f) { ((c = c != 0 ? c : order(a.*detail::member_of(f), b.*detail::member_of(f))), ...); },
                 V::fields());
      return c;
    } else {
      return a < b ? -1 : (b < a ? 1 : 0);
    }
  }
};

template <class W, class T>
void write_value(W& w, const T& v);

template <class W, class T>
requires HasFields<T>
void write_fields(W& w, const T& record) {
  std::apply([&](auto... f) { (write_value(w, record.*detail::member_of(f)), ...); }, T::fields());
}

template <class W, class T>
void write_value(W& w, const T& v) {
  if constexpr (HasFields<T>) {
    write_fields(w, v);
  } else if constexpr (std::is_same_v<T, std::string>) {
    w.str(v);
  } else if constexpr (detail::IsVector<T>::value) {
    w.pod(static_cast<std::uint64_t>(v.size()));
    for (const auto& e : v) write_value(w, e);
  } else {
    static_assert(std::is_trivially_copyable_v<T>, "a field must be a POD, a string, a vector or have fields()");
    w.pod(v);
  }
}

template <class R, class T>
void read_value(R& r, T& v);

template <class R, class T>
requires HasFields<T>
void read_fields(R& r, T& record) {
  std::apply([&](auto... f) { (read_value(r, record.*detail::member_of(f)), ...); }, T::fields());
}

template <class T, class R>
requires HasFields<T> T read_fields(R& r) {
  T record{};
  read_fields(r, record);
  return record;
}

template <class R, class T>
void read_value(R& r, T& v) {
  if constexpr (HasFields<T>) {
    read_fields(r, v);
  } else if constexpr (std::is_same_v<T, std::string>) {
    v = std::string(r.str());
  } else if constexpr (detail::IsVector<T>::value) {
    const auto n = r.template pod<std::uint64_t>();
    v.clear();
    // Grow as elements arrive rather than trusting n: a corrupt count must fail on the bytes.
    for (std::uint64_t i = 0; i < n; ++i) read_value(r, v.emplace_back());
  } else {
    v = r.template pod<T>();
  }
}

// Bytes write_fields produces with a ByteWriter (u32 string lengths), so a record can be encoded
// in place into a buffer sized once.
class SizeCounter {
 public:
  template <class T>
  SizeCounter& pod(const T&) {
    bytes_ += sizeof(T);
    return *this;
  }
  SizeCounter& str(std::string_view s) {
    bytes_ += sizeof(std::uint32_t) + s.size();
    return *this;
  }
  std::size_t bytes() const { return bytes_; }

 private:
  std::size_t bytes_ = 0;
};

// ByteWriter's format into memory the caller has sized with SizeCounter.
class SpanWriter {
 public:
  explicit SpanWriter(std::byte* at) : at_(at) {}
  template <class T>
  SpanWriter& pod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::memcpy(at_, &v, sizeof(T));
    at_ += sizeof(T);
    return *this;
  }
  SpanWriter& str(std::string_view s) {
    pod(static_cast<std::uint32_t>(s.size()));
    if (!s.empty()) std::memcpy(at_, s.data(), s.size());
    at_ += s.size();
    return *this;
  }

 private:
  std::byte* at_;
};

// The bytes every value of T encodes to when that is the same for all values (T's fields, all the
// way down, are PODs), else 0 (a string or a vector somewhere). Such records travel unframed in
// the shuffle (exchange.hpp), and their size is known without visiting their fields.
template <class T>
constexpr std::size_t fixed_encoded_size() {
  if constexpr (HasFields<T>) {
    return std::apply(
        [](auto... f) {
          std::size_t sum = 0;
          bool fixed = true;
          const auto add = [&](std::size_t s) {
            fixed = fixed && s != 0;
            sum += s;
          };
          (add(fixed_encoded_size<std::remove_cvref_t<decltype(std::declval<const T&>().*detail::member_of(f))>>()),
           ...);
          (void)add;  // a record without fields
          return fixed ? sum : std::size_t{0};
        },
        T::fields());
  } else if constexpr (std::is_same_v<T, std::string> || detail::IsVector<T>::value) {
    return 0;
  } else {
    return sizeof(T);
  }
}

template <class T>
std::size_t encoded_size(const T& record) {
  if constexpr (fixed_encoded_size<T>() != 0) {
    return fixed_encoded_size<T>();
  } else {
    SizeCounter c;
    write_value(c, record);
    return c.bytes();
  }
}

}  // namespace crd
