// Open MPI start-up defaults: set only for single-node jobs and only where the user set nothing;
// TCP_NODELAY only on TCP connections to a loopback address.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "mpi_startup.hpp"

namespace crd::comm {
namespace {

constexpr const char* kRead[] = {"OMPI_COMM_WORLD_SIZE",
                                 "OMPI_COMM_WORLD_LOCAL_SIZE",
                                 "PMIX_RANK",
                                 "PMI_RANK",
                                 "SLURM_STEP_ID",
                                 "OMPI_MCA_pml",
                                 "HWLOC_COMPONENTS",
                                 "HWLOC_PLUGINS_BLACKLIST",
                                 "OMPI_MCA_sharedfp",
                                 "OMPI_MCA_mpi_yield_when_idle"};

class StartDefaults : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : kRead) ::unsetenv(name);
  }
  void TearDown() override { SetUp(); }
  static std::string value(const char* name) {
    const char* v = std::getenv(name);
    return v == nullptr ? "(unset)" : v;
  }
};

TEST_F(StartDefaults, SingletonGetsSharedMemoryDefaults) {
  EXPECT_TRUE(single_node_open_mpi_job());
  prefer_single_node_start();
  EXPECT_EQ(value("OMPI_MCA_pml"), "ob1");
  EXPECT_EQ(value("HWLOC_COMPONENTS"), "-pci,-linuxio");
  const std::string plugins = value("HWLOC_PLUGINS_BLACKLIST");
  for (const char* plugin : {"hwloc_pci", "hwloc_gl", "hwloc_opencl", "hwloc_xml_libxml"})
    EXPECT_NE(plugins.find(plugin), std::string::npos) << plugin;
  EXPECT_EQ(value("OMPI_MCA_mpi_yield_when_idle"), "1");
}

TEST_F(StartDefaults, MpirunWithAllRanksLocal) {
  ::setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
  ::setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "4", 1);
  prefer_single_node_start();
  EXPECT_EQ(value("OMPI_MCA_pml"), "ob1");
  EXPECT_EQ(value("HWLOC_COMPONENTS"), "-pci,-linuxio");
  // Waiting ranks give their core to the rank they wait for (mpirun asks for it only when
  // oversubscribed).
  EXPECT_EQ(value("OMPI_MCA_mpi_yield_when_idle"), "1");
}

TEST_F(StartDefaults, MultiNodeAndDirectLaunchKeepOpenMpisChoice) {
  ::setenv("OMPI_COMM_WORLD_SIZE", "8", 1);
  ::setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "4", 1);
  EXPECT_FALSE(single_node_open_mpi_job());
  prefer_single_node_start();
  EXPECT_EQ(value("OMPI_MCA_pml"), "(unset)");
  EXPECT_EQ(value("HWLOC_COMPONENTS"), "(unset)");
  EXPECT_EQ(value("HWLOC_PLUGINS_BLACKLIST"), "(unset)");
  EXPECT_EQ(value("OMPI_MCA_mpi_yield_when_idle"), "(unset)");
  for (const char* launcher : {"PMIX_RANK", "PMI_RANK", "SLURM_STEP_ID"}) {
    SetUp();
    ::setenv(launcher, "0", 1);
    EXPECT_FALSE(single_node_open_mpi_job()) << launcher;
    prefer_single_node_start();
    EXPECT_EQ(value("OMPI_MCA_pml"), "(unset)") << launcher;
  }
}

TEST_F(StartDefaults, UsersSettingsWin) {
  ::setenv("OMPI_MCA_pml", "ucx", 1);
  ::setenv("HWLOC_COMPONENTS", "-gl", 1);
  ::setenv("HWLOC_PLUGINS_BLACKLIST", "", 1);
  ::setenv("OMPI_MCA_mpi_yield_when_idle", "0", 1);
  prefer_single_node_start();
  EXPECT_EQ(value("OMPI_MCA_pml"), "ucx");
  EXPECT_EQ(value("OMPI_MCA_mpi_yield_when_idle"), "0");
  EXPECT_EQ(value("HWLOC_COMPONENTS"), "-gl");
  EXPECT_EQ(value("HWLOC_PLUGINS_BLACKLIST"), "");
}

// Every launch, one node or many (tests/multinode lost_node: the files these components make
// were left beside the result of a job that lost a node).
TEST_F(StartDefaults, NoSharedFilePointerFilesUnlessTheUserAsks) {
  ::setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
  ::setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "2", 1);
  avoid_shared_file_pointer_files();
  EXPECT_EQ(value("OMPI_MCA_sharedfp"), "^lockedfile,individual");
  ::setenv("OMPI_MCA_sharedfp", "lockedfile", 1);
  avoid_shared_file_pointer_files();
  EXPECT_EQ(value("OMPI_MCA_sharedfp"), "lockedfile");
}

int nodelay(int fd) {
  int on = -1;
  socklen_t length = sizeof on;
  EXPECT_EQ(::getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, &length), 0);
  return on;
}

TEST(NagleOnLoopback, OnlyLoopbackTcpConnectionsChange) {
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 1), 0);
  socklen_t length = sizeof address;
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
  const int client = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_EQ(::connect(client, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  const int server = ::accept(listener, nullptr, nullptr);
  ASSERT_GE(server, 0);
  int pair[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
  const int unconnected = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_EQ(nodelay(client), 0);
  ASSERT_EQ(nodelay(server), 0);

  // Both ends of the connection; not the listener, the unconnected socket or the Unix pair.
  EXPECT_EQ(disable_nagle_on_loopback_connections(), 2);
  EXPECT_EQ(nodelay(client), 1);
  EXPECT_EQ(nodelay(server), 1);
  EXPECT_EQ(nodelay(listener), 0);
  EXPECT_EQ(nodelay(unconnected), 0);
  EXPECT_EQ(disable_nagle_on_loopback_connections(), 2);  // idempotent: set again, still the two

  for (int fd : {listener, client, server, pair[0], pair[1], unconnected}) ::close(fd);
  EXPECT_EQ(disable_nagle_on_loopback_connections(), 0);
}

}  // namespace
}  // namespace crd::comm
