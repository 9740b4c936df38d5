// Whether a rank reads on a second thread (--reader-thread): the decision alone, without timing,
// so it is tested as a function of what the rank sees.
#pragma once

#include <cstdint>
#include <vector>

#include "crd/io/inputs.hpp"
#include "crd/pipeline/options.hpp"

namespace crd::pipeline {

struct ReaderThreadContext {
  std::uint64_t gzip_bytes = 0;   // bytes of this rank's shard in gzip-compressed archives (.gz)
  std::uint64_t total_bytes = 0;  // bytes of this rank's shard
  int usable_cpus = 1;            // CPUs this process may run on (its affinity mask)
  unsigned node_cpus = 1;         // CPUs of the node
  int ranks_on_node = 1;
};

// on → true, off → false. auto → true only when the thread pays for itself: a spare core for
// every rank of the node (the rank may run on two CPUs, the node has two per rank) AND at least
// half of the shard's bytes are gzip archives. Inflating is then a large share of the work (ISA-L,
// ~1.4-1.8 GB/s of output per core), and overlapping it with chunking and hashing pays. Reading plain
// files or an uncompressed WARC is a copy from the page cache, cheaper than handing each document
// over to the other thread (queue, wake-ups, a second working set). Figures: perf/RESULTS.md.
bool use_reader_thread(ReaderThread mode, const ReaderThreadContext& context);

// The shard's part of the context (gzip_bytes, total_bytes) from the files it reads.
ReaderThreadContext shard_bytes_context(const std::vector<io::InputFile>& files, const std::vector<std::size_t>& shard);

}  // namespace crd::pipeline
