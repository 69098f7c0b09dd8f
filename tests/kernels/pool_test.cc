#include <gtest/gtest.h>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

KernelCase Pool(const std::string& op, const Shape& in, const Shape& out) {
  KernelCase c;
  c.node.name = op + "_node";
  c.node.op_type = op;
  c.node.inputs = {"x"};
  c.node.outputs = {"y"};
  c.inputs["x"] = RandomTensor(in, 7, -2.0f, 2.0f);
  c.outputs["y"] = out;
  return c;
}

KernelCase Window(const std::string& op, const Shape& in, const Shape& out, std::vector<int64_t> kernel,
                  std::vector<int64_t> strides, std::vector<int64_t> pads = {}, bool ceil_mode = false) {
  KernelCase c = Pool(op, in, out);
  c.node.attributes["kernel_shape"] = kernel;
  c.node.attributes["strides"] = strides;
  if (!pads.empty()) c.node.attributes["pads"] = pads;
  if (ceil_mode) c.node.attributes["ceil_mode"] = int64_t{1};
  return c;
}

TEST(PoolTest, MaxPoolCeilModeOddChannels) {
  // u2netp's 2x2 / stride 2 ceil-mode pool on odd sizes.
  for (int64_t channels : {1, 3, 5, 13}) {
    SCOPED_TRACE("C=" + std::to_string(channels));
    ExpectMatchesReference(Window("MaxPool", {1, channels, 7, 13}, {1, channels, 4, 7}, {2, 2}, {2, 2}, {}, true),
                           channels == 5 ? AllVariants() : SweepVariants());
  }
  // squeezenet's 3x3 / stride 2 ceil-mode pool.
  ExpectMatchesReference(Window("MaxPool", {2, 5, 13, 13}, {2, 5, 6, 6}, {3, 3}, {2, 2}, {0, 0, 0, 0}, true),
                         SweepVariants());
}

TEST(PoolTest, MaxPoolPaddedDilated) {
  KernelCase c = Window("MaxPool", {1, 5, 7, 13}, {1, 5, 5, 11}, {3, 3}, {1, 1}, {1, 1, 1, 1});
  c.node.attributes["dilations"] = std::vector<int64_t>{2, 2};
  ExpectMatchesReference(c);
}

TEST(PoolTest, MaxPoolSameUpperAndOneD) {
  KernelCase same = Window("MaxPool", {1, 3, 127, 1}, {1, 3, 64, 1}, {3, 3}, {2, 2});
  same.node.attributes["auto_pad"] = std::string("SAME_UPPER");
  ExpectMatchesReference(same, SweepVariants());
  ExpectMatchesReference(Window("MaxPool", {1, 5, 13}, {1, 5, 6}, {3}, {2}), SweepVariants());
}

TEST(PoolTest, AveragePoolCountIncludePad) {
  // Asymmetric pads and ceil mode: the last row's window runs past the end
  // padding, which count_include_pad must not count.
  for (int64_t include : {0, 1}) {
    SCOPED_TRACE("count_include_pad=" + std::to_string(include));
    KernelCase c = Window("AveragePool", {2, 3, 7, 13}, {2, 3, 4, 7}, {3, 3}, {2, 2}, {0, 1, 1, 0}, true);
    c.node.attributes["count_include_pad"] = include;
    ExpectMatchesReference(c, include ? AllVariants() : SweepVariants());
  }
  KernelCase lower = Window("AveragePool", {1, 13, 7, 13}, {1, 13, 7, 13}, {2, 3}, {1, 1});
  lower.node.attributes["auto_pad"] = std::string("SAME_LOWER");
  ExpectMatchesReference(lower, SweepVariants());
}

TEST(PoolTest, ThreeDimensional) {
  ExpectMatchesReference(Window("MaxPool", {1, 5, 5, 7, 6}, {1, 5, 2, 3, 3}, {2, 3, 2}, {2, 2, 2}), SweepVariants());
  KernelCase c = Window("AveragePool", {2, 3, 4, 5, 5}, {2, 3, 4, 3, 2}, {2, 3, 3}, {1, 2, 2}, {0, 1, 1, 1, 1, 0});
  c.node.attributes["count_include_pad"] = int64_t{1};
  ExpectMatchesReference(c, SweepVariants());
}

TEST(PoolTest, GlobalPools) {
  for (int64_t channels : {1, 3, 5, 13}) {
    SCOPED_TRACE("C=" + std::to_string(channels));
    ExpectMatchesReference(Pool("GlobalAveragePool", {1, channels, 7, 13}, {1, channels, 1, 1}),
                           channels == 13 ? AllVariants() : SweepVariants());
  }
  ExpectMatchesReference(Pool("GlobalAveragePool", {2, 13, 127, 1}, {2, 13, 1, 1}), SweepVariants());
  ExpectMatchesReference(Pool("GlobalMaxPool", {1, 5, 7, 13}, {1, 5, 1, 1}));
  ExpectMatchesReference(Pool("GlobalMaxPool", {2, 5, 13}, {2, 5, 1}), SweepVariants());
  ExpectMatchesReference(Pool("GlobalAveragePool", {1, 3, 1, 1}, {1, 3, 1, 1}), SweepVariants());
}

TEST(PoolTest, FusedActivation) {
  KernelCase c = Window("MaxPool", {1, 5, 7, 13}, {1, 5, 3, 6}, {2, 2}, {2, 2});
  c.node.attributes["fused_activation"] = std::string("Relu");
  ExpectMatchesReference(c, SweepVariants());
}

}  // namespace
}  // namespace glpool::testing
