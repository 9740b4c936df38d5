// ResultFile's private state and the one generic collective writer every column type goes through.
#pragma once

#include <functional>
#include <string>

#include "crd/base/owner_lock.hpp"
#include "crd/comm/mpi_transport.hpp"
#include "crd/output/result_file.hpp"
#include "hdf5_handle.hpp"

namespace crd::output {

// A column's element type. It becomes HDF5 types only on the ranks that write (hdf5_types), so
// the other thread ranks never call into HDF5.
struct ColumnType {
  enum class Kind { U64, U32, I32, F64, U8, FixedString } kind;
  std::size_t bytes;  // per element; a fixed string's width
};

struct Hdf5Types {
  hid_t memory;
  hid_t stored;
  Hid owned;  // a created (string) type, closed with this
};

// Call with hdf5_lock() held.
Hdf5Types hdf5_types(ColumnType type);

struct ResultFile::Impl {
  comm::Transport& transport;
  // Set when the transport is MPI: every rank opens the file with parallel HDF5 over its
  // communicator. Null otherwise: rank 0 alone holds the file and writes what it gathers.
  comm::MpiTransport* mpi;
  std::string final_path;
  std::string temp_path;
  Hid file;
  bool committed = false;
  OwnerLock owner;  // rank 0: held while the temporary exists, so no other job removes it

  // True on the ranks that call HDF5 for this file: every rank over MPI, rank 0 otherwise.
  bool writes_here() const { return mpi != nullptr || transport.rank() == 0; }

  // Collective. Writes this rank's `local_rows` rows (each `row_width` elements; row_width 0 means
  // a 1-D dataset) at its exclusive-scan offset of dataset `path`.
  void write_rows(const std::string& path, ColumnType type, const void* data, std::uint64_t local_rows,
                  std::uint64_t row_width);
  // write_rows without MPI: rank 0 gathers every slice in rank order and writes the whole dataset.
  void write_gathered(const std::string& path, ColumnType type, const void* data, std::uint64_t local_rows,
                      std::uint64_t row_width);

  // Collective. Throws FatalError with the same message on every rank if any rank passes false.
  void agree(bool ok, const std::string& what);

  // Collective. Runs this rank's part of one write step (on the ranks that write, holding
  // hdf5_lock()) and agrees on its outcome: if it threw FatalError on any rank (a full disk, an I/O
  // error — often on some ranks only), every rank throws "cannot write result file PATH: rank R:
  // WHAT: …". No rank may go on to a collective HDF5 call that a failed rank would skip; that is why
  // every step that can fail is agreed on its own.
  void agreed_step(const std::string& what, const std::function<void()>& step);

  // Collective. Closes an abandoned file and removes it (see the destructor).
  void discard() noexcept;
};

}  // namespace crd::output
