// WARC (1.0/1.1) reader: response and resource records become documents, everything else is
// skipped and counted; damaged or mis-sized records are skipped and the reader resynchronises.
#pragma once

#include <string>

#include "byte_stream.hpp"
#include "record_sink.hpp"

namespace crd::io::detail {

void read_warc(ByteStream& in, RecordSink& sink, const std::string& source);

// True when `bytes` starts with a WARC version line ("WARC/" and a digit).
bool looks_like_warc(std::string_view bytes);

}  // namespace crd::io::detail
