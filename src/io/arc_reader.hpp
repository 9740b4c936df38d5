// ARC (v1 and v2) reader: one header line per record, then that many bytes of content; the
// filedesc:// record is metadata; HTTP records become documents like WARC responses.
#pragma once

#include <string>
#include <string_view>

#include "byte_stream.hpp"
#include "record_sink.hpp"

namespace crd::io::detail {

void read_arc(ByteStream& in, RecordSink& sink, const std::string& source);

// True when `bytes` starts like an ARC file ("filedesc://").
bool looks_like_arc(std::string_view bytes);

}  // namespace crd::io::detail
