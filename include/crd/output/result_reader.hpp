// ResultReader: read-only access to a crd result file with serial HDF5. Any process (or every
// rank independently) may open one; used by detect (labels), inspect and check.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace crd::output {

class ResultReader {
 public:
  // Throws UsageError "PATH is not a crd result file (…)" if the file is missing, not HDF5, or
  // lacks crd's schema_version attribute; or if its schema version is newer than this crd's.
  explicit ResultReader(const std::string& path);
  ~ResultReader();
  ResultReader(const ResultReader&) = delete;
  ResultReader& operator=(const ResultReader&) = delete;

  const std::string& path() const;
  bool has(const std::string& object) const;  // group or dataset
  std::uint64_t rows(const std::string& dataset) const;

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

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace crd::output
