// Counters is header-only today; this unit keeps a home for non-inline helpers.
#include "crd/core/counters.hpp"
