// An LD_PRELOAD shim that timestamps a job's fixed costs: when each rank's process started, when
// MPI_Init returned, the HDF5 file create, flush and close, the first H5Dwrite, MPI_Finalize and
// the process's exit. Every line is "rank EVENT SECONDS" on stderr, SECONDS on CLOCK_REALTIME, so
// the lines of several ranks and of the launcher (perf/fixed_cost.py takes its start time) share
// one time axis. A process that is no rank of a launched job (mpirun, a shell, a singleton) says "-". It changes
// nothing in the job; the calls it wraps are looked up with RTLD_NEXT.
//
//   cc -O2 -shared -fPIC -o fixed_cost_trace.so perf/fixed_cost_trace.c -ldl
//   LD_PRELOAD=$PWD/fixed_cost_trace.so mpirun -np 2 -x LD_PRELOAD crd discover …
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef long long hid_t;  // HDF5 1.10's hid_t: int64_t
typedef int herr_t;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// The process's start from /proc/self/stat (field 22, clock ticks since boot) on the REALTIME axis.
static double process_start(void) {
  FILE* f = fopen("/proc/self/stat", "r");
  if (f == NULL) return 0;
  char buf[1024];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  char* p = strrchr(buf, ')');  // the command name may hold spaces
  unsigned long long ticks = 0;
  for (int field = 2; p != NULL && field < 22; ++field) p = strchr(p + 1, ' ');
  if (p != NULL) ticks = strtoull(p + 1, NULL, 10);
  struct timespec boot, real;
  clock_gettime(CLOCK_BOOTTIME, &boot);
  clock_gettime(CLOCK_REALTIME, &real);
  const double boot_at = (double)real.tv_sec + real.tv_nsec * 1e-9 - ((double)boot.tv_sec + boot.tv_nsec * 1e-9);
  return boot_at + (double)ticks / (double)sysconf(_SC_CLK_TCK);
}

static const char* rank(void) {
  const char* r = getenv("OMPI_COMM_WORLD_RANK");
  return r != NULL ? r : "-";  // a singleton, or the launcher's own processes
}

static void mark(const char* event) { fprintf(stderr, "trace %s %s %.6f\n", rank(), event, now()); }

__attribute__((constructor)) static void started(void) {
  fprintf(stderr, "trace %s exec %.6f\n", rank(), process_start());
  mark("main");
}

__attribute__((destructor)) static void ending(void) { mark("exit"); }

// Looked up once: dlsym takes a lock and walks every loaded library.
#define NEXT(name)                                                 \
  ({                                                               \
    static name##_fn next_;                                        \
    if (next_ == NULL) next_ = (name##_fn)dlsym(RTLD_NEXT, #name); \
    next_;                                                         \
  })

typedef int (*MPI_Init_thread_fn)(int*, char***, int, int*);
int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  mark("MPI_Init.call");
  int rc = NEXT(MPI_Init_thread)(argc, argv, required, provided);
  mark("MPI_Init.return");
  return rc;
}

typedef int (*MPI_Init_fn)(int*, char***);
int MPI_Init(int* argc, char*** argv) {
  mark("MPI_Init.call");
  int rc = NEXT(MPI_Init)(argc, argv);
  mark("MPI_Init.return");
  return rc;
}

typedef int (*MPI_Finalize_fn)(void);
int MPI_Finalize(void) {
  mark("MPI_Finalize.call");
  int rc = NEXT(MPI_Finalize)();
  mark("MPI_Finalize.return");
  return rc;
}

typedef hid_t (*H5Fcreate_fn)(const char*, unsigned, hid_t, hid_t);
hid_t H5Fcreate(const char* name, unsigned flags, hid_t fcpl, hid_t fapl) {
  mark("H5Fcreate.call");
  hid_t id = NEXT(H5Fcreate)(name, flags, fcpl, fapl);
  mark("H5Fcreate.return");
  return id;
}

typedef herr_t (*H5Fflush_fn)(hid_t, int);
herr_t H5Fflush(hid_t id, int scope) {
  mark("H5Fflush.call");
  herr_t rc = NEXT(H5Fflush)(id, scope);
  mark("H5Fflush.return");
  return rc;
}

typedef herr_t (*H5Fclose_fn)(hid_t);
herr_t H5Fclose(hid_t id) {
  mark("H5Fclose.call");
  herr_t rc = NEXT(H5Fclose)(id);
  mark("H5Fclose.return");
  return rc;
}

static int writes;
typedef herr_t (*H5Dwrite_fn)(hid_t, hid_t, hid_t, hid_t, hid_t, const void*);
herr_t H5Dwrite(hid_t d, hid_t mt, hid_t ms, hid_t fs, hid_t x, const void* buf) {
  if (writes++ == 0) mark("H5Dwrite.first");
  herr_t rc = NEXT(H5Dwrite)(d, mt, ms, fs, x, buf);
  return rc;
}
