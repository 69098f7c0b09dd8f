// Every strategy, shared objects and offsets, on 100,000 seeded small record
// sets of the shapes that break planners: random intervals, sizes near the
// record limits, huge and equal task indices, one interval over all,
// all-disjoint, all-overlapping, and sets past the limits. Each call returns
// a plan that the verifier accepts and that is not below the lower bound, or
// an InvalidArgument error naming a record; nothing hangs (every search runs
// under a small budget and its own iteration guard) and nothing aborts.
// Budgets are kept small so the whole test runs in seconds; how closely the
// planners keep a budget is measured in bench/reports/planner_scale.md.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "planner/lower_bounds.h"
#include "planner/objects_planner.h"
#include "planner/offsets_planner.h"
#include "planner/record_limits.h"
#include "planner/verifier.h"

namespace glpool {
namespace {

enum class Shape {
  kRandom,
  kHugeSizes,      // near kMaxRecordBytes, totals near kMaxTotalBytes
  kHugeTasks,      // task indices near kMaxTaskIndex
  kEqualTasks,     // every record at the same single task
  kOneOverAll,     // one interval over every other
  kAllDisjoint,
  kAllOverlapping,
  kPastLimits,     // one record breaks a limit: an error is expected
};

const char* ShapeName(Shape s) {
  static const char* names[] = {"random",      "huge_sizes",   "huge_tasks",
                                "equal_tasks", "one_over_all", "all_disjoint",
                                "all_overlapping", "past_limits"};
  return names[static_cast<int>(s)];
}

uint64_t Size(std::mt19937_64& rng, bool huge) {
  if (huge) return kMaxRecordBytes - rng() % 1024;
  switch (rng() % 4) {
    case 0: return 0;                      // zero-size records occupy nothing
    case 1: return 1 + rng() % 8;
    case 2: return uint64_t{1} << (rng() % 30);
    default: return 1 + rng() % 1000000;
  }
}

std::vector<ByteRecord> MakeSet(std::mt19937_64& rng, Shape shape) {
  const size_t n = rng() % 14;  // 0 .. 13 records
  std::vector<ByteRecord> records;
  const TaskId high = kMaxTaskIndex - 64;
  for (size_t i = 0; i < n; ++i) {
    ByteRecord r;
    r.size = Size(rng, shape == Shape::kHugeSizes && rng() % 2 == 0);
    const TaskId a = static_cast<TaskId>(rng() % 16), b = static_cast<TaskId>(rng() % 16);
    switch (shape) {
      case Shape::kHugeTasks:
        r.first_task = high + std::min(a, b);
        r.last_task = rng() % 3 == 0 ? kMaxTaskIndex : high + std::max(a, b);
        break;
      case Shape::kEqualTasks:
        r.first_task = r.last_task = rng() % 2 ? 0 : kMaxTaskIndex;
        break;
      case Shape::kOneOverAll:
        r.first_task = i == 0 ? 0 : 1 + std::min(a, b);
        r.last_task = i == 0 ? 20 : 1 + std::max(a, b);
        break;
      case Shape::kAllDisjoint:
        r.first_task = r.last_task = static_cast<TaskId>(i) * (kMaxTaskIndex / 16);
        break;
      case Shape::kAllOverlapping:
        r.first_task = std::min(a, b) % 4;
        r.last_task = 8 + std::max(a, b);
        break;
      default:
        r.first_task = std::min(a, b);
        r.last_task = std::max(a, b);
        break;
    }
    records.push_back(r);
  }
  if (shape == Shape::kPastLimits) {
    ByteRecord bad{1, 0, 0};
    switch (rng() % 4) {
      case 0: bad.size = kMaxRecordBytes + 1 + rng() % 1000; break;
      case 1: bad.last_task = kMaxTaskIndex + 1 + static_cast<TaskId>(rng() % 1000); break;
      case 2: bad.first_task = 5; bad.last_task = 4; break;
      default: bad.first_task = -1 - static_cast<TaskId>(rng() % 1000); break;
    }
    records.insert(records.begin() + static_cast<std::ptrdiff_t>(rng() % (records.size() + 1)),
                   bad);
  }
  return records;
}

class AdversarialPropertyTest : public ::testing::TestWithParam<Shape> {};

// 8 shapes x 12,500 sets = 100,000 sets, each through every strategy.
constexpr int kSetsPerShape = 12500;

TEST_P(AdversarialPropertyTest, VerifiedPlanOrClearError) {
  const Shape shape = GetParam();
  std::mt19937_64 rng(777 + static_cast<int>(shape));
  ObjectOptions object_options;
  object_options.budget_seconds = 0.005;
  OffsetOptions offset_options;
  offset_options.budget_seconds = 0.005;
  for (int k = 0; k < kSetsPerShape; ++k) {
    const std::vector<ByteRecord> records = MakeSet(rng, shape);
    const bool within_limits = CheckRecordLimits(records).ok();
    // Sets past the limits must be refused; so must sets whose sizes happen
    // to add up past them (huge sizes).
    if (shape == Shape::kPastLimits) {
      ASSERT_FALSE(within_limits) << "set " << k;
    }
    for (ObjectStrategy s : AllObjectStrategies()) {
      StatusOr<ObjectsPlan> plan = PlanSharedObjects(records, s, object_options);
      if (!within_limits) {
        ASSERT_FALSE(plan.ok()) << "set " << k << " " << ObjectStrategyName(s);
        ASSERT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
        ASSERT_NE(plan.status().ToString().find("record"), std::string::npos);
        continue;
      }
      ASSERT_TRUE(plan.ok()) << "set " << k << " " << ObjectStrategyName(s) << ": "
                             << plan.status().ToString();
      const Status valid = VerifySharedObjects(records, plan->assignment);
      ASSERT_TRUE(valid.ok()) << "set " << k << " " << ObjectStrategyName(s) << ": "
                              << valid.ToString();
      ASSERT_GE(TotalBytes(plan->assignment), SharedObjectsLowerBound(records));
    }
    for (OffsetStrategy s : AllOffsetStrategies()) {
      offset_options.alignment = k % 5 == 4 ? uint64_t{1} << (rng() % 12) : 1;
      StatusOr<OffsetPlan> plan = PlanOffsets(records, s, offset_options);
      if (!within_limits) {
        ASSERT_FALSE(plan.ok()) << "set " << k << " " << OffsetStrategyName(s);
        ASSERT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
        ASSERT_NE(plan.status().ToString().find("record"), std::string::npos);
        continue;
      }
      // Within the limits, only padding to the alignment can overflow.
      if (!plan.ok()) {
        ASSERT_EQ(plan.status().code(), StatusCode::kInvalidArgument) << plan.status().ToString();
        ASSERT_NE(plan.status().ToString().find("record"), std::string::npos);
        continue;
      }
      const Status valid = VerifyOffsets(records, plan->assignment, offset_options.alignment);
      ASSERT_TRUE(valid.ok()) << "set " << k << " " << OffsetStrategyName(s) << ": "
                              << valid.ToString();
      ASSERT_GE(plan->assignment.total_size, OffsetsLowerBound(records));
      ASSERT_LE(plan->proven_lower_bound, plan->assignment.total_size);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, AdversarialPropertyTest,
                         ::testing::Values(Shape::kRandom, Shape::kHugeSizes, Shape::kHugeTasks,
                                           Shape::kEqualTasks, Shape::kOneOverAll,
                                           Shape::kAllDisjoint, Shape::kAllOverlapping,
                                           Shape::kPastLimits),
                         [](const ::testing::TestParamInfo<Shape>& info) {
                           return std::string(ShapeName(info.param));
                         });

}  // namespace
}  // namespace glpool
