// crd quilts per core on the documentation corpus held in memory: grams per second of the
// per-page step (visible-text terms → k-word grams → distinct 64-bit set), and of the whole search
// (the five exchanges and the covers) on one in-process rank.
#include <benchmark/benchmark.h>

#include "bench_corpus.hpp"
#include "crd/comm/local_transport.hpp"
#include "crd/neardup/fingerprint.hpp"
#include "crd/quilts/find_quilts.hpp"
#include "crd/quilts/grams.hpp"

namespace {

void BM_QuiltGrams(benchmark::State& state) {
  if (!have_corpus(state)) return;
  const crd::quilts::QuiltParams params;
  std::uint64_t grams = 0;
  for (auto _ : state)
    for (const std::string& page : corpus().pages) grams += crd::quilts::page_grams(page, "h", params).grams.size();
  state.SetBytesProcessed(state.iterations() * corpus().bytes);
  state.SetItemsProcessed(static_cast<std::int64_t>(grams));  // items/s: distinct grams per second
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
    if (!g.grams.empty()) docs.push_back({crd::neardup::term_token(url), url, 0, 0, std::move(g.grams)});
  }
  std::uint64_t quilted = 0;
  for (auto _ : state) {
    crd::comm::run_local(1, [&](crd::comm::Transport& t) {
      const auto r = crd::quilts::find_quilts(t, docs, params, {});
      quilted = r.sweep.front().quilted;
    });
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(grams));
  state.counters["pages"] = static_cast<double>(docs.size());
  state.counters["quilted"] = static_cast<double>(quilted);
}

BENCHMARK(BM_QuiltGrams)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_QuiltSearch)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();  // the rank is a thread

}  // namespace

BENCHMARK_MAIN();
