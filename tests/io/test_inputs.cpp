// Input expansion (files, directory walks, @LIST files), plain-file documents, sniffing, and
// shard assignment.
#include <errno.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <span>
#include <numeric>
#include <thread>

#include "archive_builder.hpp"
#include "crd/base/error.hpp"
#include "support/test_paths.hpp"

namespace crd::io::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> urls_of(const std::vector<InputFile>& files) {
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(f.url);
  return out;
}

class Inputs : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = crd::testing::make_temp_dir("io-inputs");
    tree_ = root_ + "/tree";
    fs::create_directories(tree_ + "/a/deeper");
    fs::create_directories(tree_ + "/sub");
    fs::create_directories(root_ + "/elsewhere");
    write_file(tree_, "b.html", "<p>b</p>");
    write_file(tree_, "a.txt", "a text");
    write_file(tree_, "A.HTM", "<p>A</p>");
    write_file(tree_, "a/z.txt", "z");
    write_file(tree_, "a/deeper/page.xhtml", "<html/>");
    write_file(tree_, "sub/crawl.warc.gz", gzip_member(warc_response("http://x/", "<p>x</p>")));
    write_file(tree_, "sub/old.ARC", "filedesc://old.arc 0.0.0.0 20240101000000 text/plain 2\n1 \n");
    write_file(tree_, "sub/blob.bin", std::string("\x00\x01\x02", 3));
    write_file(root_ + "/elsewhere", "linked.txt", "linked");
    fs::create_directory_symlink(root_ + "/elsewhere", tree_ + "/dirlink");
    fs::create_symlink(root_ + "/elsewhere/linked.txt", tree_ + "/filelink.txt");
  }
  std::string root_;
  std::string tree_;
};

TEST_F(Inputs, DirectoryWalkIsSortedByBytesWithRelativeUrls) {
  InputLog c;
  auto files = expand_inputs({tree_}, {}, c);
  // '.' (0x2e) < '/' (0x2f) and 'A' < 'a': byte order, not per-directory order.
  std::vector<std::string> want = {"A.HTM",   "a.txt",         "a/deeper/page.xhtml", "a/z.txt",          "b.html",
                                   "filelink.txt", "sub/blob.bin", "sub/crawl.warc.gz",  "sub/old.ARC"};
  EXPECT_EQ(urls_of(files), want);
  EXPECT_EQ(c.counters.get("skipped.input.dir_symlink"), 1u);  // dirlink is not followed
  EXPECT_TRUE(c.errors.empty());
  EXPECT_EQ(files[0].path, tree_ + "/A.HTM");
  EXPECT_EQ(files[0].kind, InputKind::PlainFile);
  EXPECT_EQ(files[7].kind, InputKind::Warc);
  EXPECT_EQ(files[8].kind, InputKind::Arc);
  EXPECT_EQ(files[5].size, 6u);  // the link's target
  // Every rank gets the same list.
  InputLog c2;
  EXPECT_EQ(urls_of(expand_inputs({tree_}, {}, c2)), want);
}

// A walk shared by `ways` ranks: each level's directories dealt out in turn, as
// scan/input_listing.cpp does across ranks.
std::vector<WalkedEntry> walk_dealt(const std::string& root, InputLog& c, std::size_t ways) {
  std::vector<WalkedEntry> files;
  std::vector<std::string> level{""};
  while (!level.empty()) {
    std::vector<std::string> next;
    for (std::size_t w = 0; w < ways; ++w) {
      std::vector<std::string> share;
      for (std::size_t i = w; i < level.size(); i += ways) share.push_back(level[i]);
      DirectoryRound round = read_directories(root, share, c);
      files.insert(files.end(), round.files.begin(), round.files.end());
      for (const auto& d : round.subdirs) next.push_back(d.rel);
    }
    level = std::move(next);
  }
  return files;
}

TEST_F(Inputs, AWalkDealtOutInRoundsEqualsTheSerialWalk) {
  InputLog c;
  const auto serial = expand_inputs({tree_}, {}, c);
  for (std::size_t ways : {1u, 2u, 3u, 7u}) {
    InputLog d;
    const auto dealt = expand_inputs({tree_}, {}, d, [&](const std::string& root, InputLog& cc) {
      auto files = walk_dealt(root, cc, ways);
      std::reverse(files.begin(), files.end());  // the order a walk returns does not matter
      return files;
    });
    ASSERT_EQ(urls_of(dealt), urls_of(serial)) << ways;
    for (std::size_t i = 0; i < dealt.size(); ++i) {
      EXPECT_EQ(dealt[i].size, serial[i].size) << dealt[i].url;
      EXPECT_EQ(dealt[i].kind, serial[i].kind) << dealt[i].url;
      EXPECT_EQ(dealt[i].path, serial[i].path) << dealt[i].url;
    }
    EXPECT_EQ(d.counters.values(), c.counters.values()) << ways;
  }
}

TEST_F(Inputs, ARoundReportsFilesWithSizesAndSubdirectories) {
  InputLog c;
  const std::vector<std::string> top{""};
  DirectoryRound round = read_directories(tree_, top, c);
  std::vector<std::string> subdirs;
  for (const auto& d : round.subdirs) subdirs.push_back(d.rel);
  std::sort(subdirs.begin(), subdirs.end());
  EXPECT_EQ(subdirs, (std::vector<std::string>{"a", "sub"}));  // not dirlink
  EXPECT_EQ(c.counters.get("skipped.input.dir_symlink"), 1u);
  std::map<std::string, std::uint64_t> sizes;
  for (const auto& f : round.files) sizes[f.rel] = f.size;
  EXPECT_EQ(sizes, (std::map<std::string, std::uint64_t>{{"A.HTM", 8}, {"a.txt", 6}, {"b.html", 8}, {"filelink.txt", 6}}));
  const std::vector<std::string> next{"a", "sub"};
  round = read_directories(tree_, next, c);
  ASSERT_EQ(round.subdirs.size(), 1u);
  EXPECT_EQ(round.subdirs[0].rel, "a/deeper");
  EXPECT_GT(round.subdirs[0].size, 0u);  // a directory's own size: how the ranks share a level
  EXPECT_EQ(round.files.size(), 4u);
}

TEST_F(Inputs, EntriesGoneDuringTheWalkAreCountedListedAndLeftOut) {
  InputLog c;
  const auto files = expand_inputs({tree_}, {}, c, [](const std::string& root, InputLog& cc) {
    std::vector<WalkedEntry> found;
    std::vector<std::string> level{""};
    bool first = true;
    while (!level.empty()) {
      DirectoryRound round = read_directories(root, level, cc);
      found.insert(found.end(), round.files.begin(), round.files.end());
      level.clear();
      for (const auto& d : round.subdirs) level.push_back(d.rel);
      if (first) fs::remove_all(root + "/a");  // between two rounds: "a" was listed, is gone
      first = false;
    }
    return found;
  });
  const auto urls = urls_of(files);
  EXPECT_EQ(std::count(urls.begin(), urls.end(), "a/z.txt"), 0);
  EXPECT_EQ(files.size(), 7u);
  EXPECT_EQ(c.counters.get("skipped.input.unreadable"), 1u);
  ASSERT_EQ(c.errors.size(), 1u);  // named, for /run/errors
  EXPECT_EQ(c.errors[0].file, tree_ + "/a");
  EXPECT_EQ(c.errors[0].reason, "input.unreadable");
  // A dangling link (or a file removed between readdir and its stat) is counted and listed as missing.
  fs::remove(root_ + "/elsewhere/linked.txt");
  InputLog d;
  const auto rest = expand_inputs({tree_}, {}, d);
  EXPECT_EQ(rest.size(), 6u);
  EXPECT_EQ(d.counters.get("skipped.input.missing"), 1u);
  ASSERT_EQ(d.errors.size(), 1u);
  EXPECT_EQ(d.errors[0].file, tree_ + "/filelink.txt");
  EXPECT_EQ(d.errors[0].reason, "input.missing");
}

TEST_F(Inputs, ADirectoryGivenTwiceIsReadOnce) {
  InputLog c;
  const auto once = expand_inputs({tree_}, {}, c);
  InputLog twice_counters;
  const auto twice = expand_inputs({tree_, tree_ + "/", tree_ + "/a/z.txt"}, {}, twice_counters);
  EXPECT_EQ(urls_of(twice), urls_of(once));
  EXPECT_EQ(twice_counters.counters.get("skipped.input.duplicate"), once.size() + 1);
}

TEST_F(Inputs, PlainFilesAreDocumentsTypedByExtensionThenSniffing) {
  InputLog log;
  auto files = expand_inputs({tree_}, {}, log);
  Counters c;
  std::map<std::string, Document> docs;
  for (const auto& f : files) {
    if (f.kind != InputKind::PlainFile) continue;
    read_input(f, c, [&](Document&& d) { docs[d.url] = std::move(d); });
  }
  ASSERT_EQ(docs.size(), 7u);
  EXPECT_EQ(docs["A.HTM"].content_type, "text/html");
  EXPECT_EQ(docs["a/deeper/page.xhtml"].content_type, "application/xhtml+xml");
  EXPECT_EQ(docs["a.txt"].content_type, "text/plain");
  EXPECT_EQ(docs["a.txt"].body, "a text");
  EXPECT_EQ(docs["sub/blob.bin"].content_type, "");
  EXPECT_FALSE(is_chunkable(docs["sub/blob.bin"]));
  EXPECT_TRUE(is_chunkable(docs["b.html"]));
  EXPECT_EQ(c.get("documents"), 7u);
  EXPECT_EQ(c.get("input.files"), 7u);
}

TEST_F(Inputs, PlainFileGivenDirectlyKeepsItsPath) {
  InputLog c;
  auto files = expand_inputs({tree_ + "/a/z.txt"}, {}, c);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].url, tree_ + "/a/z.txt");
}

TEST_F(Inputs, ListFilesResolveRelativeToThemselves) {
  fs::create_directories(root_ + "/lists");
  write_file(root_ + "/lists", "inner.txt", "../tree/a/z.txt\n");
  write_file(root_ + "/lists", "inputs.txt",
             "# comment line\n\n  ../tree/b.html  \r\n../tree/sub\n" + tree_ + "/a.txt\nmissing.warc\n@inner.txt\n"
             "../tree/b.html\n");
  InputLog c;
  auto files = expand_inputs({"@" + root_ + "/lists/inputs.txt"}, {.skip_missing = true}, c);
  std::vector<std::string> want = {root_ + "/lists/../tree/b.html", "blob.bin", "crawl.warc.gz", "old.ARC",
                                   tree_ + "/a.txt", root_ + "/lists/../tree/a/z.txt"};
  EXPECT_EQ(urls_of(files), want);
  EXPECT_EQ(c.counters.get("skipped.input.missing"), 1u);
  EXPECT_EQ(c.counters.get("skipped.input.duplicate"), 1u);  // b.html listed twice
}

TEST_F(Inputs, UsageErrors) {
  InputLog c;
  EXPECT_THROW(expand_inputs({"@" + root_ + "/no-such-list"}, {}, c), crd::UsageError);
  EXPECT_THROW(expand_inputs({root_ + "/nothing-here"}, {}, c), crd::UsageError);
  fs::create_directories(root_ + "/empty");
  EXPECT_THROW(expand_inputs({root_ + "/empty"}, {}, c), crd::UsageError);
  EXPECT_THROW(expand_inputs({}, {}, c), crd::UsageError);
  write_file(root_, "self.txt", "@self.txt\n");
  EXPECT_THROW(expand_inputs({"@" + root_ + "/self.txt"}, {}, c), crd::UsageError);
  try {
    expand_inputs({root_ + "/nothing-here"}, {}, c);
    ADD_FAILURE() << "no usage error";
  } catch (const crd::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("nothing-here"), std::string::npos);
  }
}

TEST_F(Inputs, ArchivesWithOtherNamesAreSniffedWhenGivenDirectly) {
  std::string p = write_file(root_, "capture.bin", gzip_member(warc_response("http://x/", "<p>x</p>")));
  std::string q = write_file(root_, "capture2.dat", "filedesc://x.arc 0.0.0.0 20240101000000 text/plain 0\n\n");
  InputLog c;
  auto files = expand_inputs({p, q}, {}, c);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].kind, InputKind::Warc);
  EXPECT_EQ(files[1].kind, InputKind::Arc);
}

// The UsageError expand_inputs throws for `args`, "" when it throws none.
std::string usage_error(const std::vector<std::string>& args, const ExpandOptions& options = {}) {
  InputLog log;
  try {
    expand_inputs(args, options, log);
  } catch (const crd::UsageError& e) {
    return e.what();
  }
  return {};
}

TEST_F(Inputs, AMissingNamedInputIsAUsageErrorNamingIt) {
  const std::string typo = root_ + "/typo.warc";
  EXPECT_EQ(usage_error({tree_ + "/a/z.txt", typo}),
            "input " + typo + ": No such file or directory (--skip-missing runs without it)");
  write_file(root_, "list.txt", "tree/a/z.txt\ntypo.warc\n");
  EXPECT_EQ(usage_error({"@" + root_ + "/list.txt"}),
            "input " + typo + " (@" + root_ + "/list.txt line 2): No such file or directory (--skip-missing runs without it)");
  // A path through a regular file is missing too (ENOTDIR).
  EXPECT_NE(usage_error({tree_ + "/a.txt/x.warc", tree_}).find(tree_ + "/a.txt/x.warc: Not a directory"), std::string::npos);
}

TEST_F(Inputs, WithSkipMissingAMissingInputIsListedByName) {
  const std::string typo = root_ + "/typo.warc";
  write_file(root_, "list.txt", "tree/a/z.txt\ntypo.warc\nalso-missing.arc\n");
  InputLog log;
  const auto files = expand_inputs({tree_ + "/b.html", "@" + root_ + "/list.txt"}, {.skip_missing = true}, log);
  EXPECT_EQ(urls_of(files), (std::vector<std::string>{tree_ + "/b.html", root_ + "/tree/a/z.txt"}));
  EXPECT_EQ(log.counters.get("skipped.input.missing"), 2u);
  ASSERT_EQ(log.errors.size(), 2u);
  EXPECT_EQ(log.errors[0].file, typo);
  EXPECT_EQ(log.errors[0].reason, "input.missing");
  EXPECT_EQ(log.errors[1].file, root_ + "/also-missing.arc");
  // Nothing found at all is still a usage error, and says why.
  EXPECT_EQ(usage_error({typo}, {.skip_missing = true}),
            "no input files found in: " + typo + " (1 left out, first " + typo + ": input.missing)");
}

TEST_F(Inputs, InputListsAreBoundedAndMustBeFilesOrPipes) {
  EXPECT_EQ(usage_error({"@/dev/zero"}), "input list @/dev/zero: is not a regular file");
  EXPECT_EQ(usage_error({"@" + tree_}), "input list @" + tree_ + ": is a directory, not a list of inputs");
  EXPECT_EQ(usage_error({"@" + root_ + "/absent.txt"}),
            "input list @" + root_ + "/absent.txt: cannot read it: No such file or directory");
  write_file(root_, "long.txt", tree_ + "/b.html\n" + std::string(20000, 'x') + "\n");
  EXPECT_EQ(usage_error({"@" + root_ + "/long.txt"}),
            "input list @" + root_ + "/long.txt: line 2 is longer than 16384 bytes (is it a list of inputs?)");
  // Too large, told by its size before a byte is read (a sparse file takes no space).
  const std::string huge = write_file(root_, "huge.txt", tree_ + "/b.html\n");
  fs::resize_file(huge, (256u << 20) + 1);
  EXPECT_EQ(usage_error({"@" + huge}),
            "input list @" + huge + ": is 268435457 bytes, more than an input list may hold (256 MiB)");
  // A pipe (process substitution) is read to its end.
  const std::string fifo = root_ + "/list.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { write_file(root_, "list.fifo", tree_ + "/b.html\n" + tree_ + "/a.txt"); });
  InputLog log;
  const auto files = expand_inputs({"@" + fifo}, {}, log);
  writer.join();
  EXPECT_EQ(urls_of(files), (std::vector<std::string>{tree_ + "/b.html", tree_ + "/a.txt"}));
}

// A unix socket bound at `path` (closed again: the file stays).
void make_socket_file(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof addr.sun_path);
  std::copy(path.begin(), path.end(), addr.sun_path);
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0) << path;
  ::close(fd);
}

// A fifo is never opened (opening one blocks until a writer comes): the walk would hang here.
TEST_F(Inputs, FifosSocketsAndLinksToThemAreCountedNeverOpened) {
  ASSERT_EQ(::mkfifo((tree_ + "/sub/pipe.html").c_str(), 0600), 0);
  make_socket_file(tree_ + "/sub/sock");
  fs::create_symlink(tree_ + "/sub/pipe.html", tree_ + "/a/pipelink.html");
  InputLog log;
  const auto files = expand_inputs({tree_}, {}, log);
  EXPECT_EQ(urls_of(files), (std::vector<std::string>{"A.HTM", "a.txt", "a/deeper/page.xhtml", "a/z.txt", "b.html",
                                                      "filelink.txt", "sub/blob.bin", "sub/crawl.warc.gz", "sub/old.ARC"}));
  EXPECT_EQ(log.counters.get("skipped.input.not_regular"), 3u);
  EXPECT_TRUE(log.errors.empty());  // an ordinary skip, as a link to a directory is
  // Named directly, a fifo is left out by name (and still not opened).
  InputLog named;
  const auto direct = expand_inputs({tree_ + "/sub/pipe.html", tree_ + "/b.html"}, {}, named);
  EXPECT_EQ(urls_of(direct), std::vector<std::string>{tree_ + "/b.html"});
  ASSERT_EQ(named.errors.size(), 1u);
  EXPECT_EQ(named.errors[0].file, tree_ + "/sub/pipe.html");
  EXPECT_EQ(named.errors[0].reason, "input.not_regular");
}

// A real bzip2 stream of "WARC/1.0\r\n", the start of an xz one, and zstd and lz4 frame magic.
const std::string kBzip2(
    "\x42\x5a\x68\x39\x31\x41\x59\x26\x53\x59\xff\x5d\x53\x0f\x00\x00\x04\xde\x00\x00\x12\x00\x01\xe0\x00\x28"
    "\x00\x10\x80\x20\x00\x22\x01\xa1\xea\x10\x03\x08\xb5\xab\x00\x3c\x5d\xc9\x14\xe1\x42\x43\xfd\x75\x4c\x3c", 52);
const std::string kXz("\xfd\x37\x7a\x58\x5a\x00\x00\x04\xe6\xd6\xb4\x46\x02\x00\x21\x01 and more", 25);
const std::string kZstd("\x28\xb5\x2f\xfd\x24\x0a\x51\x00\x00WARC/1.0", 17);
const std::string kLz4("\x04\x22\x4d\x18\x64\x40\xa7\x0a\x00\x00\x80WARC/1.0", 19);

TEST_F(Inputs, ArchivesInCompressionsCrdDoesNotReadAreRefusedByName) {
  write_file(tree_, "sub/crawl2.warc.bz2", kBzip2);
  write_file(tree_, "sub/crawl3.WARC.XZ", kXz);
  write_file(tree_, "sub/old2.arc.zst", kZstd);
  write_file(tree_, "sub/download.tar.xz", kXz);  // a file a site offers: one opaque document
  InputLog log;
  const auto files = expand_inputs({tree_}, {}, log);
  const auto urls = urls_of(files);
  EXPECT_EQ(std::count(urls.begin(), urls.end(), "sub/download.tar.xz"), 1);
  EXPECT_EQ(files.size(), 10u);
  EXPECT_EQ(log.counters.get("skipped.input.unsupported_compression"), 3u);
  ASSERT_EQ(log.errors.size(), 3u);
  std::vector<std::string> named;
  for (const auto& e : log.errors) {
    named.push_back(e.file);
    EXPECT_EQ(e.reason, "input.unsupported_compression");
  }
  std::sort(named.begin(), named.end());
  EXPECT_EQ(named, (std::vector<std::string>{tree_ + "/sub/crawl2.warc.bz2", tree_ + "/sub/crawl3.WARC.XZ",
                                             tree_ + "/sub/old2.arc.zst"}));
}

TEST_F(Inputs, NamedFilesAreRefusedByTheirMagicWhateverTheirName) {
  const std::vector<std::string> named = {write_file(root_, "capture.bin", kBzip2), write_file(root_, "c.dat", kXz),
                                          write_file(root_, "c.zz", kZstd), write_file(root_, "c.lz", kLz4)};
  std::vector<std::string> args = named;
  args.push_back(tree_ + "/b.html");
  InputLog log;
  const auto files = expand_inputs(args, {}, log);
  EXPECT_EQ(urls_of(files), std::vector<std::string>{tree_ + "/b.html"});
  ASSERT_EQ(log.errors.size(), 4u);
  for (std::size_t i = 0; i < named.size(); ++i) {
    EXPECT_EQ(log.errors[i].file, named[i]);
    EXPECT_EQ(log.errors[i].reason, "input.unsupported_compression");
  }
  // "BZh9" starting a text is not bzip2.
  const std::string text = write_file(root_, "bzh.txt", "BZh9 is not a compressed stream\n");
  InputLog plain;
  EXPECT_EQ(expand_inputs({text}, {}, plain).size(), 1u);
  EXPECT_TRUE(plain.errors.empty());
}

TEST_F(Inputs, AnArchiveNamedWarcButCompressedOtherwiseIsRefusedWhenRead) {
  const std::string p = write_file(root_, "crawl.warc", kBzip2);
  InputLog log;
  const auto files = expand_inputs({p}, {}, log);
  ASSERT_EQ(files.size(), 1u);
  ASSERT_EQ(files[0].kind, InputKind::Warc);
  Counters c;
  std::vector<ReadError> errors;
  int documents = 0;
  read_input(files[0], c, [&](Document&&) { ++documents; }, {}, &errors);
  EXPECT_EQ(documents, 0);
  EXPECT_EQ(c.get("skipped.input.unsupported_compression"), 1u);
  EXPECT_EQ(c.get("skipped.garbage"), 0u);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].file, p);
  EXPECT_EQ(errors[0].reason, "input.unsupported_compression");
}

// File names holding what a URL would read as a query, a fragment, an escape or a scheme: each
// page keeps a URL of its own.
TEST_F(Inputs, FileNamesBecomeUrlsThatKeyThemApart) {
  const std::string site = root_ + "/names";
  fs::create_directories(site + "/q");
  fs::create_directories(site + "/c:x");
  for (const char* name : {"q/a?x.html", "q/a?y.html", "q/a#1.html", "q/a%3Fx.html", "q/100%.html", "c:x/a.html"})
    write_file(site, name, std::string("<p>") + name);
  InputLog log;
  const auto files = expand_inputs({site}, {}, log);
  std::vector<std::string> urls;
  Counters c;
  for (const auto& f : files) read_input(f, c, [&](Document&& d) { urls.push_back(d.url); });
  EXPECT_EQ(urls, (std::vector<std::string>{"c%3Ax/a.html", "q/100%25.html", "q/a%231.html", "q/a%253Fx.html",
                                            "q/a%3Fx.html", "q/a%3Fy.html"}));
  // Given directly, the path itself is the URL, escaped alike.
  InputLog direct_log;
  const auto direct = expand_inputs({site + "/q/a?x.html"}, {}, direct_log);
  ASSERT_EQ(direct.size(), 1u);
  read_input(direct[0], c, [&](Document&& d) { EXPECT_EQ(d.url, site + "/q/a%3Fx.html"); });
}

TEST(Sniffing, IsChunkable) {
  auto chunkable = [](std::string type, std::string body) {
    Document d;
    d.content_type = std::move(type);
    d.body = std::move(body);
    return is_chunkable(d);
  };
  EXPECT_TRUE(chunkable("text/html", ""));
  EXPECT_TRUE(chunkable("application/xhtml+xml", "x"));
  EXPECT_TRUE(chunkable("text/plain", "x"));
  EXPECT_FALSE(chunkable("image/png", "<html>"));
  EXPECT_FALSE(chunkable("application/json", "{}"));
  EXPECT_TRUE(chunkable("", "\xEF\xBB\xBF  \n<!DOCTYPE HTML><html>"));
  EXPECT_TRUE(chunkable("application/octet-stream", "<P>para</P>"));
  EXPECT_TRUE(chunkable("", "<!-- comment -->"));
  EXPECT_TRUE(chunkable("", "<Div class=x>"));
  EXPECT_TRUE(chunkable("", "Just some words, caf\xC3\xA9.\n"));
  EXPECT_FALSE(chunkable("", std::string("text\0with nul", 13)));
  EXPECT_FALSE(chunkable("", "\x89PNG\r\n\x1a\n\x01\x02\x03\x04\x05\x06\x07\x08\x10\x11\x12\x13"));
  EXPECT_FALSE(chunkable("", ""));
  EXPECT_EQ(sniff_media_type("<pre>x</pre>"), "text/plain");  // "<pre" is not "<p"
  EXPECT_EQ(media_type_from_extension("x/INDEX.HTML"), "text/html");
  EXPECT_EQ(media_type_from_extension("x.html.gz"), "");
}

std::vector<InputFile> sized(const std::vector<std::uint64_t>& sizes) {
  std::vector<InputFile> out;
  for (std::size_t i = 0; i < sizes.size(); ++i) out.push_back(InputFile{"f" + std::to_string(i), "", sizes[i]});
  return out;
}

TEST(AssignShards, LargestFirstToLeastLoaded) {
  auto shards = assign_shards(sized({10, 100, 40, 90, 30, 50}), 2);
  // By hand, each file weighing size + 1: 100→r0 (101); 90→r1 (91); 50→r1 (142); 40→r0 (142);
  // 30: tie at 142 → lowest rank r0 (173); 10→r1 (153).
  ASSERT_EQ(shards.size(), 2u);
  EXPECT_EQ(shards[0], (std::vector<std::size_t>{1, 2, 4}));
  EXPECT_EQ(shards[1], (std::vector<std::size_t>{0, 3, 5}));
}

TEST(AssignShards, EveryFileOnceDeterministicAndBalanced) {
  std::vector<std::uint64_t> sizes;
  std::uint64_t x = 7;
  for (int i = 0; i < 1000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    sizes.push_back((x >> 33) % 1000000);
  }
  auto files = sized(sizes);
  for (int n : {1, 3, 7, 64}) {
    auto a = assign_shards(files, n);
    EXPECT_EQ(a, assign_shards(files, n));
    std::vector<int> seen(files.size(), 0);
    std::uint64_t lo = UINT64_MAX, hi = 0;
    for (const auto& s : a) {
      EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
      std::uint64_t load = 0;
      for (std::size_t i : s) {
        ++seen[i];
        load += files[i].size;
      }
      lo = std::min(lo, load);
      hi = std::max(hi, load);
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(files.size()));
    EXPECT_LE(hi - lo, 1000000u + 1000u) << n;  // greedy LPT: within one largest file
  }
}

// A gzip archive's byte is inflated to several, each then chunked and hashed: ranks share the
// scan's work, not the bytes on disk. A plain WARC of 600 bytes weighs as much as each of three
// .warc.gz of 100; by bytes on disk one rank got all three archives (6 times the other's work).
TEST(AssignShards, GzipArchivesWeighTheirInflatedBytes) {
  std::vector<InputFile> files{{"crawl/a.warc", "", 600, InputKind::Warc},
                               {"crawl/b.warc.gz", "", 100, InputKind::Warc},
                               {"crawl/c.WARC.GZ", "", 100, InputKind::Warc},
                               {"crawl/d.arc.gz", "", 100, InputKind::Arc},
                               {"site/page.html.gz", "", 100, InputKind::PlainFile}};
  EXPECT_EQ(scan_weight(files[0]), 600u);
  EXPECT_EQ(scan_weight(files[1]), 100 * kGzipScanWeight);
  EXPECT_EQ(scan_weight(files[2]), 100 * kGzipScanWeight);
  EXPECT_EQ(scan_weight(files[3]), 100 * kGzipScanWeight);
  EXPECT_EQ(scan_weight(files[4]), 100u);  // a page is read as it is, whatever its name
  EXPECT_EQ(scan_weight(InputFile{"x.warc.gz", "", UINT64_MAX / 2, InputKind::Warc}), UINT64_MAX);  // saturates
  files.pop_back();
  // Each weighs 601: a→r0, b→r1, c→r0 (tie at 601 → lowest rank), d→r1.
  const auto shards = assign_shards(files, 2);
  ASSERT_EQ(shards.size(), 2u);
  EXPECT_EQ(shards[0], (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(shards[1], (std::vector<std::size_t>{1, 3}));
}

TEST(AssignShards, EdgeCases) {
  auto empty = assign_shards({}, 4);
  EXPECT_EQ(empty.size(), 4u);
  auto zeros = assign_shards(sized({0, 0, 0, 0}), 4);
  for (const auto& s : zeros) EXPECT_EQ(s.size(), 1u);  // empty files spread too
  auto few = assign_shards(sized({5}), 3);
  EXPECT_EQ(few[0], std::vector<std::size_t>{0});
  EXPECT_TRUE(few[1].empty());
  EXPECT_THROW(assign_shards({}, 0), std::invalid_argument);
}

std::string read_fd(int fd) {
  std::string out;
  char buf[256];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return out;
}

// The archive stream reads in L2-sized steps into a buffer that grows only for a record that
// needs it, and that buffer is not zeroed first: records far larger than one read and than the
// starting buffer, among small ones, come out byte for byte, raw and gzip (a member per record,
// and one member), at the production sizes and at tiny ones.
TEST_F(Inputs, RecordsLargerThanTheStreamBufferComeOutWhole) {
  std::string raw;
  std::vector<std::string> bodies;
  std::uint32_t x = 12345;
  for (const std::size_t size : {100u, 700000u, 1300000u, 10u, 300000u, 64u}) {
    std::string body = "<p>";
    for (std::size_t i = 0; i < size; ++i) {
      x = x * 1103515245u + 12345u;
      body += static_cast<char>('a' + (x >> 16) % 26);
    }
    bodies.push_back(body);
  }
  std::string members;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const std::string record = warc_response("http://big.org/" + std::to_string(i), bodies[i]);
    raw += record;
    members += gzip_member(record);
  }
  const std::string files[] = {write_file(root_, "big.warc", raw), write_file(root_, "big-members.warc.gz", members),
                               write_file(root_, "big-one.warc.gz", gzip_member(raw))};
  for (const std::string& path : files) {
    for (const std::size_t stream_bytes : {std::size_t{0}, std::size_t{65536}}) {
      ReadOptions o;
      o.test_stream_bytes = stream_bytes;  // 0: the production sizes
      const ReadResult r = read_file(path, InputKind::Warc, o);
      ASSERT_EQ(r.docs.size(), bodies.size()) << path << " " << stream_bytes;
      for (std::size_t i = 0; i < bodies.size(); ++i) {
        EXPECT_EQ(r.docs[i].url, "http://big.org/" + std::to_string(i));
        EXPECT_TRUE(r.docs[i].body == bodies[i]) << path << " " << stream_bytes << " record " << i;
      }
    }
  }
}

TEST_F(Inputs, DirectoryCacheOpensWhatTheFullPathNames) {
  DirectoryCache dirs;
  EXPECT_EQ(read_fd(dirs.open_file(tree_ + "/a.txt")), "a text");
  EXPECT_EQ(read_fd(dirs.open_file(tree_ + "/b.html")), "<p>b</p>");   // same directory
  EXPECT_EQ(read_fd(dirs.open_file(tree_ + "/a/z.txt")), "z");         // another one
  EXPECT_EQ(read_fd(dirs.open_file(tree_ + "/filelink.txt")), "linked");
  errno = 0;
  EXPECT_EQ(dirs.open_file(tree_ + "/a/none.txt"), -1);
  EXPECT_EQ(errno, ENOENT);
  // The directory kept is replaced by another of the same name: the new one is read.
  fs::rename(tree_ + "/a", root_ + "/old-a");
  fs::create_directory(tree_ + "/a");
  write_file(tree_ + "/a", "new.txt", "new");
  EXPECT_EQ(read_fd(dirs.open_file(tree_ + "/a/new.txt")), "new");
  // A relative name without a directory.
  const fs::path here = fs::current_path();
  fs::current_path(tree_);
  EXPECT_EQ(read_fd(dirs.open_file("a.txt")), "a text");
  fs::current_path(here);
}

TEST_F(Inputs, PlainFilesReadWithAndWithoutTheCacheAreTheSame) {
  InputLog c;
  const auto files = expand_inputs({tree_}, {}, c);
  DirectoryCache dirs;
  for (const auto& f : files) {
    std::vector<Document> plain, cached;
    Counters c1, c2;
    read_input(f, c1, [&](Document&& d) { plain.push_back(std::move(d)); });
    read_input(f, c2, [&](Document&& d) { cached.push_back(std::move(d)); }, {}, nullptr, &dirs);
    ASSERT_EQ(plain.size(), cached.size()) << f.url;
    for (std::size_t i = 0; i < plain.size(); ++i) EXPECT_EQ(plain[i].body, cached[i].body) << f.url;
    EXPECT_EQ(c1.values(), c2.values()) << f.url;
  }
}

// Through a DirectoryCache, plain files reuse one body buffer: a smaller file after a larger one
// is cut to its own bytes (no tail of the larger one), and a consumer that takes the body away
// leaves the next file a fresh buffer.
TEST_F(Inputs, PlainFilesReuseOneBodyBufferAndKeepOnlyTheirBytes) {
  const std::string big = std::string(300000, 'b') + "end";  // past malloc's mmap threshold
  write_file(tree_, "big.txt", big);
  InputLog log;
  const auto big_file = expand_inputs({tree_ + "/big.txt"}, {}, log);
  const auto small_file = expand_inputs({tree_ + "/a.txt"}, {}, log);
  ASSERT_EQ(big_file.size(), 1u);
  ASSERT_EQ(small_file.size(), 1u);
  DirectoryCache dirs;
  Counters c;
  std::vector<std::string> bodies;
  std::vector<const char*> buffers;
  auto look = [&](Document&& d) {
    bodies.push_back(d.body);
    buffers.push_back(d.body.data());
  };
  read_input(big_file[0], c, look, {}, nullptr, &dirs);
  read_input(small_file[0], c, look, {}, nullptr, &dirs);
  read_input(big_file[0], c, look, {}, nullptr, &dirs);
  ASSERT_EQ(bodies.size(), 3u);
  EXPECT_EQ(bodies[0], big);
  EXPECT_EQ(bodies[1], "a text");
  EXPECT_EQ(bodies[2], big);
  EXPECT_EQ(buffers[1], buffers[0]);  // one buffer for all three
  EXPECT_EQ(buffers[2], buffers[0]);
  // A consumer that keeps the body (as the reader thread's queue does).
  std::vector<Document> kept;
  auto keep = [&](Document&& d) { kept.push_back(std::move(d)); };
  read_input(big_file[0], c, keep, {}, nullptr, &dirs);
  read_input(small_file[0], c, keep, {}, nullptr, &dirs);
  read_input(small_file[0], c, look, {}, nullptr, &dirs);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].body, big);
  EXPECT_EQ(kept[1].body, "a text");
  EXPECT_EQ(bodies.back(), "a text");
}

// The reused buffer is kept only up to DirectoryCache::kMaxSpareBody: a file past it (allowed by a
// larger --max-record-bytes) is read whole, and its buffer freed rather than pinned for the shard.
TEST_F(Inputs, ABodyOverTheKeepLimitIsReadWholeAndNotKept) {
  const std::size_t huge_size = DirectoryCache::kMaxSpareBody + 4097;
  std::string huge(huge_size, 'h');
  for (std::size_t i = 0; i < huge_size; i += 65536) huge[i] = static_cast<char>('a' + (i / 65536) % 26);
  write_file(tree_, "huge.txt", huge);
  InputLog log;
  const auto huge_file = expand_inputs({tree_ + "/huge.txt"}, {}, log);
  const std::string medium(300000, 'm');
  write_file(tree_, "medium.txt", medium);
  const auto medium_file = expand_inputs({tree_ + "/medium.txt"}, {}, log);
  ASSERT_EQ(huge_file.size(), 1u);
  ReadOptions options;
  options.max_record_bytes = std::uint64_t{128} << 20;
  DirectoryCache dirs;
  Counters c;
  std::vector<std::string> bodies;
  auto look = [&](Document&& d) { bodies.push_back(d.body); };
  const std::size_t nothing = std::string().capacity();
  read_input(huge_file[0], c, look, options, nullptr, &dirs);
  EXPECT_EQ(dirs.take_body().capacity(), nothing);  // not kept
  read_input(medium_file[0], c, look, options, nullptr, &dirs);
  EXPECT_GE(dirs.take_body().capacity(), medium.size());  // a buffer under the limit is kept
  read_input(huge_file[0], c, look, options, nullptr, &dirs);
  ASSERT_EQ(bodies.size(), 3u);
  EXPECT_TRUE(bodies[0] == huge);  // not EXPECT_EQ: a failure would print 64 MiB
  EXPECT_EQ(bodies[1], medium);
  EXPECT_TRUE(bodies[2] == huge);
  EXPECT_EQ(c.get("input.bytes"), 2 * huge_size + medium.size());
  // At the limit itself a buffer is kept.
  std::string at_limit;
  at_limit.reserve(DirectoryCache::kMaxSpareBody);
  ASSERT_EQ(at_limit.capacity(), DirectoryCache::kMaxSpareBody);
  const char* kept_data = at_limit.data();
  dirs.give_back_body(std::move(at_limit));
  EXPECT_EQ(dirs.take_body().data(), kept_data);
}

// The scan reads a plain file with the size the listing found (no fstat per file): a file that
// grew or shrank since is read as it is now, both opened by path and through the DirectoryCache.
TEST_F(Inputs, PlainFileChangedSinceListingIsReadAsItIsNow) {
  InputLog log;
  auto files = expand_inputs({tree_ + "/a.txt"}, {}, log);
  ASSERT_EQ(files.size(), 1u);
  ASSERT_EQ(files[0].size, 6u);  // "a text"
  const std::string grown = std::string(100000, 'x') + "end";
  DirectoryCache dirs;
  for (DirectoryCache* cache : {static_cast<DirectoryCache*>(nullptr), &dirs}) {
    write_file(tree_, "a.txt", grown);  // listed at 6 bytes, 100,003 now
    std::vector<std::string> bodies;
    Counters c;
    read_input(files[0], c, [&](Document&& d) { bodies.push_back(d.body); }, {}, nullptr, cache);
    ASSERT_EQ(bodies.size(), 1u);
    EXPECT_EQ(bodies[0], grown);
    EXPECT_EQ(c.get("input.bytes"), grown.size());
    write_file(tree_, "a.txt", "abc");  // listed at 6 bytes, 3 now
    bodies.clear();
    read_input(files[0], c, [&](Document&& d) { bodies.push_back(d.body); }, {}, nullptr, cache);
    ASSERT_EQ(bodies.size(), 1u);
    EXPECT_EQ(bodies[0], "abc");
  }
  // Grown past the record limit since the listing: skipped as too large, not cut.
  ReadOptions small;
  small.max_record_bytes = 1000;
  write_file(tree_, "a.txt", grown);
  Counters c;
  std::size_t documents = 0;
  read_input(files[0], c, [&](Document&&) { ++documents; }, small, nullptr, &dirs);
  EXPECT_EQ(documents, 0u);
  EXPECT_EQ(c.get("skipped.record_too_large"), 1u);
}

}  // namespace
}  // namespace crd::io::test
