// HDF5 identifier ownership and error-stack text for FatalError messages.
#include "hdf5_handle.hpp"

#include "crd/base/error.hpp"

namespace crd::output {
namespace {

herr_t collect(unsigned, const H5E_error2_t* err, void* data) {
  auto* out = static_cast<std::string*>(data);
  if (err->desc != nullptr && err->desc[0] != '\0') {
    if (!out->empty()) *out += "; ";
    *out += err->desc;
  }
  return 0;
}

}  // namespace

std::unique_lock<std::recursive_mutex> hdf5_lock() {
  static std::recursive_mutex mutex;
  return std::unique_lock(mutex);
}

std::string hdf5_error_text() {
  std::string text;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collect, &text);
  H5Eclear2(H5E_DEFAULT);
  return text.empty() ? "unknown HDF5 error" : text;
}

void check_h5(herr_t status, const std::string& what) {
  if (status < 0) throw FatalError(what + ": " + hdf5_error_text());
}

herr_t Hid::close() {
  if (id_ < 0) return 0;
  const hid_t id = std::exchange(id_, H5I_INVALID_HID);
  switch (H5Iget_type(id)) {
    case H5I_FILE: return H5Fclose(id);
    case H5I_GROUP: return H5Gclose(id);
    case H5I_DATASET: return H5Dclose(id);
    case H5I_DATASPACE: return H5Sclose(id);
    case H5I_DATATYPE: return H5Tclose(id);
    case H5I_ATTR: return H5Aclose(id);
    case H5I_GENPROP_LST: return H5Pclose(id);
    default: return H5Idec_ref(id) < 0 ? -1 : 0;
  }
}

Hid make_hid(hid_t id, const std::string& what) {
  if (id < 0) throw FatalError(what + ": " + hdf5_error_text());
  return Hid(id);
}

}  // namespace crd::output
