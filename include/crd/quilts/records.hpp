// The records crd quilts routes between ranks (declared by their field lists) and the rows it
// writes: /quilts/pages, /quilts/sources, /quilts/sweep.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "crd/base/fields.hpp"

namespace crd::quilts {

// A document: id = 64-bit hash of its URL key (text::term_token), its server id (site.hpp),
// its distinct grams ascending. Records of the same URL are one document (grams united); two
// URLs with one id are both dropped and counted (`collided`).
struct Document {
  std::uint64_t id = 0;
  std::string url;
  std::uint64_t server = 0;
  std::uint8_t collided = 0;
  std::vector<std::uint64_t> grams;
  static constexpr auto fields() {
    return std::tuple(&Document::id, &Document::url, &Document::server, &Document::collided, &Document::grams);
  }
};

// A document holding a gram: stage 4's record. Ordered by (gram, doc), a gram's holdings are
// one run: its posting list (df = the run's length, the document itself included).
struct Holding {
  std::uint64_t gram = 0;
  std::uint64_t doc = 0;
  std::uint64_t server = 0;
  static constexpr auto fields() { return std::tuple(&Holding::gram, &Holding::doc, &Holding::server); }
};

// A holder class: the candidate patch grams whose holder sets are identical (the grams of a copied
// passage share their holders), `grams` of them, the smallest being `first_gram`, the class's id
// (a gram is in one class only). Formed at the grams' owners and combined at the owner of `hash`
// (of the holders), so the holder list travels once per class, not once per gram.
struct HolderClass {
  std::uint64_t hash = 0;                // of the holders (mix64 over df and the ids): routes the class
  std::vector<std::uint64_t> holders;    // document ids, ascending (df = their number)
  std::vector<std::uint64_t> servers;    // each holder's server, parallel
  std::uint64_t first_gram = 0;
  std::uint64_t grams = 0;
  static constexpr auto fields() {
    return std::tuple(&HolderClass::hash, &HolderClass::holders, &HolderClass::servers, &HolderClass::first_gram,
                      &HolderClass::grams);
  }
};

// One holder of a class, sent to a rank owning some holder of it: stage 6's record, flat. Each
// such rank receives the whole class once, ordered by (class, holder): a run per class.
struct ClassMember {
  std::uint32_t rank = 0;  // the receiving rank
  std::uint64_t first_gram = 0;
  std::uint64_t doc = 0;
  std::uint64_t server = 0;
  std::uint64_t grams = 0;
  static constexpr auto fields() {
    return std::tuple(&ClassMember::rank, &ClassMember::first_gram, &ClassMember::doc, &ClassMember::server,
                      &ClassMember::grams);
  }
};

// /quilts/pages: one row per document, for the pivot's (k, m, c, θ); rows by url.
struct PageRow {
  std::string url;
  std::uint64_t grams = 0;
  std::uint64_t patch_grams = 0;
  double patchfrac = 0.0;
  std::uint64_t sources = 0;
  std::uint8_t quilted = 0;
  static constexpr auto fields() {
    return std::tuple(field("url", &PageRow::url), field("grams", &PageRow::grams),
                      field("patch_grams", &PageRow::patch_grams), field("patchfrac", &PageRow::patchfrac),
                      field("sources", &PageRow::sources), field("quilted", &PageRow::quilted));
  }
};

// /quilts/sources: the greedy cover of each quilted page, one row per source; rows by page, then
// source url. grams_covered: the patch grams it covered that earlier sources had not.
struct SourceRow {
  std::string page;
  std::string source;
  std::uint64_t grams_covered = 0;
  static constexpr auto fields() {
    return std::tuple(field("page", &SourceRow::page), field("source", &SourceRow::source),
                      field("grams_covered", &SourceRow::grams_covered));
  }
};

// /quilts/sweep: Najork 2012, Table 1's row for one (k, m, c, θ).
struct SweepRow {
  std::uint64_t k = 0;
  std::uint64_t m = 0;
  std::uint64_t c = 0;
  double theta = 0.0;
  std::uint64_t pages = 0;    // documents with grams
  std::uint64_t quilted = 0;
  double percent = 0.0;       // 100 · quilted / pages
  double mean_sources = 0.0;  // over the quilted pages
  static constexpr auto fields() {
    return std::tuple(field("k", &SweepRow::k), field("m", &SweepRow::m), field("c", &SweepRow::c),
                      field("theta", &SweepRow::theta), field("pages", &SweepRow::pages),
                      field("quilted", &SweepRow::quilted), field("percent", &SweepRow::percent),
                      field("mean_sources", &SweepRow::mean_sources));
  }
};

}  // namespace crd::quilts
