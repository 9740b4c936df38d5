// The option sets (option_sets.hpp): which field each option fills, per set.
#include "option_sets.hpp"

namespace crd::cli::sets {
namespace {

// Options several commands read in one meaning, each bound to one field (command_settings.hpp).
void page_rule(OptionBinder& b, Settings& s) {
  b.add("page-threshold", s.detect.detect.page_threshold);
  b.add("min-labeled", s.detect.detect.min_labeled);
}
void labels(OptionBinder& b, Settings& s) { b.add("labels", s.labels); }
void gram_words(OptionBinder& b, Settings& s) { b.add("gram-words", s.common.scan.chunking.gram_words); }
void show(OptionBinder& b, Settings& s) { b.add("show", s.show); }
void top(OptionBinder& b, Settings& s) { b.add("top", s.inspect.top); }

}  // namespace

void input(OptionBinder& b, Settings& s) {
  b.add("skip-missing", s.common.expand.skip_missing);
  b.add("max-depth", s.common.scan.recursion.max_depth);
  b.add("max-repeat", s.common.scan.recursion.max_repeat);
  b.add("reader-thread", s.common.reader_thread);
}

void samples(OptionBinder& b, Settings& s) { b.add("sample-bytes", s.common.scan.sample_bytes); }

void reading(OptionBinder& b, Settings& s) { b.add("max-record-bytes", s.common.scan.read.max_record_bytes); }

void chunking(OptionBinder& b, Settings& s) {
  b.add("chunker", s.common.scan.chunker);
  gram_words(b, s);
  b.add("window", s.common.scan.chunking.window);
  b.add("tags", s.common.scan.chunking.tags);
  b.add("boundary-match", s.common.scan.chunking.boundary_match);
}

void keep_counts(OptionBinder& b, Settings& s) { b.add("keep-counts", s.discover.keep_counts); }

void thresholds(OptionBinder& b, Settings& s) {
  b.add("chunk-threshold", s.discover.chunk_threshold);
  b.add("file-threshold", s.discover.file_threshold);
  b.add("chunk-top", s.discover.chunk_top);
  b.add("file-top", s.discover.file_top);
}

void stop_items(OptionBinder& b, Settings& s) {
  b.add("stop-chunks", s.discover.stop_chunks);
  b.add("min-chunk-length", s.discover.min_chunk_length);
}

void detect_labels(OptionBinder& b, Settings& s) {
  labels(b, s);
  b.add("join", s.detect.join);
  b.add("replicate-max", s.detect.replicate_max);
  b.add("pairs", s.detect.pairs);
}

void scoring(OptionBinder& b, Settings& s) {
  detect::DetectOptions& t = s.detect.detect;
  page_rule(b, s);
  b.add("min-neighborhood-labeled", t.min_neighborhood_labeled);
  b.add("host-stop-pages", t.host_stop_pages);
  b.add("host-stop-site-ratio", t.host_stop_site_ratio);
  b.add("cross-host-stop-hosts", t.cross_host_stop_hosts);
  b.add("cross-host-stop-cut", t.cross_host_stop_cut);
  b.add("exact-min-length", t.exact_min_length);
  b.add("neighborhood-min-flagged", t.neighborhood_min_flagged);
  b.add("neighborhood-threshold", t.neighborhood_threshold);
  b.add("badness", t.badness);
  b.add("max-neighborhood-depth", t.max_neighborhood_depth);
  b.add("provenance-samples", t.provenance_samples);
}

void neardup(OptionBinder& b, Settings& s) {
  auto& sketch = s.neardup.sketch;
  auto& rules = s.neardup.rules;
  b.add("method", rules.method);
  b.add("shingle-tokens", sketch.k);
  b.add("minvalues", sketch.m);
  b.add("supershingles", sketch.m_prime);
  b.add("min-b-similarity", rules.min_b_similarity);
  b.add("simhash-bits", sketch.b);
  b.add("simhash-pieces", sketch.pieces);
  b.add("min-c-similarity", rules.min_c_similarity);
  b.add("combined-c-similarity", rules.combined_c_similarity);
  b.add("max-bucket", rules.max_bucket);
  b.add("max-pairs", rules.max_pairs);
  b.add("normalize-text", s.neardup.normalize_text);
  b.add("boilerplate-pages", s.neardup.boilerplate_pages);
  b.add("min-shingles", sketch.min_shingles);
  b.add("min-jaccard", rules.min_jaccard);
  b.add("jaccard-sample", sketch.jaccard_sample);
}

void quilts(OptionBinder& b, Settings& s) {
  quilts::QuiltParams& p = s.quilts;
  gram_words(b, s);  // copied into p.k when quilts runs
  b.add("max-gram-documents", p.m);
  b.add("min-sources", p.c);
  b.add("min-patch-fraction", p.theta);
  b.add("min-source-share", p.min_source_share);
  b.add("foreign-sourced", p.foreign);
  b.add("max-page-grams", p.max_page_grams);
  b.add("exclude-pages", s.exclude_pages);
  b.add("sweep-m", p.sweep_m);
  b.add("sweep-c", p.sweep_c);
  b.add("sweep-theta", p.sweep_theta);
}

void hashing(OptionBinder& b, Settings& s) {
  compare::CompareOptions& o = s.hashing;
  labels(b, s);  // these three copied into `o` when compare-hashing runs
  b.add("truth", o.truth);
  page_rule(b, s);
  b.add("extrapolate-pages", o.extrapolate_pages);
  b.add("nilsimsa-threshold", o.sweep.nilsimsa_threshold);
  b.add("nilsimsa-sweep", o.sweep.nilsimsa_sweep);
  b.add("tlsh-threshold", o.sweep.tlsh_threshold);
  b.add("tlsh-sweep", o.sweep.tlsh_sweep);
  b.add("ssdeep-threshold", o.sweep.ssdeep_threshold);
  b.add("ssdeep-sweep", o.sweep.ssdeep_sweep);
}

void check(OptionBinder& b, Settings& s) {
  labels(b, s);
  page_rule(b, s);
  show(b, s);
}

void compare(OptionBinder& b, Settings& s) {
  labels(b, s);
  b.add("granularity", s.compare.granularity);
  show(b, s);
  b.add("max-sentence-bucket", s.compare.max_bucket);
  b.alias("max-bucket", "max-sentence-bucket");
  b.add("json", s.compare.json);
}

void inspect(OptionBinder& b, Settings& s) {
  top(b, s);
  b.add("rank", s.inspect.rank);
  b.add("depth", s.inspect.depth);
}

void report(OptionBinder& b, Settings& s) {
  b.add("output", s.common.output);
  top(b, s);  // copied into s.report when report runs
}

void checkpoints(OptionBinder& b, Settings& s) {
  b.add("work-dir", s.common.work_dir);
  b.add("resume", s.common.resume);
}

void output(OptionBinder& b, Settings& s) {
  b.add("output", s.common.output);
  b.add("shuffle-buffer", s.common.round_bytes);
  b.add("memory", s.common.memory_budget);
  b.add("progress-interval", s.common.progress_interval);
}

void config(OptionBinder& b, Settings& s) {
  b.add("config", s.config_path);
  b.add("verbose", s.verbose);
}

}  // namespace crd::cli::sets
