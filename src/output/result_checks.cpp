// The checked read layer of a result file (result_checks.hpp), driven by the schema.
#include "result_checks.hpp"

#include <array>
#include <vector>

#include "crd/base/error.hpp"
#include "crd/base/saturating.hpp"
#include "crd/output/schema.hpp"

namespace crd::output {
namespace {

// Longer fixed strings than this are no URL, sample or config crd writes: a corrupted size.
constexpr std::uint64_t kMaxStringBytes = std::uint64_t{1} << 30;

// The schema, indexed once per process (it never changes).
struct Registry {
  std::map<std::string, DatasetSpec> datasets;
  std::map<std::string, std::vector<std::string>> tables;  // group → its columns, in schema order
  std::map<std::string, std::string> attributes;           // "OBJECT@NAME" → dtype
  std::map<std::string, std::string> indexes;              // column → the table its values are rows of
};

std::string attribute_key(const std::string& object, const std::string& name) { return object + "@" + name; }

const Registry& registry() {
  static const Registry r = [] {
    Registry out;
    for (auto& d : schema::all_datasets()) {
      out.tables[d.table].push_back(d.path);
      out.datasets.emplace(d.path, std::move(d));
    }
    for (const auto& a : schema::all_attributes()) out.attributes.emplace(attribute_key(a.object, a.name), a.dtype);
    for (const auto& i : schema::all_index_rules()) out.indexes.emplace(i.column, i.table);
    return out;
  }();
  return r;
}

std::string describe(const std::vector<hsize_t>& dims) {
  if (dims.empty()) return "a scalar";
  std::string out = "shape (";
  for (std::size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + std::to_string(dims[i]);
  return out + (dims.size() == 1 ? ",)" : ")");
}

std::string expected_shape(const DatasetSpec& spec) {
  return spec.width == 0 ? "(n,)" : "(n, " + std::to_string(spec.width) + ")";
}

const char* kind_name(DatasetSpec::Kind kind) {
  switch (kind) {
    case DatasetSpec::Kind::Integer:
      return "integers";
    case DatasetSpec::Kind::Float:
      return "floats";
    case DatasetSpec::Kind::FixedString:
      return "fixed-length strings";
  }
  return "?";
}

std::string type_name(hid_t type) {
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      return "integers";
    case H5T_FLOAT:
      return "floats";
    case H5T_STRING:
      return H5Tis_variable_str(type) > 0 ? "variable-length strings" : "fixed-length strings";
    default:
      return "a type crd does not write";
  }
}

bool class_fits(hid_t type, ReadAs as) {
  const H5T_class_t c = H5Tget_class(type);
  switch (as) {
    case ReadAs::Integer:
      return c == H5T_INTEGER;
    case ReadAs::Number:
      return c == H5T_INTEGER || c == H5T_FLOAT;
    case ReadAs::FixedString:
      return c == H5T_STRING && H5Tis_variable_str(type) <= 0;
    case ReadAs::String:
      return c == H5T_STRING;
  }
  return false;
}

const char* read_name(ReadAs as) {
  switch (as) {
    case ReadAs::Integer:
      return "integers";
    case ReadAs::Number:
      return "numbers";
    case ReadAs::FixedString:
      return "fixed-length strings";
    case ReadAs::String:
      return "a string";
  }
  return "?";
}

bool kind_fits(hid_t type, DatasetSpec::Kind kind) {
  switch (kind) {
    case DatasetSpec::Kind::Integer:
      return class_fits(type, ReadAs::Integer);
    case DatasetSpec::Kind::Float:
      return H5Tget_class(type) == H5T_FLOAT;
    case DatasetSpec::Kind::FixedString:
      return class_fits(type, ReadAs::FixedString);
  }
  return false;
}

// The class a schema attribute's dtype (as docs/schema.md spells it) asks for.
bool dtype_fits(hid_t type, const std::string& dtype) {
  if (dtype == "str") return class_fits(type, ReadAs::String);
  if (dtype == "float64") return class_fits(type, ReadAs::Number);
  return class_fits(type, ReadAs::Integer);
}

std::vector<hsize_t> dims_of(hid_t space) {
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(rank > 0 ? static_cast<std::size_t>(rank) : 0);
  if (rank > 0) H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  return dims;
}

}  // namespace

std::string type_problem(hid_t type) {
  const std::size_t size = H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_INTEGER: {
      const std::size_t precision = H5Tget_precision(type);
      const int offset = H5Tget_offset(type);
      const H5T_order_t order = H5Tget_order(type);
      if (size != 1 && size != 2 && size != 4 && size != 8)
        return "has an integer type of " + std::to_string(size) + " bytes (crd reads 1, 2, 4 or 8)";
      if (offset != 0 || precision != 8 * size || (order != H5T_ORDER_LE && order != H5T_ORDER_BE))
        return "has a corrupted integer type (" + std::to_string(size) + " bytes, precision " +
               std::to_string(precision) + ", bit offset " + std::to_string(offset) +
               "; crd reads only whole-byte integers at offset 0)";
      return "";
    }
    case H5T_FLOAT: {
      for (const hid_t ieee : {H5T_IEEE_F32LE, H5T_IEEE_F32BE, H5T_IEEE_F64LE, H5T_IEEE_F64BE})
        if (H5Tequal(type, ieee) > 0) return "";
      return "has a float type that is not IEEE 754 binary32 or binary64 (" + std::to_string(size) +
             " bytes, precision " + std::to_string(H5Tget_precision(type)) + ", bit offset " +
             std::to_string(H5Tget_offset(type)) + ")";
    }
    case H5T_STRING: {
      if (H5Tis_variable_str(type) > 0) return "";
      if (size == 0 || size > kMaxStringBytes)
        return "has fixed-length strings of " + std::to_string(size) + " bytes (crd reads 1 to 2^30)";
      return "";
    }
    default:
      return "has a type crd does not write (compound, enum, array, reference, …)";
  }
}

void ResultChecks::refuse(const std::string& object, const std::string& rule) const {
  throw FatalError("cannot read '" + path_ + "': " + object + " " + rule);
}

bool ResultChecks::exists(const std::string& object) const {
  // Each path component in turn: H5Lexists fails on a missing intermediate group.
  std::size_t pos = 0;
  while ((pos = object.find('/', pos + 1)) != std::string::npos)
    if (H5Lexists(file_, object.substr(0, pos).c_str(), H5P_DEFAULT) <= 0) return false;
  return H5Lexists(file_, object.c_str(), H5P_DEFAULT) > 0;
}

void ResultChecks::vet(const std::string& name) {
  if (rows_.contains(name)) return;
  if (!exists(name)) refuse(name, "is missing");
  Hid d(H5Dopen2(file_, name.c_str(), H5P_DEFAULT));
  if (!d.valid()) {
    H5Eclear2(H5E_DEFAULT);
    refuse(name, "is not a dataset");
  }
  Hid type(H5Dget_type(d.get()));
  Hid space(H5Dget_space(d.get()));
  if (!type.valid() || !space.valid()) {
    H5Eclear2(H5E_DEFAULT);
    refuse(name, "has an unreadable datatype or dataspace");
  }
  if (const std::string problem = type_problem(type.get()); !problem.empty()) refuse(name, problem);
  if (H5Sget_simple_extent_type(space.get()) != H5S_SIMPLE)
    refuse(name, "is a scalar or empty dataspace; crd columns have rows");
  const std::vector<hsize_t> dims = dims_of(space.get());
  std::uint64_t bytes = H5Tget_size(type.get());
  for (const hsize_t d_i : dims) bytes = saturating_mul(bytes, d_i);
  if (bytes == kSaturated) refuse(name, "declares " + describe(dims) + ", more bytes than 2^64");

  const auto& reg = registry();
  const auto spec_it = reg.datasets.find(name);
  if (spec_it == reg.datasets.end()) {
    // Not in the schema (a newer crd's column): only what any read relies on.
    if (dims.size() < 1 || dims.size() > 2) refuse(name, "has " + describe(dims) + "; expected 1-D or 2-D");
    rows_[name] = dims[0];
    return;
  }
  const DatasetSpec& spec = spec_it->second;
  if (!kind_fits(type.get(), spec.kind))
    refuse(name,
           "holds " + type_name(type.get()) + "; the schema says " + kind_name(spec.kind) + " (" + spec.dtype + ")");
  const bool shaped = spec.width == 0 ? dims.size() == 1 : dims.size() == 2 && dims[1] == spec.width;
  if (!shaped) refuse(name, "has " + describe(dims) + "; the schema says " + expected_shape(spec));
  rows_[name] = dims[0];
  if (spec.ragged) return;  // as long as its row starts say: checked when they are read
  // Every column of a table as long as its first: a column one short would be read past its end.
  const auto& columns = reg.tables.at(spec.table);
  for (const std::string& first : columns) {
    if (first == name) break;
    if (reg.datasets.at(first).ragged || !exists(first)) continue;
    const std::uint64_t expected = table_rows_of(first);
    // n + 1 row starts for n rows
    if (spec.values.empty() ? dims[0] != expected : dims[0] != saturating_add(expected, 1)) {
      rows_.erase(name);
      refuse(name, "has " + std::to_string(dims[0]) + " rows but " + first + " has " + std::to_string(expected) +
                       (spec.values.empty() ? "" : " (row starts: one more row than the table)"));
    }
    break;
  }
}

Hid ResultChecks::open_dataset(const std::string& name, ReadAs as) {
  vet(name);
  Hid d(H5Dopen2(file_, name.c_str(), H5P_DEFAULT));
  Hid type(H5Dget_type(d.get()));
  if (!d.valid() || !type.valid()) {
    H5Eclear2(H5E_DEFAULT);
    refuse(name, "cannot be opened");
  }
  if (!class_fits(type.get(), as)) refuse(name, "holds " + type_name(type.get()) + "; expected " + read_name(as));
  return d;
}

std::uint64_t ResultChecks::rows(const std::string& name) {
  vet(name);
  return rows_.at(name);
}

std::uint64_t ResultChecks::table_rows_of(const std::string& column) {
  const std::uint64_t stored = rows(column);
  const auto spec = registry().datasets.find(column);
  if (spec == registry().datasets.end() || spec->second.values.empty()) return stored;
  if (stored == 0) refuse(column, "holds no row starts; a row-starts column has one more row than its table");
  return stored - 1;
}

std::uint64_t ResultChecks::table_rows(const std::string& table) {
  const auto it = registry().tables.find(table);
  if (it == registry().tables.end()) return 0;
  for (const std::string& column : it->second)
    if (!registry().datasets.at(column).ragged && exists(column)) return table_rows_of(column);
  return 0;  // no such table: an index into it has nothing to point at
}

Hid ResultChecks::open_attribute(const std::string& object, const std::string& name, ReadAs as) {
  const std::string where = object + "@" + name;
  Hid a(H5Aopen_by_name(file_, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT));
  if (!a.valid()) {
    H5Eclear2(H5E_DEFAULT);
    refuse(where, "is missing or unreadable");
  }
  Hid space(H5Aget_space(a.get()));
  Hid type(H5Aget_type(a.get()));
  if (!space.valid() || !type.valid()) {
    H5Eclear2(H5E_DEFAULT);
    refuse(where, "has an unreadable datatype or dataspace");
  }
  if (H5Sget_simple_extent_type(space.get()) != H5S_SCALAR) {
    const hssize_t n = H5Sget_simple_extent_npoints(space.get());
    refuse(where, "holds " + describe(dims_of(space.get())) + (n >= 0 ? " (" + std::to_string(n) + " values)" : "") +
                      "; the schema says one value (a scalar)");
  }
  if (const std::string problem = type_problem(type.get()); !problem.empty()) refuse(where, problem);
  const auto& attrs = registry().attributes;
  if (const auto it = attrs.find(attribute_key(object, name)); it != attrs.end() && !dtype_fits(type.get(), it->second))
    refuse(where, "holds " + type_name(type.get()) + "; the schema says " + it->second);
  if (!class_fits(type.get(), as)) refuse(where, "holds " + type_name(type.get()) + "; expected " + read_name(as));
  return a;
}

void ResultChecks::check_attributes() {
  for (const auto& [key, dtype] : registry().attributes) {
    const std::size_t at = key.rfind('@');
    const std::string object = key.substr(0, at), name = key.substr(at + 1);
    if (object != "/" && !exists(object)) continue;
    if (H5Aexists_by_name(file_, object.c_str(), name.c_str(), H5P_DEFAULT) <= 0) {
      H5Eclear2(H5E_DEFAULT);
      continue;
    }
    (void)open_attribute(object, name, dtype == "str" ? ReadAs::String : ReadAs::Number);
  }
}

template <class T>
void ResultChecks::check_read(const std::string& name, const T* values, std::size_t n) {
  const auto& reg = registry();
  if (const auto it = reg.indexes.find(name); it != reg.indexes.end()) {
    const std::uint64_t limit = table_rows(it->second);
    for (std::size_t i = 0; i < n; ++i)
      if (values[i] >= limit)
        refuse(name, "holds row " + std::to_string(values[i]) + " of " + it->second + ", which has " +
                         std::to_string(limit) + " rows");
  }
  const auto spec = reg.datasets.find(name);
  if (spec == reg.datasets.end() || spec->second.values.empty()) return;
  const std::string& target = spec->second.values;
  const std::uint64_t limit = exists(target) ? rows(target) : 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (values[i] > limit)
      refuse(name, "holds row start " + std::to_string(values[i]) + " past the end of " + target + " (" +
                       std::to_string(limit) + " rows)");
    if (i > 0 && values[i] < values[i - 1])
      refuse(name, "row starts decrease (" + std::to_string(values[i - 1]) + " then " + std::to_string(values[i]) +
                       "); they must ascend");
  }
}

void ResultChecks::check_values(const std::string& name, const std::uint64_t* values, std::size_t n) {
  check_read(name, values, n);
}
void ResultChecks::check_values(const std::string& name, const std::uint32_t* values, std::size_t n) {
  check_read(name, values, n);
}

}  // namespace crd::output
