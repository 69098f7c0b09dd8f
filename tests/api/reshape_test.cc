// (b) Symbolic input dims: three sizes in turn, each matching the CPU
// reference; returning to a size seen before plans nothing and compiles
// nothing (GetRuntimeCounters()).
#include <gtest/gtest.h>

#include "api_test_util.h"
#include "app_context.h"

namespace glpool::testing_util {
namespace {

TEST(Reshape, ThreeSizesMatchTheCpuReferenceAndASeenSizeCostsNothing) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(WriteSymbolicConvModel());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ASSERT_EQ(model->inputs().size(), 1u);
  EXPECT_EQ(model->inputs()[0].dims[2].symbol, "height");
  EXPECT_EQ(model->inputs()[0].dims[3].symbol, "width");

  const std::vector<Shape> sizes = {{1, 3, 13, 18}, {1, 3, 32, 24}, {1, 3, 7, 9}};
  SessionOptions gpu_options, cpu_options;
  gpu_options.objects = ObjectKind::kTextures;
  gpu_options.input_shapes = cpu_options.input_shapes = {{"image", sizes[0]}};
  cpu_options.backend = Backend::kCpuReference;
  StatusOr<std::unique_ptr<Session>> gpu = Session::Create(*model, gpu_options);
  StatusOr<std::unique_ptr<Session>> cpu = Session::Create(*model, cpu_options);
  ASSERT_TRUE(gpu.ok()) << gpu.status().ToString();
  ASSERT_TRUE(cpu.ok()) << cpu.status().ToString();

  auto run_and_compare = [&](const Shape& shape, uint32_t seed) {
    const TensorData x = RandomFloats(shape, seed);
    StatusOr<std::map<std::string, TensorData>> on_gpu = (*gpu)->Run({{"image", x}});
    StatusOr<std::map<std::string, TensorData>> on_cpu = (*cpu)->Run({{"image", x}});
    ASSERT_TRUE(on_gpu.ok()) << on_gpu.status().ToString();
    ASSERT_TRUE(on_cpu.ok()) << on_cpu.status().ToString();
    const Shape expected = {1, 5, shape[2] / 2, shape[3] / 2};
    EXPECT_EQ(on_gpu->at("mask").shape, expected);
    EXPECT_LE(MaxAbsDifference(on_gpu->at("mask"), on_cpu->at("mask")), 1e-5f) << ShapeToString(shape);
  };

  run_and_compare(sizes[0], 1);
  for (size_t k = 1; k < sizes.size(); ++k) {
    const RuntimeCounters before = GetRuntimeCounters();
    ASSERT_TRUE((*gpu)->Reshape({{"image", sizes[k]}}).ok());
    ASSERT_TRUE((*cpu)->Reshape({{"image", sizes[k]}}).ok());
    // A new size is planned: the counter sees it.
    EXPECT_EQ(GetRuntimeCounters().pool_plans, before.pool_plans + 1);
    EXPECT_EQ((*gpu)->inputs()[0].shape(), sizes[k]);
    run_and_compare(sizes[k], static_cast<uint32_t>(k + 1));
  }

  const RuntimeCounters before_return = GetRuntimeCounters();
  Status back = (*gpu)->Reshape({{"image", sizes[0]}});
  ASSERT_TRUE(back.ok()) << back.ToString();
  ASSERT_TRUE((*cpu)->Reshape({{"image", sizes[0]}}).ok());
  run_and_compare(sizes[0], 9);
  const RuntimeCounters after_return = GetRuntimeCounters();
  EXPECT_EQ(after_return.pool_plans, before_return.pool_plans) << "returning to a seen size planned again";
  EXPECT_EQ(after_return.shader_compiles, before_return.shader_compiles) << "returning to a seen size compiled";
}

// Shapes from data: a tensor's own shape fills the symbolic dims; an input
// left out names each open dim and the form to fill, with the model's names.
TEST(Reshape, InputShapesOfTakesSymbolicDimsFromTheData) {
  StatusOr<Model> model = Model::Load(WriteSymbolicConvModel());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_EQ(InputShapeTemplate(model->inputs()[0]), "image=1x3xheightxwidth");

  StatusOr<std::map<std::string, Shape>> shapes = InputShapesOf(*model, {{"image", RandomFloats({1, 3, 20, 24}, 1)}});
  ASSERT_TRUE(shapes.ok()) << shapes.status().ToString();
  EXPECT_EQ(shapes->at("image"), Shape({1, 3, 20, 24}));

  StatusOr<std::map<std::string, Shape>> missing = InputShapesOf(*model, {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kBadShape);
  for (const char* text : {"'height' (dim 2)", "'width' (dim 3)", "image=1x3xheightxwidth"}) {
    EXPECT_NE(missing.status().message().find(text), std::string::npos) << missing.status().message();
  }
  // A fixed dim the data contradicts (3 channels) is refused.
  StatusOr<std::map<std::string, Shape>> wrong = InputShapesOf(*model, {{"image", RandomFloats({1, 4, 20, 24}, 2)}});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kBadShape);

  // And a session made for the data's shapes runs it.
  SessionOptions options;
  options.backend = Backend::kCpuReference;
  options.input_shapes = *shapes;
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model, options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  StatusOr<std::map<std::string, TensorData>> out = (*session)->Run({{"image", RandomFloats({1, 3, 20, 24}, 1)}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->at("mask").shape, Shape({1, 5, 10, 12}));
}

}  // namespace
}  // namespace glpool::testing_util
