#include <gtest/gtest.h>

#include <utility>

#include "tests/kernels/conv_cases.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

TEST(ConvTransposeTest, StridedOddChannels) {
  for (const auto& [in, out] : {std::pair<int64_t, int64_t>{1, 3}, {5, 13}, {13, 5}}) {
    SCOPED_TRACE("C_in " + std::to_string(in) + " C_out " + std::to_string(out));
    TransposeSpec spec;
    spec.x = {1, in, 7, 13};
    spec.out_per_group = out;
    ExpectMatchesReference(ConvTranspose(spec));
  }
}

// Undilated, the kernel computes blocks of one phase (ox + pad) % stride:
// kernel == stride (each output takes one tap, a DB head's upsampling),
// kernel 2x the stride with pads, and a stride of 3 whose phases hold
// different numbers of outputs; widths that leave partial blocks.
TEST(ConvTransposeTest, PhaseBlocksOfUpsamplings) {
  struct Shape2 {
    std::vector<int64_t> kernel, strides, pads;
  };
  for (const Shape2& g : {Shape2{{2, 2}, {2, 2}, {0, 0, 0, 0}}, Shape2{{4, 4}, {2, 2}, {1, 1, 1, 1}},
                          Shape2{{5, 3}, {3, 3}, {2, 0, 1, 2}}}) {
    for (int64_t width : {1, 9, 37}) {
      SCOPED_TRACE("kernel " + std::to_string(g.kernel[0]) + "x" + std::to_string(g.kernel[1]) + " stride " +
                   std::to_string(g.strides[0]) + " width " + std::to_string(width));
      TransposeSpec spec;
      spec.x = {2, 6, 3, width};
      spec.out_per_group = 9;
      spec.kernel = g.kernel;
      spec.strides = g.strides;
      spec.pads = g.pads;
      ExpectMatchesReference(ConvTranspose(spec));
    }
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
