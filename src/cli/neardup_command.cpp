// crd neardup: options → pipeline, under MPI.

#include "commands.hpp"
#include "corpus_job.hpp"
#include "neardup_options.hpp"
#include "option_groups.hpp"
#include "option_values.hpp"
#include "crd/base/error.hpp"

namespace crd::cli {
namespace {

// Each option's range, shown in --help. The upper ends keep a page's sketch small: 2^32
// min-values, supershingles or bits ended in std::bad_alloc (issue 36), while seed 002 uses
// (k, m, m', b) = (8, 84, 6, 384). A bucket of n ≤ 2^32 pages has fewer than 2^63 pairs.
constexpr CountRange kShingleTokens{1, 1000};
constexpr CountRange kMinvalues{1, 4096};
constexpr CountRange kSupershingles{1, 4096};
constexpr CountRange kSimhashBits{64, 4096};
constexpr CountRange kSimhashPieces{1, 4096};
constexpr CountRange kBSimilarity{1, kSupershingles.most};  // and at most --supershingles
constexpr CountRange kCSimilarity{0, kSimhashBits.most};    // and at most --simhash-bits
constexpr CountRange kMaxBucket{0, kMaxU32};

}  // namespace

po::options_description neardup_options(pipeline::NeardupOptions& o) {
  auto& s = o.sketch;
  auto& r = o.rules;
  po::options_description d("Near-duplicates (seed 002: Henzinger 2006; docs/neardup.md)");
  d.add_options()
      ("method", choice_value(r.method, "method"), "minhash: Alg. B (shingles); simhash: Alg. C (random projection); combined: B-similar pairs "
           "with C-similarity ≥ --combined-c-similarity")
      ("shingle-tokens", count_value(s.k, "shingle-tokens", kShingleTokens), "k: tokens per shingle")
      ("minvalues", count_value(s.m, "minvalues", kMinvalues), "m: min-values (fixed hash functions) per page")
      ("supershingles", count_value(s.m_prime, "supershingles", kSupershingles), "m': supershingles, each over m / m' min-values")
      ("min-b-similarity", count_value(r.min_b_similarity, "min-b-similarity", kBSimilarity),
       "B-similar: at least this many supershingles agree")
      ("simhash-bits", count_value(s.b, "simhash-bits", kSimhashBits), "b: simhash bits (a multiple of 64)")
      ("simhash-pieces", count_value(s.pieces, "simhash-pieces", kSimhashPieces),
       "simhash candidates: pages sharing one of this many equal pieces of the b bits are compared")
      ("min-c-similarity", count_value(r.min_c_similarity, "min-c-similarity", kCSimilarity),
       "C-similar (--method simhash): at least this many bits agree")
      ("combined-c-similarity", count_value(r.combined_c_similarity, "combined-c-similarity", kCSimilarity),
       "--method combined: keep B-similar pairs with at least this many agreeing bits")
      ("max-bucket", count_value(r.max_bucket, "max-bucket", kMaxBucket),
       "a bucket (supershingle or piece) shared by more pages than this is not compared, only counted");
  return d;
}

int neardup_command(int argc, char** argv) {
  pipeline::CommonOptions common;
  pipeline::NeardupOptions options;
  return run_tokenizing_command(
      argc, argv,
      "crd neardup [options] INPUT… -o OUT.h5\n\n"
      "Near-duplicate pages by Broder's shingling, Charikar's simhash or their combination (seed 002),\n"
      "read, cleaned and sharded as discover does; identical token sequences are compared once",
      neardup_options(options), common,
      [&] {
        options.rules.piece_bits = options.sketch.piece_bits();
        if (const auto problem = options.sketch.problem(); !problem.empty()) throw UsageError(std::string(problem));
        if (options.rules.min_b_similarity > options.sketch.m_prime)
          throw UsageError("option --min-b-similarity: at most --supershingles (" +
                           std::to_string(options.sketch.m_prime) + ")");
        // Two sketches cannot agree on more bits than they have. A default above fewer bits is
        // refused only where the method uses it (--simhash-bits 128 --method minhash is fine).
        const neardup::PairRules defaults;
        const neardup::Method method = options.rules.method;
        const struct {
          const char* name;
          std::uint32_t value, fallback;
          bool used;
        } c_thresholds[] = {
            {"min-c-similarity", options.rules.min_c_similarity, defaults.min_c_similarity,
             method == neardup::Method::SimHash},
            {"combined-c-similarity", options.rules.combined_c_similarity, defaults.combined_c_similarity,
             method == neardup::Method::Combined}};
        for (const auto& t : c_thresholds) {
          if (t.value > options.sketch.b && (t.used || t.value != t.fallback))
            throw UsageError(std::string("option --") + t.name + ": at most --simhash-bits (" +
                             std::to_string(options.sketch.b) + ")");
        }
      },
      [&](comm::Transport& transport) { pipeline::run_neardup(common, options, transport); });
}

}  // namespace crd::cli
