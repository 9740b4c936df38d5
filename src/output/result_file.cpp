// ResultFile life cycle (temporary name, commit by rename, removal when abandoned), groups and
// attributes. Column writers are in result_columns.cpp.
#include "crd/output/result_file.hpp"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <vector>

#include "crd/base/error.hpp"
#include "crd/base/file_kind.hpp"
#include "crd/base/human_bytes.hpp"
#include "crd/base/owner_lock.hpp"
#include "crd/comm/abort_cleanup.hpp"
#include "crd/comm/collectives.hpp"
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

// The lock file that says which job a temporary belongs to (owner_lock.hpp). It is made, locked
// and written before the temporary is created, and removed only after the temporary is gone
// (renamed or removed), so a temporary without one has no live owner.
std::string owner_lock_name(const std::string& temp_path) { return temp_path + ".lock"; }

// Temporaries of earlier runs of the same output that were killed outright (SIGKILL leaves no
// chance to clean up): a new run of that output removes them, and the lock files they leave. A
// temporary whose owner still runs — another job writing the same output right now — is kept:
// both jobs finish, and the last to commit replaces the other's result.
void remove_stale_temporaries(const std::string& final_path) {
  const fs::path p(final_path);
  const std::string prefix = "." + p.filename().string() + ".tmp-";
  const std::string lock_suffix = owner_lock_name("");
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  // PREFIX, 16 hex digits (temporary_name_for), then `tail` more characters.
  const auto is_temporary = [&](const std::string& name, std::size_t tail) {
    if (name.size() != prefix.size() + 16 + tail || name.compare(0, prefix.size(), prefix) != 0) return false;
    const auto digits = name.begin() + static_cast<std::ptrdiff_t>(prefix.size());
    return std::all_of(digits, digits + 16, [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
  };
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const std::string path = entry.path().string();
    if (is_temporary(name, 0)) {
      if (!owner_is_gone(owner_lock_name(path))) continue;
      std::error_code ignored;
      fs::remove(path, ignored);
      fs::remove(owner_lock_name(path), ignored);
    } else if (is_temporary(name, lock_suffix.size()) && name.ends_with(lock_suffix)) {
      // A lock file whose temporary is gone: its owner died between the two, or after its abort
      // removed the temporary. One that names nobody yet may be a job's first moment.
      std::error_code ignored;
      const std::string temp = path.substr(0, path.size() - lock_suffix.size());
      if (!fs::exists(temp, ignored) && owner_is_gone(path, true)) fs::remove(path, ignored);
    }
  }
}

// Bytes set aside for the metadata HDF5 writes when the file is closed. Parallel HDF5 writes dirty
// metadata out whenever 256 KiB of it has accumulated (the metadata cache's dirty_bytes_threshold),
// so a close has about that much left to write; a whole crd result's metadata is typically tens of
// KiB. The room is used by the data as the file grows and given back by truncation if the file is
// abandoned (discard); a committed file is cut to its real size by HDF5 at close.
constexpr off_t kMetadataRoom = 1 << 20;

// "" or why the room cannot be set aside in the open file `fd`.
std::string set_aside_room(int fd) {
  const int rc = ::posix_fallocate(fd, 0, kMetadataRoom);
  // File systems that cannot preallocate at all just go without the room.
  if (rc == 0 || rc == EOPNOTSUPP || rc == ENOSYS) return {};
  return "no room for it (" + human_bytes(kMetadataRoom) + "): " + std::strerror(rc);
}

// Rank 0 reserves the temporary name (O_EXCL) and checks the room for it, so that creation
// problems — an unwritable directory, a full disk — are found before any collective HDF5 call and
// fail identically on every rank. (HDF5 truncates the file when it creates it; the room is set
// aside again afterwards, by reserve_room.)
std::string reserve(const std::string& temp_path, OwnerLock& owner) {
  LockAttempt attempt = take_owner_lock(owner_lock_name(temp_path));
  if (!attempt.error.empty()) return attempt.error;
  // The name is new and unguessable: nobody else can hold its lock.
  if (attempt.busy) return "its lock file " + owner_lock_name(temp_path) + " is held by " + attempt.owner.describe();
  owner = std::move(attempt.lock);
  const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const std::string error = std::strerror(errno);
    owner.release();
    return error;
  }
  const std::string error = set_aside_room(fd);
  ::close(fd);
  if (!error.empty()) {
    ::unlink(temp_path.c_str());
    owner.release();
  }
  return error;
}

std::string reserve_room(const std::string& temp_path) {
  const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return std::strerror(errno);
  const std::string error = set_aside_room(fd);
  ::close(fd);
  return error;
}

// True if the file system holding `path` has (almost) no room left for this process.
bool file_system_full(const std::string& path) {
  struct statvfs st {};
  if (::statvfs(path.c_str(), &st) != 0) return false;
  return static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize < 64 * 1024;
}

}  // namespace

void ResultFile::Impl::agree(bool ok, const std::string& what) {
  if (comm::all_ok(transport, ok)) return;
  throw FatalError(final_path + ": " + comm::first_error(transport, ok ? std::string() : what));
}

void ResultFile::Impl::agreed_step(const std::string& what, const std::function<void()>& step) {
  std::string error;
  if (writes_here()) {
    const auto lock = hdf5_lock();
    try {
      step();
    } catch (const FatalError& e) {
      // HDF5 reports a full disk as a dozen layers of "write failed" without the system error; a
      // file system with no room left is the usual cause and what the user can act on.
      error = file_system_full(temp_path) ? what + ": " + std::strerror(ENOSPC) : std::string(e.what());
    }
  }
  error = comm::first_error(transport, error);
  if (!error.empty()) throw FatalError("cannot write result file " + final_path + ": " + error);
}

void ResultFile::Impl::discard() noexcept {
  try {
    if (mpi == nullptr) {
      // Every rank has let go of the file once all are here; a rank that left for good
      // (comm::Transport::abort_all) makes this throw at once, and the file goes all the same.
      try {
        transport.barrier();
      } catch (...) {
      }
    }
    if (mpi == nullptr && file.valid()) {
      // Rank 0 alone holds the file: close it; whatever the outcome, it is removed.
      const auto lock = hdf5_lock();
      (void)::truncate(temp_path.c_str(), 0);  // room for the close's metadata, as below
      (void)file.close();
      H5Eclear2(H5E_DEFAULT);
    }
    // Over MPI every rank is a process of its own: holding the lock across collectives is safe.
    const auto lock = mpi != nullptr ? hdf5_lock() : std::unique_lock<std::recursive_mutex>();
    if (file.valid()) {
      // HDF5 writes its last metadata when the file is closed, and a close that fails leaves the
      // file half-open inside HDF5, which then crashes in MPI_Finalize. Truncating the temporary
      // first gives back the space its data took (at least the reserve), so that write fits even
      // on the disk that just filled up. The data is lost anyway: the file is being removed.
      if (transport.rank() == 0) (void)::truncate(temp_path.c_str(), 0);
      transport.barrier();
      const std::string cannot = "cannot close result file " + final_path + " after an error: ";
      const bool flushed = H5Fflush(file.get(), H5F_SCOPE_GLOBAL) >= 0;
      if (!comm::all_ok(transport, flushed)) {
        if (!flushed) comm::abort_job(cannot + hdf5_error_text());
        transport.barrier();  // until the failed rank's abort ends the job
      }
      const bool closed = file.close() >= 0;
      if (!comm::all_ok(transport, closed)) {
        if (!closed) comm::abort_job(cannot + hdf5_error_text());
        transport.barrier();
      }
    }
    if (transport.rank() == 0 && !temp_path.empty()) std::remove(temp_path.c_str());
    owner.release();  // after the temporary: a temporary without its lock file has no owner
    if (writes_here()) comm::set_abort_cleanup({});
    transport.barrier();  // nobody looks for the file before it is gone
  } catch (...) {
    // A destructor cannot report; the temporary may remain and is hidden by its name.
  }
}

ResultFile::ResultFile(comm::Transport& transport, std::string final_path)
    : impl_(std::make_unique<Impl>(
          Impl{transport, dynamic_cast<comm::MpiTransport*>(&transport), std::move(final_path), {}, {}, false, {}})) {
  auto& im = *impl_;
  std::string error;
  if (transport.rank() == 0) {
    remove_stale_temporaries(im.final_path);
    im.temp_path = temporary_name_for(im.final_path);
    error = reserve(im.temp_path, im.owner);
    if (!error.empty()) im.temp_path.clear();
  }
  error = comm::first_error(transport, error);
  if (!error.empty()) throw FatalError("cannot create result file " + im.final_path + ": " + error);
  im.temp_path = comm::broadcast_from_rank0<std::string>(transport, im.temp_path);
  // Every process knows the temporary: whichever rank aborts the job removes it before MPI_Abort.
  // (Thread ranks share one process: rank 0 arms it.)
  if (im.writes_here()) comm::set_abort_cleanup(im.temp_path, owner_lock_name(im.temp_path));

  std::string h5_error;
  if (im.writes_here()) {
    const auto lock = hdf5_lock();
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become FatalError text, not stderr dumps
    try {
      Hid fapl = make_hid(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate");
      if (im.mpi != nullptr)
        check_h5(H5Pset_fapl_mpio(fapl.get(), im.mpi->native(), MPI_INFO_NULL), "H5Pset_fapl_mpio");
      // Attributes of any size. HDF5's earliest file format keeps an object's attributes in its
      // object header, where one message cannot exceed 64 KiB: a long command line (a thousand
      // input paths) or a chunking identity of 10^5 tags failed at commit, after all the work. The
      // 1.8 format's object headers move such an attribute to dense storage (a fractal heap), with
      // no limit; readers see no difference. Its upper bound too is 1.8: nothing of the 1.10
      // format (new chunk indexes) that a 1.8 reader could not open.
      check_h5(H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V18), "H5Pset_libver_bounds");
      im.file = make_hid(H5Fcreate(im.temp_path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), "H5Fcreate");
    } catch (const FatalError& e) {
      h5_error = e.what();
    }
  }
  h5_error = comm::first_error(transport, h5_error);
  if (!h5_error.empty()) {
    // H5Fclose is collective: ranks that did open cannot close alone, so a split outcome is the
    // "one rank knows" case. (Without MPI only rank 0 opens: there is no split.)
    if (im.file.valid()) comm::abort_job("result file opened on some ranks only: " + h5_error);
    if (transport.rank() == 0) {
      std::remove(im.temp_path.c_str());
      im.owner.release();
    }
    if (im.writes_here()) comm::set_abort_cleanup({});
    transport.barrier();
    throw FatalError("cannot create result file " + im.final_path + ": " + h5_error);
  }
  // Set aside room for the metadata HDF5 writes when the file is closed (discard() gives it back
  // by truncating); a disk that filled up since reserve() fails here, before any work is done.
  // Over MPI only, where a close that fails would crash MPI_Finalize. (HDF5's serial driver would
  // not cut the room off at close either: it does not know the file grew behind its back.)
  error = transport.rank() == 0 && im.mpi != nullptr ? reserve_room(im.temp_path) : std::string();
  error = comm::first_error(transport, error);
  if (!error.empty()) {
    im.discard();
    throw FatalError("cannot create result file " + im.final_path + ": " + error);
  }
}

ResultFile::~ResultFile() {
  if (impl_ && !impl_->committed) impl_->discard();
}

void ResultFile::commit() {
  auto& im = *impl_;
  if (im.committed) return;
  im.agreed_step("flushing", [&] { check_h5(H5Fflush(im.file.get(), H5F_SCOPE_GLOBAL), "flushing"); });
  if (im.mpi != nullptr) {
    // After a flush that succeeded everywhere the close has nothing left to write. Should it fail
    // anyway, HDF5 keeps the file half-open and would crash in MPI_Finalize: end the job instead.
    const auto lock = hdf5_lock();
    const bool closed = im.file.close() >= 0;
    if (!comm::all_ok(im.transport, closed)) {
      if (!closed) comm::abort_job("cannot close result file " + im.final_path + ": " + hdf5_error_text());
      im.transport.barrier();  // until the failed rank's abort ends the job
    }
  } else {
    // No MPI_Finalize to crash: a failed close is an agreed error, and the destructor removes the file.
    im.agreed_step("closing", [&] { check_h5(im.file.close(), "closing"); });
  }
  std::string error;
  if (im.transport.rank() == 0) {
    std::error_code ec;
    // -o was checked before the job; something put under its name since is still never replaced.
    if (const std::string kind = replace_problem(im.final_path); !kind.empty()) {
      error = "the output " + kind + " now: not replaced";
    } else {
      fs::rename(im.temp_path, im.final_path, ec);
      if (ec) error = "rename to final name: " + ec.message();
    }
    if (error.empty()) im.owner.release();
  }
  error = comm::first_error(im.transport, error);
  if (!error.empty()) throw FatalError("cannot commit result file " + im.final_path + ": " + error);
  im.committed = true;
  if (im.writes_here()) comm::set_abort_cleanup({});
}

void ResultFile::create_group(const std::string& path) {
  auto& im = *impl_;
  im.agreed_step("creating group " + path, [&] {
    const htri_t exists = H5Lexists(im.file.get(), path.c_str(), H5P_DEFAULT);
    if (exists > 0) return;
    Hid lcpl = make_hid(H5Pcreate(H5P_LINK_CREATE), "H5Pcreate");
    check_h5(H5Pset_create_intermediate_group(lcpl.get(), 1), "H5Pset_create_intermediate_group");
    Hid group = make_hid(H5Gcreate2(im.file.get(), path.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
                         "creating group " + path);
  });
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
  impl_->agreed_step("attribute " + object + "@" + name, [&] {
    std::string padded(value);
    padded.resize(std::max<std::size_t>(1, value.size()), '\0');
    Hid type = make_hid(H5Tcopy(H5T_C_S1), "H5Tcopy");
    check_h5(H5Tset_size(type.get(), padded.size()), "H5Tset_size");
    check_h5(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "H5Tset_strpad");
    check_h5(H5Tset_cset(type.get(), H5T_CSET_UTF8), "H5Tset_cset");
    write_attribute(impl_->file.get(), object, name, type.get(), padded.data());
  });
}

void ResultFile::set_attribute(const std::string& object, const std::string& name, std::uint64_t value) {
  impl_->agreed_step("attribute " + object + "@" + name,
                     [&] { write_attribute(impl_->file.get(), object, name, H5T_NATIVE_UINT64, &value); });
}

void ResultFile::set_attribute(const std::string& object, const std::string& name, std::int64_t value) {
  impl_->agreed_step("attribute " + object + "@" + name,
                     [&] { write_attribute(impl_->file.get(), object, name, H5T_NATIVE_INT64, &value); });
}

void ResultFile::set_attribute(const std::string& object, const std::string& name, double value) {
  impl_->agreed_step("attribute " + object + "@" + name,
                     [&] { write_attribute(impl_->file.get(), object, name, H5T_NATIVE_DOUBLE, &value); });
}

}  // namespace crd::output
