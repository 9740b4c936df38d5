// Every group, dataset and attribute of a crd result file (docs/schema.md, checked against this
// header by tests/output/test_schema_doc.cpp). Writers, readers, inspect and check name paths only
// through these constants; column names come from the rows' field lists (table_io.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "crd/detect/detection.hpp"
#include "crd/discover/discovery.hpp"
#include "crd/discover/histogram.hpp"
#include "crd/io/read_options.hpp"
#include "crd/neardup/neardup_rows.hpp"
#include "crd/output/result_rows.hpp"
#include "crd/quilts/records.hpp"
#include "crd/output/table_io.hpp"

namespace crd::output::schema {

inline constexpr const char* kRoot = "/";
inline constexpr const char* kRun = "/run";
inline constexpr const char* kDiscovery = "/discovery";
inline constexpr const char* kDetection = "/detection";
inline constexpr const char* kNeardup = "/neardup";
inline constexpr const char* kCompareHashing = "/compare_hashing";
inline constexpr const char* kQuilts = "/quilts";

inline constexpr Table<NamedValueRow> kCounters{"/run/counters"};
inline constexpr Table<NamedValueRow> kResources{"/run/resources"};
inline constexpr Table<TimingRow> kTimings{"/run/timings"};
inline constexpr Table<io::ReadError> kErrors{"/run/errors"};

// Chunk lengths are normalized bytes of one page (uint32); file lengths are payload bytes (uint64).
inline constexpr Table<discover::LabelRow> kDiscoveryChunks{"/discovery/chunks", nullptr, &discover::LabelRow::length};
inline constexpr Table<discover::HistogramRow> kChunkHistogram{"/discovery/chunk_histogram"};
inline constexpr Table<discover::LabelRow> kDiscoveryFiles{"/discovery/files", &discover::LabelRow::sample};
inline constexpr Table<discover::HistogramRow> kFileHistogram{"/discovery/file_histogram"};
// Every distinct hash with its count (discover --keep-counts, crd merge): what crd merge sums.
inline constexpr Table<discover::CountRow> kChunkCounts{"/discovery/chunk_counts", nullptr, &discover::CountRow::length};
inline constexpr Table<discover::CountRow> kFileCounts{"/discovery/file_counts"};
inline constexpr Table<discover::LabelRow> kLabels{"/labels", nullptr, &discover::LabelRow::length};
inline constexpr Table<discover::HistogramRow> kLabelsHistogram{"/labels_histogram"};
inline constexpr Table<LabeledDocumentRow> kLabelsDocuments{"/labels_documents"};

inline constexpr Table<DetectedLabelRow> kDetectionLabels{"/detection/labels"};
inline constexpr Table<ProvenanceRow> kProvenance{"/detection/provenance"};
inline constexpr Table<detect::PageRow> kPages{"/detection/pages"};
inline constexpr Table<detect::NeighborhoodRow> kNeighborhoods{"/detection/neighborhoods"};
inline constexpr Table<SimilarityPairRow> kDetectionPairs{"/detection/pairs"};
inline constexpr Table<ConfusionRow> kConfusion{"/compare_hashing/confusion"};

inline constexpr Table<neardup::PairRow> kNeardupPairs{"/neardup/pairs"};
// The same table written without --min-jaccard: no estimate, so no `jaccard` column (a run without
// the check keeps its /neardup byte for byte).
inline constexpr Table<neardup::PairRow> kNeardupPairsUnchecked{kNeardupPairs.group, nullptr, nullptr,
                                                                &neardup::PairRow::jaccard};
inline constexpr Table<discover::HistogramRow> kNeardupDegree{"/neardup/degree"};
inline constexpr Table<neardup::IdentityRow> kNeardupIdentical{"/neardup/identical"};
inline constexpr Table<neardup::ClusterRow> kNeardupClusters{"/neardup/clusters"};
inline constexpr Table<neardup::RepresentativeRow> kNeardupRepresentatives{"/neardup/representatives"};

inline constexpr Table<quilts::PageRow> kQuiltPages{"/quilts/pages"};
inline constexpr Table<quilts::SourceRow> kQuiltSources{"/quilts/sources"};
inline constexpr Table<quilts::SweepRow> kQuiltSweep{"/quilts/sweep"};
inline constexpr Table<MergeInputRow> kMergeInputs{"/merge/inputs"};

// Groups a labeled set may be read from (--labels, check), in the order they are looked for.
inline constexpr const char* kLabelSources[] = {kLabels.group, kDiscoveryChunks.group, kDetectionLabels.group};

struct Attribute {
  const char* object;
  const char* name;
  const char* dtype;  // as docs/schema.md spells it
};

namespace attr {
// Root.
inline constexpr Attribute kCrdVersion{kRoot, "crd_version", "str"};
inline constexpr Attribute kCrdGitCommit{kRoot, "crd_git_commit", "str"};
inline constexpr Attribute kCrdBuildType{kRoot, "crd_build_type", "str"};
inline constexpr Attribute kSchemaVersion{kRoot, "schema_version", "int64"};
inline constexpr Attribute kCommand{kRoot, "command", "str"};
inline constexpr Attribute kCommandLine{kRoot, "command_line", "str"};
inline constexpr Attribute kNranks{kRoot, "nranks", "uint64"};
inline constexpr Attribute kCreated{kRoot, "created", "str"};
inline constexpr Attribute kConfig{kRoot, "config", "str"};
// Labeled tables (object: the table's group); min_chunk_length only where chunks are labeled.
inline constexpr const char* kThreshold = "threshold";
inline constexpr const char* kTotal = "total";
inline constexpr const char* kDistinct = "distinct";
inline constexpr const char* kLabeled = "labeled";
inline constexpr const char* kStopRemoved = "stop_removed";
inline constexpr const char* kTop = "top";                  // --chunk-top / --file-top (0 = none)
inline constexpr const char* kTopRemoved = "top_removed";  // passed threshold and stop rules, cut by top
inline constexpr const char* kMinChunkLength = "min_chunk_length";
// The chunking that made a labeled chunk set's hashes (chunk/chunking_identity.hpp), on
// /discovery/chunks, /labels and /detection/labels: labels are used only by runs that chunk alike.
inline constexpr const char* kLabelChunking = "chunking";
// The chunking that made the count tables' hashes (chunk/chunking_identity.hpp): results merge
// only when it is the same.
inline constexpr Attribute kChunking{kChunkCounts.group, "chunking", "str"};
// /detection.
inline constexpr Attribute kPageMean{kDetection, "page_mean", "float64"};
inline constexpr Attribute kPageSigma{kDetection, "page_sigma", "float64"};
inline constexpr Attribute kPageThreshold{kDetection, "page_threshold", "float64"};
inline constexpr Attribute kNeighborhoodMean{kDetection, "neighborhood_mean", "float64"};
inline constexpr Attribute kNeighborhoodSigma{kDetection, "neighborhood_sigma", "float64"};
inline constexpr Attribute kNeighborhoodThreshold{kDetection, "neighborhood_threshold", "float64"};
inline constexpr Attribute kBadnessMode{kDetection, "badness_mode", "str"};
inline constexpr Attribute kJoinMode{kDetection, "join_mode", "str"};
inline constexpr Attribute kMinLabeled{kDetection, "min_labeled", "uint64"};
inline constexpr Attribute kLabelCount{kDetection, "labels", "uint64"};
inline constexpr Attribute kPagesFlagged{kDetection, "pages_flagged", "uint64"};
inline constexpr Attribute kNeighborhoodsFlagged{kDetection, "neighborhoods_flagged", "uint64"};
// The threshold rules and the robust statistics (docs/method.md, "Thresholds").
inline constexpr Attribute kPageThresholdRule{kDetection, "page_threshold_rule", "str"};
inline constexpr Attribute kPageThresholdClamped{kDetection, "page_threshold_clamped", "uint64"};
// 1 when --page-threshold was given (command line or config file), 0 when the rule is the default
// (binomial under --chunker winnow, else auto; /config says which).
inline constexpr Attribute kPageThresholdChosen{kDetection, "page_threshold_chosen", "uint64"};
inline constexpr Attribute kPageMedian{kDetection, "page_median", "float64"};
inline constexpr Attribute kPageMad{kDetection, "page_mad", "float64"};
inline constexpr Attribute kNeighborhoodThresholdRule{kDetection, "neighborhood_threshold_rule", "str"};
inline constexpr Attribute kNeighborhoodThresholdClamped{kDetection, "neighborhood_threshold_clamped", "uint64"};
inline constexpr Attribute kNeighborhoodMedian{kDetection, "neighborhood_median", "float64"};
inline constexpr Attribute kNeighborhoodMad{kDetection, "neighborhood_mad", "float64"};
inline constexpr Attribute kMinNeighborhoodLabeled{kDetection, "min_neighborhood_labeled", "uint64"};
// --host-stop-pages, and how many labels some host held on more pages than it (not counted by the
// page rule; docs/winnow.md, "A chance rate measured from the crawl").
inline constexpr Attribute kHostStopPages{kDetection, "host_stop_pages", "uint64"};
inline constexpr Attribute kHostStopLabels{kDetection, "host_stop_labels", "uint64"};
// --cross-host-stop-hosts H and --cross-host-stop-cut, and how many further labels pages of at
// least H hosts held below that containment (not counted by the page rule; docs/winnow.md,
// "Phrasing shared across hosts"). Written only when H > 0.
inline constexpr Attribute kCrossHostStopHosts{kDetection, "cross_host_stop_hosts", "uint64"};
inline constexpr Attribute kCrossHostStopCut{kDetection, "cross_host_stop_cut", "float64"};
inline constexpr Attribute kCrossHostStopLabels{kDetection, "cross_host_stop_labels", "uint64"};
// --page-threshold betabinomial only (written only then): the Beta(a, b) of the chance rate fitted
// from the crawl and the pages of the bulk it was fitted on (docs/winnow.md, "An over-dispersed
// chance rate"); page_threshold is its mean a / (a + b).
inline constexpr Attribute kPageBetaA{kDetection, "page_beta_a", "float64"};
inline constexpr Attribute kPageBetaB{kDetection, "page_beta_b", "float64"};
inline constexpr Attribute kPageBetaPages{kDetection, "page_beta_pages", "uint64"};

// /neardup.
inline constexpr Attribute kNeardupMethod{kNeardup, "method", "str"};
inline constexpr Attribute kNeardupPages{kNeardup, "pages", "uint64"};
inline constexpr Attribute kNeardupIdentitySets{kNeardup, "identity_sets", "uint64"};
inline constexpr Attribute kNeardupPairCount{kNeardup, "pairs", "uint64"};
inline constexpr Attribute kNeardupSameSite{kNeardup, "same_site_pairs", "uint64"};
inline constexpr Attribute kNeardupDifferentSite{kNeardup, "different_site_pairs", "uint64"};
inline constexpr Attribute kNeardupCappedBuckets{kNeardup, "capped_buckets", "uint64"};
inline constexpr Attribute kNeardupCappedPages{kNeardup, "capped_pages", "uint64"};
inline constexpr Attribute kNeardupCappedPairs{kNeardup, "capped_pairs", "uint64"};
inline constexpr Attribute kNeardupPairsNotKept{kNeardup, "pairs_not_kept", "uint64"};
inline constexpr Attribute kNeardupClusterCount{kNeardup, "clusters", "uint64"};
inline constexpr Attribute kNeardupClusteredPages{kNeardup, "clustered_pages", "uint64"};
inline constexpr Attribute kNeardupUnlinkedEntries{kNeardup, "unlinked_entries", "uint64"};
inline constexpr Attribute kNeardupRepresentativeRule{kNeardup, "representative_rule", "str"};
// Written with --min-jaccard only (so a run without it keeps today's /neardup byte for byte).
inline constexpr Attribute kNeardupMinJaccard{kNeardup, "min_jaccard", "float64"};
inline constexpr Attribute kNeardupJaccardSample{kNeardup, "jaccard_sample", "uint64"};
inline constexpr Attribute kNeardupJaccardDroppedPairs{kNeardup, "jaccard_dropped_pairs", "uint64"};
inline constexpr Attribute kNeardupJaccardDroppedEdges{kNeardup, "jaccard_dropped_edges", "uint64"};

// /quilts.
inline constexpr Attribute kQuiltK{kQuilts, "k", "uint64"};
inline constexpr Attribute kQuiltM{kQuilts, "m", "uint64"};
inline constexpr Attribute kQuiltC{kQuilts, "c", "uint64"};
inline constexpr Attribute kQuiltTheta{kQuilts, "theta", "float64"};
inline constexpr Attribute kQuiltMinSourceShare{kQuilts, "min_source_share", "float64"};
inline constexpr Attribute kQuiltForeign{kQuilts, "foreign_sourced", "str"};
inline constexpr Attribute kQuiltPageCount{kQuilts, "pages", "uint64"};
inline constexpr Attribute kQuiltQuiltedCount{kQuilts, "quilted", "uint64"};

// /compare_hashing.
inline constexpr Attribute kComparePages{kCompareHashing, "pages", "uint64"};
inline constexpr Attribute kComparePositives{kCompareHashing, "positives", "uint64"};
inline constexpr Attribute kCompareLabels{kCompareHashing, "labels", "uint64"};
inline constexpr Attribute kCompareLabelsWithText{kCompareHashing, "labels_with_text", "uint64"};
inline constexpr Attribute kCompareChunks{kCompareHashing, "chunks", "uint64"};
inline constexpr Attribute kCompareChunksWithoutTlsh{kCompareHashing, "chunks_without_tlsh", "uint64"};
inline constexpr Attribute kCompareExtrapolatePages{kCompareHashing, "extrapolate_pages", "float64"};
inline constexpr Attribute kCompareMinLabeled{kCompareHashing, "min_labeled", "uint64"};
}  // namespace attr

template <class V>
void set_attribute(ResultFile& file, const Attribute& a, const V& value) {
  file.set_attribute(a.object, a.name, value);
}
inline bool has_attribute(const ResultReader& r, const Attribute& a) { return r.has_attribute(a.object, a.name); }
inline std::string attribute_string(const ResultReader& r, const Attribute& a) {
  return r.attribute_string(a.object, a.name);
}
inline std::uint64_t attribute_u64(const ResultReader& r, const Attribute& a) {
  return r.attribute_u64(a.object, a.name);
}
inline double attribute_double(const ResultReader& r, const Attribute& a) {
  return r.attribute_double(a.object, a.name);
}

// A column whose values are rows of another table (a label id is a row of the labels table the
// result was made with): a reader refuses a value past that table's rows before any is used.
struct IndexRule {
  std::string column;
  const char* table;
};

// Everything above: for the tests that hold docs/schema.md and real files to it, and for the
// checks every read of a result goes through (src/output/result_checks.hpp).
std::vector<DatasetSpec> all_datasets();
std::vector<Attribute> all_attributes();
std::vector<IndexRule> all_index_rules();

}  // namespace crd::output::schema
