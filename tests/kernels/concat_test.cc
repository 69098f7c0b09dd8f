#include <gtest/gtest.h>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

KernelCase Concat(int64_t axis, const std::vector<Shape>& inputs, const Shape& out, size_t constant_input = 99) {
  KernelCase c;
  c.node.name = "concat_node";
  c.node.op_type = "Concat";
  c.node.attributes["axis"] = axis;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string name = "x" + std::to_string(i);
    c.node.inputs.push_back(name);
    (i == constant_input ? c.constants : c.inputs)[name] = RandomTensor(inputs[i], static_cast<uint32_t>(11 + i));
  }
  c.node.outputs = {"y"};
  c.outputs["y"] = out;
  return c;
}

TEST(ConcatTest, ChannelsAtUnalignedOffsets) {
  ExpectMatchesReference(Concat(1, {{1, 3, 7, 13}, {1, 5, 7, 13}, {1, 1, 7, 13}}, {1, 9, 7, 13}));
  ExpectMatchesReference(Concat(1, {{2, 13, 127, 1}, {2, 3, 127, 1}}, {2, 16, 127, 1}), SweepVariants());
}

TEST(ConcatTest, ChannelsAtAlignedOffsets) {
  ExpectMatchesReference(Concat(1, {{1, 4, 7, 13}, {1, 8, 7, 13}, {1, 5, 7, 13}}, {1, 17, 7, 13}));
}

TEST(ConcatTest, SixSingleChannelInputs) {
  // u2netp's final fuse concatenates six one-channel side outputs.
  std::vector<Shape> inputs(6, Shape{1, 1, 7, 13});
  ExpectMatchesReference(Concat(1, inputs, {1, 6, 7, 13}));
  ExpectMatchesReference(
      Concat(-3,
             {{1, 5, 7, 13}, {1, 3, 7, 13}, {1, 4, 7, 13}, {1, 1, 7, 13}, {1, 2, 7, 13}, {1, 13, 7, 13}, {1, 3, 7, 13}},
             {1, 31, 7, 13}),
      SweepVariants());
}

TEST(ConcatTest, SpatialAndBatchAxes) {
  ExpectMatchesReference(Concat(2, {{1, 3, 7, 13}, {1, 3, 2, 13}}, {1, 3, 9, 13}));
  ExpectMatchesReference(Concat(-1, {{1, 5, 7, 13}, {1, 5, 7, 1}, {1, 5, 7, 2}}, {1, 5, 7, 16}), SweepVariants());
  ExpectMatchesReference(Concat(0, {{1, 5, 7, 13}, {2, 5, 7, 13}}, {3, 5, 7, 13}), SweepVariants());
}

TEST(ConcatTest, OtherRanks) {
  ExpectMatchesReference(Concat(0, {{3}, {5}}, {8}), SweepVariants());
  ExpectMatchesReference(Concat(1, {{2, 3}, {2, 5}}, {2, 8}), SweepVariants());
  ExpectMatchesReference(Concat(0, {{2, 3}, {1, 3}}, {3, 3}), SweepVariants());
  ExpectMatchesReference(Concat(2, {{2, 3, 5}, {2, 3, 7}}, {2, 3, 12}), SweepVariants());
  // Rank 5: the middle dims fold into H, so the concat axis sits inside it.
  ExpectMatchesReference(Concat(2, {{1, 3, 2, 3, 5}, {1, 3, 4, 3, 5}}, {1, 3, 6, 3, 5}));
  ExpectMatchesReference(Concat(3, {{1, 2, 2, 3, 5}, {1, 2, 2, 1, 5}}, {1, 2, 2, 4, 5}), SweepVariants());
}

TEST(ConcatTest, ConstantInput) {
  ExpectMatchesReference(Concat(1, {{1, 3, 7, 13}, {1, 2, 7, 13}}, {1, 5, 7, 13}, 1), SweepVariants());
}

}  // namespace
}  // namespace glpool::testing

namespace glpool::testing {
namespace {

// DenseNet-style: 20 inputs (one empty) along channels, more than the kernel
// binds at once; the default passes split it into a tree of Concats.
TEST(ConcatTest, TwentyInputsRunAsATreeOfConcats) {
  std::vector<Shape> inputs;
  int64_t channels = 0;
  for (int64_t i = 0; i < 20; ++i) {
    const int64_t c = i == 7 ? 0 : 1 + i % 5;
    inputs.push_back({1, c, 5, 6});
    channels += c;
  }
  KernelCase c = Concat(1, inputs, {1, channels, 5, 6});
  c.default_passes = true;
  ExpectMatchesReference(c, SweepVariants());
}

KernelCase Variadic(const std::string& op, size_t count) {
  KernelCase c;
  c.node.name = op + "_node";
  c.node.op_type = op;
  for (size_t i = 0; i < count; ++i) {
    const std::string name = "x" + std::to_string(i);
    c.node.inputs.push_back(name);
    // Every third input broadcasts along channels.
    c.inputs[name] = RandomTensor(i % 3 == 2 ? Shape{1, 1, 4, 5} : Shape{1, 6, 4, 5}, static_cast<uint32_t>(31 + i));
  }
  c.node.outputs = {"y"};
  c.outputs["y"] = {1, 6, 4, 5};
  c.default_passes = true;
  return c;
}

TEST(ConcatTest, WideSumMeanMaxMinRunAsTrees) {
  for (const char* op : {"Sum", "Mean", "Max", "Min"}) {
    SCOPED_TRACE(op);
    ExpectMatchesReference(Variadic(op, 17), SweepVariants());
  }
}

}  // namespace
}  // namespace glpool::testing
