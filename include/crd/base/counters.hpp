// Counters: named event counts (records read, bytes, chunks, every skip reason) reported in
// /run/counters. Names are dotted, e.g. "skipped.warc.revisit"; merged across ranks by name.
#pragma once

#include <cstdint>
#include <map>

#include "crd/base/saturating.hpp"
#include <string>
#include <string_view>

namespace crd {

class Counters {
 public:
  void add(std::string_view name, std::uint64_t n = 1) {
    auto it = values_.find(name);
    if (it == values_.end()) {
      values_.emplace(std::string(name), n);
    } else {
      it->second = saturating_add(it->second, n);  // merged inputs may hold counts up to 2^64 − 1
    }
  }
  std::uint64_t get(std::string_view name) const {
    auto it = values_.find(name);
    return it == values_.end() ? 0 : it->second;
  }
  void merge(const Counters& other) {
    for (const auto& [k, v] : other.values_) add(k, v);
  }
  // Sorted by name, so output order never depends on the order events happened in.
  const std::map<std::string, std::uint64_t, std::less<>>& values() const { return values_; }

 private:
  std::map<std::string, std::uint64_t, std::less<>> values_;
};

}  // namespace crd
