#include "planner/verifier.h"

#include <gtest/gtest.h>

namespace glpool {
namespace {

// Records: a (0..2, 10), b (1..3, 20), c (3..4, 10).
// a and b overlap; b and c overlap at task 3; a and c are disjoint.
const std::vector<ByteRecord> kRecords = {{10, 0, 2}, {20, 1, 3}, {10, 3, 4}};
const std::vector<std::string> kNames = {"a", "b", "c"};

ObjectsAssignment<uint64_t> GoodObjects() { return {{0, 1, 0}, {10, 20}}; }

void ExpectRejected(const Status& s, const std::string& needle) {
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
}

TEST(VerifySharedObjectsTest, AcceptsValidPlan) {
  EXPECT_TRUE(VerifySharedObjects(kRecords, GoodObjects(), &kNames).ok());
  EXPECT_TRUE(VerifySharedObjects<uint64_t>({}, {}).ok());
  // Slack is wasteful, not invalid.
  EXPECT_TRUE(VerifySharedObjects(kRecords, {{0, 1, 0}, {11, 99}}).ok());
}

TEST(VerifySharedObjectsTest, RejectsSharedObjectWhileLive) {
  auto plan = GoodObjects();
  plan.object_ids = {0, 0, 1};
  plan.object_sizes = {20, 10};
  ExpectRejected(VerifySharedObjects(kRecords, plan, &kNames), "record 0 (a)");
  ExpectRejected(VerifySharedObjects(kRecords, plan, &kNames), "record 1 (b)");
}

TEST(VerifySharedObjectsTest, RejectsInclusiveEndSharing) {
  // b ends at task 3 where c starts: same task, so they may not share.
  auto plan = GoodObjects();
  plan.object_ids = {0, 1, 1};
  ExpectRejected(VerifySharedObjects(kRecords, plan, &kNames), "record 2 (c)");
}

TEST(VerifySharedObjectsTest, RejectsTooSmallObject) {
  auto plan = GoodObjects();
  plan.object_sizes = {10, 19};
  ExpectRejected(VerifySharedObjects(kRecords, plan, &kNames), "record 1 (b) of size 20");
}

TEST(VerifySharedObjectsTest, RejectsIdOutOfRange) {
  auto plan = GoodObjects();
  plan.object_ids[2] = 2;
  ExpectRejected(VerifySharedObjects(kRecords, plan), "record 2 is in object 2");
}

TEST(VerifySharedObjectsTest, RejectsWrongCountAndUnusedObject) {
  auto plan = GoodObjects();
  plan.object_ids.pop_back();
  ExpectRejected(VerifySharedObjects(kRecords, plan), "2 object ids for 3 records");
  plan = GoodObjects();
  plan.object_sizes.push_back(5);
  ExpectRejected(VerifySharedObjects(kRecords, plan), "object 2 of size 5 holds no tensor");
}

TEST(VerifySharedObjectsTest, RejectsMalformedRecord) {
  std::vector<ByteRecord> bad = {{1, 5, 4}};
  ExpectRejected(VerifySharedObjects(bad, ObjectsAssignment<uint64_t>{{0}, {1}}), "record 0");
}

TEST(VerifySharedObjectsTest, ExtentsCheckEveryDimension) {
  std::vector<Extent2DRecord> r = {{{4, 2}, 0, 0}, {{2, 4}, 1, 1}};
  ObjectsAssignment<Extent2D> plan{{0, 0}, {{4, 4}}};
  EXPECT_TRUE(VerifySharedObjects(r, plan).ok());
  plan.object_sizes = {{8, 2}};  // 16 texels, enough area, too short
  ExpectRejected(VerifySharedObjects(r, plan), "record 1 of size 2x4");
  std::vector<Extent3DRecord> r3 = {{{1, 1, 4}, 0, 0}, {{1, 1, 4}, 0, 0}};
  ObjectsAssignment<Extent3D> plan3{{0, 1}, {{1, 1, 4}, {4, 1, 1}}};
  ExpectRejected(VerifySharedObjects(r3, plan3), "1x1x4 does not fit its object 1 of size 4x1x1");
  plan3.object_ids = {0, 0};
  plan3.object_sizes = {{1, 1, 4}};
  ExpectRejected(VerifySharedObjects(r3, plan3), "share object 0");
}

TEST(VerifyOffsetsTest, AcceptsValidPlan) {
  // a [0,10), b [10,30), c [0,10) (c overlaps b in time only).
  OffsetsAssignment plan{{0, 10, 0}, 30};
  EXPECT_TRUE(VerifyOffsets(kRecords, plan, 1, &kNames).ok());
  EXPECT_TRUE(VerifyOffsets(kRecords, plan, 10).ok());
  EXPECT_TRUE(VerifyOffsets({}, OffsetsAssignment{}).ok());
}

TEST(VerifyOffsetsTest, RejectsByteOverlapWhileLive) {
  OffsetsAssignment plan{{0, 9, 0}, 29};
  ExpectRejected(VerifyOffsets(kRecords, plan, 1, &kNames), "record 1 (b)");
  // b and c live together at task 3 only.
  plan = {{0, 10, 29}, 39};
  ExpectRejected(VerifyOffsets(kRecords, plan, 1, &kNames), "record 2 (c)");
}

TEST(VerifyOffsetsTest, RejectsNestedAndEqualOffsets) {
  std::vector<ByteRecord> r = {{100, 0, 5}, {1, 2, 3}, {1, 4, 4}};
  ExpectRejected(VerifyOffsets(r, OffsetsAssignment{{0, 50, 100}, 101}), "record 1");
  ExpectRejected(VerifyOffsets(r, OffsetsAssignment{{0, 100, 0}, 101}), "record 2");
}

TEST(VerifyOffsetsTest, RejectsMisalignedOutOfArenaAndWrongTotal) {
  ExpectRejected(VerifyOffsets(kRecords, OffsetsAssignment{{0, 10, 0}, 30}, 4), "record 1");
  ExpectRejected(VerifyOffsets(kRecords, OffsetsAssignment{{0, 10, 0}, 29}), "runs past");
  ExpectRejected(VerifyOffsets(kRecords, OffsetsAssignment{{0, 10, 0}, 31}), "differs");
  ExpectRejected(VerifyOffsets(kRecords, OffsetsAssignment{{0, 10}, 30}), "2 offsets for 3");
  ExpectRejected(VerifyOffsets(kRecords, OffsetsAssignment{{0, 10, ~0ull}, 30}), "record 2");
  ExpectRejected(VerifyOffsets(kRecords, OffsetsAssignment{{0, 10, 0}, 30}, 0), "alignment");
}

TEST(VerifyOffsetsTest, ZeroSizeRecordsTakeNoBytes) {
  std::vector<ByteRecord> r = {{8, 0, 3}, {0, 1, 2}};
  EXPECT_TRUE(VerifyOffsets(r, OffsetsAssignment{{0, 4}, 8}).ok());
}

}  // namespace
}  // namespace glpool
