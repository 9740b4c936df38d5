// Writing and reading the count tables (count_tables.hpp).
#include "count_tables.hpp"

#include "crd/output/schema.hpp"

namespace crd::pipeline {

void write_count_tables(output::ResultFile& file, std::vector<discover::CountRow>& chunks,
                        std::vector<discover::CountRow>& files, const std::string& chunking) {
  output::write_table(file, output::schema::kChunkCounts, chunks);
  output::write_table(file, output::schema::kFileCounts, files);
  output::schema::set_attribute(file, output::schema::attr::kChunking, chunking);
}

std::vector<discover::CountRow> read_count_rows(const output::ResultReader& reader, bool chunks, std::uint64_t first,
                                                std::uint64_t count) {
  return output::read_table(reader, chunks ? output::schema::kChunkCounts : output::schema::kFileCounts, first, count);
}

}  // namespace crd::pipeline
