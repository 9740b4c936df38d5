// crd quilts per core on the documentation corpus held in memory: grams per second of the
// per-page step (visible-text terms → k-word grams → distinct 64-bit set), and of the whole search
// (the five exchanges and the covers) on one in-process rank.
// The per-page step again, and its two halves (the tokenizer; the shingle hashes), on a synthetic
// Common-Crawl-shaped crawl (perf/synth_corpus.py; CRD_SYNTH_WARC, default .cache/synth48/warc),
// whose short pages of plain words cost the tokenizer differently from the documentation's markup.
#include <benchmark/benchmark.h>

#include "bench_corpus.hpp"
#include "crd/comm/local_transport.hpp"
#include "crd/io/inputs.hpp"
#include "crd/text/fingerprint.hpp"
#include "crd/text/shingles.hpp"
#include "crd/text/tokenizer.hpp"
#include "crd/quilts/find_quilts.hpp"
#include "crd/quilts/grams.hpp"
#include "crd/url/url_key.hpp"

namespace {

// A page with its host as crd quilts gives it to the tokenizer (the URL key's first component).
struct HostedPage {
  std::string host;
  std::string html;
};
struct Pages {
  std::vector<HostedPage> pages;
  std::int64_t bytes = 0;
};

// The documentation corpus under host "h", or the synthetic crawl's pages in file order.
const Pages& pages(bool synthetic) {
  static const Pages docs = [] {
    Pages out;
    for (const std::string& page : corpus().pages) out.pages.push_back({"h", page});
    out.bytes = corpus().bytes;
    return out;
  }();
  static const Pages synth = [] {
    Pages out;
    const char* env = std::getenv("CRD_SYNTH_WARC");
    const std::string dir = env != nullptr ? env : CRD_DEFAULT_SYNTH_WARC;
    crd::io::InputLog log;
    std::vector<crd::io::InputFile> files;
    try {
      files = crd::io::expand_inputs({dir}, {.skip_missing = true}, log);
    } catch (const std::exception&) {  // nothing there: the benchmarks say so
    }
    for (const crd::io::InputFile& file : files) {
      crd::Counters counters;
      crd::io::read_input(file, counters, [&](crd::io::Document&& d) {
        const auto key = crd::url::url_key(d.url);
        if (!key || !crd::io::is_chunkable(d)) return;
        out.bytes += static_cast<std::int64_t>(d.body.size());
        out.pages.push_back({key->substr(0, key->find('/')), std::move(d.body)});
      });
    }
    std::cerr << "synthetic crawl: " << out.pages.size() << " pages, " << out.bytes << " bytes from " << dir << "\n";
    return out;
  }();
  return synthetic ? synth : docs;
}

bool have_pages(benchmark::State& state, bool synthetic) {
  if (pages(synthetic).pages.empty()) {
    state.SkipWithError(synthetic ? "no synthetic crawl: run perf/synth_corpus.py or set CRD_SYNTH_WARC"
                                  : "no corpus: run scripts/fetch_corpus.sh or set CRD_CORPUS_DIR");
    return false;
  }
  return true;
}

// range(0): 0 = documentation corpus, 1 = synthetic crawl.
void BM_QuiltGrams(benchmark::State& state) {
  const bool synthetic = state.range(0) != 0;
  if (!have_pages(state, synthetic)) return;
  const crd::quilts::QuiltParams params;
  std::uint64_t grams = 0;
  for (auto _ : state)
    for (const HostedPage& page : pages(synthetic).pages)
      grams += crd::quilts::page_grams(page.html, page.host, params).grams.size();
  state.SetBytesProcessed(state.iterations() * pages(synthetic).bytes);
  state.SetItemsProcessed(static_cast<std::int64_t>(grams));  // items/s: distinct grams per second
  state.SetLabel(synthetic ? "synthetic" : "docs");
}

// The tokenizer alone; items/s: tokens per second.
void BM_Tokenize(benchmark::State& state) {
  const bool synthetic = state.range(0) != 0;
  if (!have_pages(state, synthetic)) return;
  std::uint64_t tokens = 0;
  for (auto _ : state)
    for (const HostedPage& page : pages(synthetic).pages) tokens += crd::text::tokenize(page.html, page.host).size();
  state.SetBytesProcessed(state.iterations() * pages(synthetic).bytes);
  state.SetItemsProcessed(static_cast<std::int64_t>(tokens));
  state.SetLabel(synthetic ? "synthetic" : "docs");
}

// The k-word shingle hashes alone, from tokens made beforehand; items/s: shingles per second.
void BM_Shingles(benchmark::State& state) {
  const bool synthetic = state.range(0) != 0;
  if (!have_pages(state, synthetic)) return;
  std::vector<std::vector<std::uint64_t>> all;
  for (const HostedPage& page : pages(synthetic).pages) all.push_back(crd::text::tokenize(page.html, page.host));
  const crd::quilts::QuiltParams params;
  std::uint64_t shingles = 0;
  std::uint64_t sink = 0;
  for (auto _ : state) {
    for (const auto& tokens : all) {
      const auto sh = crd::text::shingles(tokens, params.k);
      shingles += sh.size();
      if (!sh.empty()) sink ^= sh.back();
    }
  }
  benchmark::DoNotOptimize(sink);
  state.SetBytesProcessed(state.iterations() * pages(synthetic).bytes);
  state.SetItemsProcessed(static_cast<std::int64_t>(shingles));
  state.SetLabel(synthetic ? "synthetic" : "docs");
}

void BM_QuiltSearch(benchmark::State& state) {
  if (!have_corpus(state)) return;
  const crd::quilts::QuiltParams params;
  std::vector<crd::quilts::Document> docs;
  std::uint64_t grams = 0;
  for (std::size_t i = 0; i < corpus().pages.size(); ++i) {
    auto g = crd::quilts::page_grams(corpus().pages[i], "h", params);
    const std::string url = "h/" + std::to_string(i);
    grams += g.grams.size();
    if (!g.grams.empty()) docs.push_back({crd::text::term_token(url), url, 0, 0, std::move(g.grams)});
  }
  std::uint64_t quilted = 0;
  for (auto _ : state) {
    crd::comm::run_local(1, [&](crd::comm::Transport& t) {
      // One pass over the gram space, as this benchmark has always measured (crd quilts without
      // --memory cuts the grams into passes of kUnbudgetedPassGrams a rank).
      const auto r = crd::quilts::find_quilts(t, docs, params, {}, crd::quilts::MemoryPlan{nullptr, 0, 1});
      quilted = r.sweep.front().quilted;
    });
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(grams));
  state.counters["pages"] = static_cast<double>(docs.size());
  state.counters["quilted"] = static_cast<double>(quilted);
}

BENCHMARK(BM_QuiltGrams)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Tokenize)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Shingles)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_QuiltSearch)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();  // the rank is a thread

}  // namespace

BENCHMARK_MAIN();
