// Returning the heap's free pages to the system between the phases of a long job.
#pragma once

namespace crd {

// Gives back every whole free page of the heap (glibc's malloc_trim; nothing elsewhere). A phase
// that frees tables interleaved with tables that stay (crd quilts' pass tables beside the holder
// classes it keeps) leaves free chunks too small or ill-placed for the next phase's requests, so
// the next phase touches new pages and the resident set grows by what is free: 57 MB of 143 at
// synth 48M after quilts' passes. Costs a walk over the free chunks (well under a millisecond
// there): call it between phases, not per record.
void release_free_memory();

}  // namespace crd
