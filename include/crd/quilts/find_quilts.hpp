// crd quilts without I/O: documents in, rows out. Collective; the rows are the same for any rank
// count once sorted (the pipeline sorts them across ranks; tests on comm::LocalTransport too).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "crd/base/counters.hpp"
#include "crd/comm/transport.hpp"
#include "crd/quilts/params.hpp"
#include "crd/quilts/records.hpp"
#include "crd/shuffle/reduce_by_key.hpp"

namespace crd::quilts {

struct QuiltResult {
  std::vector<PageRow> pages;      // this rank's documents (unsorted)
  std::vector<SourceRow> sources;  // sources of this rank's share of the quilted pages (unsorted)
  std::vector<SweepRow> sweep;     // every (m, c, θ) of the sweep, totals over all ranks, on every rank
  Counters counters;               // this rank's share: quilts.documents.*, the tables' sizes
  std::uint32_t passes = 1;        // over the gram space (MemoryPlan)
};

// The memory a search's steps need, per rank (docs/quilts.md), for --memory:
inline constexpr std::uint64_t kPassBytesPerGram = 132;  // stages 2–4 of a pass, per gram it counts
inline constexpr std::uint64_t kMemberBytes = 120;       // stage 6: a class member sent (×3 copies)
inline constexpr std::uint64_t kDocumentBytes = 96;      // a document beside its url and grams
std::uint64_t held_bytes(const Document& d);             // what `d` holds (for --memory)
// Unbudgeted, the grams a pass counts per rank: its tables stay far below the model's
// kPassBytesPerGram (a few tens of MB), which budgets keep for safety.
inline constexpr std::uint64_t kUnbudgetedPassGrams = std::uint64_t{1} << 19;
std::uint64_t held_bytes(const HolderClass& c);

// How a search fits its memory: both collective (every rank calls, with its own share), and both
// throw on every rank alike when nothing fits. Unset: one pass, nothing checked.
struct MemoryPlan {
  // Passes over the gram space for stages 2–5, given what passes do not divide (`kept`: the
  // documents) and what they do (`divided`: kPassBytesPerGram per gram).
  std::function<std::uint32_t(std::uint64_t kept, std::uint64_t divided)> passes;
  // Fails unless a step's projected peak fits.
  std::function<void(const std::string& step, std::uint64_t bytes)> check;
};

// local: the documents this rank read (ids, urls, servers, grams set; any records of one URL).
QuiltResult find_quilts(comm::Transport& transport, std::vector<Document> local, const QuiltParams& params,
                        const shuffle::ShuffleConfig& config, const MemoryPlan& memory = {});

}  // namespace crd::quilts
