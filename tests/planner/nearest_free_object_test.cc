// NearestFreeObject against a scan of every object (what greedy by size did
// before the index): same object, same distance, on random placements with
// many equal task indices (the tie paths).
#include "planner/nearest_free_object.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace glpool {
namespace {

struct Scan {
  bool found = false;
  size_t object = 0;
  TaskId distance = 0;
};

Scan ScanAll(const NearestFreeObject& index, TaskId first, TaskId last) {
  Scan best;
  for (size_t o = 0; o < index.objects(); ++o) {
    TaskId d;
    if (!index.FreeDistance(o, first, last, &d) || d == NearestFreeObject::kFar) continue;
    if (!best.found || d < best.distance) best = {true, o, d};
  }
  return best;
}

TEST(NearestFreeObject, MatchesScanOfEveryObject) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    const TaskId tasks = 5 + static_cast<TaskId>(rng() % 60);
    std::vector<ByteRecord> records(300);
    for (ByteRecord& r : records) {
      r.first_task = static_cast<TaskId>(rng() % tasks);
      r.last_task = r.first_task + static_cast<TaskId>(rng() % 6);
      r.size = 1;
    }
    NearestFreeObject index(records);
    size_t queries = 0;
    for (size_t t = 0; t < records.size(); ++t) {
      const ByteRecord& r = records[t];
      const Scan want = ScanAll(index, r.first_task, r.last_task);
      size_t object = 0;
      TaskId distance = 0;
      const bool found = index.Nearest(r.first_task, r.last_task, &object, &distance);
      ASSERT_EQ(found, want.found) << "seed " << seed << " tensor " << t;
      if (found) {
        ++queries;
        ASSERT_EQ(object, want.object) << "seed " << seed << " tensor " << t;
        ASSERT_EQ(distance, want.distance) << "seed " << seed << " tensor " << t;
      }
      // Mostly the nearest object, sometimes a new one or another free one,
      // so the timelines are not only what the greedy would build.
      const uint32_t roll = rng() % 4;
      if (!found || roll == 0) {
        index.Occupy(index.AddObject(), t);
      } else if (roll == 1) {
        size_t other = rng() % index.objects();
        TaskId d;
        if (!index.FreeDistance(other, r.first_task, r.last_task, &d)) other = object;
        index.Occupy(other, t);
      } else {
        index.Occupy(object, t);
      }
    }
    EXPECT_GT(queries, 100u) << "seed " << seed;
  }
}

}  // namespace
}  // namespace glpool
