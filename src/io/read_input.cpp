// read_input: opens one input, tells WARC from ARC by its first bytes, and hands it to the right
// reader; plain files become one document each.
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include "arc_reader.hpp"
#include "byte_stream.hpp"
#include "compression_magic.hpp"
#include "crd/io/inputs.hpp"
#include "crd/url/url_key.hpp"
#include "record_sink.hpp"
#include "warc_reader.hpp"

namespace crd::io {
namespace {

int open_for_reading(const std::string& path) { return ::open(path.c_str(), O_RDONLY | O_CLOEXEC); }

// open(2) relative to `dir` without updating the file's access time when allowed (the owner, or
// root): a scan reads every file once, and the atime check and update cost 2% of a directory job.
// O_NOATIME fails with EPERM on other users' files; after the first such failure `noatime` is
// cleared and plain opens follow, so a corpus owned by someone else costs one extra call in all.
int open_at(int dir, const char* name, bool& noatime) {
  if (noatime) {
    const int fd = ::openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOATIME);
    if (fd >= 0 || errno != EPERM) return fd;
    noatime = false;
  }
  return ::openat(dir, name, O_RDONLY | O_CLOEXEC);
}

// One read(2), retried when a signal interrupts it: bytes read, 0 at end of file, -1 on an error.
ssize_t read_some(int fd, char* to, std::size_t n) {
  for (;;) {
    const ssize_t got = ::read(fd, to, n);
    if (got >= 0 || errno != EINTR) return got;
  }
}

void read_plain_file(const InputFile& file, Counters& counters, detail::RecordSink& sink, DirectoryCache* dirs) {
  const int fd = dirs != nullptr ? dirs->open_file(file.path) : open_for_reading(file.path);
  if (fd < 0) {
    sink.fail("input.unreadable", 0);
    return;
  }
  counters.add("input.files");
  sink.record();
  const std::uint64_t max = sink.options().max_record_bytes;
  // The listing's size, not an fstat per file: a file that changed since is read as it is now
  // (the loops below keep what is there, up to the limit).
  const std::uint64_t size = file.size;
  if (size > max) {
    sink.fail("record_too_large", 0);
    ::close(fd);
    return;
  }
  Document doc;
  if (dirs != nullptr) doc.body = dirs->take_body();
  // Shrinking (the reused buffer held a larger file) writes nothing; growing zero-fills only the
  // bytes past the previous file's.
  doc.body.resize(static_cast<std::size_t>(size));
  std::uint64_t got = 0;
  bool failed = false;
  while (got < doc.body.size()) {
    const ssize_t n = read_some(fd, doc.body.data() + got, doc.body.size() - got);
    if (n <= 0) {
      failed = n < 0;
      break;
    }
    got += static_cast<std::uint64_t>(n);
  }
  // The file may have grown since it was sized: keep what is there, up to the limit.
  if (!failed && got == doc.body.size()) {
    char extra[65536];
    ssize_t n;
    while (got <= max && (n = read_some(fd, extra, sizeof extra)) != 0) {
      if (n < 0) {
        failed = true;
        break;
      }
      doc.body.append(extra, static_cast<std::size_t>(n));
      got += static_cast<std::uint64_t>(n);
    }
  }
  ::close(fd);
  counters.add("input.bytes", got);
  doc.body.resize(static_cast<std::size_t>(got));
  if (failed) {
    sink.fail("input.read_error", 0);
    return;
  }
  if (got > max) {
    sink.fail("record_too_large", 0);
    return;
  }
  doc.url = url::path_as_url(file.url.empty() ? file.path : file.url);
  doc.content_type = std::string(media_type_from_extension(file.path));
  doc.source = file.path;
  sink.emit(std::move(doc), 0);
  // The consumer is done with the document (RecordSink passes plain files on at once); what it
  // left of the body, moved away or not, becomes the next file's buffer.
  if (dirs != nullptr) dirs->give_back_body(std::move(doc.body));
}

// ReadOptions::test_stream_bytes, or CRD_TEST_STREAM_BYTES for whole-program tests.
detail::StreamSizes stream_sizes(const ReadOptions& options) {
  static const std::size_t from_env = [] {
    const char* v = std::getenv("CRD_TEST_STREAM_BYTES");
    return v == nullptr ? std::size_t{0} : static_cast<std::size_t>(std::strtoull(v, nullptr, 10));
  }();
  const std::size_t n = options.test_stream_bytes != 0 ? options.test_stream_bytes : from_env;
  return n != 0 ? detail::StreamSizes::tiny(n) : detail::StreamSizes::production();
}

}  // namespace

DirectoryCache::~DirectoryCache() {
  if (fd_ >= 0) ::close(fd_);
}

int DirectoryCache::open_file(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos || slash == 0) return open_for_reading(path);
  const std::string_view dir(path.data(), slash);
  if (fd_ < 0 || dir != dir_) {
    if (fd_ >= 0) ::close(fd_);
    dir_ = dir;
    fd_ = ::open(dir_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  }
  const int fd = fd_ < 0 ? -1 : open_at(fd_, path.c_str() + slash + 1, noatime_);
  // Failing relative to the directory kept (gone or replaced since), the full path decides.
  return fd >= 0 ? fd : open_for_reading(path);
}

void read_input(const InputFile& file, Counters& counters, const std::function<void(Document&&)>& on_document,
                const ReadOptions& options, std::vector<ReadError>* errors, DirectoryCache* dirs) {
  detail::RecordSink sink(file.path, counters, options, errors, on_document);
  if (file.kind == InputKind::PlainFile) {
    read_plain_file(file, counters, sink, dirs);
    return;
  }
  detail::ByteStream in;
  if (!in.open(file.path, stream_sizes(options))) {
    sink.fail("input.unreadable", 0);
    return;
  }
  counters.add("input.files");
  std::size_t avail = in.fill(16);
  std::string_view head(in.data(), avail);
  // An archive named .warc or .arc but compressed otherwise than with gzip: read as WARC it would
  // be one long run of garbage.
  if (!detail::unsupported_compression(head).empty()) {
    sink.fail("input.unsupported_compression", 0);
    counters.add("input.bytes", in.bytes_read());
    return;
  }
  bool arc = file.kind == InputKind::Arc;
  if (detail::looks_like_warc(head)) {
    arc = false;
  } else if (detail::looks_like_arc(head)) {
    arc = true;
  }
  sink.set_stream(&in);
  if (arc) {
    detail::read_arc(in, sink, file.path);
  } else {
    detail::read_warc(in, sink, file.path);
  }
  sink.finish();
  counters.add("input.bytes", in.bytes_read());
}

}  // namespace crd::io
