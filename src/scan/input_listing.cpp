// Listing the inputs across ranks: walking a tree of many small files is mostly system calls
// (readdir and a stat per file), and done by rank 0 alone it was the largest serial part of a
// 2-rank job (0.1–0.15 s of 2.3 s on 55k files). Each rank then receives only the files it reads:
// sending every rank the whole list cost 15 ms at 2 ranks on 28k files, and grows with the ranks.
#include "crd/scan/input_listing.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <numeric>
#include <optional>

#include "crd/base/error.hpp"
#include "crd/comm/collectives.hpp"

namespace crd::scan {
namespace {

// Rank 0 leads the expansion and tells the other ranks what comes next; after Done, each rank's
// share follows.
// WalkHere: the job names one directory alone, and it is listed where it is walked
// (list_one_directory); nothing follows.
enum class Step : std::uint8_t { Walk = 1, Done = 2, Failed = 3, WalkHere = 4 };

bool by_path(const io::WalkedEntry& a, const io::WalkedEntry& b) { return a.rel < b.rel; }

// The list as rank 0 sends it. A walked file's path is its directory's path followed by its url,
// and the files of one directory come one after another: the directory part (head) is sent once
// per run (the message was 8 MB on 55k files, its encoding and decoding a third of the listing's
// time).
enum : std::uint8_t { kKindBits = 3, kPathApart = 8 };
struct ListedFile {
  std::uint8_t flags = 0;  // the kind, and kPathApart when the path does not end with the url
  std::string url;
  std::uint64_t size = 0;
  std::string path;  // only with kPathApart; else the run's head + url
  static constexpr auto fields() {
    return std::tuple(&ListedFile::flags, &ListedFile::url, &ListedFile::size, &ListedFile::path);
  }
};
struct ListedRun {
  std::string head;
  std::vector<ListedFile> files;
  static constexpr auto fields() { return std::tuple(&ListedRun::head, &ListedRun::files); }
};
struct Message {
  Step step = Step::Done;
  std::string text;  // Walk: the root; Failed: the error
  static constexpr auto fields() { return std::tuple(&Message::step, &Message::text); }
};
struct Share {
  std::vector<ListedRun> runs;  // the files one rank reads
  std::uint64_t job_bytes = 0;
  static constexpr auto fields() { return std::tuple(&Share::runs, &Share::job_bytes); }
};

std::vector<ListedRun> pack(const std::vector<io::InputFile>& files, const std::vector<std::size_t>& shard) {
  std::vector<ListedRun> runs;
  for (const std::size_t i : shard) {
    const io::InputFile& f = files[i];
    const auto kind = static_cast<std::uint8_t>(f.kind);
    const std::string_view path = f.path;
    if (runs.empty()) runs.emplace_back();
    if (!path.ends_with(f.url)) {
      runs.back().files.push_back({static_cast<std::uint8_t>(kind | kPathApart), f.url, f.size, f.path});
      continue;
    }
    const std::string_view head = path.substr(0, path.size() - f.url.size());
    if (runs.back().head != head && !runs.back().files.empty()) runs.emplace_back();
    runs.back().head = head;
    runs.back().files.push_back({kind, f.url, f.size, {}});
  }
  return runs;
}

std::vector<io::InputFile> unpack(std::vector<ListedRun>& runs) {
  std::vector<io::InputFile> files;
  for (ListedRun& run : runs) {
    for (ListedFile& l : run.files) {
      io::InputFile& f = files.emplace_back();
      f.kind = static_cast<io::InputKind>(l.flags & kKindBits);
      f.path = (l.flags & kPathApart) != 0 ? std::move(l.path) : run.head + l.url;
      f.url = std::move(l.url);
      f.size = l.size;
    }
  }
  return files;
}

// What an input left out by name is, in words, for the warning; the reason itself is in /run/errors.
const char* left_out_because(std::string_view reason) {
  if (reason == "input.missing") return "not found";
  if (reason == "input.unreadable") return "cannot be read";
  if (reason == "input.not_regular") return "not a regular file or directory";
  if (reason == "input.unsupported_compression")
    return "compressed with bzip2, xz, zstd or lz4, which crd does not read (recompress it with gzip)";
  return "skipped";
}

// Inputs a run goes on without are said on stderr too, not only in the result: at most a few lines.
void warn_left_out(const io::InputLog& log) {
  constexpr std::size_t kShown = 10;
  const std::size_t shown = std::min(log.errors.size(), kShown);
  for (std::size_t i = 0; i < shown; ++i) {
    const io::ReadError& e = log.errors[i];
    std::fprintf(stderr, "crd: warning: left out %s: %s (%s)\n", e.file.c_str(), left_out_because(e.reason),
                 e.reason.c_str());
  }
  if (log.errors.size() > shown)
    std::fprintf(stderr, "crd: warning: %zu more inputs left out (listed in /run/errors)\n", log.errors.size() - shown);
  std::fflush(stderr);
}

// This rank's part of a shared walk (shared_walk), sorted by path.
std::vector<io::WalkedEntry> walk_my_part(comm::Transport& transport, const std::string& root, io::InputLog& log,
                                          std::uint64_t split_bytes) {
  const auto rank = static_cast<std::size_t>(transport.rank());
  const auto nranks = static_cast<std::size_t>(transport.size());
  std::vector<io::WalkedEntry> mine;
  struct stat top {};
  std::vector<io::WalkedEntry> level{{"", ::stat(root.c_str(), &top) == 0 ? static_cast<std::uint64_t>(top.st_size) : 0}};
  // Every rank holds the same level, so all leave the loop after the same round. A level's
  // directories are dealt out by their own size, which grows with their entries: dealt out by
  // count, one rank got 8,596 files of a level and the other 869. A directory larger than
  // split_bytes is read by every rank, each taking a slice of its entries: one rank reading a
  // directory of 7,695 files made the longest level of a 2-rank walk (18 ms, the other rank idle).
  while (!level.empty()) {
    std::vector<std::uint64_t> sizes;
    std::vector<std::size_t> dealt_dirs;
    std::vector<std::string> split_dirs;
    for (std::size_t i = 0; i < level.size(); ++i) {
      if (nranks > 1 && level[i].size > split_bytes) {
        split_dirs.push_back(level[i].rel);
      } else {
        dealt_dirs.push_back(i);
        sizes.push_back(level[i].size);
      }
    }
    const auto dealt = io::assign_by_size(sizes, transport.size());
    std::vector<std::string> share;
    for (std::size_t k : dealt[rank]) share.push_back(std::move(level[dealt_dirs[k]].rel));
    io::DirectoryRound round = io::read_directories(root, share, log);
    io::DirectoryRound slices = io::read_directories(root, split_dirs, log, {rank, nranks});
    for (io::DirectoryRound* part : {&round, &slices})
      mine.insert(mine.end(), std::make_move_iterator(part->files.begin()), std::make_move_iterator(part->files.end()));
    round.subdirs.insert(round.subdirs.end(), std::make_move_iterator(slices.subdirs.begin()),
                         std::make_move_iterator(slices.subdirs.end()));
    level.clear();
    for (auto& part : comm::allgather(transport, round.subdirs))
      level.insert(level.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
  }
  std::sort(mine.begin(), mine.end(), by_path);
  return mine;
}

// Collective. One directory named alone, the usual job (crd discover DIR): each rank deals the
// files its part of the walk found among all ranks, largest scan weight first (io::scan_weight), to
// ranks 0, 1, …, n-1, n-1, …, 0, 0, 1, … (starting at itself), so every rank gets about 1/n of each
// rank's work, of its files and of its content. Gathering the list on rank 0, building every path
// there and sending each rank its share was a serial tail of 20-25 ms of a 2-rank listing of 28k
// files. Dealing by the walk's parts alone is not enough: a part's directories hold pages of a few
// kinds, and sizes; the parts left one rank with twice the files of the other, and 10% more scan
// time, even with equal bytes. Which rank reads a file changes no result.
InputShare list_one_directory(comm::Transport& transport, const std::vector<std::string>& inputs,
                              io::InputLog& log) {
  const std::string& root = inputs.front();
  std::vector<io::InputFile> walked;
  for (io::WalkedEntry& e : walk_my_part(transport, root, log, kSplitDirectoryBytes))
    if (std::optional<io::InputFile> f = io::walked_input(root, std::move(e), log)) walked.push_back(std::move(*f));
  std::uint64_t job[2] = {walked.size(), io::total_bytes(walked)};  // files, bytes
  comm::sum(transport, job);
  const auto n = static_cast<std::size_t>(transport.size());
  const auto me = static_cast<std::size_t>(transport.rank());
  if (job[0] == 0)  // every rank alike, in rank 0's words (its log has the root's errors)
    throw UsageError(comm::broadcast_from_rank0<std::string>(transport, me == 0 ? io::no_inputs_message(inputs, log) : std::string()));
  // Rank 0 warns about what every rank's part of the walk left out, as after a walk gathered on
  // it; each log stays on its rank (the result's /run/errors merges them).
  io::InputLog left_out;
  for (std::vector<io::ReadError>& part : comm::gather_to_rank0(transport, log.errors))
    left_out.errors.insert(left_out.errors.end(), part.begin(), part.end());
  if (me == 0) warn_left_out(left_out);

  // Largest scan weight first (a gzip archive's bytes weigh more: io::scan_weight).
  std::vector<std::uint64_t> weight(walked.size());
  for (std::size_t i = 0; i < walked.size(); ++i) weight[i] = io::scan_weight(walked[i]);
  std::vector<std::size_t> largest_first(walked.size());
  std::iota(largest_first.begin(), largest_first.end(), std::size_t{0});
  std::stable_sort(largest_first.begin(), largest_first.end(),
                   [&](std::size_t a, std::size_t b) { return weight[a] > weight[b]; });
  std::vector<std::vector<std::size_t>> dealt(n);
  for (std::size_t k = 0; k < largest_first.size(); ++k) {
    const std::size_t turn = k % n, there = (k / n) % 2 == 0 ? turn : n - 1 - turn;
    dealt[(there + me) % n].push_back(largest_first[k]);
  }
  for (auto& d : dealt) std::sort(d.begin(), d.end());  // path order: runs of one directory
  std::vector<std::vector<ListedRun>> out(n);
  for (std::size_t d = 0; d < n; ++d)
    if (d != me) out[d] = pack(walked, dealt[d]);
  std::vector<std::vector<ListedRun>> in = comm::alltoall(transport, std::move(out));

  // Each source's files come in path order, merged into one url order, as one rank reads them: a
  // file list in shuffled order scans markedly slower, and as slow with the tally's page-key
  // compares skipped, so the cost is in reaching the files, not in counting.
  InputShare share;
  for (std::size_t s = 0; s < n; ++s) {
    const auto middle = static_cast<std::ptrdiff_t>(share.files.size());
    if (s == me) {
      for (const std::size_t i : dealt[me]) share.files.push_back(std::move(walked[i]));
    } else {
      std::vector<io::InputFile> got = unpack(in[s]);
      share.files.insert(share.files.end(), std::make_move_iterator(got.begin()), std::make_move_iterator(got.end()));
    }
    std::inplace_merge(share.files.begin(), share.files.begin() + middle, share.files.end(),
                       [](const io::InputFile& a, const io::InputFile& b) { return a.url < b.url; });
  }
  share.mine.resize(share.files.size());
  std::iota(share.mine.begin(), share.mine.end(), std::size_t{0});
  share.job_bytes = job[1];
  return share;
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);  // follows a link named, as expansion does
}

}  // namespace

std::vector<io::WalkedEntry> shared_walk(comm::Transport& transport, const std::string& root, io::InputLog& log,
                                         std::uint64_t split_bytes) {
  // Each rank sorts its own files and rank 0 merges the sorted runs: the sort is shared too.
  std::vector<io::WalkedEntry> mine = walk_my_part(transport, root, log, split_bytes);
  std::vector<io::WalkedEntry> files;
  for (auto& part : comm::gather_to_rank0(transport, mine)) {
    const auto middle = static_cast<std::ptrdiff_t>(files.size());
    files.insert(files.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
    std::inplace_merge(files.begin(), files.begin() + middle, files.end(), by_path);
  }
  return files;
}

InputShare share_inputs(comm::Transport& transport, const std::vector<std::string>& inputs,
                        const io::ExpandOptions& options, io::InputLog& log, bool rank0_lists_all) {
  InputShare share;
  if (transport.rank() != 0) {
    for (Message message = comm::broadcast_from_rank0(transport, Message{}); message.step != Step::Done;
         message = comm::broadcast_from_rank0(transport, Message{})) {
      if (message.step == Step::Failed) throw UsageError(message.text);
      if (message.step == Step::WalkHere) return list_one_directory(transport, {message.text}, log);
      shared_walk(transport, message.text, log);
    }
    Share mine = comm::scatter_from_rank0(transport, std::vector<Share>{});
    share.files = unpack(mine.runs);
    share.mine.resize(share.files.size());
    std::iota(share.mine.begin(), share.mine.end(), std::size_t{0});
    share.job_bytes = mine.job_bytes;
    return share;
  }
  const bool alone = transport.size() == 1;
  if (!alone && !rank0_lists_all && inputs.size() == 1 && !inputs[0].starts_with('@') && is_directory(inputs[0])) {
    comm::broadcast_from_rank0(transport, Message{Step::WalkHere, inputs[0]});
    return list_one_directory(transport, inputs, log);
  }
  try {
    share.files = alone ? io::expand_inputs(inputs, options, log)
                        : io::expand_inputs(inputs, options, log, [&](const std::string& root, io::InputLog& l) {
                            comm::broadcast_from_rank0(transport, Message{Step::Walk, root});
                            return shared_walk(transport, root, l);
                          });
  } catch (const UsageError& e) {
    if (!alone) comm::broadcast_from_rank0(transport, Message{Step::Failed, e.what()});
    throw;
  }
  share.job_bytes = io::total_bytes(share.files);
  auto shards = io::assign_shards(share.files, transport.size());
  if (!alone) {
    comm::broadcast_from_rank0(transport, Message{Step::Done, {}});
    std::vector<Share> shares(shards.size());
    for (std::size_t r = 1; r < shards.size(); ++r) shares[r] = {pack(share.files, shards[r]), share.job_bytes};
    comm::scatter_from_rank0(transport, std::move(shares));
  }
  share.mine = std::move(shards[0]);
  warn_left_out(log);
  return share;
}

}  // namespace crd::scan
