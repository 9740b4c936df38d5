// ResultFile: one HDF5 result file, written by all ranks of a transport. Over MPI every rank
// writes its own part with parallel HDF5 (MPI-IO, collective); over any other transport (the
// thread ranks of comm::run_local) rank 0 gathers each column's slices and writes alone with HDF5's
// serial driver. The file's content is the same either way.
// Created under a temporary name beside the final path; commit() renames it into place, and a
// ResultFile destroyed without commit() removes the temporary, so no half-written result remains.
//
// Every method is collective: all ranks call it in the same order with the same paths.
// Column writers take this rank's slice; slices are concatenated in rank order. A write that fails
// on any rank (a full disk) makes every rank throw the same FatalError, and the file is removed.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace crd::comm {
class Transport;
}

namespace crd::output {

class ResultFile {
 public:
  // Throws FatalError (on every rank, agreed) if the file cannot be created.
  ResultFile(comm::Transport& transport, std::string final_path);
  ~ResultFile();
  ResultFile(const ResultFile&) = delete;
  ResultFile& operator=(const ResultFile&) = delete;

  void commit();

  void create_group(const std::string& path);  // parents created as needed

  // Attributes on a group or dataset ("/" for the root); all ranks pass the same value.
  void set_attribute(const std::string& object, const std::string& name, std::string_view value);
  void set_attribute(const std::string& object, const std::string& name, const char* value) {
    set_attribute(object, name, std::string_view(value));
  }
  void set_attribute(const std::string& object, const std::string& name, std::uint64_t value);
  void set_attribute(const std::string& object, const std::string& name, std::int64_t value);
  void set_attribute(const std::string& object, const std::string& name, double value);

  void write_column(const std::string& path, std::span<const std::uint64_t> local);
  void write_column(const std::string& path, std::span<const std::uint32_t> local);
  void write_column(const std::string& path, std::span<const std::int32_t> local);
  void write_column(const std::string& path, std::span<const double> local);
  void write_column(const std::string& path, std::span<const std::uint8_t> local);
  // n × width uint8 (hashes: width 20). local.size() must be a multiple of width.
  void write_matrix(const std::string& path, std::span<const std::uint8_t> local, std::size_t width);
  // Fixed-length null-padded byte strings (h5py: |S<width>); width = longest over all ranks, ≥ 1.
  void write_strings(const std::string& path, const std::vector<std::string>& local);
  // A list per row, stored CSR-style: `path` holds all values, `ragged_offsets_path(path)` holds n+1
  // global offsets (uint64) so row i is values[offsets[i]:offsets[i+1]].
  void write_ragged(const std::string& path, const std::vector<std::vector<std::uint32_t>>& local_rows);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Where write_ragged puts a list column's n+1 offsets.
inline std::string ragged_offsets_path(const std::string& path) { return path + "_offsets"; }

}  // namespace crd::output
