// The command table (commands.hpp).
#include "commands.hpp"

namespace crd::cli {
namespace {

constexpr const char* kNoCorpus = "no input given (files, directories or @LIST)";
constexpr const char* kNoResult = "no result file given";

void sentence_chunks(Settings& s) { s.common.scan.chunker = chunk::ChunkerKind::Sentence; }

// In the order crd --help lists them. Read only after main starts (no static-initialization order).
// Fields: name, summary, synopsis, description, frame, option sets, required options, the error
// without inputs, defaults, check, run.
// clang-format off
const std::vector<Command> kCommands = {
    {"discover", "blind discovery: count every chunk and file, label the frequent ones (HDF5 out)",
     "crd discover [options] INPUT… -o OUT.h5",
     "Blind discovery (paper §4.2): count every chunk and file across all ranks and label\n"
     "those seen more than a threshold, minus stop chunks",
     Frame::Job,
     {sets::input, sets::samples, sets::reading, sets::chunking, sets::keep_counts, sets::thresholds, sets::stop_items,
      sets::checkpoints, sets::output, sets::config},
     {"output"}, kNoCorpus, nullptr, nullptr, &run_discover},
    {"label", "informed discovery: turn an expert corpus into a labeled set",
     "crd label [options] EXPERT_INPUT… -o LABELS.h5",
     "Informed discovery (paper §4.2): every chunk of an expert corpus (e.g. Wikipedia, a\n"
     "bank's pages), minus stop chunks, becomes a label",
     Frame::Job,
     {sets::input, sets::samples, sets::reading, sets::chunking, sets::stop_items, sets::checkpoints, sets::output,
      sets::config},
     {"output"}, kNoCorpus, nullptr, nullptr, &run_label},
    // detect's labels bring their samples: it keeps none of its own (no --sample-bytes).
    {"detect", "score pages and URL neighborhoods against labeled sets",
     "crd detect [options] INPUT… --labels L.h5 -o OUT.h5",
     "Detection (paper §4.3): containment of every page and badness of every URL-prefix\n"
     "neighborhood against labeled sets, with where each match comes from",
     Frame::Job,
     {sets::input, sets::reading, sets::chunking, sets::stop_items, sets::detect_labels, sets::scoring,
      sets::checkpoints, sets::output, sets::config},
     {"output", "labels"}, kNoCorpus, nullptr, &check_detect, &run_detect},
    {"run", "discover then detect, reading the corpus once", "crd run [options] INPUT… -o OUT.h5",
     "Blind discovery then detection in one job, reading the corpus once", Frame::Job,
     {sets::input, sets::samples, sets::reading, sets::chunking, sets::keep_counts, sets::thresholds, sets::stop_items,
      sets::scoring, sets::checkpoints, sets::output, sets::config},
     {"output"}, kNoCorpus, nullptr, &check_detect, &run_run},
    // Thresholds, top-N and stop items apply to the summed counts; the chunking is the inputs'.
    // It reads results, not a corpus: nothing to resume.
    {"merge", "sum discover --keep-counts results (months, batches) and label the sum (docs/merge.md)",
     "crd merge [options] RESULT.h5… -o MERGED.h5",
     "Sums the chunk and file counts of discover results made with --keep-counts (months, crawls,\n"
     "batches), then labels, annotates and writes them as one discover over all their inputs would\n"
     "(docs/merge.md)",
     Frame::Job, {sets::thresholds, sets::stop_items, sets::output, sets::config}, {"output"}, kNoResult, nullptr,
     nullptr, &run_merge},
    // neardup and quilts tokenize the visible text instead of chunking it, and keep no
    // checkpoints: their sketches and grams live only in memory.
    {"neardup", "near-duplicate pages by shingling, simhash or both (Henzinger 2006; docs/neardup.md)",
     "crd neardup [options] INPUT… -o OUT.h5",
     "Near-duplicate pages by Broder's shingling, Charikar's simhash or their combination (Henzinger 2006),\n"
     "read, cleaned and sharded as discover does; identical token sequences are compared once",
     Frame::Job, {sets::input, sets::reading, sets::neardup, sets::output, sets::config}, {"output"}, kNoCorpus,
     nullptr, &check_neardup, &run_neardup},
    {"quilts", "pages stitched from patches of several others (Najork 2012; docs/quilts.md)",
     "crd quilts [options] INPUT… -o OUT.h5",
     "Quilted pages: pages stitched from patches of k-word grams taken from several other pages (Najork 2012),\n"
     "read, cleaned and sharded as discover does",
     Frame::Job, {sets::input, sets::reading, sets::quilts, sets::output, sets::config}, {"output"}, kNoCorpus,
     &quilts_defaults, &check_quilts, &run_quilts},
    {"inspect", "human summary of a result file (no MPI needed)",
     "crd inspect RESULT.h5… [--top N] [--rank badness|labeled|pages] [--depth D]", "Human summary of a crd result file",
     Frame::Local, {sets::inspect, sets::config}, {}, kNoResult, nullptr, nullptr, &run_inspect},
    {"check", "check single pages against a labeled set (no MPI needed)",
     "crd check --labels L.h5 [options] PAGE… (- = stdin)",
     "Check single pages against a labeled set (no MPI job): labeled/total chunks, containment,\n"
     "and the matched chunks' text. A page larger than --max-record-bytes is not checked (reported\n"
     "and counted); a directory is refused: give its page files",
     Frame::Local, {sets::reading, sets::chunking, sets::stop_items, sets::check, sets::config}, {"labels"},
     "no page given (a file, or - for stdin)", &check_defaults, &check_check, &run_check},
    {"report", "self-contained HTML review of a result, with stop-list pruning (no MPI needed)",
     "crd report RESULT.h5 -o REPORT.html [--top N]",
     "A self-contained HTML review of a result (no MPI job, no network): run summary, figures,\n"
     "sortable tables, and the paper's human-assisted pruning (mark benign chunks, export a stop list)",
     Frame::Local, {sets::report, sets::config}, {"output"}, kNoResult, &report_defaults, nullptr, &run_report},
    {"compare", "documents against each other (and a labeled set) by shared sentences (no MPI needed)",
     "crd compare [options] DOCUMENT… (files, directories, WARC/ARC: each record is a document)",
     "Documents against each other by shared sentences (no MPI job): for each pair sharing one, the\n"
     "matching sentences, the similarity pair <|d1&d2|/|d1|, |d1&d2|/|d2|> and the overlap distribution\n"
     "(sentences shared per run of k); with --labels, the labeled sentences of each document and the\n"
     "labeled documents (sample URLs) they come from (docs/sentences.md)",
     Frame::Local, {sets::reading, sets::chunking, sets::stop_items, sets::compare, sets::config}, {},
     "no document given (files, directories or archives)", &sentence_chunks, nullptr, &run_compare},
    // The LSH sketches live only in memory while the corpus is read: no checkpoints.
    {"compare-hashing", "SHA-1 chunks against Nilsimsa, TLSH and ssdeep on a corpus with known truth",
     "crd compare-hashing [options] INPUT… --labels L.h5 --truth PREFIXES.txt -o OUT.h5",
     "Page detection with SHA-1 chunk hashes against Nilsimsa, TLSH and ssdeep on a corpus with known\n"
     "truth (paper §6.5, Table 1): confusion matrices, false-positive rates, and a sweep of each LSH\n"
     "threshold; printed, and written to /compare_hashing",
     Frame::Job, {sets::input, sets::reading, sets::chunking, sets::stop_items, sets::hashing, sets::output, sets::config},
     {"output", "labels", "truth"}, kNoCorpus, nullptr, &check_compare_hashing, &run_compare_hashing},
};
// clang-format on

}  // namespace

std::span<const Command> commands() { return kCommands; }

const Command* find_command(std::string_view name) {
  for (const Command& c : kCommands)
    if (name == c.name) return &c;
  return nullptr;
}

OptionBinder bind_options(const Command& command, Settings& settings) {
  if (command.defaults != nullptr) command.defaults(settings);
  OptionBinder binder(command.required);
  for (const OptionSet set : command.sets) set(binder, settings);
  return binder;
}

std::string help_caption(const Command& command) {
  return std::string(command.synopsis) + "\n\n" + command.description;
}

}  // namespace crd::cli
