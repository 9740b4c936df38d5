// DocumentQueue: a bounded hand-off of documents from a reader thread to the scanning thread, so
// reading and inflating overlap chunking and hashing. Bounded by payload bytes (at least one item
// always fits, so a document larger than the bound still passes).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>

#include "crd/io/document.hpp"

namespace crd::scan {

struct QueuedItem {
  io::Document doc;
  bool file_done = false;        // marker after each input file's last document
  std::uint64_t file_bytes = 0;  // with file_done: the file's size
};

class DocumentQueue {
 public:
  explicit DocumentQueue(std::uint64_t max_bytes) : max_bytes_(max_bytes) {}

  // Waits while the queue is full. Returns false (dropping the item) once the queue is closed.
  bool push(QueuedItem&& item) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return closed_ || items_.empty() || bytes_ < max_bytes_; });
    if (closed_) return false;
    bytes_ += item.doc.body.size();
    items_.push_back(std::move(item));
    not_empty_.notify_one();
    return true;
  }

  // Waits for an item; false when the queue is closed and empty.
  bool pop(QueuedItem& out) {
    std::unique_lock lock(mutex_);
    not_empty_.wait(lock, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return false;
    out = std::move(items_.front());
    items_.pop_front();
    bytes_ -= out.doc.body.size();
    not_full_.notify_one();
    return true;
  }

  // No more pushes: the producer finished (pending items still pop), or the consumer gave up.
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    not_full_.notify_all();
    not_empty_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable not_full_;
  std::condition_variable not_empty_;
  std::deque<QueuedItem> items_;
  std::uint64_t bytes_ = 0;
  const std::uint64_t max_bytes_;
  bool closed_ = false;
};

}  // namespace crd::scan
