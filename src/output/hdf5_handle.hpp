// RAII ownership of HDF5 identifiers and HDF5 errors turned into crd::FatalError (output/ only).
#pragma once

#include <hdf5.h>

#include <mutex>
#include <string>
#include <utility>

namespace crd::output {

// HDF5 is not thread-safe (Debian's parallel build is made without --enable-threadsafe, and the
// predefined type names such as H5T_NATIVE_UINT64 are library calls too): no two threads may be
// inside it at once. Under MPI each rank is a process; on the thread transport (comm::run_local)
// the ranks are threads of one process, and rank 0 writing the result file can meet every rank
// reading --labels. So every HDF5 call in output/ holds this one process-wide lock (recursive:
// ResultReader's methods call each other). It is never held across a collective where another
// thread of this process could be waiting for it — except on the parallel path, where each rank
// is a process of its own and no other thread of it calls HDF5.
[[nodiscard]] std::unique_lock<std::recursive_mutex> hdf5_lock();

// The HDF5 error stack's descriptions, innermost last, one line; empties the stack.
std::string hdf5_error_text();

// Throws FatalError("<what>: <HDF5 error text>") if status is negative.
void check_h5(herr_t status, const std::string& what);

// Owns one hid_t and closes it with the function matching its kind (file, group, dataset, …).
class Hid {
 public:
  Hid() = default;
  explicit Hid(hid_t id) : id_(id) {}
  ~Hid() { reset(); }
  Hid(Hid&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)) {}
  Hid& operator=(Hid&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
    }
    return *this;
  }
  Hid(const Hid&) = delete;
  Hid& operator=(const Hid&) = delete;

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now and reports failure (a file close is where buffered data reaches the disk).
  herr_t close();
  void reset() noexcept { (void)close(); }

 private:
  hid_t id_ = H5I_INVALID_HID;
};

// Wraps the result of an H5*create/open/copy call; throws FatalError if it is invalid.
Hid make_hid(hid_t id, const std::string& what);

}  // namespace crd::output
