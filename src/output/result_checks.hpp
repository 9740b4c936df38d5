// The checks every read of a result file goes through (output/ only): a result may come from anyone
// (a colleague's labels, a downloaded --labels set), so nothing it declares is trusted before use.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "hdf5_handle.hpp"

namespace crd::output {

// What the caller is about to do with an object's values.
enum class ReadAs { Integer, Number, FixedString, String };

// Driven by the schema (include/crd/output/schema.hpp): each dataset and attribute it names is held
// to its class, rank, shape, datatype kind and layout, to its table's row count, and its values to
// their index ranges and monotone row starts. Objects the schema does not name are still held to a
// sane datatype and shape. A failed check throws FatalError "cannot read 'FILE': PATH RULE" (one
// line). The caller holds hdf5_lock().
class ResultChecks {
 public:
  ResultChecks(const std::string& file_path, hid_t file) : path_(file_path), file_(file) {}

  // The dataset, opened once its type and shape passed (checked once per dataset).
  Hid open_dataset(const std::string& name, ReadAs as);
  // Rows of a dataset (its first dimension), once it passed open_dataset's checks.
  std::uint64_t rows(const std::string& name);
  // The attribute, opened once it holds exactly one value of a sane type the read can use.
  Hid open_attribute(const std::string& object, const std::string& name, ReadAs as);

  // Every attribute of the schema the file holds, as open_attribute checks it: they are few and
  // small, and a file whose own description breaks the schema is refused by every command alike,
  // whichever attributes it happens to read.
  void check_attributes();

  // After n values of `name` were read: row starts ascend and stay within the
  // column they point into; an index stays below its table's rows.
  void check_values(const std::string& name, const std::uint64_t* values, std::size_t n);
  void check_values(const std::string& name, const std::uint32_t* values, std::size_t n);

  [[noreturn]] void refuse(const std::string& object, const std::string& rule) const;

 private:
  template <class T>
  void check_read(const std::string& name, const T* values, std::size_t n);
  void vet(const std::string& name);
  std::uint64_t table_rows(const std::string& table);
  std::uint64_t table_rows_of(const std::string& column);  // its table's rows, as this column says
  bool exists(const std::string& object) const;

  std::string path_;
  hid_t file_;
  std::map<std::string, std::uint64_t> rows_;  // datasets that passed, with their first dimension
};

// "" when `type` is one HDF5 can convert safely (an integer or IEEE float of a standard layout, or
// a string); else what is wrong with it. Corrupted layouts (a bit offset of 65,024) crash HDF5's
// conversions, so this runs before any read.
std::string type_problem(hid_t type);

}  // namespace crd::output
