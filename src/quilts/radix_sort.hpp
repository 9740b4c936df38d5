// A stable LSD radix sort by a 64-bit key, for quilts' uniform gram hashes: four 16-bit digits, a
// second array of the records. Stages 2 and 4 sort millions of records per pass, where std::sort
// is slower on uniform keys; sorted here, reduce_by_key finds them in order and skips its sort.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace crd::quilts {

// Sorts v by key(record) ascending; records of equal keys keep their order.
template <class T, class Key>
void radix_sort_by(std::vector<T>& v, Key key) {
  if (v.size() < 4096) {
    std::stable_sort(v.begin(), v.end(), [&](const T& a, const T& b) { return key(a) < key(b); });
    return;
  }
  std::vector<T> out(v.size());
  std::vector<std::size_t> start(std::size_t{1} << 16);
  for (int shift = 0; shift < 64; shift += 16) {
    std::fill(start.begin(), start.end(), 0);
    for (const T& x : v) ++start[(key(x) >> shift) & 0xFFFF];
    std::size_t sum = 0;
    for (auto& s : start) sum += std::exchange(s, sum);
    for (const T& x : v) out[start[(key(x) >> shift) & 0xFFFF]++] = x;
    v.swap(out);  // four digits: the sorted records end in v
  }
}

}  // namespace crd::quilts
