// An LD_PRELOAD shim that says, per rank, how much of a job's wall time was spent inside MPI: the
// collectives crd uses and the MPI-IO calls parallel HDF5 makes. On one node a collective costs
// microseconds, so time inside it is time spent waiting for a slower rank (or, on a busy machine,
// for a rank the scheduler put aside). At MPI_Finalize each rank prints one line on stderr:
//
//   mpi_wait rank R: cpu C ms, in MPI T ms over N calls; Allreduce n/t ms, Alltoallv n/t ms, …
//
// where C is the process's CPU time so far (user + sys, every thread) and each name lists its
// calls and their wall time. It wraps the calls through the profiling interface (PMPI_*), so the
// job is otherwise unchanged. docs/discover-speed.md ("Two ranks") shows its use.
//
//   mpicc -O2 -shared -fPIC -o /tmp/mpi_wait_trace.so perf/mpi_wait_trace.c
//   scripts/mpirun.sh -np 2 -x LD_PRELOAD=/tmp/mpi_wait_trace.so build/crd discover …
#include <mpi.h>
#include <stdio.h>
#include <time.h>

enum Call {
  kAllreduce,
  kAlltoall,
  kAlltoallv,
  kAllgather,
  kAllgatherv,
  kBcast,
  kBarrier,
  kExscan,
  kGather,
  kGatherv,
  kFileOpen,
  kFileClose,
  kFileSetSize,
  kFileSync,
  kFileWriteAtAll,
  kFileWriteAt,
  kCalls
};
static const char* const kNames[kCalls] = {"Allreduce",     "Alltoall",  "Alltoallv",         "Allgather",
                                           "Allgatherv",    "Bcast",     "Barrier",           "Exscan",
                                           "Gather",        "Gatherv",   "File_open",         "File_close",
                                           "File_set_size", "File_sync", "File_write_at_all", "File_write_at"};
static long calls[kCalls];
static double seconds[kCalls];

static double clock_seconds(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Times one call: the wrapped expression's result is returned unchanged.
#define TIMED(which, expression)                              \
  do {                                                        \
    const double start = clock_seconds(CLOCK_MONOTONIC);      \
    const int rc = (expression);                              \
    seconds[which] += clock_seconds(CLOCK_MONOTONIC) - start; \
    ++calls[which];                                           \
    return rc;                                                \
  } while (0)

int MPI_Allreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  TIMED(kAllreduce, PMPI_Allreduce(s, r, n, t, op, c));
}
int MPI_Alltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, MPI_Comm c) {
  TIMED(kAlltoall, PMPI_Alltoall(s, sn, st, r, rn, rt, c));
}
int MPI_Alltoallv(const void* s, const int* sn, const int* sd, MPI_Datatype st, void* r, const int* rn, const int* rd,
                  MPI_Datatype rt, MPI_Comm c) {
  TIMED(kAlltoallv, PMPI_Alltoallv(s, sn, sd, st, r, rn, rd, rt, c));
}
int MPI_Allgather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, MPI_Comm c) {
  TIMED(kAllgather, PMPI_Allgather(s, sn, st, r, rn, rt, c));
}
int MPI_Allgatherv(const void* s, int sn, MPI_Datatype st, void* r, const int* rn, const int* rd, MPI_Datatype rt,
                   MPI_Comm c) {
  TIMED(kAllgatherv, PMPI_Allgatherv(s, sn, st, r, rn, rd, rt, c));
}
int MPI_Bcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm c) { TIMED(kBcast, PMPI_Bcast(b, n, t, root, c)); }
int MPI_Barrier(MPI_Comm c) { TIMED(kBarrier, PMPI_Barrier(c)); }
int MPI_Exscan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  TIMED(kExscan, PMPI_Exscan(s, r, n, t, op, c));
}
int MPI_Gather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root, MPI_Comm c) {
  TIMED(kGather, PMPI_Gather(s, sn, st, r, rn, rt, root, c));
}
int MPI_Gatherv(const void* s, int sn, MPI_Datatype st, void* r, const int* rn, const int* rd, MPI_Datatype rt,
                int root, MPI_Comm c) {
  TIMED(kGatherv, PMPI_Gatherv(s, sn, st, r, rn, rd, rt, root, c));
}
int MPI_File_open(MPI_Comm c, const char* name, int mode, MPI_Info info, MPI_File* f) {
  TIMED(kFileOpen, PMPI_File_open(c, name, mode, info, f));
}
int MPI_File_close(MPI_File* f) { TIMED(kFileClose, PMPI_File_close(f)); }
int MPI_File_set_size(MPI_File f, MPI_Offset size) { TIMED(kFileSetSize, PMPI_File_set_size(f, size)); }
int MPI_File_sync(MPI_File f) { TIMED(kFileSync, PMPI_File_sync(f)); }
int MPI_File_write_at_all(MPI_File f, MPI_Offset at, const void* b, int n, MPI_Datatype t, MPI_Status* s) {
  TIMED(kFileWriteAtAll, PMPI_File_write_at_all(f, at, b, n, t, s));
}
int MPI_File_write_at(MPI_File f, MPI_Offset at, const void* b, int n, MPI_Datatype t, MPI_Status* s) {
  TIMED(kFileWriteAt, PMPI_File_write_at(f, at, b, n, t, s));
}

int MPI_Finalize(void) {
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long total_calls = 0;
  double total = 0;
  char detail[2048];
  int used = 0;
  for (int i = 0; i < kCalls; ++i) {
    if (calls[i] == 0) continue;
    total_calls += calls[i];
    total += seconds[i];
    if (used < (int)sizeof detail)
      used += snprintf(detail + used, sizeof detail - (size_t)used, "%s %s %ld/%.1f ms", used ? "," : "", kNames[i],
                       calls[i], seconds[i] * 1e3);
  }
  fprintf(stderr, "mpi_wait rank %d: cpu %.1f ms, in MPI %.1f ms over %ld calls;%s\n", rank,
          clock_seconds(CLOCK_PROCESS_CPUTIME_ID) * 1e3, total * 1e3, total_calls, used ? detail : "");
  return PMPI_Finalize();
}
