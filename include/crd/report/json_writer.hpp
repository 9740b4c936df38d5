// JsonWriter: a small streaming JSON encoder for the report's data (objects, arrays, strings via
// append_json_string, integers, finite doubles). Commas are placed by the writer; the caller only
// nests begin/end calls correctly.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace crd::report {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);  // inside an object, before its value

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(std::uint64_t number);
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(double number);  // NaN and infinities become null (JSON has neither)
  JsonWriter& value(bool flag);
  JsonWriter& null();
  // Inserts already-encoded JSON (e.g. another writer's output) as one value.
  JsonWriter& raw(std::string_view json);

  // Whole columns as arrays.
  template <typename T>
  JsonWriter& array(std::span<const T> values) {
    begin_array();
    for (const T& v : values) {
      if constexpr (std::is_floating_point_v<T>)
        value(static_cast<double>(v));
      else if constexpr (std::is_unsigned_v<T>)
        value(static_cast<std::uint64_t>(v));
      else
        value(static_cast<std::int64_t>(v));
    }
    return end_array();
  }
  JsonWriter& array(const std::vector<std::string>& values);

  const std::string& str() const { return out_; }
  std::string take() {  // leaves the writer empty, its nesting kept: callers write as they go
    std::string out;
    out.swap(out_);
    return out;
  }

 private:
  void separate();  // a comma unless this is the first item of the enclosing container

  std::string out_;
  std::vector<bool> first_;  // per open container: no item written yet
  bool after_key_ = false;
};

}  // namespace crd::report
