// ResultFile life cycle (temporary name, commit by rename, removal when abandoned), groups and
// attributes. Column writers are in result_columns.cpp.
#include "crd/output/result_file.hpp"

#include "crd/comm/abort_cleanup.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <vector>

#include "crd/core/error.hpp"
#include "result_file_impl.hpp"

namespace crd::output {
namespace fs = std::filesystem;

namespace {

// A hidden, unguessable name in the final file's directory, so rename() stays on one file system.
std::string temporary_name_for(const std::string& final_path) {
  const fs::path p(final_path);
  std::random_device rd;
  const std::uint64_t tag = (static_cast<std::uint64_t>(rd()) << 32) ^ rd() ^ static_cast<std::uint64_t>(getpid());
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(tag));
  return (p.parent_path() / ("." + p.filename().string() + ".tmp-" + hex)).string();
}

// Temporaries of earlier runs of the same output that were killed outright (SIGKILL leaves no
// chance to clean up): a new run of that output replaces them. Two jobs writing one output
// at the same time conflict anyway.
void remove_stale_temporaries(const std::string& final_path) {
  const fs::path p(final_path);
  const std::string prefix = "." + p.filename().string() + ".tmp-";
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() == prefix.size() + 16 && name.compare(0, prefix.size(), prefix) == 0) fs::remove(entry.path(), ec);
  }
}

// Rank 0 reserves the temporary name (O_EXCL) so that creation problems are found before any
// collective HDF5 call: an unwritable directory then fails identically on every rank.
std::string reserve(const std::string& temp_path) {
  const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return std::strerror(errno);
  ::close(fd);
  return {};
}

}  // namespace

std::string first_error(comm::Transport& transport, const std::string& my_error) {
  std::vector<std::byte> all;
  std::vector<std::uint64_t> counts;
  transport.allgatherv(std::as_bytes(std::span<const char>(my_error.data(), my_error.size())), all, counts);
  std::size_t at = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (counts[r] > 0)
      return "rank " + std::to_string(r) + ": " +
             std::string(reinterpret_cast<const char*>(all.data()) + at, counts[r]);
    at += counts[r];
  }
  return {};
}

void ResultFile::Impl::agree(bool ok, const std::string& what) {
  if (transport.all_ok(ok)) return;
  throw FatalError(final_path + ": " + first_error(transport, ok ? std::string() : what));
}

ResultFile::ResultFile(comm::MpiTransport& transport, std::string final_path)
    : impl_(std::make_unique<Impl>(Impl{transport, std::move(final_path), {}, {}, false})) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become FatalError text, not stderr dumps
  auto& im = *impl_;
  std::string error;
  if (transport.rank() == 0) {
    remove_stale_temporaries(im.final_path);
    im.temp_path = temporary_name_for(im.final_path);
    error = reserve(im.temp_path);
    if (!error.empty()) im.temp_path.clear();
  }
  error = first_error(transport, error);
  if (!error.empty()) throw FatalError("cannot create result file " + im.final_path + ": " + error);
  im.temp_path = transport.from_rank0(im.temp_path);
  // Every rank knows the temporary: whichever rank aborts the job removes it before MPI_Abort.
  comm::set_abort_cleanup(im.temp_path);

  std::string h5_error;
  try {
    Hid fapl = make_hid(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate");
    check_h5(H5Pset_fapl_mpio(fapl.get(), transport.native(), MPI_INFO_NULL), "H5Pset_fapl_mpio");
    im.file = make_hid(H5Fcreate(im.temp_path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), "H5Fcreate");
  } catch (const FatalError& e) {
    h5_error = e.what();
  }
  h5_error = first_error(transport, h5_error);
  if (!h5_error.empty()) {
    // H5Fclose is collective: ranks that did open cannot close alone, so a split outcome is the
    // "one rank knows" case.
    if (im.file.valid()) comm::abort_job("result file opened on some ranks only: " + h5_error);
    if (transport.rank() == 0) std::remove(im.temp_path.c_str());
    transport.barrier();
    throw FatalError("cannot create result file " + im.final_path + ": " + h5_error);
  }
}

ResultFile::~ResultFile() {
  if (!impl_ || impl_->committed) return;
  try {
    impl_->file.reset();
    if (impl_->transport.rank() == 0 && !impl_->temp_path.empty()) std::remove(impl_->temp_path.c_str());
    comm::set_abort_cleanup({});
    impl_->transport.barrier();  // nobody looks for the file before it is gone
  } catch (...) {
    // A destructor cannot report; the temporary may remain and is hidden by its name.
  }
}

void ResultFile::commit() {
  auto& im = *impl_;
  if (im.committed) return;
  std::string error;
  if (im.file.close() < 0) error = "closing: " + hdf5_error_text();
  if (!im.transport.all_ok(error.empty())) {
    throw FatalError("cannot write result file " + im.final_path + ": " + first_error(im.transport, error));
  }
  if (im.transport.rank() == 0) {
    std::error_code ec;
    fs::rename(im.temp_path, im.final_path, ec);
    if (ec) error = "rename to final name: " + ec.message();
  }
  error = first_error(im.transport, error);
  if (!error.empty()) throw FatalError("cannot commit result file " + im.final_path + ": " + error);
  im.committed = true;
  comm::set_abort_cleanup({});
}

void ResultFile::create_group(const std::string& path) {
  auto& im = *impl_;
  const htri_t exists = H5Lexists(im.file.get(), path.c_str(), H5P_DEFAULT);
  if (exists > 0) return;
  Hid lcpl = make_hid(H5Pcreate(H5P_LINK_CREATE), "H5Pcreate");
  check_h5(H5Pset_create_intermediate_group(lcpl.get(), 1), "H5Pset_create_intermediate_group");
  Hid group = make_hid(H5Gcreate2(im.file.get(), path.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
                       "creating group " + path);
}

namespace {

void write_attribute(hid_t file, const std::string& object, const std::string& name, hid_t type,
                     const void* value) {
  const std::string what = "attribute " + object + "@" + name;
  Hid obj = make_hid(H5Oopen(file, object.c_str(), H5P_DEFAULT), "opening " + object + " for " + what);
  const htri_t exists = H5Aexists(obj.get(), name.c_str());
  check_h5(exists < 0 ? -1 : 0, what);
  if (exists > 0) check_h5(H5Adelete(obj.get(), name.c_str()), "replacing " + what);
  Hid space = make_hid(H5Screate(H5S_SCALAR), what);
  Hid attr = make_hid(H5Acreate2(obj.get(), name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT), what);
  check_h5(H5Awrite(attr.get(), type, value), what);
}

}  // namespace

void ResultFile::set_attribute(const std::string& object, const std::string& name, std::string_view value) {
  // Fixed-length (variable-length strings need extra care in parallel); an empty value still
  // needs a size of 1.
  std::string padded(value);
  padded.resize(std::max<std::size_t>(1, value.size()), '\0');
  Hid type = make_hid(H5Tcopy(H5T_C_S1), "H5Tcopy");
  check_h5(H5Tset_size(type.get(), padded.size()), "H5Tset_size");
  check_h5(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "H5Tset_strpad");
  check_h5(H5Tset_cset(type.get(), H5T_CSET_UTF8), "H5Tset_cset");
  write_attribute(impl_->file.get(), object, name, type.get(), padded.data());
}

void ResultFile::set_attribute(const std::string& object, const std::string& name, std::uint64_t value) {
  write_attribute(impl_->file.get(), object, name, H5T_NATIVE_UINT64, &value);
}

void ResultFile::set_attribute(const std::string& object, const std::string& name, std::int64_t value) {
  write_attribute(impl_->file.get(), object, name, H5T_NATIVE_INT64, &value);
}

void ResultFile::set_attribute(const std::string& object, const std::string& name, double value) {
  write_attribute(impl_->file.get(), object, name, H5T_NATIVE_DOUBLE, &value);
}

}  // namespace crd::output
