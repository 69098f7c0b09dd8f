// Repair (planner/offsets_repair.h): never raises the arena, keeps plans
// valid, lowers a plan that is plainly too high, and stops on inputs where
// no window can be re-packed. Step counts bound every run (the deadline is
// generous), so the results do not depend on the machine.
#include "planner/offsets_repair.h"

#include <gtest/gtest.h>

#include <random>

#include "planner/lower_bounds.h"
#include "planner/offsets_greedy_in_order.h"
#include "planner/verifier.h"

namespace glpool {
namespace {

uint64_t Arena(const std::vector<ByteRecord>& records, const std::vector<uint64_t>& offsets) {
  uint64_t top = 0;
  for (size_t i = 0; i < records.size(); ++i) top = std::max(top, offsets[i] + records[i].size);
  return top;
}

void ExpectValid(const std::vector<ByteRecord>& records, const std::vector<uint64_t>& offsets) {
  const Status s = VerifyOffsets(records, {offsets, Arena(records, offsets)});
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST(OffsetsRepairTest, LowersAStackOfTensorsThatNeverMeet) {
  // Three tensors live one after the other, stacked: arena 30, bound 10.
  const std::vector<ByteRecord> records = {{10, 0, 0}, {10, 1, 1}, {10, 2, 2}};
  std::vector<uint64_t> offsets = {0, 10, 20};
  const Deadline never(1e9);
  RepairOptions options;
  options.max_steps = 100;
  RepairOffsets(records, &offsets, OffsetsLowerBound(records), never, options);
  ExpectValid(records, offsets);
  EXPECT_EQ(Arena(records, offsets), 10u);
}

TEST(OffsetsRepairTest, NeverRaisesARandomPlanAndLowersMost) {
  size_t lowered = 0;
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    std::mt19937 rng(seed);
    std::vector<ByteRecord> records(400);
    for (ByteRecord& r : records) {
      r.first_task = static_cast<TaskId>(rng() % 200);
      r.last_task = r.first_task + static_cast<TaskId>(rng() % 12);
      r.size = 1 + rng() % 1000;
    }
    std::vector<uint64_t> offsets = OffsetsGreedyInOrder(records);
    const uint64_t before = Arena(records, offsets);
    const Deadline never(1e9);
    RepairOptions options;
    options.max_steps = 300;
    options.seed = seed;
    RepairOffsets(records, &offsets, OffsetsLowerBound(records), never, options);
    ExpectValid(records, offsets);
    const uint64_t after = Arena(records, offsets);
    EXPECT_LE(after, before) << "seed " << seed;
    EXPECT_GE(after, OffsetsLowerBound(records)) << "seed " << seed;
    lowered += after < before;
  }
  // Greedy in order leaves room on random sets; repair finds some of it.
  EXPECT_GE(lowered, 5u);
}

TEST(OffsetsRepairTest, StopsOnAGiantIntervalAndAllOverlapping) {
  // Every tensor overlaps every other: no window frees anything useful, and
  // the window cap keeps each step small; the step guard ends the run.
  std::vector<ByteRecord> records;
  for (uint64_t i = 0; i < 50; ++i) records.push_back({1 + i, 0, 1000});
  std::vector<uint64_t> offsets(records.size());
  uint64_t at = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    offsets[i] = at;
    at += records[i].size;
  }
  const Deadline never(1e9);
  RepairOptions options;
  options.max_steps = 50;
  EXPECT_LE(RepairOffsets(records, &offsets, 0, never, options), 50u);
  ExpectValid(records, offsets);
  EXPECT_EQ(Arena(records, offsets), at);
}

}  // namespace
}  // namespace glpool
