#include <gtest/gtest.h>

#include "gpu_backend/kernels/kernel.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

struct ResizeSpec {
  std::string mode = "linear";
  std::string transform = "half_pixel";
  std::string nearest_mode = "round_prefer_floor";
  std::vector<float> scales;  // or
  std::vector<int64_t> sizes;
  std::vector<float> roi;
};

KernelCase Resize(const Shape& in, const Shape& out, const ResizeSpec& spec) {
  KernelCase c;
  c.node.name = "resize_node";
  c.node.op_type = "Resize";
  c.node.attributes["mode"] = spec.mode;
  c.node.attributes["coordinate_transformation_mode"] = spec.transform;
  c.node.attributes["nearest_mode"] = spec.nearest_mode;
  c.node.inputs = {"x", spec.roi.empty() ? "" : "roi", spec.scales.empty() ? "" : "scales"};
  if (!spec.roi.empty()) c.constants["roi"] = TensorData::FromFloats({int64_t(spec.roi.size())}, spec.roi);
  if (!spec.scales.empty()) c.constants["scales"] = TensorData::FromFloats({int64_t(spec.scales.size())}, spec.scales);
  if (!spec.sizes.empty()) {
    c.node.inputs.push_back("sizes");
    c.constants["sizes"] = TensorData::FromInt64s({int64_t(spec.sizes.size())}, spec.sizes);
  }
  c.node.outputs = {"y"};
  c.inputs["x"] = RandomTensor(in, 5);
  c.outputs["y"] = out;
  return c;
}

TEST(ResizeTest, LinearHalfPixelDoubling) {
  // u2netp's decoder upsampling.
  ResizeSpec spec;
  spec.scales = {1, 1, 2, 2};
  for (int64_t channels : {1, 3, 5, 13}) {
    SCOPED_TRACE("C=" + std::to_string(channels));
    ExpectMatchesReference(Resize({1, channels, 7, 13}, {1, channels, 14, 26}, spec),
                           channels == 5 ? AllVariants() : SweepVariants());
  }
}

TEST(ResizeTest, LinearSizesAndTransforms) {
  for (const char* transform : {"align_corners", "asymmetric", "pytorch_half_pixel", "half_pixel"}) {
    SCOPED_TRACE(transform);
    ResizeSpec spec;
    spec.transform = transform;
    spec.sizes = {1, 3, 13, 5};  // up in H, down in W
    ExpectMatchesReference(Resize({1, 3, 7, 13}, {1, 3, 13, 5}, spec), SweepVariants());
  }
  ResizeSpec tall;
  tall.sizes = {2, 5, 1, 3};
  ExpectMatchesReference(Resize({2, 5, 127, 1}, {2, 5, 1, 3}, tall), SweepVariants());
}

TEST(ResizeTest, NearestModes) {
  const std::vector<std::pair<const char*, const char*>> rules = {{"asymmetric", "floor"},
                                                                  {"half_pixel", "round_prefer_floor"},
                                                                  {"half_pixel", "round_prefer_ceil"},
                                                                  {"align_corners", "ceil"},
                                                                  {"tf_half_pixel_for_nn", "floor"}};
  for (const auto& [transform, rounding] : rules) {
    SCOPED_TRACE(std::string(transform) + " " + rounding);
    ResizeSpec spec;
    spec.mode = "nearest";
    spec.transform = transform;
    spec.nearest_mode = rounding;
    spec.scales = {1, 1, 2, 0.5f};  // exact .5 source coordinates exercise the rounding
    ExpectMatchesReference(Resize({1, 5, 7, 13}, {1, 5, 14, 6}, spec), SweepVariants());
  }
}

TEST(ResizeTest, CubicAndCropAndResize) {
  ResizeSpec cubic;
  cubic.mode = "cubic";
  cubic.scales = {1, 1, 1.5f, 0.75f};
  ExpectMatchesReference(Resize({1, 5, 7, 13}, {1, 5, 10, 9}, cubic), SweepVariants());
  KernelCase excluded = Resize({1, 5, 7, 13}, {1, 5, 10, 9}, cubic);
  excluded.node.attributes["exclude_outside"] = int64_t{1};
  ExpectMatchesReference(excluded, SweepVariants());
  ResizeSpec crop;
  crop.transform = "tf_crop_and_resize";
  crop.roi = {0, 0, -0.2f, 0.1f, 1, 1, 0.8f, 1.3f};
  crop.sizes = {1, 3, 9, 11};
  KernelCase c = Resize({1, 3, 7, 13}, {1, 3, 9, 11}, crop);
  c.node.attributes["extrapolation_value"] = 0.25f;
  ExpectMatchesReference(c, SweepVariants());
}

TEST(ResizeTest, OldOpsetsAndUpsample) {
  KernelCase resize10;
  resize10.node.name = "resize10";
  resize10.node.op_type = "Resize";
  resize10.node.inputs = {"x", "scales"};
  resize10.node.outputs = {"y"};
  resize10.node.attributes["mode"] = std::string("nearest");
  resize10.constants["scales"] = TensorData::FromFloats({4}, {1, 1, 2, 0.6f});
  resize10.inputs["x"] = RandomTensor({1, 3, 7, 13}, 3);
  resize10.outputs["y"] = {1, 3, 14, 7};
  resize10.opset = 10;
  ExpectMatchesReference(resize10, SweepVariants());
  KernelCase upsample = resize10;
  upsample.node.op_type = "Upsample";
  upsample.node.attributes["mode"] = std::string("linear");
  upsample.opset = 9;
  ExpectMatchesReference(upsample, SweepVariants());
}

TEST(ResizeTest, ThreeDimensional) {
  ResizeSpec spec;
  spec.scales = {1, 1, 2};
  ExpectMatchesReference(Resize({2, 5, 13}, {2, 5, 26}, spec), SweepVariants());
}

TEST(ResizeTest, ChannelScaleIsUnsupported) {
  ResizeSpec spec;
  spec.scales = {1, 2, 2, 2};
  const KernelCase c = Resize({1, 3, 7, 13}, {1, 6, 14, 26}, spec);
  const Graph graph = GraphOf(c);
  auto plan = FindKernel("Resize")->build(graph, graph.nodes[0], KernelLimits{});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kUnsupported) << plan.status().ToString();
}

// Opset 18's antialias: the filter spans 1 / scale input cells when
// downscaling (up to 16 taps here), normalised; upscaling is unchanged.
TEST(ResizeTest, AntialiasOfOpset18) {
  for (const char* mode : {"linear", "cubic"}) {
    SCOPED_TRACE(mode);
    ResizeSpec spec;
    spec.mode = mode;
    spec.sizes = {1, 5, 5, 31};  // down 0.2 in H, up in W
    KernelCase c = Resize({1, 5, 25, 13}, {1, 5, 5, 31}, spec);
    c.node.attributes["antialias"] = int64_t{1};
    c.opset = 18;
    ExpectMatchesReference(c, SweepVariants());
  }
}

}  // namespace
}  // namespace glpool::testing
