// What kind of file a name stands for, looked at before anything is opened: crd writes a result
// under a temporary name and renames it over its target, which would replace a device, a FIFO or a
// symbolic link; and opening a FIFO to read it blocks until some writer appears.
#pragma once

#include <string>

namespace crd {

// Why a new file must not be renamed over `path`, as a phrase after the name ("is a FIFO"), or ""
// if it may: `path` does not exist, or is a regular file. The name itself is looked at (lstat): a
// symbolic link is never replaced, whatever it points to, and neither is a dangling one.
std::string replace_problem(const std::string& path);

// Why `path` cannot be read as a file, as a phrase after the name ("is a FIFO", "is a device",
// "is a directory"), or "" if it is a regular file (after links) or does not exist (the reader
// then says so its own way).
std::string read_problem(const std::string& path);

}  // namespace crd
