// crd quilts without I/O: documents in, rows out. Collective; the rows are the same for any rank
// count once sorted (the pipeline sorts them across ranks; tests on comm::LocalTransport too).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "crd/base/counters.hpp"
#include "crd/comm/transport.hpp"
#include "crd/quilts/params.hpp"
#include "crd/quilts/records.hpp"
#include "crd/shuffle/memory_budget.hpp"
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

// How a search fits its memory. Stages 2–5 run in passes over the gram space: as many as the
// budget needs beside what passes do not divide (the documents, and `held`) for what they do
// (kPassBytesPerGram per gram); unbudgeted, kUnbudgetedPassGrams grams a pass. Each later step's
// projected peak, with `held`, is checked against the budget (collective: FatalError on every rank
// alike when it does not fit).
struct MemoryPlan {
  const shuffle::MemoryBudget* budget = nullptr;  // the job's --memory; null: unbudgeted
  std::uint64_t held = 0;                         // this rank's bytes held beside the search (the scan's tables)
  std::uint32_t passes = 0;                       // > 0: exactly this many passes, whatever the budget
};

// local: the documents this rank read (ids, urls, servers, grams set; any records of one URL).
QuiltResult find_quilts(comm::Transport& transport, std::vector<Document> local, const QuiltParams& params,
                        const shuffle::ShuffleConfig& config, const MemoryPlan& memory = {});

}  // namespace crd::quilts
