// The canonical-order search on its own (EXACT also runs it beside the
// skyline search, so EXACT's tests alone could hide a wrong answer of one of
// them): on small random sets it must find a packing at the brute-force
// optimum and prove one unit less infeasible, and every packing it returns
// must pass the verifier.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "offsets_test_util.h"
#include "planner/assignment.h"
#include "planner/offsets_canonical_search.h"
#include "planner/verifier.h"
#include "planner_test_util.h"

namespace glpool {
namespace {

using testing_util::SizeDistribution;

TEST(CanonicalSearchTest, DecidesLikeBruteForce) {
  const SizeDistribution distributions[] = {SizeDistribution::kEqual, SizeDistribution::kPowersOfTwo,
                                            SizeDistribution::kWide};
  std::mt19937_64 rng(977);
  int proofs = 0;
  for (int k = 0; k < 1500; ++k) {
    const SizeDistribution d = distributions[k % 3];
    const int tensors = 1 + static_cast<int>(rng() % 8);
    const std::vector<ByteRecord> records = offsets_testing::RandomIntervals(rng, d, tensors);
    const uint64_t optimum = offsets_testing::BruteForceArena(records, 1);
    SCOPED_TRACE("set " + std::to_string(k));
    CanonicalSearch search(records);
    const auto far = CanonicalSearch::Clock::now() + std::chrono::hours(1);
    std::vector<uint64_t> offsets;
    std::vector<uint64_t> caps(records.size(), optimum);
    ASSERT_EQ(search.Solve(caps, far, uint64_t{1} << 30, &offsets), SearchOutcome::kFound);
    OffsetsAssignment plan;
    plan.offsets = offsets;
    plan.total_size = 0;
    for (size_t i = 0; i < records.size(); ++i) {
      plan.total_size = std::max(plan.total_size, offsets[i] + records[i].size);
    }
    EXPECT_TRUE(VerifyOffsets(records, plan).ok());
    EXPECT_LE(plan.total_size, optimum);
    if (optimum == 0) continue;
    caps.assign(records.size(), optimum - 1);
    EXPECT_EQ(search.Solve(caps, far, uint64_t{1} << 30, &offsets), SearchOutcome::kInfeasible);
    ++proofs;
    if (HasFatalFailure() || HasNonfatalFailure()) return;
  }
  EXPECT_GT(proofs, 1000);
}

}  // namespace
}  // namespace glpool
