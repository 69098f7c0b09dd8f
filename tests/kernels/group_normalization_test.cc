#include <gtest/gtest.h>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

// GroupNormalization at `opset`: scale and bias per group (18) or per
// channel (21).
KernelCase Group(const Shape& shape, int64_t groups, int64_t opset) {
  KernelCase c;
  c.node.name = "group_norm";
  c.node.op_type = "GroupNormalization";
  c.node.attributes["num_groups"] = groups;
  c.node.inputs = {"x", "scale", "bias"};
  c.node.outputs = {"y"};
  c.opset = opset;
  const int64_t params = opset >= 21 ? shape[1] : groups;
  c.inputs["x"] = RandomTensor(shape, 81, -2.0f, 3.0f);
  c.constants["scale"] = RandomTensor({params}, 82, 0.5f, 2.0f);
  c.constants["bias"] = RandomTensor({params}, 83);
  c.outputs["y"] = shape;
  return c;
}

TEST(GroupNormalizationTest, GroupsOfEverySizeAgainstSlices) {
  // Channels per group 1, 2, 3, 4, 5, 8: groups that split slices, span
  // them and fill them; 13 x 7 planes; a padded last slice.
  ExpectMatchesReference(Group({2, 6, 13, 7}, 6, 18), SweepVariants());
  ExpectMatchesReference(Group({1, 6, 13, 7}, 3, 18), SweepVariants());
  ExpectMatchesReference(Group({2, 9, 5, 3}, 3, 21), SweepVariants());
  ExpectMatchesReference(Group({1, 8, 5, 3}, 2, 21), SweepVariants());
  ExpectMatchesReference(Group({1, 15, 4, 4}, 3, 21), SweepVariants());
  ExpectMatchesReference(Group({1, 16, 127, 1}, 2, 18), SweepVariants());
}

TEST(GroupNormalizationTest, RanksThreeAndFive) {
  ExpectMatchesReference(Group({2, 10, 13}, 5, 21), SweepVariants());
  ExpectMatchesReference(Group({1, 4, 3, 5, 6}, 2, 18), SweepVariants());
}

TEST(GroupNormalizationTest, ScaleOfTheOtherOpsetIsRefused) {
  KernelCase c = Group({1, 6, 4, 4}, 3, 21);
  c.constants["scale"] = RandomTensor({3}, 84);
  EXPECT_EQ(CreateOnGpu(c).code(), StatusCode::kInvalidModel);
}

}  // namespace
}  // namespace glpool::testing
