// Validation of a labeled set's columns (see label_file_shape.hpp).
#include "label_file_shape.hpp"

#include <cstdint>

#include "crd/base/error.hpp"

namespace crd::pipeline {
namespace {

using Kind = output::DatasetShape::Kind;

std::string describe_dims(const output::DatasetShape& s) {
  if (s.dims.empty()) return "a scalar";
  std::string out = "shape (";
  for (std::size_t i = 0; i < s.dims.size(); ++i) out += (i ? ", " : "") + std::to_string(s.dims[i]);
  return out + (s.dims.size() == 1 ? ",)" : ")");
}

std::string describe_type(const output::DatasetShape& s) {
  const std::string bits = std::to_string(8 * s.element_bytes);
  switch (s.kind) {
    case Kind::UnsignedInteger: return "uint" + bits;
    case Kind::SignedInteger: return "int" + bits;
    case Kind::Float: return "float" + bits;
    case Kind::FixedString: return "fixed-length strings";
    case Kind::Other: break;
  }
  return "a type crd does not write (compound, variable-length, …)";
}

class Checker {
 public:
  Checker(const output::ResultReader& reader, const std::string& group) : reader_(reader), group_(group) {}

  output::DatasetShape require(const std::string& name) const {
    const output::DatasetShape s = reader_.shape(group_ + "/" + name);
    if (!s.exists) fail(name, "is missing (a labeled set needs hash and length)");
    return s;
  }

  void expect(bool ok, const std::string& name, const std::string& problem) const {
    if (!ok) fail(name, problem);
  }

  [[noreturn]] void fail(const std::string& name, const std::string& problem) const {
    throw UsageError("labels file " + reader_.path() + ": " + group_ + "/" + name + " " + problem);
  }

 private:
  const output::ResultReader& reader_;
  const std::string& group_;
};

}  // namespace

void check_label_file_shape(const output::ResultReader& reader, const std::string& group) {
  const Checker check(reader, group);
  const output::DatasetShape hash = check.require("hash");
  check.expect(hash.dims.size() == 2 && hash.dims[1] == 20, "hash",
               "has " + describe_dims(hash) + "; expected (n, 20): one 20-byte SHA-1 per row");
  check.expect(hash.kind == Kind::UnsignedInteger && hash.element_bytes == 1, "hash",
               "holds " + describe_type(hash) + "; expected uint8");
  const std::uint64_t rows = hash.dims[0];
  const std::string row_count = " rows but " + group + "/hash has " + std::to_string(rows);

  const output::DatasetShape length = check.require("length");
  check.expect(length.dims.size() == 1, "length", "has " + describe_dims(length) + "; expected one value per row");
  check.expect(length.kind == Kind::UnsignedInteger, "length",
               "holds " + describe_type(length) + "; expected unsigned integers");
  check.expect(length.dims[0] == rows, "length", "has " + std::to_string(length.dims[0]) + row_count);

  const output::DatasetShape sample = reader.shape(group + "/sample");
  if (!sample.exists) return;  // optional: /discovery/files-like sets carry none
  check.expect(sample.dims.size() == 1, "sample", "has " + describe_dims(sample) + "; expected one string per row");
  check.expect(sample.kind == Kind::FixedString, "sample",
               "holds " + describe_type(sample) + "; expected fixed-length strings");
  check.expect(sample.dims[0] == rows, "sample", "has " + std::to_string(sample.dims[0]) + row_count);
}

}  // namespace crd::pipeline
