// RecordSink: where the archive readers send what they find — documents to the caller, skips to
// the counters, and the problems among the skips to the bounded error list.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "crd/core/counters.hpp"
#include "crd/io/document.hpp"
#include "crd/io/read_options.hpp"
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
  void emit(Document&& doc) {
    counters_.add("documents");
    on_document_(std::move(doc));
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
  const std::function<void(Document&&)>& on_document_;
  std::size_t reported_ = 0;
};

}  // namespace crd::io::detail
