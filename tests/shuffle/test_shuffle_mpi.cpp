// exchange(), sort_across_ranks and reduce_by_key over real MPI (1..4 ranks): same invariants as the thread tests.
#include <gtest/gtest.h>

#include "crd/comm/mpi_transport.hpp"
#include "exchange_checks.hpp"
#include "reduce_checks.hpp"
#include "sort_checks.hpp"

namespace crd::shuffle {
namespace {

TEST(ShuffleMpi, ExchangeOneRound) {
  comm::MpiTransport t;
  testing::check_exchange(t, 5000, 1 << 24, false);
}

TEST(ShuffleMpi, ExchangeTinyRounds) {
  comm::MpiTransport t;
  testing::check_exchange(t, 800, 64, false);
}

TEST(ShuffleMpi, ExchangeFromOneRankOnly) {
  comm::MpiTransport t;
  testing::check_exchange(t, 800, 256, true);
  testing::check_exchange(t, 0, 256, false);
}

TEST(ShuffleMpi, SortIsIndependentOfRankCount) {
  comm::MpiTransport t;
  testing::check_sort(t, 4000, 0, false, 4096);
  testing::check_sort(t, 2000, 2, false, 64);
  testing::check_sort(t, 1000, 0, true, 1 << 20);
  testing::check_sort(t, 3, 0, false, 64);
}

TEST(ShuffleMpi, ReduceByKeyEqualsReference) {
  comm::MpiTransport t;
  testing::check_reduce(t, 3000, 400, false, 1 << 20, 0);
  testing::check_reduce(t, 600, 80, false, 3, 2);          // tiny rounds
  testing::check_reduce(t, 100, 30, true, 64, 1, 4000);    // records larger than a round
  testing::check_custom_owner(t, 500, 1 << 16);
  testing::check_group(t, 800, 50, 9, 3);
}

}  // namespace
}  // namespace crd::shuffle
