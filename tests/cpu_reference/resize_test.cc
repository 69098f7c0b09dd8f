// Resize and Upsample: each mode, coordinate transformation and nearest
// rounding on inputs small enough to check by hand.
#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

using testing_util::ExpectFloats;
using testing_util::Floats;
using testing_util::Ints;
using testing_util::MakeNode;
using testing_util::RunOk;

// Resize (opset 13) of a 1x1x1xW row to 1x1x1x`width` by sizes.
TensorData ResizeRow(const std::vector<float>& row, int64_t width,
                     std::map<std::string, AttributeValue> attributes) {
  const TensorData x = Floats({1, 1, 1, static_cast<int64_t>(row.size())}, row);
  const TensorData sizes = Ints({4}, {1, 1, 1, width});
  return RunOk(MakeNode("Resize", 1, std::move(attributes)), {&x, nullptr, nullptr, &sizes});
}

TEST(ResizeTest, NearestUpsampleByScales) {
  const TensorData x = Floats({1, 1, 2, 2}, {1, 2, 3, 4});
  const TensorData scales = Floats({4}, {1, 1, 2, 2});
  ExpectFloats(RunOk(MakeNode("Resize", 1, {{"mode", std::string("nearest")},
                                            {"coordinate_transformation_mode", std::string("asymmetric")},
                                            {"nearest_mode", std::string("floor")}}),
                     {&x, nullptr, &scales}),
               {1, 1, 4, 4}, {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
}

TEST(ResizeTest, LinearHalfPixelClampsAtTheEdges) {
  // Sources: -0.25 (clamped), 0.25, 0.75, 1.25 (clamped).
  ExpectFloats(ResizeRow({0, 1}, 4, {{"mode", std::string("linear")}}), {1, 1, 1, 4}, {0, 0.25f, 0.75f, 1});
}

TEST(ResizeTest, LinearAlignCorners) {
  ExpectFloats(ResizeRow({0, 1}, 4, {{"mode", std::string("linear")},
                                     {"coordinate_transformation_mode", std::string("align_corners")}}),
               {1, 1, 1, 4}, {0, 1 / 3.0f, 2 / 3.0f, 1});
}

TEST(ResizeTest, NearestRoundingModes) {
  // Asymmetric sources x/2: 0, 0.5, 1, 1.5.
  std::map<std::string, AttributeValue> attrs = {
      {"coordinate_transformation_mode", std::string("asymmetric")}};
  ExpectFloats(ResizeRow({10, 20}, 4, attrs), {1, 1, 1, 4}, {10, 10, 20, 20});  // round_prefer_floor
  attrs["nearest_mode"] = std::string("round_prefer_ceil");
  ExpectFloats(ResizeRow({10, 20}, 4, attrs), {1, 1, 1, 4}, {10, 20, 20, 20});
  attrs["nearest_mode"] = std::string("ceil");
  ExpectFloats(ResizeRow({10, 20}, 4, attrs), {1, 1, 1, 4}, {10, 20, 20, 20});
  attrs["nearest_mode"] = std::string("floor");
  ExpectFloats(ResizeRow({10, 20}, 4, attrs), {1, 1, 1, 4}, {10, 10, 20, 20});
}

TEST(ResizeTest, TfHalfPixelForNearest) {
  // Sources (x + 0.5) / 2: 0.25, 0.75, 1.25, 1.75 -> round_prefer_floor 0, 1, 1, 2->1.
  ExpectFloats(ResizeRow({10, 20}, 4, {{"coordinate_transformation_mode", std::string("tf_half_pixel_for_nn")}}),
               {1, 1, 1, 4}, {10, 20, 20, 20});
}

TEST(ResizeTest, CubicUsesKeysWeights) {
  // Source 1.5 with a = -0.75: weights -0.09375, 0.59375, 0.59375, -0.09375
  // on inputs 0..3.
  const TensorData y = ResizeRow({1, 2, 4, 8}, 8, {{"mode", std::string("cubic")},
                                                   {"coordinate_transformation_mode", std::string("asymmetric")}});
  ASSERT_EQ(y.element_count(), 8);
  EXPECT_NEAR(y.ToFloats()[3], -0.09375f * 1 + 0.59375f * 2 + 0.59375f * 4 - 0.09375f * 8, 1e-5f);
  EXPECT_NEAR(y.ToFloats()[2], 2.0f, 1e-6f);  // integer source: the input itself
}

TEST(ResizeTest, TfCropAndResizeExtrapolates) {
  // W sources 0, 0.75, 1.5 (outside -> extrapolation_value).
  const TensorData x = Floats({1, 1, 1, 2}, {1, 3});
  const TensorData roi = Floats({8}, {0, 0, 0, 0, 1, 1, 1, 1.5f});
  const TensorData sizes = Ints({4}, {1, 1, 1, 3});
  ExpectFloats(RunOk(MakeNode("Resize", 1, {{"mode", std::string("linear")},
                                            {"coordinate_transformation_mode", std::string("tf_crop_and_resize")},
                                            {"extrapolation_value", 10.0f}}),
                     {&x, &roi, nullptr, &sizes}),
               {1, 1, 1, 3}, {1, 2.5f, 10});
}

TEST(ResizeTest, UpsampleOpset9NearestRepeats) {
  const TensorData x = Floats({1, 1, 1, 2}, {5, 6});
  const TensorData scales = Floats({4}, {1, 1, 2, 3});
  ExpectFloats(RunOk(MakeNode("Upsample"), {&x, &scales}, 9), {1, 1, 2, 6}, {5, 5, 5, 6, 6, 6, 5, 5, 5, 6, 6, 6});
}

TEST(ResizeTest, BilinearUpsampleOpset7Attribute) {
  const TensorData x = Floats({1, 1, 1, 2}, {0, 4});
  ExpectFloats(RunOk(MakeNode("Upsample", 1, {{"mode", std::string("linear")},
                                              {"scales", std::vector<float>{1, 1, 1, 2}}}),
                     {&x}, 7),
               {1, 1, 1, 4}, {0, 2, 4, 4});
}

}  // namespace
}  // namespace glpool
