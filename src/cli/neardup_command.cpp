// crd neardup: options → pipeline, under MPI.
#include <limits>

#include "commands.hpp"
#include "corpus_job.hpp"
#include "neardup_options.hpp"
#include "option_groups.hpp"
#include "option_values.hpp"
#include "crd/base/error.hpp"

namespace crd::cli {
namespace {

// A count option that must fit 32 bits and be at least `least`.
po::typed_value<Count>* small_count(std::uint32_t& target, const char* name, std::uint64_t least) {
  return po::value<Count>()->default_value({target})->notifier([&target, name, least](const Count& c) {
    if (c.value < least || c.value > std::numeric_limits<std::uint32_t>::max())
      throw UsageError(std::string("option --") + name + ": must be " + std::to_string(least) + "..4294967295");
    target = static_cast<std::uint32_t>(c.value);
  });
}

}  // namespace

po::options_description neardup_options(pipeline::NeardupOptions& o) {
  auto& s = o.sketch;
  auto& r = o.rules;
  po::options_description d("Near-duplicates (seed 002: Henzinger 2006; docs/neardup.md)");
  d.add_options()
      ("method", choice_value(r.method, "method"), "minhash: Alg. B (shingles); simhash: Alg. C (random projection); combined: B-similar pairs "
           "with C-similarity ≥ --combined-c-similarity")
      ("shingle-tokens", small_count(s.k, "shingle-tokens", 1), "k: tokens per shingle")
      ("minvalues", small_count(s.m, "minvalues", 1), "m: min-values (fixed hash functions) per page")
      ("supershingles", small_count(s.m_prime, "supershingles", 1), "m': supershingles, each over m / m' min-values")
      ("min-b-similarity", small_count(r.min_b_similarity, "min-b-similarity", 1),
       "B-similar: at least this many supershingles agree")
      ("simhash-bits", small_count(s.b, "simhash-bits", 64), "b: simhash bits (a multiple of 64)")
      ("simhash-pieces", small_count(s.pieces, "simhash-pieces", 1),
       "simhash candidates: pages sharing one of this many equal pieces of the b bits are compared")
      ("min-c-similarity", small_count(r.min_c_similarity, "min-c-similarity", 0),
       "C-similar (--method simhash): at least this many bits agree")
      ("combined-c-similarity", small_count(r.combined_c_similarity, "combined-c-similarity", 0),
       "--method combined: keep B-similar pairs with at least this many agreeing bits")
      ("max-bucket", count_value(r.max_bucket),
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
      },
      [&](comm::Transport& transport) { pipeline::run_neardup(common, options, transport); });
}

}  // namespace crd::cli
