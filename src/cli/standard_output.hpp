// Standard output as a result: what a command prints is checked as a file it writes would be.
// Without this a full disk, or a closed stdout, cut the output short while crd exited 0.
#pragma once

namespace crd::cli {

// Call first: opens /dev/null on any of the standard descriptors 0-2 that is closed, so no file
// crd opens later takes that number and receives what was meant for the terminal. Standard output
// is opened read-only there: printing to it fails (EBADF) and is reported at exit.
void keep_standard_streams_apart();

// Call last, with the command's exit status (coreutils' close_stdout): flushes standard output
// and closes it; if any write to it failed, says so in one line on stderr and returns 1 (or
// `status`, when that already reports a failure).
int finish_standard_output(int status);

}  // namespace crd::cli
