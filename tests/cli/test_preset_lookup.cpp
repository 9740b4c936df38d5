// --config NAME finds an installed preset through CRD_HOME or the executable's own prefix.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "preset_lookup.hpp"
#include "support/test_paths.hpp"

namespace crd::cli {
namespace {
namespace fs = std::filesystem;

void write(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "chunk-threshold = 3\n";
}

TEST(PresetLookup, DirectoriesComeFromCrdHomeThenTheExecutablesPrefix) {
  EXPECT_EQ(preset_dirs("/opt/crd/share/crd", "/moved/bin/crd"),
            (std::vector<std::string>{"/opt/crd/share/crd/configs", "/moved/share/crd/configs"}));
  EXPECT_EQ(preset_dirs(nullptr, "/moved/bin/crd"), std::vector<std::string>{"/moved/share/crd/configs"});
  EXPECT_EQ(preset_dirs("", ""), std::vector<std::string>{});
}

TEST(PresetLookup, ANameIsFoundWithOrWithoutItsExtensionInTheFirstDirectoryHoldingIt) {
  const fs::path root = crd::testing::make_temp_dir("presets");
  const fs::path home = root / "home" / "configs";
  const fs::path moved = root / "moved" / "share" / "crd" / "configs";
  write(home / "mine.ini");
  write(moved / "mine.ini");
  write(moved / "quickstart.ini");
  const std::vector<std::string> dirs{home.string(), moved.string()};
  EXPECT_EQ(find_preset("mine", dirs), (home / "mine.ini").string());
  EXPECT_EQ(find_preset("quickstart", dirs), (moved / "quickstart.ini").string());
  EXPECT_EQ(find_preset("quickstart.ini", dirs), (moved / "quickstart.ini").string());
  EXPECT_EQ(find_preset("absent", dirs), std::nullopt);
}

TEST(PresetLookup, PathsAndExistingFilesAreTakenAsGiven) {
  const fs::path root = crd::testing::make_temp_dir("presets-paths");
  write(root / "configs" / "a.ini");
  const std::vector<std::string> dirs{(root / "configs").string()};
  EXPECT_EQ(find_preset("./a", dirs), "./a");  // a path is never looked up
  EXPECT_EQ(find_preset((root / "x.ini").string(), dirs), (root / "x.ini").string());
  const fs::path cwd = fs::current_path();
  fs::current_path(root / "configs");
  EXPECT_EQ(find_preset("a.ini", {"/nonexistent"}), "a.ini");  // a file in the working directory wins
  fs::current_path(cwd);
}

TEST(PresetLookup, ALocalDirectoryNamedLikeAPresetDoesNotHideIt) {
  const fs::path root = crd::testing::make_temp_dir("presets-dir");
  write(root / "configs" / "quickstart.ini");
  fs::create_directories(root / "work" / "quickstart");
  const fs::path cwd = fs::current_path();
  fs::current_path(root / "work");
  EXPECT_EQ(find_preset("quickstart", {(root / "configs").string()}), (root / "configs" / "quickstart.ini").string());
  EXPECT_EQ(find_preset("quickstart", {"/nonexistent"}), std::nullopt);
  fs::current_path(cwd);
}

// Run from its build tree (not installed), crd finds the presets of the source tree it was built
// from, after any installed ones; and says where it looked when a name is no preset.
TEST(PresetLookup, TheSourceTreesPresetsComeLast) {
  EXPECT_EQ(preset_dirs(nullptr, "/moved/bin/crd", "/src/crd/configs"),
            (std::vector<std::string>{"/moved/share/crd/configs", "/src/crd/configs"}));
  const std::vector<std::string> dirs = this_process_preset_dirs();
  ASSERT_FALSE(dirs.empty());
  EXPECT_EQ(dirs.back(), (fs::path(CRD_TEST_SOURCE_DIR) / "configs").string());
  const auto found = find_preset("quickstart", dirs);
  ASSERT_TRUE(found.has_value());
  EXPECT_TRUE(fs::is_regular_file(*found)) << *found;
  EXPECT_EQ(preset_search_note("nosuch", {"/a/configs", "/b/configs"}),
            " (no preset 'nosuch' or 'nosuch.ini' in /a/configs, /b/configs)");
  EXPECT_EQ(preset_search_note("./nosuch.ini", {"/a/configs"}), "");
}

}  // namespace
}  // namespace crd::cli
