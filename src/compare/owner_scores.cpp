// Owner-side comparison (owner_scores.hpp), as two reduce_by_key calls: requests (digest and
// sketches, ~150 bytes) go to the digest's owner, which folds equal digests from all ranks into one
// row and remembers who asked (Contributors); answers go back keyed by (asker, digest), the way
// discover's owner tally sends its notices.
#include "owner_scores.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "crd/comm/collectives.hpp"
#include "crd/shuffle/reduce_by_key.hpp"

namespace crd::compare {
namespace {

struct Request {
  Digest digest;
  ChunkSketch sketch;
  static constexpr auto fields() { return std::tuple(&Request::digest, &Request::sketch); }
};

struct Answer {
  std::uint32_t asker = 0;
  Digest digest;
  BestScores best;
  static constexpr auto fields() { return std::tuple(&Answer::asker, &Answer::digest, &Answer::best); }
};
struct AnswerKey {
  std::uint32_t asker;
  Digest digest;
  auto operator<=>(const AnswerKey&) const = default;
};

}  // namespace

std::vector<BestScores> owner_best_scores(comm::Transport& transport, const std::vector<Digest>& digests,
                                          const std::vector<const ChunkSketch*>& sketches, LabelSketches& labels,
                                          const shuffle::ShuffleConfig& config, CompareProgress* progress) {
  std::vector<Request> requests(digests.size());
  for (std::size_t i = 0; i < digests.size(); ++i) requests[i] = {digests[i], *sketches[i]};
  shuffle::Contributors askers;
  const auto rows = shuffle::reduce_by_key(
      transport, std::move(requests), [](const Request& r) -> const Digest& { return r.digest; },
      shuffle::HashPrefixOwner{}, [](Request&, const Request&) {}, config, &askers);  // equal SHA-1, equal sketches

  // Owner: each distinct digest compared once, answered to every rank that asked.
  std::vector<Answer> answers;
  answers.reserve(askers.ranks.size());
  // Each comparison is against every label sketch: against tens of thousands of labels this is
  // the long part of the job.
  if (progress != nullptr) progress->begin(comm::sum(transport, static_cast<std::uint64_t>(rows.size())));
  for (std::size_t row = 0; row < rows.size(); ++row) {
    if (progress != nullptr && row % CompareProgress::kProgressStep == 0) progress->done(row);
    const BestScores best = labels.best(rows[row].sketch);
    for (auto k = askers.offsets[row]; k < askers.offsets[row + 1]; ++k)
      answers.push_back({askers.ranks[k], rows[row].digest, best});
  }
  if (progress != nullptr) progress->done(rows.size());
  const auto back = shuffle::reduce_by_key(
      transport, std::move(answers), [](const Answer& a) { return AnswerKey{a.asker, a.digest}; },
      [](const AnswerKey& key, int) { return static_cast<int>(key.asker); }, [](Answer&, const Answer&) {}, config);

  // Answers ascend by digest: walk them beside this rank's digests in the same order.
  std::vector<std::size_t> by_digest(digests.size());
  std::iota(by_digest.begin(), by_digest.end(), std::size_t{0});
  std::sort(by_digest.begin(), by_digest.end(), [&](std::size_t a, std::size_t b) { return digests[a] < digests[b]; });
  if (back.size() != digests.size()) throw std::logic_error("owner_best_scores: answers do not match the requests");
  std::vector<BestScores> out(digests.size());
  for (std::size_t k = 0; k < back.size(); ++k) {
    if (back[k].digest != digests[by_digest[k]]) throw std::logic_error("owner_best_scores: answer for another chunk");
    out[by_digest[k]] = back[k].best;
  }
  return out;
}

std::uint64_t owner_scores_bytes(std::uint64_t sketch_bytes, std::uint64_t chunks) {
  const std::uint64_t requests = sketch_bytes + chunks * (sizeof(Request) - sizeof(ChunkSketch));
  return 3 * requests + chunks * (sizeof(Answer) + sizeof(std::size_t) + sizeof(BestScores));
}

}  // namespace crd::compare
