// Errors across the API: each kind of mistake gets its own code and a
// message naming the tensor or node; nothing throws.
#include <gtest/gtest.h>

#include "api_test_util.h"
#include "app_context.h"

namespace glpool::testing_util {
namespace {

class ApiErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(app_.error(), "");
    StatusOr<Model> model = Model::Load(WriteSymbolicConvModel());
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    model_ = std::make_unique<Model>(std::move(model).value());
    SessionOptions options;
    options.input_shapes = {{"image", {1, 3, 8, 8}}};
    StatusOr<std::unique_ptr<Session>> session = Session::Create(*model_, options);
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    session_ = std::move(session).value();
  }
  void TearDown() override { session_.reset(); }

  AppEglContext app_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<Session> session_;
};

TEST_F(ApiErrors, UnknownInputNameIsInvalidArgumentNamingIt) {
  auto result = session_->Run({{"image", RandomFloats({1, 3, 8, 8}, 1)}, {"imgae", RandomFloats({1}, 1)}});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(result.status().message().find("'imgae'"), std::string::npos) << result.status().message();
  EXPECT_EQ(session_->BindInput("nope", {1, GpuLayout::kNchwBuffer}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(session_->Reshape({{"nope", {1}}}).code(), StatusCode::kInvalidArgument);
}

TEST_F(ApiErrors, WrongShapeIsBadShapeNamingTheTensor) {
  auto result = session_->Run({{"image", RandomFloats({1, 3, 8, 9}, 1)}});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kBadShape);
  EXPECT_NE(result.status().message().find("'image'"), std::string::npos) << result.status().message();
  // A fixed dim that disagrees with the model (3 channels) fails Reshape.
  Status reshaped = session_->Reshape({{"image", {1, 4, 8, 8}}});
  EXPECT_EQ(reshaped.code(), StatusCode::kBadShape);
  EXPECT_NE(reshaped.message().find("1x3xheightxwidth"), std::string::npos) << reshaped.message();
}

TEST_F(ApiErrors, WrongDtypeIsBadTypeNamingTheTensor) {
  auto result = session_->Run({{"image", TensorData::FromInt64s({1, 3, 8, 8}, std::vector<int64_t>(192, 1))}});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kBadType);
  EXPECT_NE(result.status().message().find("'image' is int64"), std::string::npos) << result.status().message();
}

TEST_F(ApiErrors, AnAppObjectOfTheWrongSizeIsBadShapeAtRun) {
  AppTexture small(GL_RGBA8, 4, 4);
  ASSERT_TRUE(session_->BindInput("image", {small.id(), GpuLayout::kRgba8Texture}).ok());
  auto result = session_->Run();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kBadShape);
  EXPECT_NE(result.status().message().find("'image'"), std::string::npos) << result.status().message();
  session_->UnbindAll();
}

TEST(ApiErrorsNoFixture, SymbolicDimWithoutAShapeIsBadShapeNamingTheSymbol) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(WriteSymbolicConvModel());
  ASSERT_TRUE(model.ok());
  auto session = Session::Create(*model);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), StatusCode::kBadShape);
  EXPECT_NE(session.status().message().find("'height'"), std::string::npos) << session.status().message();
}

TEST(ApiErrorsNoFixture, UnsupportedOpIsUnsupportedNamingTheNode) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(WriteUnsupportedOpModel());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  auto session = Session::Create(*model);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), StatusCode::kUnsupported) << session.status().ToString();
  EXPECT_NE(session.status().message().find("determinant"), std::string::npos) << session.status().message();
}

TEST(ApiErrorsNoFixture, NoCurrentContextIsUnavailable) {
  StatusOr<Model> model = Model::Load(WriteSymbolicConvModel());
  ASSERT_TRUE(model.ok());
  SessionOptions options;
  options.input_shapes = {{"image", {1, 3, 8, 8}}};
  auto session = Session::Create(*model, options);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), StatusCode::kUnavailable) << session.status().ToString();
}

TEST(ApiErrorsNoFixture, MissingFileIsNotFound) {
  EXPECT_EQ(Model::Load("/nonexistent/model.onnx").status().code(), StatusCode::kNotFound);
  const char junk[] = "not a protobuf at all";
  EXPECT_EQ(Model::FromMemory(junk, sizeof junk).status().code(), StatusCode::kInvalidModel);
}

}  // namespace
}  // namespace glpool::testing_util
