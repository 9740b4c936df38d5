// A whole crd job in one process: `in_process_crd N COMMAND ARGS…` runs `crd COMMAND ARGS…` (discover,
// label, detect or run) on N thread ranks of comm::run_local instead of N processes under mpirun.
// Exit status as crd's: rank 0's (every rank agrees); 1 with one line if a rank failed alone.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "crd/cli/main.hpp"
#include "crd/comm/local_transport.hpp"

int main(int argc, char** argv) {
  if (argc < 3 || std::atoi(argv[1]) < 1) {
    std::fprintf(stderr, "usage: in_process_crd RANKS COMMAND [ARGS…]\n");
    return 2;
  }
  int status = 0;
  try {
    crd::comm::run_local(std::atoi(argv[1]), [&](crd::comm::Transport& t) {
      const int mine = crd::cli::run_pipeline_on(t, argc - 2, argv + 2);
      if (t.rank() == 0) status = mine;
    });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "crd: %s\n", e.what());
    return 1;
  }
  return status;
}
