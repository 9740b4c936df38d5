// crd check: single pages against a labeled set, in one process (the phishing use case, paper
// §8.2): reads pages and prints what detect::PageChecker finds. Loads only the label hashes (20
// bytes each) into a flat map, so a check costs milliseconds.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include "commands.hpp"
#include "crd/base/error.hpp"
#include "crd/base/printable.hpp"
#include "crd/chunk/chunker.hpp"
#include "crd/chunk/chunking_identity.hpp"
#include "crd/detect/page_check.hpp"
#include "crd/discover/label_rules.hpp"
#include "crd/pipeline/label_lookup.hpp"
#include "text_format.hpp"

namespace crd::cli {
namespace {

// A page as read: at most `limit` bytes are kept. A longer page (or an endless stream, such as
// /dev/zero or a pipe that never closes) is not read past limit + 1 bytes.
struct Page {
  std::string text;
  bool too_large = false;
};

Page read_page(const std::string& path, std::uint64_t limit) {
  const bool from_stdin = path == "-";
  const int fd = from_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw UsageError("cannot read page '" + path + "': " + std::strerror(errno));
  const auto close_fd = [&] {
    if (!from_stdin) ::close(fd);
  };
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close_fd();
    throw UsageError("page '" + path + "' is a directory (check reads page files, or - for stdin)");
  }
  Page page;
  constexpr std::size_t kBlock = 1u << 16;
  // One byte past the limit tells "too large" from "exactly at the limit".
  const std::uint64_t cap = limit == std::numeric_limits<std::uint64_t>::max() ? limit : limit + 1;
  while (page.text.size() < cap) {
    const std::size_t at = page.text.size();
    page.text.resize(at + static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, cap - at)));
    const ssize_t got = ::read(fd, page.text.data() + at, page.text.size() - at);
    if (got < 0 && errno == EINTR) {
      page.text.resize(at);
      continue;
    }
    if (got < 0) {
      const int error = errno;
      close_fd();
      throw UsageError("cannot read page '" + path + "': " + std::strerror(error));
    }
    page.text.resize(at + static_cast<std::size_t>(got));
    if (got == 0) break;
  }
  close_fd();
  if (page.text.size() > limit) {
    page.too_large = true;
    page.text.clear();
  }
  return page;
}

}  // namespace

// crd check's default page rule: a fixed threshold of 0 (single pages have no distribution).
void check_defaults(Settings& s) { s.detect.detect.page_threshold = {false, 0}; }

void check_check(const Settings& s) {
  // The combined rule weighs a page's two parts apart; check's rule sees one count per page.
  if (s.common.scan.chunker == chunk::ChunkerKind::WinnowScan)
    throw UsageError("option --chunker: winnow+scan's combined rule is crd detect's and crd run's; check with winnow");
  if (s.detect.detect.page_threshold.fitted)
    throw UsageError(
        "option --page-threshold: binomial:fit measures R over a crawl's pages; check scores single pages");
  if (s.detect.detect.page_threshold.beta_binomial)
    throw UsageError(
        "option --page-threshold: betabinomial fits its rate over a crawl's pages; check scores single pages");
  if (s.detect.detect.page_threshold.automatic)
    throw UsageError("option --page-threshold: check scores single pages; give a number or binomial");
}

// Reads each page and prints its verdict; the scoring is detect's (PageChecker).
int run_check(Invocation& in) {
  const Settings& s = in.settings;
  const pipeline::CommonOptions& common = s.common;
  const std::vector<std::string>& pages = in.inputs;
  const discover::StopItems stop(s.discover.stop_chunks, s.discover.min_chunk_length);
  const discover::LabelRules stop_rules = stop.chunk_rules();
  const discover::LabelLookup labels =
      pipeline::load_label_lookup(s.labels, chunk::chunking_identity(common.scan.chunker, common.scan.chunking));
  auto chunker = chunk::make_chunker(common.scan.chunker, common.scan.chunking);
  detect::PageChecker checker(
      *chunker, stop_rules, labels.index,
      detect::PageRule::unresolved(s.detect.detect.page_threshold, s.detect.detect.min_labeled));
  std::uint64_t flagged_pages = 0;
  std::uint64_t unchecked_pages = 0;
  const std::uint64_t max_bytes = common.scan.read.max_record_bytes;
  for (const auto& page_path : pages) {
    const std::string shown = printable(page_path);
    const Page read = read_page(page_path, max_bytes);
    if (read.too_large) {
      std::printf("%s: not checked (larger than --max-record-bytes, %llu bytes)\n", shown.c_str(),
                  static_cast<unsigned long long>(max_bytes));
      ++unchecked_pages;
      continue;
    }
    const detect::PageCheck page = checker.check(read.text);
    if (!page.skipped.empty()) {
      std::printf("%s: not checked (%s)\n", shown.c_str(), printable(page.skipped).c_str());
      ++unchecked_pages;
      continue;
    }
    flagged_pages += page.verdict.flagged ? 1 : 0;
    std::string dropped_note;
    for (const auto& dropped : page.dropped)
      if (dropped.count != 0)
        dropped_note += " (" + std::to_string(dropped.count) + " left out: " + printable(dropped.reason) + ")";
    std::printf("%s: %zu/%u labeled chunks%s, containment %.4f%s\n", shown.c_str(), page.matches.size(), page.chunks,
                dropped_note.c_str(), page.verdict.containment, page.verdict.flagged ? "  FLAGGED" : "");
    for (std::size_t k = 0; k < std::min<std::uint64_t>(s.show, page.matches.size()); ++k) {
      const detect::LabeledChunk& m = page.matches[k];
      const discover::LabelSource& label = labels.sources[m.label];
      std::printf("  chunk %u: \"%s\"  [%s%s row %llu]\n", m.position, one_line(m.text, 90).c_str(),
                  printable(label.path).c_str(), printable(label.group).c_str(),
                  static_cast<unsigned long long>(label.row));
    }
  }
  std::printf("%llu of %zu pages flagged", static_cast<unsigned long long>(flagged_pages), pages.size());
  if (unchecked_pages > 0) std::printf(", %llu not checked", static_cast<unsigned long long>(unchecked_pages));
  std::printf("\n");
  return 0;
}

}  // namespace crd::cli
