// Shape arithmetic on values a model chooses: pads, split sizes, groups,
// output paddings, scales and Range bounds near the ends of int64 (or of
// float) must give an error naming the node or a correct result — never a
// signed overflow or an out-of-range float cast. The sanitizer build runs
// these under UndefinedBehaviorSanitizer, where such arithmetic aborts.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "gpu_backend/import/onnx_import.h"
#include "model_builder.h"

namespace glpool {
namespace {

using testing_util::ModelBuilder;

constexpr int64_t kHuge = std::numeric_limits<int64_t>::max() - 3;

StatusOr<Graph> Load(const ModelBuilder& builder) { return LoadOnnxModel(builder.Save(testing_util::MakeTempDir())); }

void ExpectRefusedNaming(const StatusOr<Graph>& graph, const std::string& text) {
  ASSERT_FALSE(graph.ok());
  EXPECT_NE(graph.status().message().find(text), std::string::npos) << graph.status().ToString();
}

TEST(HostileShapeArithmetic, PadNearInt64MaxIsAnError) {
  ModelBuilder builder;
  builder.Input("X", {1, 2, 3, 3}).Int64Init("pads", {8}, {0, 0, kHuge, 0, 0, 0, kHuge, 0});
  builder.Node("Pad", {"X", "pads"}, {"Y"}, "huge_pad").Output("Y");
  ExpectRefusedNaming(Load(builder), "huge_pad");
}

TEST(HostileShapeArithmetic, SplitSizesThatWrapAreAnError) {
  // Two sizes whose int64 sum wraps to the dimension (4).
  ModelBuilder builder;
  builder.Input("X", {4, 2}).Int64Init("split", {2}, {kHuge, 4 - kHuge});
  builder.Node("Split", {"X", "split"}, {"A", "B"}, "wrapping_split").Output("A").Output("B");
  ExpectRefusedNaming(Load(builder), "wrapping_split");
}

TEST(HostileShapeArithmetic, ConvTransposeHugeGroupIsAnError) {
  ModelBuilder builder;
  builder.Input("X", {1, 2, 3, 3}).FloatInit("W", {2, 2, 1, 1}, {1, 2, 3, 4});
  builder.Node("ConvTranspose", {"X", "W"}, {"Y"}, "huge_group").AttrInt("group", kHuge).Output("Y");
  ExpectRefusedNaming(Load(builder), "huge_group");
}

TEST(HostileShapeArithmetic, ConvTransposeHugeOutputPaddingIsAnError) {
  ModelBuilder builder;
  builder.Input("X", {1, 2, 3, 3}).FloatInit("W", {2, 2, 1, 1}, {1, 2, 3, 4});
  builder.Node("ConvTranspose", {"X", "W"}, {"Y"}, "huge_output_padding")
      .AttrInts("strides", {2, 2})
      .AttrInts("output_padding", {kHuge, 0})
      .Output("Y");
  ExpectRefusedNaming(Load(builder), "huge_output_padding");
}

TEST(HostileShapeArithmetic, ResizeScaleBeyondInt64IsAnError) {
  ModelBuilder builder;
  builder.Input("X", {1, 1, 2, 2}).FloatInit("roi", {0}, {}).FloatInit("scales", {4}, {1, 1, 1e30f, 1});
  builder.Node("Resize", {"X", "roi", "scales"}, {"Y"}, "huge_scale").Output("Y");
  ExpectRefusedNaming(Load(builder), "huge_scale");
}

TEST(HostileShapeArithmetic, IntegerRangeNearTheEndsOfInt64Folds) {
  // start near INT64_MIN, limit near INT64_MAX, delta 2^62: four values,
  // all within int64, though 3 * delta alone is not.
  const int64_t start = std::numeric_limits<int64_t>::min() + 5;
  const int64_t delta = int64_t{1} << 62;
  ModelBuilder builder;
  builder.Int64Init("start", {}, {start}).Int64Init("limit", {}, {kHuge}).Int64Init("delta", {}, {delta});
  builder.Node("Range", {"start", "limit", "delta"}, {"Y"}, "wide_range").Output("Y", onnx::TensorProto::INT64);
  StatusOr<Graph> graph = Load(builder);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  const Tensor& y = graph->tensors.at("Y");
  ASSERT_EQ(y.shape, Shape({4}));
  ASSERT_TRUE(y.is_constant);
  const std::vector<int64_t> values = y.data.ToInt64s();
  int64_t expected = start;
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(values[i], expected) << i;
    if (i < 3) expected += delta;  // never past INT64_MAX: the last is start + 3 * 2^62
  }
}

}  // namespace
}  // namespace glpool
