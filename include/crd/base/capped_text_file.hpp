// A small text file given on the command line (a truth file, a page list) read whole, with a cap,
// so a sparse 5 GB file or a pipe that never ends is refused instead of filling memory.
#pragma once

#include <cstdint>
#include <string>

namespace crd {

// What a list read whole may hold: the same bound as an @LIST file (about 2 million lines of 128
// bytes); a list longer than that is no reviewer's or experimenter's list.
inline constexpr std::uint64_t kMaxListFileBytes = 256ull << 20;

// The file's bytes. Throws UsageError naming `what` ("truth file") and the path when it cannot be
// read, is a directory or a device, or holds more than `cap` bytes (checked on its size first,
// then while reading: a file that grows or a pipe).
std::string read_capped_text_file(const std::string& path, const std::string& what,
                                  std::uint64_t cap = kMaxListFileBytes);

}  // namespace crd
