// The typed collectives, one per header under comm/collectives/ (KaMPIng's layout), each under one
// name: values travel encoded from their field lists (base/fields.hpp) over the bytes-only
// Transport. Include this for several of them, or the one header for one.
#pragma once

#include "crd/comm/collectives/all_ok.hpp"
#include "crd/comm/collectives/allgather.hpp"
#include "crd/comm/collectives/alltoall.hpp"
#include "crd/comm/collectives/broadcast.hpp"
#include "crd/comm/collectives/exscan_sum.hpp"
#include "crd/comm/collectives/first_error.hpp"
#include "crd/comm/collectives/gather.hpp"
#include "crd/comm/collectives/max.hpp"
#include "crd/comm/collectives/min.hpp"
#include "crd/comm/collectives/scatter.hpp"
#include "crd/comm/collectives/sum.hpp"
