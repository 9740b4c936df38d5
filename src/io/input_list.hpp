// Reading an @LIST file (one input per line) with bounds: a list named by mistake (/dev/zero, a
// directory, a huge file) is a usage error, not gigabytes of memory.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace crd::io::detail {

constexpr std::uint64_t kMaxListBytes = 256ull << 20;  // ~2 million paths of 128 bytes
constexpr std::size_t kMaxListLine = 16384;            // four times PATH_MAX

// Calls on_line(line, number) for each line of the list at `path` (number from 1; the line without
// its '\n', nothing else stripped). The list must be a regular file of at most kMaxListBytes or a
// pipe (process substitution), whose reading stops there too; no line may exceed kMaxListLine.
// Throws UsageError naming the list otherwise, or when it cannot be read.
void read_input_list(const std::string& path, const std::function<void(std::string_view, std::size_t)>& on_line);

}  // namespace crd::io::detail
