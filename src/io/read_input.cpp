// read_input: opens one input, tells WARC from ARC by its first bytes, and hands it to the right
// reader; plain files become one document each.
#include <sys/stat.h>

#include <cstdio>

#include "arc_reader.hpp"
#include "byte_stream.hpp"
#include "crd/io/inputs.hpp"
#include "record_sink.hpp"
#include "warc_reader.hpp"

namespace crd::io {
namespace {

void read_plain_file(const InputFile& file, Counters& counters, detail::RecordSink& sink) {
  std::FILE* f = std::fopen(file.path.c_str(), "rb");
  if (f == nullptr) {
    sink.fail("input.unreadable", 0);
    return;
  }
  counters.add("input.files");
  sink.record();
  struct stat st {};
  std::uint64_t size = ::fstat(fileno(f), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
  if (size > sink.options().max_record_bytes) {
    sink.fail("record_too_large", 0);
    std::fclose(f);
    return;
  }
  Document doc;
  doc.body.resize(static_cast<std::size_t>(size));
  std::size_t got = std::fread(doc.body.data(), 1, doc.body.size(), f);
  // The file may have changed since it was sized: keep what is there, up to the limit.
  if (got == doc.body.size()) {
    char extra[65536];
    std::size_t n;
    while ((n = std::fread(extra, 1, sizeof extra, f)) > 0 && got <= sink.options().max_record_bytes) {
      doc.body.append(extra, n);
      got += n;
    }
  }
  bool failed = std::ferror(f) != 0;
  std::fclose(f);
  counters.add("input.bytes", got);
  doc.body.resize(got);
  if (failed) {
    sink.fail("input.read_error", 0);
    return;
  }
  if (got > sink.options().max_record_bytes) {
    sink.fail("record_too_large", 0);
    return;
  }
  doc.url = file.url.empty() ? file.path : file.url;
  doc.content_type = std::string(media_type_from_extension(file.path));
  doc.source = file.path;
  sink.emit(std::move(doc));
}

}  // namespace

void read_input(const InputFile& file, Counters& counters, const std::function<void(Document&&)>& on_document,
                const ReadOptions& options, std::vector<ReadError>* errors) {
  detail::RecordSink sink(file.path, counters, options, errors, on_document);
  if (file.kind == InputKind::PlainFile) {
    read_plain_file(file, counters, sink);
    return;
  }
  detail::ByteStream in;
  if (!in.open(file.path)) {
    sink.fail("input.unreadable", 0);
    return;
  }
  counters.add("input.files");
  std::size_t avail = in.fill(16);
  std::string_view head(in.data(), avail);
  bool arc = file.kind == InputKind::Arc;
  if (detail::looks_like_warc(head)) {
    arc = false;
  } else if (detail::looks_like_arc(head)) {
    arc = true;
  }
  if (arc) {
    detail::read_arc(in, sink, file.path);
  } else {
    detail::read_warc(in, sink, file.path);
  }
  counters.add("input.bytes", in.bytes_read());
}

}  // namespace crd::io
