// Paths that a job spanning nodes needs every rank to see alike (docs/cluster.md). On a cluster, /tmp and
// local scratch disks exist on every node under the same name but hold different files; a result
// written there by a collective MPI-IO open would hang or leave a file per node, and checkpoints
// there only exist on the node that wrote them.
#pragma once

#include <string>

#include "crd/comm/transport.hpp"

namespace crd::pipeline {

// This process's node (its host name), as messages name it.
std::string node_name();

// Collective, before any work, after check_output_before_run: rank 0 creates a uniquely named probe
// file beside `output`; every other rank must find it there with rank 0's contents. Otherwise
// every rank throws the same UsageError naming the first rank that does not, its node and the
// directory. The probe is removed before anyone throws. Nothing to check at one rank.
void check_output_dir_shared(comm::Transport& transport, const std::string& output);

// Collective, once the checkpoint directory `dir` exists. Every rank records which node each
// rank runs on (DIR/rank-R-of-N.nodes, removed with the checkpoints). On resume, if some ranks
// find their record and others do not, the checkpoints lie on nodes other than the ones this job
// runs on (a node-local --work-dir on other nodes, or one node's disk wiped): every rank throws
// the same FatalError naming the first rank without them, its node, the path, and the node that
// rank ran on before. Saving the record fails the job like a checkpoint that cannot be saved.
void check_checkpoint_nodes(comm::Transport& transport, const std::string& dir, bool resume);

}  // namespace crd::pipeline
