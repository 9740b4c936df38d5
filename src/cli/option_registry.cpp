// The option registry (option_registry.hpp): one row per crd option.
#include "option_registry.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>

#include "crd/base/human_bytes.hpp"
#include "crd/chunk/chunker.hpp"

namespace crd::cli {
namespace {

using K = ValueKind;
constexpr Effect R = Effect::ChangesResults;
constexpr Effect Run = Effect::RunOnly;
constexpr std::uint64_t kNoMost = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();
constexpr ValueRange kAny{};

// Ranges written once and shared by the options they bound. neardup's upper ends keep a page's
// sketch small: 2^32 min-values, supershingles or bits ended in std::bad_alloc (docs/hostile-input.md), while
// Henzinger 2006 uses (k, m, m', b) = (8, 84, 6, 384); a bucket of n ≤ 2^32 pages has fewer than 2^63
// pairs. Grams of k words cost k hashes per word (Najork 2012 uses k = 5). A sweep's values have
// their pivot option's range.
constexpr ValueRange kGramWords{1, chunk::kMaxGramWords};
constexpr ValueRange kSupershingles{1, 4096};
constexpr ValueRange kSimhashBits{64, 4096};
constexpr ValueRange kCSimilarity{0, kSimhashBits.most};  // and at most --simhash-bits
constexpr ValueRange kMaxGramDocuments{2, kMaxU32};
constexpr ValueRange kMinSources{1, kMaxU32};
constexpr ValueRange kSigned{std::numeric_limits<std::int64_t>::min(), kNoMost};

constexpr const char* kInput = "Input and cleaning";
constexpr const char* kChunking = "Chunking";
constexpr const char* kDiscovery = "Discovery (labeling)";
constexpr const char* kDetection = "Detection (partial matches and bad neighborhoods)";
constexpr const char* kNeardup = "Near-duplicates (crd neardup; Henzinger 2006, docs/neardup.md)";
constexpr const char* kQuilts = "Quilted pages (crd quilts; Najork 2012, docs/quilts.md)";
constexpr const char* kHashing = "Hashing comparison (crd compare-hashing; paper §6.5)";
constexpr const char* kCompare = "Sentence comparison (crd compare; docs/sentences.md)";
constexpr const char* kShown = "What is shown (check, compare, inspect, report)";
constexpr const char* kRun = "Output and run control";

constexpr std::array<const char*, 10> kGroups{kInput,  kChunking, kDiscovery, kDetection, kNeardup,
                                              kQuilts, kHashing,  kCompare,   kShown,     kRun};

// Boost-style tables read best one option a line.
// clang-format off
constexpr OptionSpec kOptions[] = {
  {"skip-missing", 0, K::Flag, kAny, kInput, R, "",
   "go on without inputs that cannot be found (listed in /run/errors) instead of stopping"},
  {"max-depth", 0, K::Integer, {1, kNoMost}, kInput, R, "D",
   "drop URLs with more path components than this (recursion errors, docs/cleaning.md)"},
  {"max-repeat", 0, K::Integer, {0, kNoMost}, kInput, R, "N",
   "drop URLs in which one path component occurs more often than this (0 = off)"},
  {"reader-thread", 0, K::Choice, kAny, kInput, Run, "",
   "read and inflate on a second thread per rank (auto: for .gz archives, when the node has a spare core per rank)"},
  {"sample-bytes", 0, K::Count, {1, 65536}, kInput, R, "",
   "bytes of each labeled chunk's text kept as its sample"},
  {"max-record-bytes", 0, K::Size, kAny, kInput, R, "",
   "skip archive records (and pages) larger than this without reading them"},

  {"chunker", 0, K::Choice, kAny, kChunking, R, "",
   "scan: split raw markup (fast); dom: split the gumbo HTML5 tree's visible text; sentence: that text's sentences "
   "(ICU); winnow: winnowed word grams of the text (survive edits; docs/winnow.md); winnow+scan: scan's chunks and "
   "winnow's grams, each part tested apart (also catches deleted paragraphs)"},
  {"gram-words", 0, K::Count, kGramWords, kChunking, R, "",
   "words per gram: --chunker winnow's K; crd quilts' k"},
  {"window", 0, K::Count, {1, chunk::kMaxWindow}, kChunking, R, "",
   "--chunker winnow: grams per window (W); every shared run of W + K - 1 words is found"},
  {"tags", 0, K::NameList, kAny, kChunking, R, "TAG,…", "boundary tags, comma-separated"},
  {"boundary-match", 0, K::Choice, kAny, kChunking, R, "",
   "tag: <p> but not <pre>; prefix: any tag name starting with a boundary tag (<p also splits at <pre, <param), "
   "as the paper's released code"},

  {"keep-counts", 0, K::Flag, kAny, kDiscovery, R, "",
   "also write every distinct chunk and file hash with its count (for crd merge)"},
  {"chunk-threshold", 0, K::Count, kAny, kDiscovery, R, "", "label chunks occurring more than this many times"},
  {"file-threshold", 0, K::Count, kAny, kDiscovery, R, "", "label whole files occurring more than this many times"},
  {"chunk-top", 0, K::Count, kAny, kDiscovery, R, "",
   "of those, label only the N most frequent chunks (ties by hash; 0 = no limit)"},
  {"file-top", 0, K::Count, kAny, kDiscovery, R, "",
   "of those, label only the N most frequent files (ties by hash; 0 = no limit)"},
  {"stop-chunks", 0, K::Path, kAny, kDiscovery, R, "FILE",
   "file of stop chunks/files: one 40-hex SHA-1 or one literal chunk per line"},
  {"min-chunk-length", 0, K::Count, kAny, kDiscovery, R, "",
   "treat chunks shorter than this many normalized bytes as stop chunks"},

  {"labels", 0, K::PathList, kAny, kDetection, R, "L.h5",
   "labeled set: a crd label / discover / run result (repeatable; sets are merged)"},
  {"join", 0, K::Choice, kAny, kDetection, R, "",
   "auto | replicated (every rank holds L) | partitioned (L split by hash prefix)"},
  {"replicate-max", 0, K::Count, kAny, kDetection, R, "", "auto join: replicate L when it has at most this many labels"},
  {"pairs", 0, K::Count, kAny, kDetection, R, "K",
   "per flagged page, its similarity pair with the K labeled documents it overlaps most (/detection/pairs; labels "
   "from crd label)"},
  {"page-threshold", 0, K::Threshold, kAny, kDetection, R, "auto|robust[:K]|binomial[:R[:ALPHA]]|betabinomial[:ALPHA[:CUT]]|X",
   "flag pages whose containment exceeds this (auto = mean + σ over all pages; binomial[:R[:ALPHA]] = more "
   "labeled chunks than a chance rate R explains at level ALPHA, binomial:fit[:ALPHA] = R measured from the crawl, "
   "betabinomial[:ALPHA[:CUT]] = a chance rate varying from page to page, its Beta fitted from the crawl, "
   "docs/winnow.md; crd check: a number or binomial); "
   "with --chunker winnow or winnow+scan and no --page-threshold, binomial"},
  {"min-labeled", 0, K::Count, kAny, kDetection, R, "", "flag a page only with at least this many labeled chunks"},
  {"host-stop-pages", 0, K::Count, kAny, kDetection, R, "N",
   "the page rule does not count a labeled chunk that one host holds on more than N pages and on more pages "
   "than C times the labeled set holds it (C: --host-stop-site-ratio; that host's boilerplate; docs/winnow.md); "
   "0 = off; with --chunker winnow and no --host-stop-pages, 20"},
  {"host-stop-site-ratio", 0, K::Count, {1, kNoMost}, kDetection, R, "C",
   "--host-stop-pages: a host's labeled chunk is its boilerplate only on more than C times as many pages as the "
   "labeled set holds it (a mirror's winnowing selects a gram on a few more pages than the site's)"},
  {"cross-host-stop-hosts", 0, K::Count, kAny, kDetection, R, "H",
   "the page rule does not count a labeled chunk that pages of at least H hosts hold where the page's containment "
   "is below --cross-host-stop-cut (common phrasing of the crawl, not copying; docs/winnow.md); 0 = off; with "
   "--chunker winnow and no --cross-host-stop-hosts, 4"},
  {"cross-host-stop-cut", 0, K::Fraction, kAny, kDetection, R, "C",
   "--cross-host-stop-hosts: only pages whose containment (after --host-stop-pages) is below C count as a chunk's "
   "hosts, so mirrors' mostly copied pages never do"},
  {"neighborhood-min-flagged", 0, K::Count, kAny, kDetection, R, "K",
   "also flag a neighborhood holding at least K flagged pages when that many flagged of its scored pages is "
   "improbable at the page rule's level ALPHA (P[Binomial(pages, ALPHA) >= flagged] < ALPHA: a mirror diluted "
   "below the badness threshold; docs/winnow.md); needs a binomial or betabinomial page rule; 0 = off"},
  {"exact-min-length", 0, K::Count, kAny, kDetection, R, "",
   "--chunker winnow+scan: exact chunks shorter than this many normalized bytes are stop chunks (the paper's "
   "100-byte rule, §4.4.2; template chunks are no copied paragraphs); grams keep --min-chunk-length"},
  {"min-neighborhood-labeled", 0, K::Count, kAny, kDetection, R, "",
   "flag a neighborhood only with at least this many labeled chunks (paper §8.1: 1001)"},
  {"neighborhood-threshold", 0, K::Threshold, kAny, kDetection, R, "",
   "flag neighborhoods whose badness exceeds this (auto = mean + σ over all neighborhoods)"},
  {"badness", 0, K::Choice, kAny, kDetection, R, "",
   "pages: mean page containment (the paper's formula); chunks: labeled / chunks over the neighborhood"},
  {"max-neighborhood-depth", 0, K::Integer, {-1, kNoMost}, kDetection, R, "D",
   "deepest URL prefix scored as a neighborhood (0 = hosts only, -1 = no limit)"},
  {"provenance-samples", 0, K::Count, kAny, kDetection, R, "", "page URLs kept per label as examples of where it occurs"},

  {"method", 0, K::Choice, kAny, kNeardup, R, "",
   "minhash: Alg. B (shingles); simhash: Alg. C (random projection); combined: B-similar pairs with C-similarity ≥ "
   "--combined-c-similarity"},
  {"shingle-tokens", 0, K::Count, {1, 1000}, kNeardup, R, "", "k: tokens per shingle"},
  {"minvalues", 0, K::Count, {1, 4096}, kNeardup, R, "", "m: min-values (fixed hash functions) per page"},
  {"supershingles", 0, K::Count, kSupershingles, kNeardup, R, "", "m': supershingles, each over m / m' min-values"},
  {"min-b-similarity", 0, K::Count, {1, kSupershingles.most}, kNeardup, R, "",
   "B-similar: at least this many supershingles agree (at most --supershingles)"},
  {"simhash-bits", 0, K::Count, kSimhashBits, kNeardup, R, "", "b: simhash bits (a multiple of 64)"},
  {"simhash-pieces", 0, K::Count, {1, 4096}, kNeardup, R, "",
   "simhash candidates: pages sharing one of this many equal pieces of the b bits are compared"},
  {"min-c-similarity", 0, K::Count, kCSimilarity, kNeardup, R, "",
   "C-similar (--method simhash): at least this many bits agree (at most --simhash-bits)"},
  {"combined-c-similarity", 0, K::Count, kCSimilarity, kNeardup, R, "",
   "--method combined: keep B-similar pairs with at least this many agreeing bits"},
  {"max-bucket", 0, K::Count, {0, kMaxU32}, kNeardup, R, "",
   "a bucket (a supershingle or simhash piece) shared by more pages than this links no pairs, only counted"},
  {"normalize-text", 0, K::Flag, kAny, kNeardup, R, "",
   "shingle normalized terms: lower case, punctuation removed, each run of digits as 0 (as FineWeb's dedup)"},
  {"boilerplate-pages", 0, K::Count, {0, kNoMost}, kNeardup, R, "N",
   "leave out of the shingles every block (text between block-level tags) found on at least N pages of its host "
   "(0 = off)"},
  {"min-shingles", 0, K::Count, {0, kMaxU32}, kNeardup, R, "N",
   "a page of fewer than N distinct shingles (after --boilerplate-pages) is matched only with pages identical to it "
   "(0 = off)"},
  {"min-jaccard", 0, K::Fraction, kAny, kNeardup, R, "",
   "keep a pair (or a capped bucket's cluster edge) only when its pages' Jaccard, estimated from a bottom-k sample of "
   "their shingles, is at least this (0 = off)"},
  {"jaccard-sample", 0, K::Count, {16, 65536}, kNeardup, R, "k",
   "--min-jaccard: shingle hashes sampled per page (bottom-k); the estimate's spread is sqrt(J(1 - J)/k)"},
  {"max-pairs", 0, K::Count, {0, kNoMost}, kNeardup, R, "",
   "neardup: keep at most this many pairs in /neardup/pairs, leaving out the largest buckets' first (0 = all); "
   "/neardup/clusters stays complete"},

  {"max-gram-documents", 0, K::Count, kMaxGramDocuments, kQuilts, R, "",
   "m: a patch gram is in 2..m documents (its page and fewer than m others)"},
  {"min-sources", 0, K::Count, kMinSources, kQuilts, R, "", "c: a quilt has at least c sources (greedy set cover)"},
  {"min-patch-fraction", 0, K::Fraction, kAny, kQuilts, R, "",
   "θ: a quilt has at least this fraction of its grams as patch grams"},
  {"min-source-share", 0, K::Fraction, kAny, kQuilts, R, "",
   "φ: each source must cover at least this fraction of the page's patch grams (0: no limit)"},
  {"foreign-sourced", 0, K::Choice, kAny, kQuilts, R, "",
   "off; domain: sources on another registrable domain (public suffix list); host: on another host"},
  {"max-page-grams", 0, K::Count, {1, kNoMost}, kQuilts, R, "", "pages with more distinct grams are skipped and counted"},
  {"exclude-pages", 0, K::Path, kAny, kQuilts, R, "FILE",
   "URL keys (one per line, # comments) left out of the corpus: crd report's pages marked benign"},
  {"sweep-m", 0, K::CountList, kMaxGramDocuments, kQuilts, R, "M,…",
   "m values for /quilts/sweep (comma-separated), beside --max-gram-documents"},
  {"sweep-c", 0, K::CountList, kMinSources, kQuilts, R, "C,…", "c values for /quilts/sweep, beside --min-sources"},
  {"sweep-theta", 0, K::FractionList, kAny, kQuilts, R, "θ,…",
   "θ values for /quilts/sweep, beside --min-patch-fraction"},

  {"truth", 0, K::Path, kAny, kHashing, R, "FILE",
   "file of positive URL prefixes (page keys, host/path…), one per line; every other page is negative"},
  {"extrapolate-pages", 0, K::Number, {0, kNoMost}, kHashing, R, "",
   "corpus size the false-positive rate is extrapolated to (Common Crawl's files in §6.5)"},
  // Their ranges are checked with the sweeps' values (compare/sweep.cpp), which share them.
  {"nilsimsa-threshold", 0, K::Integer, kSigned, kHashing, R, "", "Nilsimsa match: score ≥ this, of 128 (the paper's 115)"},
  {"nilsimsa-sweep", 0, K::Text, kAny, kHashing, R, "A:B|a,b,…",
   "Nilsimsa thresholds to sweep: A:B (every integer) or a,b,c"},
  {"tlsh-threshold", 0, K::Integer, kSigned, kHashing, R, "", "TLSH match: distance ≤ this"},
  {"tlsh-sweep", 0, K::Text, kAny, kHashing, R, "A:B|a,b,…", "TLSH distances to sweep"},
  {"ssdeep-threshold", 0, K::Integer, kSigned, kHashing, R, "", "ssdeep match: score ≥ this, of 100"},
  {"ssdeep-sweep", 0, K::Text, kAny, kHashing, R, "A:B|a,b,…", "ssdeep scores to sweep"},

  {"granularity", 'k', K::Count, {1, 1000000}, kCompare, R, "",
   "overlap distribution: sentences per cluster (the paper's k)"},
  {"max-sentence-bucket", 0, K::Count, {0, kMaxU32}, kCompare, R, "",
   "a sentence held by more documents than this links no pairs, only counted (also spelt --max-bucket, its older "
   "name)"},
  {"json", 0, K::Flag, kAny, kCompare, Run, "", "one JSON object on stdout instead of text"},

  {"show", 0, K::Count, kAny, kShown, Run, "", "matched chunks (sentences) printed per page, pair or document"},
  {"top", 0, K::Count, {1, kNoMost}, kShown, Run, "",
   "rows shown per table (report: kept, the top by the table's ranking; the page says when rows were left out)"},
  {"rank", 0, K::Choice, kAny, kShown, Run, "", "order neighborhoods by this, largest first (ties by prefix)"},
  {"depth", 0, K::Integer, {-1, kNoMost}, kShown, Run, "D",
   "list only neighborhoods of this depth (0 = hosts, 1 = host/a, the paper's path length 1; -1 = every depth)"},

  {"output", 'o', K::Text, kAny, kRun, Run, "FILE",
   "the result file (HDF5; report: HTML), written as NAME.tmp-* and renamed when complete"},
  {"config", 0, K::Path, kAny, kRun, Run, "FILE",
   "read options from this INI file or preset (name = value; the command line wins; any crd option, those of other "
   "commands ignored)"},
  {"verbose", 'v', K::Flag, kAny, kRun, Run, "", "say which --config options this command ignores"},
  {"work-dir", 0, K::Text, kAny, kRun, Run, "DIR",
   "keep each rank's checkpoints of completed phases here (node-local scratch is fine)"},
  {"resume", 0, K::Flag, kAny, kRun, Run, "",
   "continue a killed job from the checkpoints in --work-dir (same inputs, options and rank count)"},
  {"shuffle-buffer", 0, K::Size, {4096, kNoMost}, kRun, Run, "",
   "payload each rank sends per all-to-all round (bounds message memory)"},
  {"memory", 0, K::Size, kAny, kRun, Run, "",
   "memory budget per rank (e.g. 8G; 0 = unchecked): discover, run and detect count in passes over the hash space "
   "to stay within it; other commands fail early, naming a rank count that fits"},
  {"progress-interval", 0, K::Number, {0, kNoMost}, kRun, Run, "S", "seconds between progress lines on stderr (0 = none)"},
};
// clang-format on

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::span<const OptionSpec> option_registry() { return kOptions; }
std::span<const char* const> option_groups() { return kGroups; }

const OptionSpec* find_option(std::string_view name) {
  for (const OptionSpec& o : kOptions)
    if (name == o.name) return &o;
  return nullptr;
}

const OptionSpec& option_spec(std::string_view name) {
  const OptionSpec* spec = find_option(name);
  if (spec == nullptr) throw std::logic_error("option --" + std::string(name) + " is not in the registry");
  return *spec;
}

std::string closest_option(std::string_view name) {
  const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
  std::string best;
  std::size_t best_distance = limit + 1;
  for (const OptionSpec& o : kOptions) {
    const std::size_t d = edit_distance(name, o.name);
    if (d < best_distance) {
      best_distance = d;
      best = o.name;
    }
  }
  return best;
}

std::string ValueRange::text(ValueKind kind) const {
  const auto number = [kind](std::uint64_t v) { return kind == ValueKind::Size ? human_bytes(v) : std::to_string(v); };
  const std::string low = least < 0 ? std::to_string(least) : number(static_cast<std::uint64_t>(least));
  if (most == std::numeric_limits<std::uint64_t>::max()) return "≥ " + low;
  return low + ".." + number(most);
}

}  // namespace crd::cli
