// Record sets at the edge of 64-bit arithmetic: before the limits, four
// records of 2^62 bytes printed every total as "0.00 MB" and AUTO as
// "naive, proven optimal"; a `last` of INT64_MAX overflowed task counts.
// Each is now an error naming the record, from every entry point.
#include <gtest/gtest.h>

#include "planner/objects_planner.h"
#include "planner/offsets_planner.h"
#include "planner/plan_report.h"
#include "planner/record_limits.h"
#include "planner/records_json.h"

namespace glpool {
namespace {

bool Mentions(const Status& status, const std::string& text) {
  return status.message().find(text) != std::string::npos;
}

TEST(RecordLimits, SizesThatWouldWrapAreRefusedEverywhere) {
  const std::vector<ByteRecord> records(4, ByteRecord{uint64_t{1} << 62, 0, 0});
  EXPECT_EQ(CheckRecordLimits(records).code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(PlanSharedObjects(records, ObjectStrategy::kAuto).ok());
  EXPECT_FALSE(PlanOffsets(records, OffsetStrategy::kAuto, OffsetOptions{}).ok());
  RecordSet set;
  set.records = records;
  set.names = {"a", "b", "c", "d"};
  set.tasks = 1;
  StatusOr<PlanReport> report = BuildPlanReport(set, {});
  ASSERT_FALSE(report.ok());
  EXPECT_TRUE(Mentions(report.status(), "record 0 (a)")) << report.status().ToString();
}

TEST(RecordLimits, TotalJustPastTheLimitNamesTheRecordThatCrossedIt) {
  std::vector<ByteRecord> records(300, ByteRecord{kMaxRecordBytes, 0, 0});
  Status status = CheckRecordLimits(records);
  ASSERT_FALSE(status.ok());
  // 256 records of 2^48 reach 2^56 exactly; the 257th (index 256) crosses.
  EXPECT_TRUE(Mentions(status, "record 256")) << status.ToString();
  records.resize(256);
  EXPECT_TRUE(CheckRecordLimits(records).ok());
}

TEST(RecordLimits, TaskIndicesNearInt64MaxAreRefused) {
  StatusOr<RecordSet> set =
      ParseRecordsJson(R"({"records": [{"name": "x", "size": 1, "first": 0, "last": 9223372036854775807}]})", "t");
  ASSERT_FALSE(set.ok());
  EXPECT_TRUE(Mentions(set.status(), "record 0 (x)")) << set.status().ToString();
  set = ParseRecordsJson(R"({"tasks": 9223372036854775807, "records": [{"size": 1, "first": 0, "last": 0}]})", "t");
  ASSERT_FALSE(set.ok());
  EXPECT_TRUE(Mentions(set.status(), "tasks")) << set.status().ToString();
  const std::vector<ByteRecord> negative = {{16, -5, 3}};
  EXPECT_FALSE(PlanSharedObjects(negative, ObjectStrategy::kGreedyBySize).ok());
}

TEST(RecordLimits, LargestAllowedRecordsPlanWithExactTotals) {
  // Four records of 2^48 bytes, two live at a time: every total is exact.
  const std::vector<ByteRecord> records = {{kMaxRecordBytes, 0, 1}, {kMaxRecordBytes, 1, 2},
                                           {kMaxRecordBytes, 2, 3}, {kMaxRecordBytes, 3, 4}};
  StatusOr<ObjectsPlan> plan = PlanSharedObjects(records, ObjectStrategy::kAuto);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(TotalBytes(plan->assignment), 2 * kMaxRecordBytes);
  StatusOr<OffsetPlan> offsets = PlanOffsets(records, OffsetStrategy::kAuto, OffsetOptions{});
  ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
}

TEST(RecordLimits, DirectoriesAndDevicesAreNotRead) {
  for (const std::string& path : {std::string("/dev/zero"), std::string("/tmp")}) {
    StatusOr<RecordSet> set = ReadRecordsJson(path);
    ASSERT_FALSE(set.ok()) << path;
    EXPECT_TRUE(Mentions(set.status(), path)) << set.status().ToString();
  }
}

}  // namespace
}  // namespace glpool
