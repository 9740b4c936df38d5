// Declared extents against the file's storage (stored_extent.hpp).
#include "stored_extent.hpp"

#include <vector>

#include "crd/base/error.hpp"
#include "crd/base/saturating.hpp"
#include "hdf5_handle.hpp"

namespace crd::output {
namespace {

std::string describe(const std::vector<hsize_t>& dims) {
  std::string out = "(";
  for (std::size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + std::to_string(dims[i]);
  return out + (dims.size() == 1 ? ",)" : ")");
}

}  // namespace

void check_stored_extent(hid_t dataset, const std::string& path, const std::string& name) {
  Hid space = make_hid(H5Dget_space(dataset), "cannot read '" + path + "': " + name);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank <= 0) return;  // a scalar (or null dataspace): one element at most
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  Hid type = make_hid(H5Dget_type(dataset), "cannot read '" + path + "': " + name);
  std::uint64_t elements = 1;  // saturated: HDF5 allows dimensions up to 2^64 − 1
  for (const hsize_t d : dims) elements = saturating_mul(elements, d);
  if (elements == 0) return;
  const std::uint64_t declared = saturating_mul(elements, H5Tget_size(type.get()));

  const std::string says = "cannot read '" + path + "': " + name + " declares shape " + describe(dims) + " (" +
                           std::to_string(declared) + " bytes) but ";
  Hid dcpl = make_hid(H5Dget_create_plist(dataset), "cannot read '" + path + "': " + name);
  const H5D_layout_t layout = H5Pget_layout(dcpl.get());
  if (layout == H5D_VIRTUAL || H5Pget_external_count(dcpl.get()) > 0)
    throw FatalError(says + "keeps its data outside the file (crd never writes external or virtual datasets)");
  const std::uint64_t stored = H5Dget_storage_size(dataset);
  if (layout == H5D_COMPACT) {  // the data is in the object header: as much as the header says
    if (stored < declared)
      throw FatalError(says + "its compact storage holds only " + std::to_string(stored) + " bytes");
    return;
  }
  if (stored == 0) throw FatalError(says + "stores no data");
  if (layout == H5D_CONTIGUOUS) {
    if (stored < declared) throw FatalError(says + "stores only " + std::to_string(stored) + " bytes");
    return;
  }
  // Chunked: every chunk the extent spans must be there (an unwritten chunk reads as fill values).
  std::vector<hsize_t> chunk(dims.size());
  if (H5Pget_chunk(dcpl.get(), rank, chunk.data()) != rank) throw FatalError(says + "has an unreadable chunk layout");
  std::uint64_t needed = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (chunk[i] == 0) throw FatalError(says + "has an unreadable chunk layout");
    needed = saturating_mul(needed, dims[i] / chunk[i] + (dims[i] % chunk[i] != 0));
  }
  hsize_t allocated = 0;
  // The whole extent is selected in `space` (HDF5 1.10 refuses H5S_ALL here).
  if (H5Dget_num_chunks(dataset, space.get(), &allocated) < 0) throw FatalError(says + hdf5_error_text());
  if (allocated < needed)
    throw FatalError(says + "stores only " + std::to_string(allocated) + " of its " + std::to_string(needed) +
                     " chunks");
}

}  // namespace crd::output
