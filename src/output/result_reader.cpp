// ResultReader over the HDF5 C API (serial access: H5P_DEFAULT file access). Every method holds
// hdf5_lock(): on the thread transport every rank reads --labels at once.
#include "crd/output/result_reader.hpp"

#include <hdf5.h>

#include <algorithm>
#include <optional>
#include <set>
#include <type_traits>

#include "crd/base/error.hpp"
#include "crd/base/file_kind.hpp"
#include "crd/base/saturating.hpp"
#include "crd/base/version.hpp"
#include "hdf5_handle.hpp"
#include "result_checks.hpp"
#include "stored_extent.hpp"

namespace crd::output {

struct ResultReader::Impl {
  std::string path;
  hid_t file = H5I_INVALID_HID;
  std::uint64_t memory_budget = 0;  // 0 = unchecked
  std::uint64_t bytes_read = 0;     // bytes every read so far returned
  // Datasets whose storage check_stored_extent passed: counting a big table's chunks once, not
  // once per block read.
  std::set<std::string> backed;
  // Every dataset and attribute is opened through these: nothing the file declares is used unchecked.
  std::optional<ResultChecks> checks;
};

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw FatalError("cannot read '" + path + "': " + what);
}

struct Selection {
  std::uint64_t first;
  std::uint64_t count;
  std::uint64_t width;  // elements per row
};

// Once per dataset, before its first read: the file must store what the dataset declares.
void check_backed(ResultReader::Impl& impl, hid_t dataset, const std::string& name) {
  if (impl.backed.contains(name)) return;
  check_stored_extent(dataset, impl.path, name);
  impl.backed.insert(name);
}

// Before a read allocates `bytes`: refuses it once the reads from this file would exceed the budget.
void charge(ResultReader::Impl& impl, const std::string& dataset, std::uint64_t bytes) {
  impl.bytes_read += bytes;
  if (impl.memory_budget != 0 && impl.bytes_read > impl.memory_budget)
    fail(impl.path, "reading " + dataset + " would bring what this rank read from the file to " +
                        std::to_string(impl.bytes_read) + " bytes, over the " + std::to_string(impl.memory_budget) +
                        " bytes --memory allows");
}

Selection select_rows(hid_t space, std::uint64_t first, std::uint64_t count, const std::string& path,
                      const std::string& dataset) {
  hsize_t dims[2] = {0, 1};
  const int rank = H5Sget_simple_extent_dims(space, dims, nullptr);
  if (rank < 1 || rank > 2) fail(path, dataset + " is not a 1-D or 2-D dataset");
  if (rank == 1) dims[1] = 1;
  if (first > dims[0]) first = dims[0];
  count = std::min<std::uint64_t>(count, dims[0] - first);
  if (count > 0) {
    hsize_t start[2] = {first, 0};
    hsize_t n[2] = {count, dims[1]};
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, n, nullptr);
  } else {
    H5Sselect_none(space);
  }
  return {first, count, dims[1]};
}

template <class T>
std::vector<T> read_numeric(ResultReader::Impl& impl, const std::string& dataset, hid_t mem_type, std::uint64_t first,
                            std::uint64_t count) {
  const std::string& path = impl.path;
  Hid d = impl.checks->open_dataset(dataset, std::is_floating_point_v<T> ? ReadAs::Number : ReadAs::Integer);
  check_backed(impl, d.get(), dataset);
  Hid space(H5Dget_space(d.get()));
  const Selection sel = select_rows(space.get(), first, count, path, dataset);
  charge(impl, dataset, saturating_mul(saturating_mul(sel.count, sel.width), sizeof(T)));
  std::vector<T> out(sel.count * sel.width);
  if (out.empty()) return out;
  hsize_t mem_dims[1] = {out.size()};
  Hid mem(H5Screate_simple(1, mem_dims, nullptr));
  if (H5Dread(d.get(), mem_type, mem.get(), space.get(), H5P_DEFAULT, out.data()) < 0)
    fail(path, "reading " + dataset + " failed");
  if constexpr (std::is_same_v<T, std::uint64_t> || std::is_same_v<T, std::uint32_t>)
    impl.checks->check_values(dataset, out.data(), out.size());
  return out;
}

}  // namespace

ResultReader::ResultReader(const std::string& path, std::uint64_t memory_budget) : impl_(std::make_unique<Impl>()) {
  // Looked at before HDF5 opens it: opening a FIFO blocks until a writer appears, a device may
  // never end. (--labels, merge, report, inspect, compare --labels all read through here.)
  if (const std::string kind = read_problem(path); !kind.empty())
    throw UsageError(path + " " + kind + ": result files are read only from regular files");
  const auto lock = hdf5_lock();
  impl_->path = path;
  impl_->memory_budget = memory_budget;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors are reported by crd, not printed by HDF5
  if (H5Fis_hdf5(path.c_str()) <= 0) throw UsageError(path + " is not a crd result file (not HDF5 or unreadable)");
  impl_->file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (impl_->file < 0) throw UsageError(path + " is not a crd result file (cannot open)");
  impl_->checks.emplace(path, impl_->file);
  try {
    if (!has_attribute("/", "schema_version"))
      throw UsageError(path + " is not a crd result file (no schema_version attribute)");
    // Read through the checks like every other value: a corrupted type crashes HDF5's conversion.
    const double v = attribute_double("/", "schema_version");
    if (!(v <= kSchemaVersion))
      throw UsageError(path + " has schema version " +
                       (v < 1e18 ? std::to_string(static_cast<long long>(v)) : std::to_string(v)) +
                       "; this crd reads up to " + std::to_string(kSchemaVersion));
    impl_->checks->check_attributes();
  } catch (...) {
    H5Fclose(impl_->file);
    impl_->file = H5I_INVALID_HID;
    throw;
  }
}

ResultReader::~ResultReader() {
  const auto lock = hdf5_lock();
  if (impl_ && impl_->file >= 0) H5Fclose(impl_->file);
}

const std::string& ResultReader::path() const { return impl_->path; }

void ResultReader::set_memory_budget(std::uint64_t bytes) { impl_->memory_budget = bytes; }

bool ResultReader::has(const std::string& object) const {
  const auto lock = hdf5_lock();
  // Check each path component, as H5Lexists fails on a missing intermediate group.
  std::size_t pos = 0;
  while ((pos = object.find('/', pos + 1)) != std::string::npos) {
    if (H5Lexists(impl_->file, object.substr(0, pos).c_str(), H5P_DEFAULT) <= 0) return false;
  }
  return object == "/" || H5Lexists(impl_->file, object.c_str(), H5P_DEFAULT) > 0;
}

std::uint64_t ResultReader::rows(const std::string& dataset) const {
  const auto lock = hdf5_lock();
  return impl_->checks->rows(dataset);
}

DatasetShape ResultReader::shape(const std::string& dataset) const {
  const auto lock = hdf5_lock();
  DatasetShape out;
  if (!has(dataset)) return out;
  Hid d(H5Dopen2(impl_->file, dataset.c_str(), H5P_DEFAULT));
  if (!d.valid()) {
    H5Eclear2(H5E_DEFAULT);  // a group or a dangling link: not a dataset
    return out;
  }
  out.exists = true;
  Hid type(H5Dget_type(d.get()));
  out.element_bytes = H5Tget_size(type.get());
  switch (H5Tget_class(type.get())) {
    case H5T_INTEGER:
      out.kind = H5Tget_sign(type.get()) == H5T_SGN_NONE ? DatasetShape::Kind::UnsignedInteger
                                                         : DatasetShape::Kind::SignedInteger;
      break;
    case H5T_FLOAT:
      out.kind = DatasetShape::Kind::Float;
      break;
    case H5T_STRING:
      out.kind = H5Tis_variable_str(type.get()) > 0 ? DatasetShape::Kind::Other : DatasetShape::Kind::FixedString;
      break;
    default:
      out.kind = DatasetShape::Kind::Other;
  }
  Hid space(H5Dget_space(d.get()));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank > 0) {
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    out.dims.assign(dims.begin(), dims.end());
  }
  return out;
}

std::vector<std::uint64_t> ResultReader::read_u64(const std::string& ds, std::uint64_t first,
                                                  std::uint64_t count) const {
  const auto lock = hdf5_lock();
  return read_numeric<std::uint64_t>(*impl_, ds, H5T_NATIVE_UINT64, first, count);
}
std::vector<std::uint32_t> ResultReader::read_u32(const std::string& ds, std::uint64_t first,
                                                  std::uint64_t count) const {
  const auto lock = hdf5_lock();
  return read_numeric<std::uint32_t>(*impl_, ds, H5T_NATIVE_UINT32, first, count);
}
std::vector<double> ResultReader::read_f64(const std::string& ds, std::uint64_t first, std::uint64_t count) const {
  const auto lock = hdf5_lock();
  return read_numeric<double>(*impl_, ds, H5T_NATIVE_DOUBLE, first, count);
}
std::vector<std::uint8_t> ResultReader::read_u8(const std::string& ds, std::uint64_t first, std::uint64_t count) const {
  const auto lock = hdf5_lock();
  return read_numeric<std::uint8_t>(*impl_, ds, H5T_NATIVE_UINT8, first, count);
}
std::vector<std::uint8_t> ResultReader::read_matrix(const std::string& ds, std::uint64_t first,
                                                    std::uint64_t count) const {
  const auto lock = hdf5_lock();
  return read_numeric<std::uint8_t>(*impl_, ds, H5T_NATIVE_UINT8, first, count);
}

std::vector<std::string> ResultReader::read_strings(const std::string& ds, std::uint64_t first,
                                                    std::uint64_t count) const {
  const auto lock = hdf5_lock();
  Hid d = impl_->checks->open_dataset(ds, ReadAs::FixedString);
  Hid type(H5Dget_type(d.get()));
  check_backed(*impl_, d.get(), ds);
  const std::size_t width = H5Tget_size(type.get());
  Hid space(H5Dget_space(d.get()));
  const Selection sel = select_rows(space.get(), first, count, impl_->path, ds);
  std::vector<std::string> out;
  if (sel.count == 0) return out;
  charge(*impl_, ds, saturating_mul(sel.count, width + sizeof(std::string)));
  std::vector<char> buf(sel.count * width);
  // The memory type copies the file's (HDF5 does not convert between ASCII and UTF-8 sets).
  Hid mem_type(H5Tcopy(type.get()));
  H5Tset_strpad(mem_type.get(), H5T_STR_NULLPAD);
  hsize_t mem_dims[1] = {sel.count};
  Hid mem(H5Screate_simple(1, mem_dims, nullptr));
  if (H5Dread(d.get(), mem_type.get(), mem.get(), space.get(), H5P_DEFAULT, buf.data()) < 0)
    fail(impl_->path, "reading " + ds + " failed");
  out.reserve(sel.count);
  for (std::size_t i = 0; i < sel.count; ++i) {
    // Null-padded: only the padding at the end goes. A NUL inside a value (a URL "a\0b") is
    // kept, so values that differ after it stay apart.
    const char* s = buf.data() + i * width;
    std::size_t n = width;
    while (n > 0 && s[n - 1] == '\0') --n;
    out.emplace_back(s, n);
  }
  return out;
}

bool ResultReader::has_attribute(const std::string& object, const std::string& name) const {
  const auto lock = hdf5_lock();
  return has(object) && H5Aexists_by_name(impl_->file, object.c_str(), name.c_str(), H5P_DEFAULT) > 0;
}

std::string ResultReader::attribute_string(const std::string& object, const std::string& name) const {
  const auto lock = hdf5_lock();
  Hid a = impl_->checks->open_attribute(object, name, ReadAs::String);
  Hid type(H5Aget_type(a.get()));
  if (H5Tis_variable_str(type.get()) > 0) {
    char* value = nullptr;
    Hid mem_type(H5Tcopy(type.get()));
    if (H5Aread(a.get(), mem_type.get(), &value) < 0 || value == nullptr) fail(impl_->path, "reading " + name);
    std::string out(value);
    H5free_memory(value);
    return out;
  }
  const std::size_t width = H5Tget_size(type.get());
  std::string buf(width, '\0');
  Hid mem_type(H5Tcopy(type.get()));
  H5Tset_strpad(mem_type.get(), H5T_STR_NULLPAD);
  if (H5Aread(a.get(), mem_type.get(), buf.data()) < 0) fail(impl_->path, "reading " + name);
  buf.resize(std::find(buf.begin(), buf.end(), '\0') - buf.begin());
  return buf;
}

double ResultReader::attribute_double(const std::string& object, const std::string& name) const {
  const auto lock = hdf5_lock();
  Hid a = impl_->checks->open_attribute(object, name, ReadAs::Number);
  double v = 0;
  if (H5Aread(a.get(), H5T_NATIVE_DOUBLE, &v) < 0) fail(impl_->path, object + "@" + name + " is not numeric");
  return v;
}

std::uint64_t ResultReader::attribute_u64(const std::string& object, const std::string& name) const {
  const auto lock = hdf5_lock();
  Hid a = impl_->checks->open_attribute(object, name, ReadAs::Number);
  std::uint64_t v = 0;
  if (H5Aread(a.get(), H5T_NATIVE_UINT64, &v) < 0) fail(impl_->path, object + "@" + name + " is not numeric");
  return v;
}

}  // namespace crd::output
