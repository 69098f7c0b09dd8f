#include "planner/lower_bounds.h"

#include <gtest/gtest.h>

#include "planner/records_json.h"

namespace glpool {
namespace {

TEST(LowerBoundsTest, EmptyIsZero) {
  EXPECT_EQ(OffsetsLowerBound({}), 0u);
  EXPECT_EQ(SharedObjectsLowerBound({}), 0u);
}

TEST(LowerBoundsTest, Chain) {
  // Live sets: t0 {10}, t1 {10, 20}, t2 {20, 30}, t3 {30}.
  std::vector<ByteRecord> r = {{10, 0, 1}, {20, 1, 2}, {30, 2, 3}};
  EXPECT_EQ(OffsetsLowerBound(r), 50u);
  EXPECT_EQ(SharedObjectsLowerBound(r), 50u);  // L1 = 30, L2 = 20
}

TEST(LowerBoundsTest, SharedObjectsExceedsOffsets) {
  // t0 {100, 1}, t1 {50, 50}: offsets need 101, but two objects need
  // max(100, 50) + max(1, 50) = 150.
  std::vector<ByteRecord> r = {{100, 0, 0}, {1, 0, 0}, {50, 1, 1}, {50, 1, 1}};
  EXPECT_EQ(OffsetsLowerBound(r), 101u);
  EXPECT_EQ(SharedObjectsLowerBound(r), 150u);
}

TEST(LowerBoundsTest, InclusiveEndsOverlap) {
  // Both live at task 3.
  std::vector<ByteRecord> r = {{7, 0, 3}, {5, 3, 9}};
  EXPECT_EQ(OffsetsLowerBound(r), 12u);
  EXPECT_EQ(SharedObjectsLowerBound(r), 12u);
}

TEST(LowerBoundsTest, IgnoresSparseTaskIds) {
  std::vector<ByteRecord> r = {{1ull << 40, 1000000000000ll, 1000000000002ll},
                               {1ull << 41, 1000000000002ll, 1000000000009ll}};
  EXPECT_EQ(OffsetsLowerBound(r), (1ull << 40) + (1ull << 41));
  EXPECT_EQ(SharedObjectsLowerBound(r), (1ull << 40) + (1ull << 41));
}

TEST(LowerBoundsTest, ExtentsCountTexels) {
  std::vector<Extent2DRecord> r2 = {{{4, 4}, 0, 1}, {{2, 8}, 1, 2}, {{1, 1}, 2, 3}};
  // Texels 16, 16, 1: L1 = 16, L2 = 16.
  EXPECT_EQ(SharedObjectsLowerBoundTexels(r2), 32u);
  std::vector<Extent3DRecord> r3 = {{{2, 2, 2}, 0, 0}, {{1, 1, 3}, 0, 0}};
  EXPECT_EQ(SharedObjectsLowerBoundTexels(r3), 11u);
  EXPECT_EQ(TexelRecords(r3)[1].size, 3u);
}

// The reference figures in ../shared/zoo/README.md (MB = 1e6, two decimals).
TEST(LowerBoundsTest, MatchesZooReadme) {
  struct Row {
    const char* model;
    size_t tensors;
    double naive, so, off;
  };
  const Row rows[] = {
      {"mobilenet_v2", 99, 52.01, 9.93, 9.63},
      {"resnet50", 121, 105.79, 9.63, 9.63},
      {"inception_v3", 223, 102.29, 12.47, 11.06},
      {"densenet121", 374, 178.99, 10.14, 8.43},
      {"u2net", 364, 866.18, 132.64, 117.35},
      {"deeplabv3_mobilenet_v3_large", 173, 319.40, 42.28, 34.61},
  };
  for (const Row& row : rows) {
    auto set = ReadRecordsJson(std::string(GLPOOL_ZOO_RECORDS_DIR) + "/" + row.model + ".json");
    ASSERT_TRUE(set.ok()) << set.status().ToString();
    EXPECT_EQ(set->records.size(), row.tensors) << row.model;
    EXPECT_NEAR(NaiveBytes(set->records) / 1e6, row.naive, 0.005) << row.model;
    EXPECT_NEAR(SharedObjectsLowerBound(set->records) / 1e6, row.so, 0.005) << row.model;
    EXPECT_NEAR(OffsetsLowerBound(set->records) / 1e6, row.off, 0.005) << row.model;
  }
}

}  // namespace
}  // namespace glpool
