// The fixed cost of any parallel-HDF5 MPI job here, without crd: MPI_Init, a collective H5Fcreate
// with the MPI-IO driver (crd's file-access properties), H5Fclose, MPI_Finalize. perf/fixed_cost.py
// runs it beside a one-page crd discover at 1 and 2 ranks: what crd adds is the difference. Like
// crd (comm/mpi_startup.cpp) it turns Nagle's algorithm off on its PMIx connection, else
// MPI_Finalize waits 40 ms for a delayed ACK; crd's other settings are environment variables,
// which perf/fixed_cost.py gives it.
// Usage: fixed_cost_yardstick FILE.h5
#include <dirent.h>
#include <hdf5.h>
#include <mpi.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <sys/socket.h>

// TCP_NODELAY on every TCP socket (setsockopt fails harmlessly on the others); the only ones here
// are PMIx's connection to the launcher.
static void no_delay(void) {
  DIR* fds = opendir("/proc/self/fd");
  if (fds == NULL) return;
  const int one = 1;
  for (struct dirent* e = readdir(fds); e != NULL; e = readdir(fds))
    setsockopt(atoi(e->d_name), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  closedir(fds);
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  MPI_Init(&argc, &argv);
  no_delay();
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
  H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18);
  hid_t file = H5Fcreate(argv[1], H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  const int ok = file >= 0 && H5Fclose(file) >= 0;
  H5Pclose(fapl);
  MPI_Finalize();
  return ok ? 0 : 1;
}
