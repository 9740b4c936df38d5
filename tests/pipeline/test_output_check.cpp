// The -o checks: an output that is one of the job's inputs (by inode: hard links and other
// spellings too), or that is not a regular file, or whose directory cannot take the result, is
// refused before any work; a new or ordinary existing output is accepted.
#include "crd/pipeline/output_check.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "crd/comm/local_transport.hpp"
#include "crd/base/error.hpp"
#include "crd/base/file_kind.hpp"

namespace crd::pipeline {
namespace {

namespace fs = std::filesystem;

class OutputCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/crd-output-check-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    std::ofstream(dir_ / "in.warc") << "WARC/1.0\r\n";
    std::ofstream(dir_ / "old.h5") << "an earlier result";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(OutputCheck, AcceptsANewFileAndAnOrdinaryExistingOne) {
  EXPECT_EQ(output_path_problem(at("new.h5")), "");
  EXPECT_EQ(output_path_problem(at("old.h5")), "");
  EXPECT_EQ(same_file_as_output(at("old.h5"), {at("in.warc")}), "");
  EXPECT_EQ(same_file_as_output(at("new.h5"), {at("in.warc")}), "");
}

TEST_F(OutputCheck, RefusesEmptyDirectoryFifoDeviceAndBadParents) {
  EXPECT_EQ(output_path_problem(""), "option -o: the output path is empty");
  EXPECT_EQ(output_path_problem(dir_.string()), "output '" + dir_.string() + "' is a directory: give a regular file name");
  EXPECT_EQ(output_path_problem(at("sub/")), "output '" + at("sub/") + "' names a directory: give a file name");
  ASSERT_EQ(::mkfifo(at("fifo").c_str(), 0600), 0);
  EXPECT_EQ(output_path_problem(at("fifo")), "output '" + at("fifo") + "' is a FIFO: give a regular file name");
  EXPECT_EQ(output_path_problem("/dev/null"), "output '/dev/null' is a device: give a regular file name");
  EXPECT_EQ(output_path_problem(at("missing/o.h5")),
            "output '" + at("missing/o.h5") + "': directory '" + at("missing") + "': No such file or directory");
  EXPECT_EQ(output_path_problem(at("in.warc/o.h5")),
            "output '" + at("in.warc/o.h5") + "': '" + at("in.warc") + "' is not a directory");
  if (::geteuid() != 0) {  // root writes anywhere
    fs::create_directory(dir_ / "ro");
    fs::permissions(dir_ / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_EQ(output_path_problem(at("ro/o.h5")),
              "output '" + at("ro/o.h5") + "': cannot write in directory '" + at("ro") + "': Permission denied");
  }
}

TEST_F(OutputCheck, FindsTheInputByInodeNotByName) {
  fs::create_hard_link(dir_ / "in.warc", dir_ / "link.warc");
  fs::create_symlink(dir_ / "in.warc", dir_ / "sym.warc");
  const std::string other_spelling = dir_.string() + "/./sub/../in.warc";
  fs::create_directory(dir_ / "sub");
  EXPECT_EQ(same_file_as_output(at("in.warc"), {at("old.h5"), at("in.warc")}), at("in.warc"));
  EXPECT_EQ(same_file_as_output(at("link.warc"), {at("in.warc")}), at("in.warc"));
  EXPECT_EQ(same_file_as_output(at("sym.warc"), {at("in.warc")}), at("in.warc"));
  EXPECT_EQ(same_file_as_output(other_spelling, {at("in.warc")}), at("in.warc"));
}

TEST_F(OutputCheck, EveryRankRaisesTheSameErrorForAListFileOrAnInputFile) {
  // The @LIST file is compared, not just the names in it.
  std::ofstream(dir_ / "inputs.lst") << at("in.warc") << "\n";
  const std::string list = at("inputs.lst");
  comm::run_local(3, [&](comm::Transport& t) {
    try {
      check_output_before_run(t, list, {"@" + list});
      ADD_FAILURE() << "rank " << t.rank() << ": the list file was accepted as output";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()),
                "output '" + list + "' is the same file as '" + list + "', which this job reads: refusing to overwrite it");
    }
    EXPECT_NO_THROW(check_output_before_run(t, at("new.h5"), {"@" + list, at("in.warc")}));
    io::InputFile f;
    f.path = at("in.warc");
    f.size = fs::file_size(f.path);  // as the listing gives it
    try {
      check_output_is_not_input(t, at("in.warc"), {f});
      ADD_FAILURE() << "rank " << t.rank() << ": an input file was accepted as output";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()),
                "output '" + at("in.warc") + "' is the same file as input '" + at("in.warc") + "': refusing to overwrite it");
    }
    EXPECT_NO_THROW(check_output_is_not_input(t, at("old.h5"), {f}));
  });
}

// Only inputs listed with the output's size are stat'ed (a rerun with the same -o stats no input
// otherwise); a hard link of the output among them is still found.
TEST_F(OutputCheck, AHardLinkOfTheOutputAmongTheInputsIsFoundByItsListedSize) {
  fs::create_hard_link(at("in.warc"), at("link.warc"));
  io::InputFile other;
  other.path = at("old.h5");
  other.size = fs::file_size(other.path);
  io::InputFile link;
  link.path = at("link.warc");
  link.size = fs::file_size(link.path);
  comm::run_local(2, [&](comm::Transport& t) {
    try {
      check_output_is_not_input(t, at("in.warc"), {other, link});
      ADD_FAILURE() << "rank " << t.rank() << ": a hard link of the output was accepted as input";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()),
                "output '" + at("in.warc") + "' is the same file as input '" + at("link.warc") + "': refusing to overwrite it");
    }
    EXPECT_NO_THROW(check_output_is_not_input(t, at("old.h5"), {link}));
  });
}

// A directory named alone is listed where it is walked: no rank holds every file, so each rank looks
// at its own, and every rank raises the error of the lowest rank that found the output among them.
TEST_F(OutputCheck, AnInputHeldByAnotherRankIsFoundOnEveryRank) {
  fs::create_hard_link(at("in.warc"), at("link.warc"));
  const auto listed = [&](const std::string& name) {
    io::InputFile f;
    f.path = at(name);
    f.size = fs::file_size(f.path);
    return f;
  };
  comm::run_local(3, [&](comm::Transport& t) {
    std::vector<io::InputFile> mine{listed("old.h5")};
    if (t.rank() == 2) mine.push_back(listed("in.warc"));
    if (t.rank() == 1) mine.push_back(listed("link.warc"));
    try {
      check_output_is_not_input(t, at("in.warc"), mine);
      ADD_FAILURE() << "rank " << t.rank() << ": an input on another rank was accepted as output";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()),
                "output '" + at("in.warc") + "' is the same file as input '" + at("link.warc") + "': refusing to overwrite it");
    }
    EXPECT_NO_THROW(check_output_is_not_input(t, at("new.h5"), mine));
  });
}

// crd report replaced /dev/null; -o /dev/stdout replaced the link. A link is never
// replaced or written through, whatever it points to; a device node is made here (never the
// machine's own) so that a crd without the check could only harm the test's node.
TEST_F(OutputCheck, RefusesSymbolicLinksOfEveryKindAndDeviceNodes) {
  fs::create_symlink(at("old.h5"), at("to-file.h5"));
  fs::create_symlink(at("nowhere.h5"), at("dangling.h5"));
  EXPECT_EQ(output_path_problem(at("to-file.h5")),
            "output '" + at("to-file.h5") + "' is a symbolic link: give a regular file name");
  EXPECT_EQ(output_path_problem(at("dangling.h5")),
            "output '" + at("dangling.h5") + "' is a symbolic link: give a regular file name");
  EXPECT_EQ(output_problem(at("to-file.h5"), {}), output_path_problem(at("to-file.h5")));
  EXPECT_EQ(replace_problem(at("old.h5")), "");
  EXPECT_EQ(replace_problem(at("new.h5")), "");
  ASSERT_EQ(::mkfifo(at("fifo").c_str(), 0600), 0);
  EXPECT_EQ(read_problem(at("fifo")), "is a FIFO");
  EXPECT_EQ(read_problem(at("old.h5")), "");
  EXPECT_EQ(read_problem(at("to-file.h5")), "");  // read through the link: it is the file
  if (::geteuid() == 0) {
    ASSERT_EQ(::mknod(at("null").c_str(), S_IFCHR | 0666, ::makedev(1, 3)), 0);
    fs::create_symlink(at("null"), at("stdout"));
    EXPECT_EQ(output_path_problem(at("null")), "output '" + at("null") + "' is a device: give a regular file name");
    EXPECT_EQ(output_path_problem(at("stdout")), "output '" + at("stdout") + "' is a symbolic link: give a regular file name");
    EXPECT_EQ(read_problem(at("stdout")), "is a device");
    EXPECT_TRUE(fs::is_character_file(fs::symlink_status(at("null"))));
  }
}

TEST_F(OutputCheck, FindsAPathUnderADirectoryByInode) {
  fs::create_directories(dir_ / "a" / "b");
  fs::create_directory_symlink(dir_ / "a", dir_ / "alias");
  EXPECT_TRUE(is_at_or_under(at("a"), at("a")));
  EXPECT_TRUE(is_at_or_under(at("a/b/c/not-yet/x.h5"), at("a")));
  EXPECT_TRUE(is_at_or_under(at("alias/b/x.h5"), at("a")));
  EXPECT_TRUE(is_at_or_under(at("a/b"), at("alias")));
  EXPECT_TRUE(is_at_or_under(at("a/../a/b"), at("a")));
  EXPECT_FALSE(is_at_or_under(at("b"), at("a")));
  EXPECT_FALSE(is_at_or_under(at("a"), at("a/b")));
  EXPECT_FALSE(is_at_or_under(at("a/x"), at("missing")));
}

TEST_F(OutputCheck, RefusesAnOutputInTheWorkDirAndAWorkDirInAnInputDirectory) {
  fs::create_directories(dir_ / "work" / "0123456789abcdef");
  fs::create_directories(dir_ / "corpus" / "site");
  const std::string ckpt = at("work/0123456789abcdef/rank-0-of-1.scan.ckpt");
  std::ofstream(ckpt) << "CRDCKPT";
  EXPECT_EQ(output_problem(ckpt, {at("corpus")}, at("work")),
            "output '" + ckpt + "' is inside --work-dir '" + at("work") +
                "', which holds the checkpoints: write the result elsewhere");
  EXPECT_EQ(output_problem(at("new.h5"), {at("corpus")}, at("corpus/site/work")),
            "--work-dir '" + at("corpus/site/work") + "' is inside input directory '" + at("corpus") +
                "': its checkpoints would be read as input; put it elsewhere");
  EXPECT_EQ(output_problem(at("new.h5"), {at("corpus")}, at("work")), "");
  EXPECT_EQ(output_problem(at("new.h5"), {at("corpus")}), "");
}

TEST_F(OutputCheck, TheListingRefusesANestedListAsOutputAndAListedDirectoryHoldingTheWorkDir) {
  fs::create_directories(dir_ / "corpus");
  std::ofstream(dir_ / "corpus" / "page.html") << "<p>a page";
  std::ofstream(dir_ / "inner.lst") << at("corpus") << "\n";
  std::ofstream(dir_ / "outer.lst") << "@inner.lst\n";
  io::InputLog log;
  try {
    io::expand_inputs({"@" + at("outer.lst")}, guarded_expansion({}, at("inner.lst"), {}), log);
    ADD_FAILURE() << "a nested list was accepted as output";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "output '" + at("inner.lst") + "' is the same file as '@" + at("inner.lst") +
                                         "', which this job reads: refusing to overwrite it");
  }
  try {
    io::expand_inputs({"@" + at("outer.lst")}, guarded_expansion({}, at("new.h5"), at("corpus/work")), log);
    ADD_FAILURE() << "a work directory inside a listed input directory was accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "--work-dir '" + at("corpus/work") + "' is inside input directory '" +
                                         at("corpus") + "': its checkpoints would be read as input; put it elsewhere");
  }
  EXPECT_NO_THROW(io::expand_inputs({"@" + at("outer.lst")}, guarded_expansion({}, at("new.h5"), at("work")), log));
}

}  // namespace
}  // namespace crd::pipeline
