// Reading documents into sentences, and finding the pairs that share one.
#include "crd/compare/compare_documents.hpp"

#include <algorithm>

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
      for (const auto& dropped : chunker->dropped_parts())
        if (dropped.count != 0) counters.add("skipped." + std::string(dropped.reason), dropped.count);
      if (!skipped.empty()) {
        counters.add("skipped." + std::string(skipped));
        return;
      }
      out.push_back(std::move(d));
    }, read);
  }
  return out;
}

PairIndex::PairIndex(const std::vector<SentenceDocument>& documents, std::uint64_t max_bucket, Counters& counters)
    : documents_(documents) {
  for (std::uint32_t i = 0; i < documents.size(); ++i) {
    for (const Digest& h : documents[i].hashes) {
      auto& list = holders_[h];
      if (list.empty() || list.back() != i) list.push_back(i);
    }
  }
  for (auto it = holders_.begin(); it != holders_.end();) {
    if (it->second.size() > max_bucket) {
      counters.add("compare.capped_sentences");
      it = holders_.erase(it);
    } else {
      ++it;
    }
  }
}

std::uint64_t PairIndex::for_each_pair(const std::function<void(const DocumentPair&)>& on_pair) const {
  std::uint64_t pairs = 0;
  std::vector<std::uint32_t> partners;
  for (std::uint32_t a = 0; a < documents_.size(); ++a) {
    partners.clear();
    for (const Digest& h : documents_[a].hashes) {
      const auto it = holders_.find(h);
      if (it == holders_.end()) continue;
      const auto& list = it->second;
      for (auto b = std::upper_bound(list.begin(), list.end(), a); b != list.end(); ++b) partners.push_back(*b);
    }
    std::sort(partners.begin(), partners.end());
    partners.erase(std::unique(partners.begin(), partners.end()), partners.end());
    for (const std::uint32_t b : partners) {
      on_pair({a, b, detect::overlap(documents_[a].hashes, documents_[b].hashes)});
      ++pairs;
    }
  }
  return pairs;
}

std::vector<DocumentPair> overlapping_pairs(const std::vector<SentenceDocument>& documents, std::uint64_t max_bucket,
                                            Counters& counters) {
  std::vector<DocumentPair> out;
  PairIndex(documents, max_bucket, counters).for_each_pair([&](const DocumentPair& p) { out.push_back(p); });
  return out;
}

}  // namespace crd::compare
