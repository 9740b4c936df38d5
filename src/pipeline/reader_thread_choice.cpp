// use_reader_thread: on for compressed shards with a spare core (see the header for why).
#include "reader_thread_choice.hpp"

namespace crd::pipeline {

bool use_reader_thread(ReaderThread mode, const ReaderThreadContext& c) {
  if (mode != ReaderThread::Auto) return mode == ReaderThread::On;
  const bool spare_core =
      c.usable_cpus >= 2 && c.ranks_on_node >= 1 && c.node_cpus >= 2u * static_cast<unsigned>(c.ranks_on_node);
  const bool mostly_gzip = c.total_bytes > 0 && c.gzip_bytes >= c.total_bytes - c.gzip_bytes;
  return spare_core && mostly_gzip;
}

ReaderThreadContext shard_bytes_context(const std::vector<io::InputFile>& files,
                                        const std::vector<std::size_t>& shard) {
  ReaderThreadContext c;
  for (std::size_t i : shard) {
    c.total_bytes += files[i].size;
    if (io::gzip_named(files[i])) c.gzip_bytes += files[i].size;
  }
  return c;
}

}  // namespace crd::pipeline
