// Start-up and shut-down costs of Open MPI on one node (src/comm/mpi_startup.hpp).
#include "mpi_startup.hpp"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace crd::comm {
namespace {

// hwloc's plugins for I/O devices (each dlopened with its libraries, unless blacklisted) and its
// libxml2 XML backend; names hwloc does not have are ignored.
constexpr const char* kIoPluginsOfHwloc =
    "hwloc_pci,hwloc_opencl,hwloc_cuda,hwloc_nvml,hwloc_rsmi,hwloc_levelzero,hwloc_gl,hwloc_xml_libxml";

void set_default(const char* name, const char* value) {
  if (std::getenv(name) == nullptr) ::setenv(name, value, 0);
}

bool is_loopback(const sockaddr_storage& address) {
  if (address.ss_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
    return (ntohl(v4.sin_addr.s_addr) >> 24) == 127;
  }
  if (address.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
    if (IN6_IS_ADDR_LOOPBACK(&v6.sin6_addr)) return true;
    return IN6_IS_ADDR_V4MAPPED(&v6.sin6_addr) && v6.sin6_addr.s6_addr[12] == 127;
  }
  return false;
}

bool is_loopback_tcp_connection(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) return false;
  int type = 0;
  socklen_t length = sizeof type;
  if (::getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) != 0 || type != SOCK_STREAM) return false;
  sockaddr_storage peer{};
  length = sizeof peer;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &length) != 0) return false;
  return is_loopback(peer);
}

}  // namespace

bool single_node_open_mpi_job() {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (size != nullptr) return local != nullptr && std::strcmp(size, local) == 0;
  return std::getenv("PMIX_RANK") == nullptr && std::getenv("PMI_RANK") == nullptr &&
         std::getenv("SLURM_STEP_ID") == nullptr;
}

void prefer_single_node_start() {
  if (!single_node_open_mpi_job()) return;
  // Open MPI's default PML here is UCX, whose start-up probes network devices: MPI_Init took 0.26 s
  // instead of 0.045 s with ob1. With every rank on one node, ob1 over shared memory (vader) is
  // all the job can use anyway.
  set_default("OMPI_MCA_pml", "ob1");
  // Each rank builds its own hwloc topology in MPI_Init, PCI devices and block and network devices
  // included (15 ms of a 50 ms MPI_Init here). Shared memory needs only cores and caches.
  set_default("HWLOC_COMPONENTS", "-pci,-linuxio");
  // The components above are off, but hwloc still loads its plugins for them, and the XML one
  // with libxml2 and ICU, the GL one with libX11 and five more: 5 ms of each rank's MPI_Init here.
  // Topology exchange falls back to hwloc's built-in XML parser.
  set_default("HWLOC_PLUGINS_BLACKLIST", kIoPluginsOfHwloc);
  // A rank that waits in a collective spins in Open MPI's progress loop; mpirun asks it to yield
  // only when there are more ranks than cores. On one node the ranks share cores with mpirun's
  // own progress, --reader-thread and whatever else runs there, and a spinning rank takes the
  // time slice the rank it waits for needs: a one-page job at 2 ranks on 2 busy cores took twice
  // the CPU and twice the wall time (perf/fixed_cost.py). crd's collectives are few and large,
  // so the microseconds a yield adds to a message's latency cost nothing measurable.
  set_default("OMPI_MCA_mpi_yield_when_idle", "1");
}

void avoid_shared_file_pointer_files() { set_default("OMPI_MCA_sharedfp", "^lockedfile,individual"); }

int disable_nagle_on_loopback_connections() {
  // PMIx 4.2 leaves Nagle's algorithm on for a client's connection to its server. MPI_Finalize
  // sends a few small messages that need no reply: the second waits for the first's ACK, which the
  // server delays by up to 40 ms, ten times MPI_Finalize's own work at 2 ranks. The
  // connection is PMIx's own, so there is no handle to it: find it among the open descriptors.
  DIR* fds = ::opendir("/proc/self/fd");
  if (fds == nullptr) return 0;
  const int own = ::dirfd(fds);
  int changed = 0;
  while (const dirent* entry = ::readdir(fds)) {
    char* end = nullptr;
    const long fd = std::strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0' || fd == own) continue;
    const int one = 1;
    if (is_loopback_tcp_connection(static_cast<int>(fd)) &&
        ::setsockopt(static_cast<int>(fd), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) == 0)
      ++changed;
  }
  ::closedir(fds);
  return changed;
}

}  // namespace crd::comm
