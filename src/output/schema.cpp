// The schema's enumeration of itself (tests hold docs/schema.md and result files to it).
#include "crd/output/schema.hpp"

#include <string>

namespace crd::output::schema {
namespace {

template <class... Tables>
void add_datasets(std::vector<DatasetSpec>& out, const Tables&... tables) {
  (..., [&] {
    auto d = datasets(tables);
    out.insert(out.end(), d.begin(), d.end());
  }());
}

}  // namespace

std::vector<DatasetSpec> all_datasets() {
  std::vector<DatasetSpec> out;
  add_datasets(out, kCounters, kResources, kTimings, kErrors, kDiscoveryChunks, kChunkHistogram, kDiscoveryFiles,
               kFileHistogram, kChunkCounts, kFileCounts, kLabels, kLabelsHistogram, kLabelsDocuments, kDetectionLabels, kProvenance, kPages, kNeighborhoods,
               kDetectionPairs, kNeardupPairs, kNeardupDegree,
               kNeardupIdentical, kNeardupClusters, kNeardupRepresentatives, kConfusion, kQuiltPages, kQuiltSources, kQuiltSweep,
               kMergeInputs);
  return out;
}

std::vector<Attribute> all_attributes() {
  using namespace attr;
  std::vector<Attribute> out{kCrdVersion,      kCrdGitCommit,     kCrdBuildType,
                             kSchemaVersion,    kCommand,           kCommandLine,
                             kNranks,          kCreated,          kConfig,            kPageMean,
                             kPageSigma,       kPageThreshold,    kNeighborhoodMean,  kNeighborhoodSigma,
                             kNeighborhoodThreshold, kBadnessMode, kJoinMode,         kMinLabeled,
                             kLabelCount,      kPagesFlagged,     kNeighborhoodsFlagged,
                             kPageThresholdRule, kPageThresholdClamped, kPageThresholdChosen, kPageMedian, kPageMad,
                             kNeighborhoodThresholdRule, kNeighborhoodThresholdClamped, kNeighborhoodMedian,
                             kNeighborhoodMad, kMinNeighborhoodLabeled, kHostStopPages, kHostStopLabels, kCrossHostStopHosts, kCrossHostStopCut, kCrossHostStopLabels, kPageBetaA, kPageBetaB, kPageBetaPages, kChunking,
                             kNeardupMethod,   kNeardupPages,     kNeardupIdentitySets, kNeardupPairCount,
                             kNeardupSameSite, kNeardupDifferentSite, kNeardupCappedBuckets, kNeardupCappedPages,
                             kNeardupCappedPairs, kNeardupPairsNotKept, kNeardupClusterCount, kNeardupClusteredPages,
                             kNeardupUnlinkedEntries, kNeardupRepresentativeRule, kNeardupMinJaccard,
                             kNeardupJaccardSample, kNeardupJaccardDroppedPairs, kNeardupJaccardDroppedEdges,

                             kComparePages,    kComparePositives, kCompareLabels,     kCompareLabelsWithText,
                             kCompareChunks,   kCompareChunksWithoutTlsh, kCompareExtrapolatePages,
                             kCompareMinLabeled,
                             kQuiltK, kQuiltM, kQuiltC, kQuiltTheta, kQuiltMinSourceShare, kQuiltForeign,
                             kQuiltPageCount, kQuiltQuiltedCount};
  for (const char* table : {kDiscoveryChunks.group, kDiscoveryFiles.group, kLabels.group})
    for (const char* name : {kThreshold, kTotal, kDistinct, kLabeled, kStopRemoved, kTop, kTopRemoved})
      out.push_back({table, name, "uint64"});
  for (const char* table : {kDiscoveryChunks.group, kLabels.group}) {
    out.push_back({table, kMinChunkLength, "uint64"});
    out.push_back({table, kLabelChunking, "str"});
  }
  out.push_back({kDetectionLabels.group, kLabelChunking, "str"});
  return out;
}

std::vector<IndexRule> all_index_rules() {
  return {{kPages.column(&detect::PageRow::label_ids), kDetectionLabels.group},
          {kProvenance.column(&ProvenanceRow::label), kDetectionLabels.group},
          {kLabelsDocuments.column(&LabeledDocumentRow::label_ids), kLabels.group}};
}

}  // namespace crd::output::schema
