#include <gtest/gtest.h>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

KernelCase Pad(const std::string& mode, const Shape& in, const std::vector<int64_t>& pads, float value = 0.0f) {
  Shape out = in;
  const size_t rank = in.size();
  for (size_t d = 0; d < rank; ++d) out[d] += pads[d] + pads[d + rank];
  KernelCase c;
  c.node.name = "pad_node";
  c.node.op_type = "Pad";
  c.node.attributes["mode"] = mode;
  c.node.inputs = {"x", "pads", "value"};
  c.node.outputs = {"y"};
  c.inputs["x"] = RandomTensor(in, 41);
  c.constants["pads"] = TensorData::FromInt64s({int64_t(pads.size())}, pads);
  c.constants["value"] = TensorData::FromFloats({}, {value});
  c.outputs["y"] = out;
  return c;
}

TEST(PadTest, SpatialPads) {
  for (const char* mode : {"constant", "reflect", "edge"}) {
    SCOPED_TRACE(mode);
    for (int64_t channels : {1, 3, 5, 13}) {
      ExpectMatchesReference(Pad(mode, {1, channels, 7, 13}, {0, 0, 1, 2, 0, 0, 3, 1}, 0.5f),
                             channels == 5 ? AllVariants() : SweepVariants());
    }
    ExpectMatchesReference(Pad(mode, {2, 3, 127, 1}, {1, 0, 2, 0, 0, 0, 2, 0}, -1.0f), SweepVariants());
  }
}

TEST(PadTest, ChannelPadsAndCrops) {
  for (const char* mode : {"constant", "reflect", "edge"}) {
    SCOPED_TRACE(mode);
    ExpectMatchesReference(Pad(mode, {1, 5, 7, 13}, {0, 2, -1, 0, 0, 3, 0, -2}, 0.25f), SweepVariants());
  }
  ExpectMatchesReference(Pad("constant", {3, 5}, {1, 2, 0, 1}), SweepVariants());
}

TEST(PadTest, AttributeForm) {
  KernelCase c = Pad("reflect", {1, 3, 7, 13}, {0, 0, 2, 2, 0, 0, 2, 2});
  c.node.inputs = {"x"};
  c.constants.clear();
  c.node.attributes["pads"] = std::vector<int64_t>{0, 0, 2, 2, 0, 0, 2, 2};
  c.opset = 10;
  ExpectMatchesReference(c, SweepVariants());
}

// Opset 19's wrap mode; opset 18's axes name the padded dims.
TEST(PadTest, WrapAndAxesOfOpsets18And19) {
  for (int64_t channels : {1, 5, 13}) {
    KernelCase c = Pad("wrap", {1, channels, 7, 13}, {0, 0, 3, 13, 0, 0, 7, 2});
    c.opset = 19;
    ExpectMatchesReference(c, channels == 5 ? AllVariants() : SweepVariants());
  }
  KernelCase crop = Pad("wrap", {2, 3, 5, 6}, {0, 1, -1, 4, 0, 2, 2, -3});
  crop.opset = 19;
  ExpectMatchesReference(crop, SweepVariants());
  KernelCase axes = Pad("edge", {1, 3, 7, 13}, {0, 0, 2, 1, 0, 0, 0, 3});
  axes.opset = 18;
  axes.constants["pads"] = TensorData::FromInt64s({4}, {1, 2, 3, 0});  // W begin/end, H begin/end
  axes.node.inputs.push_back("axes");
  axes.constants["axes"] = TensorData::FromInt64s({2}, {-1, 2});
  ExpectMatchesReference(axes, SweepVariants());
}

}  // namespace
}  // namespace glpool::testing
