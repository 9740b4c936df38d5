// Reading documents into sentences, and finding the pairs that share one.
#include "crd/compare/compare_documents.hpp"

#include <algorithm>
#include <unordered_map>

#include "crd/hash/sha1.hpp"
#include "crd/io/document.hpp"
#include "crd/io/inputs.hpp"

namespace crd::compare {

std::vector<SentenceDocument> read_sentence_documents(const std::vector<std::string>& inputs,
                                                      const ReadSettings& settings, Counters& counters) {
  io::InputLog log;
  const std::vector<io::InputFile> files = io::expand_inputs(inputs, {.skip_missing = false, .offers_skip_missing = false}, log);
  counters.merge(log.counters);
  auto chunker = chunk::make_chunker(settings.chunker, settings.chunking);
  io::ReadOptions read;
  read.max_record_bytes = settings.max_record_bytes;
  Sha1 sha1;
  std::vector<SentenceDocument> out;
  for (const io::InputFile& file : files) {
    io::read_input(file, counters, [&](io::Document&& doc) {
      if (!io::is_chunkable(doc)) {
        counters.add("skipped.compare.not_text");
        return;
      }
      SentenceDocument d{doc.url, doc.source, doc.offset, {}, {}};
      const std::string_view skipped = chunker->chunk(doc.body, doc.charset, [&](std::string_view sentence) {
        const Digest h = sha1(sentence);
        if (settings.stop != nullptr && settings.stop->is_stop(h, sentence.size())) return;
        d.hashes.push_back(h);
        d.texts.emplace_back(sentence);
      });
      if (const auto dropped = chunker->dropped_parts(); dropped.count != 0)
        counters.add("skipped." + std::string(dropped.reason), dropped.count);
      if (!skipped.empty()) {
        counters.add("skipped." + std::string(skipped));
        return;
      }
      out.push_back(std::move(d));
    }, read);
  }
  return out;
}

std::vector<DocumentPair> overlapping_pairs(const std::vector<SentenceDocument>& documents, std::uint64_t max_bucket,
                                            Counters& counters) {
  // sentence → the documents holding it, each once, ascending (documents are visited in order).
  std::unordered_map<Digest, std::vector<std::uint32_t>, DigestHasher> holders;
  for (std::uint32_t i = 0; i < documents.size(); ++i) {
    for (const Digest& h : documents[i].hashes) {
      auto& list = holders[h];
      if (list.empty() || list.back() != i) list.push_back(i);
    }
  }
  std::vector<std::uint64_t> keys;  // a << 32 | b
  for (const auto& [hash, list] : holders) {
    if (list.size() > max_bucket) {
      counters.add("compare.capped_sentences");
      continue;
    }
    for (std::size_t x = 0; x < list.size(); ++x)
      for (std::size_t y = x + 1; y < list.size(); ++y) keys.push_back(std::uint64_t{list[x]} << 32 | list[y]);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<DocumentPair> out;
  out.reserve(keys.size());
  for (const std::uint64_t key : keys) {
    const auto a = static_cast<std::uint32_t>(key >> 32);
    const auto b = static_cast<std::uint32_t>(key);
    out.push_back({a, b, detect::overlap(documents[a].hashes, documents[b].hashes)});
  }
  return out;
}

}  // namespace crd::compare
