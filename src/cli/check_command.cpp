// crd check: single pages against a labeled set, in one process (the phishing use case, paper
// §8.2). Loads only the label hashes (20 bytes each) into a flat map, so a check costs
// milliseconds; label samples are read only for the labels a page matched.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>

#include "crd/chunk/chunker.hpp"
#include "commands.hpp"
#include "crd/pipeline/label_lookup.hpp"
#include "text_format.hpp"
#include "crd/base/error.hpp"
#include "crd/base/printable.hpp"
#include "crd/detect/threshold.hpp"
#include "crd/detect/chance_floor.hpp"
#include "crd/detect/page_scores.hpp"
#include "crd/discover/discovery.hpp"
#include "crd/discover/label_rules.hpp"
#include "crd/hash/sha1.hpp"
#include "crd/pipeline/chunking_identity.hpp"

namespace crd::cli {
namespace {

struct Match {
  std::uint32_t position;
  std::string text;
  const pipeline::LabelSource* label;
};

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

void check_check(const Settings& s) {
  // The combined rule weighs a page's two parts apart; check's rule sees one count per page.
  if (s.common.scan.chunker == chunk::ChunkerKind::WinnowScan)
    throw UsageError("option --chunker: winnow+scan's combined rule is crd detect's and crd run's; check with winnow");
  if (s.check.threshold.fitted)
    throw UsageError("option --page-threshold: binomial:fit measures R over a crawl's pages; check scores single pages");
  if (s.check.threshold.automatic)
    throw UsageError("option --page-threshold: check scores single pages; give a number or binomial");
}

int run_check(Invocation& in) {
  const Settings& s = in.settings;
  const pipeline::CommonOptions& common = s.common;
  const std::vector<std::string>& pages = in.inputs;
  const detect::Threshold threshold = s.check.threshold;
  const pipeline::DiscoverOptions& stop_options = s.discover;
  std::optional<detect::ChanceFloor> floor = detect::chance_floor(threshold);  // caches the floor per page size
  const discover::StopItems stop(stop_options.stop_chunks, stop_options.min_chunk_length);
  const discover::LabelRules stop_rules = stop.chunk_rules();

  const pipeline::LabelLookup labels = pipeline::load_label_lookup(s.labels, pipeline::chunking_identity(common.scan));

  auto chunker = chunk::make_chunker(common.scan.chunker, common.scan.chunking);
  Sha1 sha1;
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
    const std::string& page = read.text;
    std::uint32_t chunks = 0;
    std::vector<Match> matches;
    const std::string_view skipped = chunker->chunk(page, "", [&](std::string_view normalized) {
      const Digest d = sha1(normalized);
      if (stop_rules.is_stop(d, normalized.size())) return;
      if (const pipeline::LabelSource* label = labels.find(d)) matches.push_back({chunks, std::string(normalized), label});
      ++chunks;
    });
    if (!skipped.empty()) {
      std::printf("%s: not checked (%s)\n", shown.c_str(), printable(skipped).c_str());
      ++unchecked_pages;
      continue;
    }
    const auto labeled = static_cast<std::uint32_t>(matches.size());
    const double containment = detect::containment(labeled, chunks);
    const bool flagged = detect::page_flagged(containment, labeled, threshold.value,
                                              detect::required_labeled(floor, s.check.min_labeled, chunks));
    flagged_pages += flagged ? 1 : 0;
    const auto dropped = chunker->dropped_parts();
    const std::string dropped_note =
        dropped.count == 0 ? "" : " (" + std::to_string(dropped.count) + " left out: " + printable(dropped.reason) + ")";
    std::printf("%s: %zu/%u labeled chunks%s, containment %.4f%s\n", shown.c_str(), matches.size(), chunks,
                dropped_note.c_str(), containment, flagged ? "  FLAGGED" : "");
    for (std::size_t k = 0; k < std::min<std::uint64_t>(s.check.show, matches.size()); ++k) {
      const Match& m = matches[k];
      std::printf("  chunk %u: \"%s\"  [%s%s row %llu]\n", m.position, one_line(m.text, 90).c_str(),
                  printable(m.label->path).c_str(), printable(m.label->group).c_str(), static_cast<unsigned long long>(m.label->row));
    }
  }
  std::printf("%llu of %zu pages flagged", static_cast<unsigned long long>(flagged_pages), pages.size());
  if (unchecked_pages > 0) std::printf(", %llu not checked", static_cast<unsigned long long>(unchecked_pages));
  std::printf("\n");
  return 0;
}

}  // namespace crd::cli
