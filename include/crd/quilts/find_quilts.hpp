// crd quilts without I/O: documents in, rows out. Collective; the rows are the same for any rank
// count once sorted (the pipeline sorts them across ranks; tests on comm::LocalTransport too).
#pragma once

#include <cstdint>
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
  Counters counters;               // this rank's share: quilts.documents.*
};

// local: the documents this rank read (ids, urls, servers, grams set; any records of one URL).
QuiltResult find_quilts(comm::Transport& transport, std::vector<Document> local, const QuiltParams& params,
                        const shuffle::ShuffleConfig& config);

}  // namespace crd::quilts
