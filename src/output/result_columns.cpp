// ResultFile column writers: over MPI each rank's slice lands at its exclusive-scan offset, written
// with one collective H5Dwrite (a rank with no rows selects nothing but still takes part); without
// MPI rank 0 gathers the slices in rank order and writes the dataset alone.
#include <algorithm>
#include <array>
#include <cstring>

#include "crd/comm/collectives.hpp"
#include "crd/base/error.hpp"
#include "result_file_impl.hpp"

namespace crd::output {
namespace {

// Datasets of at least this many bytes are chunked and deflated; small ones stay contiguous,
// where compression would gain little and chunk bookkeeping would cost more than it saves.
constexpr std::uint64_t kCompressFromBytes = 1u << 20;
constexpr std::uint64_t kChunkBytes = 1u << 20;
constexpr unsigned kDeflateLevel = 1;  // counts and hashes: level 1 gets most of the gain, cheaply

Hid dataset_creation(hid_t file_type, std::uint64_t total_rows, std::uint64_t row_width, std::size_t elem_size) {
  Hid dcpl = make_hid(H5Pcreate(H5P_DATASET_CREATE), "H5Pcreate");
  check_h5(H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER), "H5Pset_fill_time");  // every row is written
  const std::uint64_t row_bytes = elem_size * std::max<std::uint64_t>(1, row_width);
  if (total_rows * row_bytes >= kCompressFromBytes) {
    const std::array<hsize_t, 2> chunk{std::clamp<hsize_t>(kChunkBytes / row_bytes, 1, total_rows), row_width};
    check_h5(H5Pset_chunk(dcpl.get(), row_width > 0 ? 2 : 1, chunk.data()), "H5Pset_chunk");
    // Byte shuffle groups the mostly-zero high bytes of integers; it only scrambles text.
    if (elem_size > 1 && H5Tget_class(file_type) != H5T_STRING) check_h5(H5Pset_shuffle(dcpl.get()), "H5Pset_shuffle");
    check_h5(H5Pset_deflate(dcpl.get(), kDeflateLevel), "H5Pset_deflate");
  }
  return dcpl;
}

// Creates dataset `path` of `total` rows in `file` (its dataspace in `file_space`).
Hid create_dataset(hid_t file, const std::string& path, const Hdf5Types& types, ColumnType type, std::uint64_t total,
                   std::uint64_t row_width, Hid& file_space) {
  const std::string what = "writing " + path;
  const std::array<hsize_t, 2> dims{total, row_width};
  file_space = make_hid(H5Screate_simple(row_width > 0 ? 2 : 1, dims.data(), nullptr), what);
  Hid lcpl = make_hid(H5Pcreate(H5P_LINK_CREATE), what);
  check_h5(H5Pset_create_intermediate_group(lcpl.get(), 1), what);
  Hid dcpl = dataset_creation(types.stored, total, row_width, type.bytes);
  return make_hid(
      H5Dcreate2(file, path.c_str(), types.stored, file_space.get(), lcpl.get(), dcpl.get(), H5P_DEFAULT), what);
}

}  // namespace

Hdf5Types hdf5_types(ColumnType type) {
  switch (type.kind) {
    case ColumnType::Kind::U64: return {H5T_NATIVE_UINT64, H5T_STD_U64LE, {}};
    case ColumnType::Kind::U32: return {H5T_NATIVE_UINT32, H5T_STD_U32LE, {}};
    case ColumnType::Kind::I32: return {H5T_NATIVE_INT32, H5T_STD_I32LE, {}};
    case ColumnType::Kind::F64: return {H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, {}};
    case ColumnType::Kind::U8: return {H5T_NATIVE_UINT8, H5T_STD_U8LE, {}};
    case ColumnType::Kind::FixedString: break;
  }
  Hid text = make_hid(H5Tcopy(H5T_C_S1), "H5Tcopy");
  check_h5(H5Tset_size(text.get(), type.bytes), "H5Tset_size");
  check_h5(H5Tset_strpad(text.get(), H5T_STR_NULLPAD), "H5Tset_strpad");
  const hid_t id = text.get();
  return {id, id, std::move(text)};
}

void ResultFile::Impl::write_rows(const std::string& path, ColumnType type, const void* data,
                                  std::uint64_t local_rows, std::uint64_t row_width) {
  if (mpi == nullptr) return write_gathered(path, type, data, local_rows, row_width);
  // Each rank is a process of its own here: the lock may span the collectives (hdf5_handle.hpp).
  const auto lock = hdf5_lock();
  const std::uint64_t offset = comm::exscan_sum(transport, local_rows);
  const std::uint64_t total = comm::sum(transport, local_rows);
  const int ndims = row_width > 0 ? 2 : 1;
  const std::string what = "writing " + path;

  // Two agreed steps: a rank whose dataset could not be created must not leave the others alone in
  // the collective H5Dwrite, and a write that failed on some ranks (a full disk) fails everywhere.
  Hdf5Types types{};
  Hid file_space;
  Hid dset;
  agreed_step(what, [&] {
    types = hdf5_types(type);
    dset = create_dataset(file.get(), path, types, type, total, row_width, file_space);
  });
  if (total == 0) return;  // same on every rank: nothing to transfer

  agreed_step(what, [&] {
    const std::array<hsize_t, 2> start{offset, 0};
    const std::array<hsize_t, 2> count{local_rows, row_width};
    const std::array<hsize_t, 2> mem_dims{std::max<hsize_t>(local_rows, 1), row_width};
    Hid mem_space = make_hid(H5Screate_simple(ndims, mem_dims.data(), nullptr), what);
    if (local_rows > 0) {
      check_h5(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
               what);
    } else {
      check_h5(H5Sselect_none(file_space.get()), what);
      check_h5(H5Sselect_none(mem_space.get()), what);
    }
    Hid dxpl = make_hid(H5Pcreate(H5P_DATASET_XFER), what);
    check_h5(H5Pset_dxpl_mpio(dxpl.get(), H5FD_MPIO_COLLECTIVE), what);
    static const std::uint64_t dummy = 0;  // HDF5 wants a buffer even when nothing is selected
    check_h5(H5Dwrite(dset.get(), types.memory, mem_space.get(), file_space.get(), dxpl.get(),
                      local_rows > 0 ? data : &dummy),
             what);
  });
}

void ResultFile::Impl::write_gathered(const std::string& path, ColumnType type, const void* data,
                                      std::uint64_t local_rows, std::uint64_t row_width) {
  const std::uint64_t row_bytes = type.bytes * std::max<std::uint64_t>(1, row_width);
  const std::vector<std::byte> all =
      comm::gather_concat_to_rank0<std::byte>(transport, {static_cast<const std::byte*>(data), local_rows * row_bytes});
  const std::uint64_t total = comm::sum(transport, local_rows);
  const std::string what = "writing " + path;
  agreed_step(what, [&] {  // rank 0 only
    const Hdf5Types types = hdf5_types(type);
    Hid file_space;
    Hid dset = create_dataset(file.get(), path, types, type, total, row_width, file_space);
    if (total > 0) check_h5(H5Dwrite(dset.get(), types.memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, all.data()), what);
  });
}

void ResultFile::write_column(const std::string& path, std::span<const std::uint64_t> local) {
  impl_->write_rows(path, {ColumnType::Kind::U64, 8}, local.data(), local.size(), 0);
}

void ResultFile::write_column(const std::string& path, std::span<const std::uint32_t> local) {
  impl_->write_rows(path, {ColumnType::Kind::U32, 4}, local.data(), local.size(), 0);
}

void ResultFile::write_column(const std::string& path, std::span<const std::int32_t> local) {
  impl_->write_rows(path, {ColumnType::Kind::I32, 4}, local.data(), local.size(), 0);
}

void ResultFile::write_column(const std::string& path, std::span<const double> local) {
  impl_->write_rows(path, {ColumnType::Kind::F64, 8}, local.data(), local.size(), 0);
}

void ResultFile::write_column(const std::string& path, std::span<const std::uint8_t> local) {
  impl_->write_rows(path, {ColumnType::Kind::U8, 1}, local.data(), local.size(), 0);
}

void ResultFile::write_matrix(const std::string& path, std::span<const std::uint8_t> local, std::size_t width) {
  // Agree before any HDF5 call: a bad argument on one rank must not strand the others.
  std::array<std::uint64_t, 2> widths{width, ~static_cast<std::uint64_t>(width)};
  comm::max(impl_->transport, std::span<std::uint64_t>(widths));
  const bool same_width = widths[0] == width && ~widths[1] == width;
  const bool ok = width > 0 && local.size() % std::max<std::size_t>(width, 1) == 0 && same_width;
  impl_->agree(ok, path + ": matrix width must be >= 1, equal on all ranks, and divide the data size");
  impl_->write_rows(path, {ColumnType::Kind::U8, 1}, local.data(), local.size() / width, width);
}

void ResultFile::write_strings(const std::string& path, const std::vector<std::string>& local) {
  std::size_t longest = 1;
  for (const auto& s : local) longest = std::max(longest, s.size());
  const std::size_t width = comm::max(impl_->transport, longest);
  std::vector<char> buffer(local.size() * width, '\0');
  for (std::size_t i = 0; i < local.size(); ++i) std::memcpy(buffer.data() + i * width, local[i].data(), local[i].size());
  impl_->write_rows(path, {ColumnType::Kind::FixedString, width}, buffer.data(), local.size(), 0);
}

void ResultFile::write_ragged(const std::string& path, const std::vector<std::vector<std::uint32_t>>& local_rows) {
  std::vector<std::uint32_t> values;
  std::vector<std::uint64_t> offsets;
  offsets.reserve(local_rows.size() + 1);
  std::uint64_t local_values = 0;
  for (const auto& row : local_rows) local_values += row.size();
  values.reserve(local_values);
  const std::uint64_t base = comm::exscan_sum(impl_->transport, local_values);
  const std::uint64_t total = comm::sum(impl_->transport, local_values);
  for (const auto& row : local_rows) {
    offsets.push_back(base + values.size());
    values.insert(values.end(), row.begin(), row.end());
  }
  // The closing offset (n+1-th entry) comes from the last rank, so the exscan of slice sizes still
  // places every entry at its global row index.
  if (impl_->transport.rank() == impl_->transport.size() - 1) offsets.push_back(total);
  write_column(path, std::span<const std::uint32_t>(values));
  write_column(ragged_offsets_path(path), std::span<const std::uint64_t>(offsets));
}

}  // namespace crd::output
