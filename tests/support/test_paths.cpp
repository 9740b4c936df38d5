// Locates shared test data through the environment set by CTest (cmake/CrdTesting.cmake).
#include "support/test_paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <random>
#include <vector>

namespace crd::testing {
namespace fs = std::filesystem;

namespace {
std::optional<std::string> existing_dir(const char* env, const std::string& suffix) {
  const char* base = std::getenv(env);
  if (base == nullptr) return std::nullopt;
  fs::path p = fs::path(base) / suffix;
  std::error_code ec;
  if (!fs::is_directory(p, ec)) return std::nullopt;
  return p.lexically_normal().string();
}

std::mutex temp_mutex;
std::vector<fs::path>& temp_dirs() {
  static std::vector<fs::path> dirs;
  static const bool registered = [] {
    std::atexit([] {
      std::error_code ec;
      for (const auto& d : temp_dirs()) fs::remove_all(d, ec);
    });
    return true;
  }();
  (void)registered;
  return dirs;
}
}  // namespace

std::optional<std::string> warc_samples_dir() { return existing_dir("CRD_SHARED_DIR", "data/warc-samples"); }

std::optional<std::string> corpus_dir() { return existing_dir("CRD_CORPUS_DIR", ""); }

std::string make_temp_dir(const std::string& tag) {
  std::lock_guard lock(temp_mutex);
  std::random_device rd;
  fs::path p = fs::temp_directory_path() / ("crd-test-" + tag + "-" + std::to_string(rd()));
  fs::create_directories(p);
  temp_dirs().push_back(p);
  return p.string();
}

}  // namespace crd::testing
