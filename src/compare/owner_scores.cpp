// Owner-side comparison (owner_scores.hpp). Records are sent with Transport::alltoallv (64-bit
// counts, split under MPI's int limits): a chunk's record is its digest and sketches, ~150 bytes.
#include "owner_scores.hpp"

#include <cstring>
#include <unordered_map>

namespace crd::compare {
namespace {

template <class T>
void put(std::vector<std::byte>& out, const T& v) {
  const auto* b = reinterpret_cast<const std::byte*>(&v);
  out.insert(out.end(), b, b + sizeof(T));
}

void put_string(std::vector<std::byte>& out, const std::string& s) {
  put(out, static_cast<std::uint32_t>(s.size()));
  const auto* b = reinterpret_cast<const std::byte*>(s.data());
  out.insert(out.end(), b, b + s.size());
}

struct Reader {
  const std::byte* at;
  template <class T>
  T get() {
    T v;
    std::memcpy(&v, at, sizeof(T));
    at += sizeof(T);
    return v;
  }
  std::string get_string() {
    const auto n = get<std::uint32_t>();
    std::string s(reinterpret_cast<const char*>(at), n);
    at += n;
    return s;
  }
};

}  // namespace

std::vector<BestScores> owner_best_scores(comm::Transport& transport, const std::vector<Digest>& digests,
                                          const std::vector<const ChunkSketch*>& sketches, LabelSketches& labels) {
  const auto nranks = static_cast<std::size_t>(transport.size());
  // Requests, by owner; order[r] = which of my chunks the owner r's answers are for.
  std::vector<std::vector<std::byte>> to(nranks);
  std::vector<std::vector<std::size_t>> order(nranks);
  for (std::size_t i = 0; i < digests.size(); ++i) {
    const auto r = static_cast<std::size_t>(owner_of(digests[i], transport.size()));
    put(to[r], digests[i]);
    put(to[r], sketches[i]->nilsimsa);
    put_string(to[r], sketches[i]->tlsh);
    put_string(to[r], sketches[i]->ssdeep);
    order[r].push_back(i);
  }
  std::vector<std::byte> send, recv;
  std::vector<std::uint64_t> send_counts(nranks), recv_counts;
  for (std::size_t r = 0; r < nranks; ++r) {
    send.insert(send.end(), to[r].begin(), to[r].end());
    send_counts[r] = to[r].size();
    to[r] = {};
  }
  transport.alltoallv(send, send_counts, recv, recv_counts);

  // Owner: each distinct digest compared once; answers to each source in its request order.
  std::unordered_map<Digest, BestScores, DigestHasher> known;
  std::vector<std::byte> answers;
  std::vector<std::uint64_t> answer_counts(nranks, 0);
  Reader in{recv.data()};
  for (std::size_t r = 0; r < nranks; ++r) {
    const std::byte* end = in.at + recv_counts[r];
    while (in.at < end) {
      const auto digest = in.get<Digest>();
      ChunkSketch s;
      s.nilsimsa = in.get<NilsimsaDigest>();
      s.tlsh = in.get_string();
      s.ssdeep = in.get_string();
      auto [it, inserted] = known.try_emplace(digest);
      if (inserted) it->second = labels.best(s);
      put(answers, it->second);
      answer_counts[r] += sizeof(BestScores);
    }
  }
  std::vector<std::byte> back;
  std::vector<std::uint64_t> back_counts;
  transport.alltoallv(answers, answer_counts, back, back_counts);

  std::vector<BestScores> out(digests.size());
  Reader a{back.data()};
  for (std::size_t r = 0; r < nranks; ++r)
    for (const std::size_t i : order[r]) out[i] = a.get<BestScores>();
  return out;
}

}  // namespace crd::compare
