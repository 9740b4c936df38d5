// docs/schema.md against include/crd/output/schema.hpp, and real result files against both: the
// path index lists exactly the header's datasets and attributes with their types, every path the
// prose names exists in the header, and `crd run` / `crd label` / `crd neardup` / `crd quilts` / `crd merge` write
// every one with that type.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "crd/output/result_reader.hpp"
#include "crd/output/schema.hpp"
#include "support/test_paths.hpp"

namespace crd::output {
namespace {

// The stored type as docs/schema.md spells it ("uint64", "str", "uint8 n×20", …).
std::string type_name(hid_t type) {
  const std::size_t bits = 8 * H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_STRING:
      return "str";
    case H5T_INTEGER:
      return (H5Tget_sign(type) == H5T_SGN_NONE ? "uint" : "int") + std::to_string(bits);
    case H5T_FLOAT:
      return "float" + std::to_string(bits);
    default:
      return "other";
  }
}

std::string dataset_dtype(const std::string& file, const std::string& path) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d = H5Dopen2(f, path.c_str(), H5P_DEFAULT);
  const hid_t type = H5Dget_type(d), space = H5Dget_space(d);
  hsize_t dims[2] = {0, 0};
  const bool matrix = H5Sget_simple_extent_dims(space, dims, nullptr) == 2;
  const std::string out = type_name(type) + (matrix ? " n×" + std::to_string(dims[1]) : "");
  H5Sclose(space), H5Tclose(type), H5Dclose(d), H5Fclose(f);
  return out;
}

std::string attribute_dtype(const std::string& file, const char* object, const char* name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t a = H5Aopen_by_name(f, object, name, H5P_DEFAULT, H5P_DEFAULT);
  const hid_t type = H5Aget_type(a);
  const std::string out = type_name(type);
  H5Tclose(type), H5Aclose(a), H5Fclose(f);
  return out;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string read_doc() {
  std::ifstream in(env("CRD_SOURCE_DIR") + "/docs/schema.md");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// "| `PATH` | DTYPE | …" rows of the path index: path → dtype.
std::map<std::string, std::string> doc_index(const std::string& doc) {
  std::map<std::string, std::string> out;
  static const std::regex row(R"(\n\| `(/[^`]*)` \| ([^|]+?) \|)");
  for (std::sregex_iterator it(doc.begin(), doc.end(), row), end; it != end; ++it) out[(*it)[1]] = (*it)[2];
  return out;
}

std::map<std::string, std::string> header_index() {
  std::map<std::string, std::string> out;
  for (const auto& d : schema::all_datasets()) out[d.path] = d.dtype;
  for (const auto& a : schema::all_attributes()) out[std::string(a.object) + "@" + a.name] = a.dtype;
  return out;
}

std::string group_of(const std::string& path) {
  const auto at = path.find('@');
  if (at != std::string::npos) return path.substr(0, at);
  return path.substr(0, path.rfind('/'));
}

TEST(SchemaDoc, PathIndexIsTheHeader) {
  const std::string doc = read_doc();
  ASSERT_FALSE(doc.empty()) << "docs/schema.md not found under CRD_SOURCE_DIR";
  const auto documented = doc_index(doc);
  const auto defined = header_index();
  for (const auto& [path, dtype] : defined) {
    const auto it = documented.find(path);
    if (it == documented.end()) {
      ADD_FAILURE() << path << " is in schema.hpp but not in docs/schema.md";
    } else {
      EXPECT_EQ(it->second, dtype) << path;
    }
  }
  for (const auto& [path, dtype] : documented)
    EXPECT_TRUE(defined.count(path)) << path << " is documented but schema.hpp has no such path";
  EXPECT_EQ(defined.at("/discovery/files/length"), "uint64");  // what the field list alone would not say
  EXPECT_EQ(defined.at("/discovery/chunks/length"), "uint32");
  EXPECT_FALSE(defined.count("/discovery/files/sample"));
}

// Every path the prose mentions (`/group/`, `/group/column`, `/`) is one the header defines.
TEST(SchemaDoc, ProsePathsExist) {
  std::set<std::string> known{"/", schema::kRun, schema::kDiscovery, schema::kDetection, schema::kCompareHashing};
  for (const auto& [path, dtype] : header_index()) {
    known.insert(path);
    for (std::string g = group_of(path); !g.empty(); g = group_of(g)) known.insert(g);
  }
  const std::string doc = read_doc();
  static const std::regex quoted("`(/[^`@ ]*)`");
  int seen = 0;
  for (std::sregex_iterator it(doc.begin(), doc.end(), quoted), end; it != end; ++it, ++seen) {
    std::string path = (*it)[1];
    if (path.size() > 1 && path.back() == '/') path.pop_back();
    EXPECT_TRUE(known.count(path)) << "docs/schema.md names " << path << ", which schema.hpp does not define";
  }
  EXPECT_GT(seen, 60);
}

// A small corpus where chunks repeat, so every table has rows.
std::string make_corpus(const std::string& dir) {
  const std::string root = dir + "/corpus/example.org";
  std::system(("mkdir -p " + root + "/a").c_str());
  const char* shared = "<p>shared paragraph one, long enough to count</p><div>shared block two</div>";
  for (int i = 0; i < 4; ++i) {
    std::ofstream(root + "/a/page" + std::to_string(i) + ".html")
        << "<html><body>" << shared << "<p>own text " << i << "</p></body></html>";
  }
  std::ofstream(root + "/same.html") << shared;
  std::ofstream(root + "/a/same.html") << shared;
  return dir + "/corpus";
}

void run_crd(const std::string& args) {
  const std::string cmd = env("MPIEXEC") + " -np 2 " + env("CRD_BINARY") + " " + args + " --progress-interval 0";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

TEST(SchemaDoc, RealFilesHoldEveryPathWithItsType) {
  if (env("CRD_BINARY").empty() || env("MPIEXEC").empty()) GTEST_SKIP() << "run under ctest (CRD_BINARY, MPIEXEC)";
  const std::string dir = testing::make_temp_dir("schema_doc");
  const std::string corpus = make_corpus(dir);
  run_crd("run " + corpus + " --chunk-threshold 1 --file-threshold 1 --keep-counts -o " + dir + "/run.h5");
  run_crd("label " + corpus + " -o " + dir + "/label.h5");
  // --page-threshold betabinomial and --cross-host-stop-hosts: their attributes are written only with them.
  run_crd("detect " + corpus + " --labels " + dir +
          "/label.h5 --pairs 2 --page-threshold betabinomial --cross-host-stop-hosts 4 -o " + dir + "/pairs.h5");
  // --min-jaccard: its attributes are written only with it.
  run_crd("neardup " + corpus + " --min-jaccard 0.5 -o " + dir + "/neardup.h5");
  run_crd("quilts " + corpus + " --sweep-c 1,2 -o " + dir + "/quilts.h5");
  std::ofstream(dir + "/truth.txt") << "example.org/a\n";
  run_crd("compare-hashing " + corpus + " --labels " + dir + "/label.h5 --truth " + dir + "/truth.txt -o " + dir +
          "/compare.h5 > /dev/null");
  run_crd("merge " + dir + "/run.h5 --chunk-threshold 1 -o " + dir + "/merge.h5");
  const ResultReader run(dir + "/run.h5");
  const ResultReader label(dir + "/label.h5");
  const ResultReader neardup(dir + "/neardup.h5");
  const ResultReader compare(dir + "/compare.h5");
  const ResultReader quilts(dir + "/quilts.h5");
  const ResultReader pairs(dir + "/pairs.h5");
  const ResultReader merge(dir + "/merge.h5");
  auto file_for = [&](const std::string& group) -> const ResultReader& {
    if (group.rfind(schema::kMergeInputs.group, 0) == 0) return merge;
    if (group.rfind(schema::kDetectionPairs.group, 0) == 0) return pairs;
    if (group.rfind(schema::kNeardup, 0) == 0) return neardup;
    if (group.rfind(schema::kQuilts, 0) == 0) return quilts;
    if (group.rfind(schema::kCompareHashing, 0) == 0) return compare;
    return group.rfind(schema::kLabels.group, 0) == 0 ? label : run;
  };
  // same.html and a/same.html have the same tokens: one identity set, represented by the smaller key.
  const auto identical = read_table(neardup, schema::kNeardupIdentical);
  ASSERT_EQ(identical.size(), 1u);
  EXPECT_EQ(identical[0].page, "example.org/same.html");
  EXPECT_EQ(identical[0].representative, "example.org/a/same.html");
  EXPECT_GT(compare.rows(schema::kConfusion.column(&ConfusionRow::method)), 0u);
  EXPECT_GT(run.rows(schema::kPages.column(&detect::PageRow::url)), 0u);
  EXPECT_GT(run.rows(schema::kProvenance.column(&ProvenanceRow::url)), 0u);
  EXPECT_GT(label.rows(schema::kLabels.column(&discover::LabelRow::hash)), 0u);
  EXPECT_GT(pairs.rows(schema::kDetectionPairs.column(&SimilarityPairRow::page)), 0u);
  for (const auto& d : schema::all_datasets()) {
    const ResultReader& r = file_for(d.path);
    ASSERT_TRUE(r.has(d.path)) << d.path << " missing from " << r.path();
    EXPECT_EQ(dataset_dtype(r.path(), d.path), d.dtype) << d.path;
  }
  for (const auto& a : schema::all_attributes()) {
    const std::string name(a.name);
    const bool optional = name.rfind("page_beta_", 0) == 0 || name.rfind("cross_host_stop_", 0) == 0;
    const ResultReader& r = optional ? pairs : file_for(a.object);
    ASSERT_TRUE(r.has_attribute(a.object, a.name)) << a.object << "@" << a.name << " missing from " << r.path();
    EXPECT_EQ(attribute_dtype(r.path(), a.object, a.name), a.dtype) << a.object << "@" << a.name;
  }
  // Rows read back through the field lists are the ones written: pages sorted by url.
  const auto pages = read_table(run, schema::kPages);
  ASSERT_EQ(pages.size(), 6u);
  EXPECT_EQ(pages[0].url, "example.org/a/page0.html");
  EXPECT_EQ(pages[0].chunks, 4u);  // the scan chunker keeps "<html><body>", shared by the four pages
  EXPECT_EQ(pages[0].labeled, 3u);
  EXPECT_DOUBLE_EQ(pages[0].containment, 0.75);
  EXPECT_EQ(pages[0].positions, (std::vector<std::uint32_t>{0, 1, 2}));
  ASSERT_EQ(pages[0].label_ids.size(), 3u);
  const auto labels = read_table(run, schema::kDetectionLabels);
  ASSERT_EQ(labels.size(), 3u);
  EXPECT_EQ(labels.at(pages[0].label_ids[1]).sample, "<p>shared paragraph one, long enough to count</p>");
  EXPECT_EQ(labels.at(pages[0].label_ids[2]).sample, "<div>shared block two</div>");
  EXPECT_EQ(pages[5].url, "example.org/same.html");
  // crd quilts: same.html and a/same.html share every gram (each the other's one source).
  const auto quilt_pages = read_table(quilts, schema::kQuiltPages);
  const auto same = std::find_if(quilt_pages.begin(), quilt_pages.end(),
                                 [](const quilts::PageRow& r) { return r.url == "example.org/same.html"; });
  ASSERT_NE(same, quilt_pages.end());
  EXPECT_EQ(same->patch_grams, same->grams);
  EXPECT_EQ(same->sources, 1u);
  EXPECT_EQ(read_table(quilts, schema::kQuiltSweep).size(), 3u);  // c ∈ {1, 2, 4}
}

}  // namespace
}  // namespace crd::output
