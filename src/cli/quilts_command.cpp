// crd quilts: options → pipeline, under MPI.
#include <charconv>
#include <limits>

#include "commands.hpp"
#include "corpus_job.hpp"
#include "option_groups.hpp"
#include "option_values.hpp"
#include "crd/base/error.hpp"
#include "crd/pipeline/quilts_pipeline.hpp"

namespace crd::cli {
namespace {

// A fraction in 0..1 written as digits with an optional decimal point ("0.5", "1", ".25");
// nullopt for anything else (signs, exponents, spaces, trailing text).
std::optional<double> parse_fraction(std::string_view text) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string_view::npos) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::fixed);
  if (ec != std::errc() || end != text.data() + text.size() || v > 1.0) return std::nullopt;
  return v;
}

// Each option's range, shown in --help; a sweep's values have their pivot option's range. Grams
// of k words cost k hashes per word (seed 003 uses k = 5); a sweep runs every combination of
// its values for every page, so each list is short (a million values ended in std::bad_alloc).
constexpr CountRange kGramWords{1, 1000};
constexpr CountRange kMaxGramDocuments{2, kMaxU32};
constexpr CountRange kMinSources{1, kMaxU32};
constexpr CountRange kMaxPageGrams{1, std::numeric_limits<std::uint64_t>::max()};
constexpr std::size_t kMaxSweepValues = 16;

[[noreturn]] void bad(const char* option, std::string_view text, const char* what) {
  throw UsageError(std::string("option --") + option + ": '" + std::string(text) + "' is not " + what);
}

// Comma-separated items, each parsed by `one`.
template <class T, class Parse>
std::vector<T> parse_list(const char* option, const std::string& text, Parse one, const char* what) {
  std::vector<T> out;
  std::string_view rest = text;
  while (true) {
    const auto comma = rest.find(',');
    const auto item = rest.substr(0, comma);
    const auto v = one(item);
    if (!v) bad(option, item, what);
    out.push_back(static_cast<T>(*v));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

void limit_sweep(const char* option, std::size_t values) {
  if (values > kMaxSweepValues)
    throw UsageError(std::string("option --") + option + ": at most " + std::to_string(kMaxSweepValues) + " values");
}

// A sweep list of whole numbers, each in `range`.
std::vector<std::uint32_t> parse_sweep(const char* option, const std::string& text, CountRange range) {
  const auto values = parse_list<std::uint64_t>(option, text, parse_count, "a whole number");
  limit_sweep(option, values.size());
  for (const std::uint64_t v : values)
    if (!range.contains(v)) refuse_out_of_range(option, std::to_string(v), range);
  return {values.begin(), values.end()};
}

po::typed_value<std::string>* fraction_value(double& target, const char* option) {
  return po::value<std::string>()->default_value(std::to_string(target).substr(0, 4))->notifier(
      [&target, option](const std::string& s) {
        const auto v = parse_fraction(s);
        if (!v) bad(option, s, "a fraction in 0..1");
        target = *v;
      });
}

}  // namespace

po::options_description quilts_options(quilts::QuiltParams& p, std::string& exclude_pages) {
  po::options_description d("Quilted pages (seed 003: Najork 2012; docs/quilts.md)");
  d.add_options()
      ("gram-words", count_value(p.k, "gram-words", kGramWords), "k: words per gram")
      ("max-gram-documents", count_value(p.m, "max-gram-documents", kMaxGramDocuments),
       "m: a patch gram is in 2..m documents (its page and fewer than m others)")
      ("min-sources", count_value(p.c, "min-sources", kMinSources), "c: a quilt has at least c sources (greedy set cover)")
      ("min-patch-fraction", fraction_value(p.theta, "min-patch-fraction"),
       "θ: a quilt has at least this fraction of its grams as patch grams")
      ("min-source-share", fraction_value(p.min_source_share, "min-source-share"),
       "φ: each source must cover at least this fraction of the page's patch grams (0: no limit)")
      ("foreign-sourced", choice_value(p.foreign, "foreign-sourced"),
       "off; domain: sources on another registrable domain (public suffix list); host: on another host")
      ("max-page-grams", count_value(p.max_page_grams, "max-page-grams", kMaxPageGrams), "pages with more distinct grams are skipped and counted")
      ("exclude-pages", po::value<std::string>(&exclude_pages),
       "FILE of URL keys (one per line, # comments) left out of the corpus: crd report's pages marked benign")
      ("sweep-m", po::value<std::string>()->notifier([&p](const std::string& s) {
         p.sweep_m = parse_sweep("sweep-m", s, kMaxGramDocuments);
       }), "m values for /quilts/sweep (comma-separated), beside --max-gram-documents")
      ("sweep-c", po::value<std::string>()->notifier([&p](const std::string& s) {
         p.sweep_c = parse_sweep("sweep-c", s, kMinSources);
       }), "c values for /quilts/sweep, beside --min-sources")
      ("sweep-theta", po::value<std::string>()->notifier([&p](const std::string& s) {
         p.sweep_theta = parse_list<double>("sweep-theta", s, parse_fraction, "a fraction in 0..1");
         limit_sweep("sweep-theta", p.sweep_theta.size());
       }), "θ values for /quilts/sweep, beside --min-patch-fraction");
  return d;
}

int quilts_command(int argc, char** argv) {
  pipeline::CommonOptions common;
  quilts::QuiltParams params;
  std::string exclude_pages;
  return run_tokenizing_command(
      argc, argv,
      "crd quilts [options] INPUT… -o OUT.h5\n\n"
      "Quilted pages: pages stitched from patches of k-word grams taken from several other pages (seed 003),\n"
      "read, cleaned and sharded as discover does",
      quilts_options(params, exclude_pages), common,
      [&] {
        if (const auto problem = params.problem(); !problem.empty()) throw UsageError(std::string(problem));
      },
      [&](comm::Transport& transport) { pipeline::run_quilts(common, params, transport, exclude_pages); },
      &exclude_pages);
}

}  // namespace crd::cli
