// RecordSink: where the archive readers send what they find — documents to the caller, skips to
// the counters, and the problems among the skips to the bounded error list.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string_view>
#include <vector>

#include "crd/base/counters.hpp"
#include "crd/io/document.hpp"
#include "crd/io/read_options.hpp"
#include "byte_stream.hpp"
#include "http_payload.hpp"

namespace crd::io::detail {

class RecordSink {
 public:
  RecordSink(std::string_view file, Counters& counters, const ReadOptions& options,
             std::vector<ReadError>* errors, const std::function<void(Document&&)>& on_document)
      : file_(file), counters_(counters), options_(options), errors_(errors), on_document_(on_document) {}

  const ReadOptions& options() const { return options_; }
  std::string_view file() const { return file_; }

  void record() { counters_.add("records"); }

  // Documents are used only once the bytes they came from passed their check. In a gzip file a
  // member's CRC-32 is known only at its end, so a document whose member has not ended yet (many
  // records in one member) is held until it does, or dropped if the member fails. `end` is the
  // decoded position just past the record; `own_check`: the record's own digest matched its bytes
  // (WARC-Block-Digest), so it survives a failure of its member. Holding is bounded by
  // max_record_bytes; past that the oldest held documents are used unverified and counted
  // (gzip.unverified).
  void set_stream(const ByteStream* stream) { stream_ = stream; }
  void emit(Document&& doc, std::uint64_t end, bool own_check = false) {
    if (held_.empty() && (stream_ == nullptr || end <= stream_->verified_through())) {
      use(std::move(doc));
      return;
    }
    held_bytes_ += doc.body.size();
    held_.push_back(Held{std::move(doc), end, own_check});
    release();
    while (held_bytes_ > options_.max_record_bytes && !held_.empty()) {
      note("gzip.unverified");
      pop_and_use();
    }
  }
  // Uses the held documents whose bytes have passed their check.
  void release() {
    const std::uint64_t verified = stream_ == nullptr ? UINT64_MAX : stream_->verified_through();
    while (!held_.empty() && held_.front().end <= verified) pop_and_use();
  }
  // A break was taken. Held documents from a member that failed are lost under its reason, each
  // counted, unless their own digest vouched for them (counted as gzip.kept_by_digest); so is the
  // record the break cut (`cut_record`). A break that cost nothing else counts once. The break is
  // listed once among the errors.
  void lose_to_break(const StreamBreak& b, bool cut_record) {
    std::size_t lost = cut_record ? 1 : 0;
    if (b.damages_preceding) {
      std::deque<Held> kept;
      while (!held_.empty() && held_.back().end > b.damaged_from) {
        held_bytes_ -= held_.back().doc.body.size();
        if (held_.back().own_check) {
          kept.push_front(std::move(held_.back()));
        } else {
          ++lost;
        }
        held_.pop_back();
      }
      for (Held& h : kept) {
        note("gzip.kept_by_digest");
        held_bytes_ += h.doc.body.size();
        h.end = 0;  // vouched for: usable as soon as what is held before it is
        held_.push_back(std::move(h));
      }
    }
    fail(b.reason, b.disk_offset);
    for (std::size_t i = 1; i < lost; ++i) add_skip(b.reason);
    release();
  }
  // End of the file: every member has ended, so nothing held is left unverified; anything that
  // still is (a stream cut without a break) is not used.
  void finish() {
    release();
    for (; !held_.empty(); held_.pop_front()) fail("gzip.unverified", held_.front().doc.offset);
    held_bytes_ = 0;
  }
  // Something worth counting that loses nothing (e.g. a body stored already de-chunked).
  void note(std::string_view name) { counters_.add(name); }
  // An ordinary skip (revisit, request, non-2xx, ...): counted, not reported as an error.
  void skip(std::string_view reason) { add_skip(reason); }
  // A skip caused by bad input: counted and reported (bounded per file).
  void fail(std::string_view reason, std::uint64_t offset) {
    add_skip(reason);
    if (errors_ != nullptr && reported_ < options_.max_errors_per_file) {
      errors_->push_back(ReadError{std::string(file_), offset, std::string(reason)});
      ++reported_;
    }
  }
  // Counts a payload that could not be decoded (an error or an ordinary skip); true if it could.
  bool accept(const PayloadOutcome& outcome, std::uint64_t offset) {
    if (outcome.ok()) return true;
    if (outcome.is_error) {
      fail(outcome.reason, offset);
    } else {
      skip(outcome.reason);
    }
    return false;
  }

 private:
  void add_skip(std::string_view reason) {
    std::string name = "skipped.";
    name.append(reason);
    counters_.add(name);
  }

  std::string_view file_;
  Counters& counters_;
  const ReadOptions& options_;
  std::vector<ReadError>* errors_;
  struct Held {
    Document doc;
    std::uint64_t end;
    bool own_check;
  };
  void use(Document&& doc) {
    counters_.add("documents");
    on_document_(std::move(doc));
  }
  void pop_and_use() {
    held_bytes_ -= held_.front().doc.body.size();
    use(std::move(held_.front().doc));
    held_.pop_front();
  }

  const std::function<void(Document&&)>& on_document_;
  std::size_t reported_ = 0;
  const ByteStream* stream_ = nullptr;
  std::deque<Held> held_;
  std::uint64_t held_bytes_ = 0;
};

}  // namespace crd::io::detail
