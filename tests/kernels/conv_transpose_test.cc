#include <gtest/gtest.h>

#include <utility>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

struct TransposeSpec {
  Shape x;  // N x C x H x W (or N x C x W)
  int64_t out_per_group = 4;
  std::vector<int64_t> kernel{3, 3};
  std::vector<int64_t> strides{2, 2};
  std::vector<int64_t> dilations{1, 1};
  std::vector<int64_t> pads{1, 1, 1, 1};
  std::vector<int64_t> output_padding{0, 0};
  int64_t group = 1;
  bool bias = true;
};

KernelCase ConvTranspose(const TransposeSpec& spec, uint32_t seed = 3) {
  const size_t r = spec.kernel.size();
  KernelCase c;
  c.node.name = "deconv";
  c.node.op_type = "ConvTranspose";
  c.node.inputs = {"x", "w"};
  c.node.outputs = {"y"};
  c.node.attributes["kernel_shape"] = spec.kernel;
  c.node.attributes["strides"] = spec.strides;
  c.node.attributes["dilations"] = spec.dilations;
  c.node.attributes["pads"] = spec.pads;
  c.node.attributes["output_padding"] = spec.output_padding;
  c.node.attributes["group"] = spec.group;
  c.inputs["x"] = RandomTensor(spec.x, seed);
  Shape w = {spec.x[1], spec.out_per_group};
  w.insert(w.end(), spec.kernel.begin(), spec.kernel.end());
  c.constants["w"] = RandomTensor(w, seed + 1);
  const int64_t out_channels = spec.out_per_group * spec.group;
  if (spec.bias) {
    c.node.inputs.push_back("b");
    c.constants["b"] = RandomTensor({out_channels}, seed + 2);
  }
  Shape y = {spec.x[0], out_channels};
  for (size_t i = 0; i < r; ++i) {
    y.push_back(spec.strides[i] * (spec.x[2 + i] - 1) + spec.output_padding[i] +
                (spec.kernel[i] - 1) * spec.dilations[i] + 1 - spec.pads[i] - spec.pads[i + r]);
  }
  c.outputs["y"] = y;
  return c;
}

TEST(ConvTransposeTest, StridedOddChannels) {
  for (const auto& [in, out] : {std::pair<int64_t, int64_t>{1, 3}, {5, 13}, {13, 5}}) {
    SCOPED_TRACE("C_in " + std::to_string(in) + " C_out " + std::to_string(out));
    TransposeSpec spec;
    spec.x = {1, in, 7, 13};
    spec.out_per_group = out;
    ExpectMatchesReference(ConvTranspose(spec));
  }
}

TEST(ConvTransposeTest, PaddingOutputPaddingDilation) {
  TransposeSpec spec;
  spec.x = {2, 3, 5, 6};
  spec.out_per_group = 5;
  spec.kernel = {3, 4};
  spec.strides = {3, 2};
  spec.dilations = {2, 1};
  spec.pads = {0, 1, 2, 0};
  spec.output_padding = {1, 1};
  spec.bias = false;
  ExpectMatchesReference(ConvTranspose(spec));
}

TEST(ConvTransposeTest, GroupedAndFused) {
  TransposeSpec spec;
  spec.x = {1, 6, 5, 7};
  spec.out_per_group = 3;  // groups straddle slices
  spec.group = 2;
  KernelCase c = ConvTranspose(spec);
  c.node.attributes["fused_activation"] = std::string("Relu");
  ExpectMatchesReference(c);
}

TEST(ConvTransposeTest, OneDimensionalAndOutputShape) {
  TransposeSpec line;
  line.x = {1, 5, 127};
  line.out_per_group = 3;
  line.kernel = {3};
  line.strides = {2};
  line.dilations = {1};
  line.pads = {1, 1};
  line.output_padding = {1};
  ExpectMatchesReference(ConvTranspose(line));

  TransposeSpec spec;  // output_shape (and SAME_UPPER) set the pads
  spec.x = {1, 3, 4, 5};
  spec.out_per_group = 2;
  spec.pads = {0, 0, 0, 0};
  KernelCase c = ConvTranspose(spec);
  c.node.attributes.erase("pads");
  c.node.attributes["output_shape"] = std::vector<int64_t>{8, 10};
  c.outputs["y"] = {1, 2, 8, 10};
  ExpectMatchesReference(c);
  c.node.attributes.erase("output_shape");
  c.node.attributes["auto_pad"] = std::string("SAME_UPPER");
  ExpectMatchesReference(c);
}

}  // namespace
}  // namespace glpool::testing
