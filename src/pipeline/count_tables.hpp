// The count tables of a result (discover --keep-counts, crd merge): every distinct chunk and file
// hash with its count and length, ascending by hash, and the chunking that made them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "crd/discover/owner_tally.hpp"
#include "crd/output/result_file.hpp"
#include "crd/output/result_reader.hpp"

namespace crd::pipeline {

// Collective: this rank's rows of each table (ascending by hash: owner ranks hold ascending hash
// ranges, so the file ascends too) and the chunking identity (chunking_identity.hpp).
void write_count_tables(output::ResultFile& file, std::vector<discover::CountRow>& chunks,
                        std::vector<discover::CountRow>& files, const std::string& chunking);

// Rows [first, first + count) of one count table (schema::kChunkCounts or kFileCounts).
std::vector<discover::CountRow> read_count_rows(const output::ResultReader& reader, bool chunks, std::uint64_t first,
                                                std::uint64_t count);

}  // namespace crd::pipeline
