#include <gtest/gtest.h>

#include <random>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

// Multiples of 1/8 in [-4, 4]: exact in fp16, so a gather copies them
// exactly in every precision and tolerances are 0.
TensorData Eighths(const Shape& shape, uint32_t seed) { return ExactFractions(shape, seed, 8, 4); }

// int64 indices in [-dim, dim): negative ones count from the end.
TensorData Indices(const Shape& shape, int64_t dim, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> dist(-dim, dim - 1);
  std::vector<double> values(static_cast<size_t>(ElementCount(shape)));
  for (double& v : values) v = static_cast<double>(dist(rng));
  return TypedTensor(DataType::kInt64, shape, values);
}

// Data x gathered at indices i, which are a graph input or (constant) an
// initializer.
KernelCase Gather(const std::string& op, const TensorData& data, int64_t axis, const TensorData& indices,
                  bool constant, const Shape& out) {
  KernelCase c;
  c.node.name = op + "_node";
  c.node.op_type = op;
  c.node.inputs = {"x", "i"};
  c.node.outputs = {"y"};
  c.node.attributes["axis"] = axis;
  c.inputs["x"] = data;
  (constant ? c.constants : c.inputs)["i"] = indices;
  c.outputs["y"] = out;
  c.output_dtypes["y"] = data.dtype;
  return c;
}

TEST(GatherTest, AlongEveryAxisWithNegativeIndices) {
  const TensorData data = Eighths({2, 5, 7, 13}, 3);
  ExpectMatchesReference(Gather("Gather", data, 0, Indices({3}, 2, 4), true, {3, 5, 7, 13}), SweepVariants(), 0, 0);
  ExpectMatchesReference(Gather("Gather", data, 1, Indices({2, 3}, 5, 5), false, {2, 2, 3, 7, 13}), AllVariants(),
                         0, 0);
  ExpectMatchesReference(Gather("Gather", data, -2, Indices({4}, 7, 6), false, {2, 5, 4, 13}), SweepVariants(), 0,
                         0);
  // A scalar index drops the axis.
  ExpectMatchesReference(Gather("Gather", data, -1, Indices({}, 13, 7), true, {2, 5, 7}), SweepVariants(), 0, 0);
}

// Constant channels of an image batch: a table lookup (channel_copy), the
// channels repeated, reordered, counted from the end, and across slices.
TEST(GatherTest, ConstantChannelsOfImagesReadATable) {
  const TensorData data = Eighths({2, 13, 5, 7}, 18);
  const TensorData channels = TypedTensor(DataType::kInt64, {9}, {12, 0, 5, -1, 3, 3, 8, -13, 6});
  const KernelCase c = Gather("Gather", data, 1, channels, true, {2, 9, 5, 7});
  ExpectMatchesReference(c, AllVariants(), 0, 0);
  StatusOr<std::vector<TaskInfo>> tasks = TasksOnGpu(c, ExecutorOptions{});
  ASSERT_TRUE(tasks.ok()) << tasks.status().ToString();
  ASSERT_EQ(tasks->size(), 1u);
  EXPECT_EQ((*tasks)[0].shader, "channel_copy");
  // Runtime indices, or another axis, keep the general kernel.
  const KernelCase runtime = Gather("Gather", data, 1, channels, false, {2, 9, 5, 7});
  ExpectMatchesReference(runtime, SweepVariants(), 0, 0);
  tasks = TasksOnGpu(runtime, ExecutorOptions{});
  ASSERT_TRUE(tasks.ok()) << tasks.status().ToString();
  EXPECT_EQ((*tasks)[0].shader, "gather");
}

TEST(GatherTest, EmbeddingLookupAndIntegerData) {
  // An embedding table (constant data) read at runtime token ids.
  KernelCase embedding = Gather("Gather", Eighths({11, 13}, 8), 0, Indices({3, 5}, 11, 9), false, {3, 5, 13});
  embedding.constants["x"] = embedding.inputs["x"];
  embedding.inputs.erase("x");
  ExpectMatchesReference(embedding, SweepVariants(), 0, 0);
  const TensorData ints = TypedTensor(DataType::kInt64, {6, 3}, {1, -2, 3, 40, 50, 60, -7, 8, 9, 10, 11, 12, 0, 1,
                                                                 2, 3, 4, 5});
  ExpectMatchesReference(Gather("Gather", ints, 0, Indices({4}, 6, 10), true, {4, 3}), SweepVariants(), 0, 0);
}

TEST(GatherTest, GatherElements) {
  const TensorData data = Eighths({3, 7, 13}, 11);
  ExpectMatchesReference(Gather("GatherElements", data, 1, Indices({3, 5, 13}, 7, 12), false, {3, 5, 13}),
                         AllVariants(), 0, 0);
  // Indices smaller than data in the other dims, constant, last axis.
  ExpectMatchesReference(Gather("GatherElements", data, -1, Indices({2, 4, 3}, 13, 13), true, {2, 4, 3}),
                         SweepVariants(), 0, 0);
  ExpectMatchesReference(Gather("GatherElements", Eighths({1, 5, 7, 13}, 14), 0, Indices({1, 5, 7, 13}, 1, 15),
                                false, {1, 5, 7, 13}),
                         SweepVariants(), 0, 0);
  ExpectMatchesReference(Gather("GatherElements", Eighths({13}, 16), 0, Indices({5}, 13, 17), false, {5}),
                         SweepVariants(), 0, 0);
}

TEST(GatherTest, ConstantIndexOutOfRangeIsAnInvalidModel) {
  const TensorData data = Eighths({2, 5}, 1);
  const KernelCase gather = Gather("Gather", data, 1, TypedTensor(DataType::kInt64, {2}, {1, 5}), true, {2, 2});
  const KernelCase elements =
      Gather("GatherElements", data, 1, TypedTensor(DataType::kInt64, {1, 2}, {1, 5}), true, {1, 2});
  for (const KernelCase& c : {gather, elements}) {
    const Status status = CreateOnGpu(c);
    EXPECT_EQ(status.code(), StatusCode::kInvalidModel) << status.ToString();
    const std::string where = "node " + c.node.name + " (" + c.node.op_type + "): ";
    EXPECT_EQ(status.message(), where + "indices 'i' hold 5, outside an axis of 5") << status.ToString();
  }
}

}  // namespace
}  // namespace glpool::testing
