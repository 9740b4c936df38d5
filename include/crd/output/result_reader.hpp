// ResultReader: read-only access to a crd result file with serial HDF5. Any process (or every
// rank independently) may open one; used by detect (labels), inspect and check.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace crd::output {

// What a dataset holds, as stored: enough to check a file's shape before reading it.
struct DatasetShape {
  enum class Kind { UnsignedInteger, SignedInteger, Float, FixedString, Other };
  bool exists = false;
  Kind kind = Kind::Other;
  std::size_t element_bytes = 0;     // bytes per element (a fixed string's width)
  std::vector<std::uint64_t> dims;   // one entry per dimension; empty for a scalar
};

class ResultReader {
 public:
  // Throws UsageError "PATH is not a crd result file (…)" if the file is missing, not HDF5, or
  // lacks crd's schema_version attribute; or if its schema version is newer than this crd's.
  // Every read first checks that the file stores the dataset's declared extent (stored_extent.hpp),
  // and, with memory_budget > 0 (--memory per rank), that the bytes read from this file so far,
  // this read included, stay within it: FatalError "cannot read 'PATH': …" (one line) otherwise.
  explicit ResultReader(const std::string& path, std::uint64_t memory_budget = 0);
  // Replaces the budget (for a reader that keeps only part of what it reads: the label loader).
  void set_memory_budget(std::uint64_t bytes);
  ~ResultReader();
  ResultReader(const ResultReader&) = delete;
  ResultReader& operator=(const ResultReader&) = delete;

  const std::string& path() const;
  bool has(const std::string& object) const;  // group or dataset
  std::uint64_t rows(const std::string& dataset) const;
  // exists = false if there is no dataset of that name (a group there is not a dataset).
  DatasetShape shape(const std::string& dataset) const;

  // Row ranges [first, first + count); count = ~0 reads to the end.
  static constexpr std::uint64_t kAll = ~std::uint64_t{0};
  std::vector<std::uint64_t> read_u64(const std::string& dataset, std::uint64_t first = 0, std::uint64_t count = kAll) const;
  std::vector<std::uint32_t> read_u32(const std::string& dataset, std::uint64_t first = 0, std::uint64_t count = kAll) const;
  std::vector<double> read_f64(const std::string& dataset, std::uint64_t first = 0, std::uint64_t count = kAll) const;
  std::vector<std::uint8_t> read_u8(const std::string& dataset, std::uint64_t first = 0, std::uint64_t count = kAll) const;
  // n × width uint8, row-major.
  std::vector<std::uint8_t> read_matrix(const std::string& dataset, std::uint64_t first = 0, std::uint64_t count = kAll) const;
  std::vector<std::string> read_strings(const std::string& dataset, std::uint64_t first = 0, std::uint64_t count = kAll) const;

  bool has_attribute(const std::string& object, const std::string& name) const;
  std::string attribute_string(const std::string& object, const std::string& name) const;
  double attribute_double(const std::string& object, const std::string& name) const;  // any numeric type
  std::uint64_t attribute_u64(const std::string& object, const std::string& name) const;

  struct Impl;  // defined in result_reader.cpp, whose helpers take it

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace crd::output
