// UninitializedBuffer: a growable byte buffer whose new bytes are left as they are, not zeroed.
#pragma once

#include <memory>
#include <utility>
#include <vector>

namespace crd::io::detail {

// Value-initialising construct() turned into default-initialisation: for char, nothing. A stream
// buffer is written by read(2) or the inflater before anything reads it, and zeroing the 5 MiB
// that ByteStream::open sets up cost a pass over memory per archive opened.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  using std::allocator<T>::allocator;
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitializedBuffer = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace crd::io::detail
