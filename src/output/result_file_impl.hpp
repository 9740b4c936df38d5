// ResultFile's private state and the one generic collective writer every column type goes through.
#pragma once

#include <functional>
#include <string>

#include "crd/comm/mpi_transport.hpp"
#include "crd/output/result_file.hpp"
#include "hdf5_handle.hpp"

namespace crd::output {

struct ResultFile::Impl {
  comm::MpiTransport& transport;
  std::string final_path;
  std::string temp_path;
  Hid file;
  bool committed = false;

  // Collective. Writes this rank's `local_rows` rows (each `row_width` elements of `elem_size`
  // bytes; row_width 0 means a 1-D dataset) at its exclusive-scan offset of dataset `path`.
  void write_rows(const std::string& path, hid_t mem_type, hid_t file_type, const void* data,
                  std::uint64_t local_rows, std::uint64_t row_width, std::size_t elem_size);

  // Collective. Throws FatalError with the same message on every rank if any rank passes false.
  void agree(bool ok, const std::string& what);

  // Collective. Runs this rank's part of one write step and agrees on its outcome: if it threw
  // FatalError on any rank (a full disk, an I/O error — often on some ranks only), every rank
  // throws "cannot write result file PATH: rank R: WHAT: …". No rank may go on to a collective HDF5 call
  // that a failed rank would skip; that is why every step that can fail is agreed on its own.
  void agreed_step(const std::string& what, const std::function<void()>& step);

  // Collective. Closes an abandoned file and removes it (see the destructor).
  void discard() noexcept;
};

}  // namespace crd::output
