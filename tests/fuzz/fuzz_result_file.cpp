// libFuzzer target: every reader of a crd result file (inspect, report, check --labels, merge and
// detect --labels, in process) over mutated real results. Whatever the file holds, crd must end in
// a result or one refusal, never a sanitizer report.
//
// Input: 4 header bytes, then an HDF5 file image (scripts/fuzz.sh seeds real results of every
// command behind 4 zero bytes). libFuzzer mutates the image's bytes; the header also picks a
// structural mutation made through the HDF5 API, which byte flips rarely reach:
//   header[0] % kOps: 0 none; 1 an attribute becomes a 2-element array; 2 a dataset becomes (n, 0);
//   3 (n, 3); 4 one row short; 5 scalar; 6 an integer value becomes huge; 7 an integer column is
//   reversed (row starts decrease); 8 a type gets an unusual bit layout (precision 16 at offset 8);
//   9 an attribute changes class (string <-> number);
//   header[1] the object (the n-th of the schema's datasets or attributes the file holds),
//   header[2..3] a parameter;
//   header[0] / kOps % 4 which command reads it.
#include <fcntl.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "crd/cli/main.hpp"
#include "crd/comm/local_transport.hpp"
#include "crd/output/schema.hpp"

namespace {

constexpr unsigned kOps = 10;

struct Workspace {
  std::string dir;
  std::string file;    // the mutated result
  std::string page;    // a page for check and detect
  std::string corpus;  // its directory
  std::string out;     // outputs of report, merge and detect
};

const Workspace& workspace() {
  static const Workspace w = [] {
    char tmpl[] = "/tmp/fuzz_result_file.XXXXXX";
    const char* made = mkdtemp(tmpl);
    if (made == nullptr) std::abort();
    Workspace out{made, std::string(made) + "/r.h5", std::string(made) + "/corpus/site.example/p.html",
                  std::string(made) + "/corpus", std::string(made) + "/out"};
    std::filesystem::create_directories(out.corpus + "/site.example");
    std::ofstream(out.page) << "<html><body><p>Shared paragraph number 1 is copied across every site of this small "
                               "corpus, word for word.</p><div>Own text of this page.</div></body></html>\n";
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    // inspect prints to stdout: keep libFuzzer's log readable (stderr, with any sanitizer report, stays).
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, STDOUT_FILENO);
    return out;
  }();
  return w;
}

// The n-th dataset or attribute of the schema, as (object path, attribute name). Taken from the
// schema rather than by iterating the file: HDF5's own iteration (H5Aiterate) crashes on some
// byte-corrupted headers, and the schema's objects are the ones crd reads.
struct Target {
  std::string object;
  std::string attribute;  // empty: the dataset itself
};

const std::vector<Target>& schema_datasets() {
  static const std::vector<Target> all = [] {
    std::vector<Target> out;
    for (const auto& d : crd::output::schema::all_datasets()) out.push_back({d.path, ""});
    return out;
  }();
  return all;
}

const std::vector<Target>& schema_attributes() {
  static const std::vector<Target> all = [] {
    std::vector<Target> out;
    for (const auto& a : crd::output::schema::all_attributes()) out.push_back({a.object, a.name});
    return out;
  }();
  return all;
}

// Recreates dataset `path` with `type` and `dims` (rank 0 = scalar) holding `bytes` (zero-padded).
void recreate_dataset(hid_t file, const std::string& path, hid_t type, const std::vector<hsize_t>& dims,
                      std::vector<unsigned char> bytes) {
  H5Ldelete(file, path.c_str(), H5P_DEFAULT);
  const hid_t space =
      dims.empty() ? H5Screate(H5S_SCALAR) : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  hsize_t n = 1;
  for (auto d : dims) n *= d;
  bytes.resize(n * H5Tget_size(type) + 1, 0);
  const hid_t d = H5Dcreate2(file, path.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (d >= 0) {
    if (n > 0) H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data());
    H5Dclose(d);
  }
  H5Sclose(space);
}

void mutate_dataset(hid_t file, const std::string& path, unsigned op, std::uint16_t param) {
  const hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  if (d < 0) return;
  const hid_t type = H5Dget_type(d);
  const hid_t space = H5Dget_space(d);
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(rank > 0 ? static_cast<std::size_t>(rank) : 0);
  if (rank > 0) H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  hsize_t n = 1;
  for (auto x : dims) n *= x;
  const std::size_t size = H5Tget_size(type);
  const bool is_integer = H5Tget_class(type) == H5T_INTEGER;
  const bool small = n * size < (std::size_t{64} << 20) && H5Tis_variable_str(type) <= 0;
  std::vector<unsigned char> bytes;
  if (small) {
    bytes.resize(n * size + 1);
    if (n > 0 && H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()) < 0) bytes.assign(n * size + 1, 0);
  }
  H5Sclose(space);
  H5Dclose(d);
  const hsize_t rows = dims.empty() ? 1 : dims[0];
  if (small) {
    switch (op) {
      case 2:
        recreate_dataset(file, path, type, {rows, 0}, {});
        break;
      case 3: {
        std::vector<unsigned char> wide;
        for (int k = 0; k < 3; ++k) wide.insert(wide.end(), bytes.begin(), bytes.end() - 1);
        recreate_dataset(file, path, type, {rows, 3}, wide);
        break;
      }
      case 4: {
        std::vector<hsize_t> shorter = dims.empty() ? std::vector<hsize_t>{0} : dims;
        if (shorter[0] > 0) --shorter[0];
        recreate_dataset(file, path, type, shorter, bytes);
        break;
      }
      case 5:
        recreate_dataset(file, path, type, {}, bytes);
        break;
      case 6:
        if (is_integer && n > 0) {
          const std::size_t at = (param % n) * size;
          const std::uint64_t huge = param & 1 ? 0xFFFFFFF0u : std::uint64_t{1} << 62;
          std::memcpy(bytes.data() + at, &huge, std::min<std::size_t>(size, sizeof huge));
          recreate_dataset(file, path, type, dims, bytes);
        }
        break;
      case 7:
        if (is_integer && n > 1) {
          std::vector<unsigned char> reversed(bytes.size(), 0);
          for (hsize_t i = 0; i < n; ++i)
            std::memcpy(reversed.data() + (n - 1 - i) * size, bytes.data() + i * size, size);
          recreate_dataset(file, path, type, dims, reversed);
        }
        break;
      case 8:
        if (is_integer && size == 8) {
          const hid_t odd = H5Tcopy(H5T_STD_U64LE);
          H5Tset_precision(odd, 16);
          H5Tset_offset(odd, 8);
          recreate_dataset(file, path, odd, dims, bytes);
          H5Tclose(odd);
        }
        break;
      default:
        break;
    }
  }
  H5Tclose(type);
}

void mutate_attribute(hid_t file, const Target& t, unsigned op) {
  const hid_t obj = H5Oopen(file, t.object.c_str(), H5P_DEFAULT);
  if (obj < 0) return;
  const hid_t a = H5Aopen(obj, t.attribute.c_str(), H5P_DEFAULT);
  bool was_string = false;
  if (a >= 0) {
    const hid_t type = H5Aget_type(a);
    was_string = H5Tget_class(type) == H5T_STRING;
    H5Tclose(type);
    H5Aclose(a);
  }
  H5Adelete(obj, t.attribute.c_str());
  const bool as_string = op == 9 ? !was_string : was_string;
  const hsize_t two = 2;
  const hid_t space = op == 1 ? H5Screate_simple(1, &two, nullptr) : H5Screate(H5S_SCALAR);
  if (as_string) {
    const hid_t str = H5Tcopy(H5T_C_S1);
    H5Tset_size(str, 8);
    const char text[] = "AAAAAAAABBBBBBBB";
    const hid_t na = H5Acreate2(obj, t.attribute.c_str(), str, space, H5P_DEFAULT, H5P_DEFAULT);
    if (na >= 0) {
      H5Awrite(na, str, text);
      H5Aclose(na);
    }
    H5Tclose(str);
  } else {
    const std::uint64_t values[2] = {0x4141414141414141u, 0x4141414141414141u};
    const hid_t na = H5Acreate2(obj, t.attribute.c_str(), H5T_STD_U64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    if (na >= 0) {
      H5Awrite(na, H5T_NATIVE_UINT64, values);
      H5Aclose(na);
    }
  }
  H5Sclose(space);
  H5Oclose(obj);
}

void mutate(const std::string& path, unsigned op, unsigned which, std::uint16_t param) {
  if (op == 0) return;
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  if (file < 0) return;
  // Only objects the file holds (the schema's lists are long; most results hold a few groups).
  std::vector<Target> present;
  const bool attributes = op == 1 || op == 9;
  for (const Target& t : attributes ? schema_attributes() : schema_datasets()) {
    const std::string& object = t.object;
    bool there = true;  // every path component, in turn (H5Lexists fails on a missing group)
    for (std::size_t slash = 0; there && object != "/" && slash != std::string::npos;) {
      slash = object.find('/', slash + 1);
      there = H5Lexists(file, object.substr(0, slash).c_str(), H5P_DEFAULT) > 0;
    }
    if (!there) continue;
    if (attributes && H5Aexists_by_name(file, object.c_str(), t.attribute.c_str(), H5P_DEFAULT) <= 0) continue;
    present.push_back(t);
  }
  if (!present.empty()) {
    const Target& t = present[which % present.size()];
    if (attributes)
      mutate_attribute(file, t, op);
    else
      mutate_dataset(file, t.object, op, param);
  }
  H5Fclose(file);
  H5Eclear2(H5E_DEFAULT);
}

int run(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int status = crd::cli::run_main(static_cast<int>(args.size()), argv.data());
  // run_main ends as a process does: it closes stdout (checked at exit). In this process the next
  // open() would then take descriptor 1, so the next command's HDF5 file would be "stdout": its
  // printing would go into that file and its exit would close HDF5's descriptor under it. Keep 1
  // on /dev/null between commands.
  const int null = open("/dev/null", O_WRONLY);
  if (null >= 0 && null != STDOUT_FILENO) {
    dup2(null, STDOUT_FILENO);
    close(null);
  }
  return status;
}

// The structural mutation runs in a child process. HDF5 1.10.8 writing into a byte-corrupted file
// can overrun its own heap blocks (it is not instrumented, so ASan sees nothing at the write); in
// this process that broke the allocator for a later input, and ASan stopped inside crd's next
// H5Fopen, far from the cause (valgrind finds crd's reads of that mutated file clean). crd never
// writes into a file it reads: only what crd does with the mutated file belongs to this target.
void mutate_in_child(const std::string& path, unsigned op, unsigned which, std::uint16_t param) {
  if (op == 0) return;
  const pid_t child = fork();
  if (child == 0) {
    mutate(path, op, which, param);
    _exit(0);
  }
  if (child > 0) waitpid(child, nullptr, 0);  // a child that crashed leaves the file as far as it got
}

// A job command (merge, detect) on one thread rank, as in_process_crd runs it.
void run_job(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  try {
    crd::comm::run_local(
        1, [&](crd::comm::Transport& t) { crd::cli::run_pipeline_on(t, static_cast<int>(args.size()), argv.data()); });
  } catch (const std::exception&) {
    // A refusal (UsageError, FatalError) is the expected end of a hostile file.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  const Workspace& w = workspace();
  {
    std::ofstream f(w.file, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data + 4), static_cast<std::streamsize>(size - 4));
  }
  mutate_in_child(w.file, data[0] % kOps, data[1], static_cast<std::uint16_t>(data[2] | data[3] << 8));
  std::filesystem::remove_all(w.out);
  std::filesystem::create_directories(w.out);
  switch (data[0] / kOps % 4) {
    case 0:
      run({"crd", "inspect", w.file});
      run({"crd", "report", w.file, "-o", w.out + "/r.html"});
      break;
    case 1:
      run({"crd", "check", "--labels", w.file, w.page});
      break;
    case 2:  // with a copy of itself: another file to merge, as hostile as the first
      std::filesystem::copy_file(w.file, w.out + "/copy.h5", std::filesystem::copy_options::overwrite_existing);
      run_job({"merge", w.file, w.out + "/copy.h5", "-o", w.out + "/m.h5", "--progress-interval", "0"});
      break;
    default:
      run_job({"detect", w.corpus, "--labels", w.file, "-o", w.out + "/d.h5", "--progress-interval", "0"});
      break;
  }
  return 0;
}
