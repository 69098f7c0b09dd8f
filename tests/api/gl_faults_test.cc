// GL failures forced through glpool's fault hook (glpool/diagnostics.h):
// each comes back as its own status, and nothing glpool made stays behind.
#include <gtest/gtest.h>

#include "api_test_util.h"
#include "app_context.h"
#include "glpool/glpool.h"

namespace glpool::testing_util {
namespace {

int64_t LiveGlObjects() {
  const RuntimeCounters counters = GetRuntimeCounters();
  return static_cast<int64_t>(counters.gl_objects_created) - static_cast<int64_t>(counters.gl_objects_deleted);
}

class GlFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(app_.error(), "");
    StatusOr<Model> model = Model::Load(WriteSymbolicConvModel());
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    model_ = std::make_unique<Model>(std::move(model).value());
    options_.input_shapes = {{"image", {1, 3, 8, 8}}};
  }
  void TearDown() override { ClearGlFaultsForTesting(); }

  AppEglContext app_;  // a new context per test: its program cache starts empty
  std::unique_ptr<Model> model_;
  SessionOptions options_;
};

TEST_F(GlFaults, OutOfMemoryAtAnyAllocationIsOutOfMemoryAndLeavesNothing) {
  // Compile the programs once, so later failed sessions only allocate.
  ASSERT_TRUE(Session::Create(*model_, options_).ok());
  for (ObjectKind kind : {ObjectKind::kBuffers, ObjectKind::kTextures, ObjectKind::kArena}) {
    for (int skip : {0, 1, 3}) {
      SCOPED_TRACE(std::string(ObjectKindName(kind)) + ", allocation " + std::to_string(skip));
      options_.objects = kind;
      const int64_t before = LiveGlObjects();
      InjectGlFaultForTesting(GlFault::kOutOfMemory, skip);
      StatusOr<std::unique_ptr<Session>> session = Session::Create(*model_, options_);
      ClearGlFaultsForTesting();
      ASSERT_FALSE(session.ok()) << "the injected fault was never met";
      EXPECT_EQ(session.status().code(), StatusCode::kOutOfMemory) << session.status().ToString();
      EXPECT_NE(session.status().message().find("GL_OUT_OF_MEMORY"), std::string::npos);
      EXPECT_EQ(LiveGlObjects(), before);
    }
  }
}

TEST_F(GlFaults, ShaderCompileFailureIsAGlErrorAndLeavesNothing) {
  const int64_t before = LiveGlObjects();
  InjectGlFaultForTesting(GlFault::kShaderCompile, 0);
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model_, options_);
  ClearGlFaultsForTesting();
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), StatusCode::kGlError) << session.status().ToString();
  EXPECT_NE(session.status().message().find("compiling shader"), std::string::npos);
  // The very first compile failed, so no program was kept in the cache.
  EXPECT_EQ(LiveGlObjects(), before);
  // The fault was one compile: the next session builds and runs.
  StatusOr<std::unique_ptr<Session>> again = Session::Create(*model_, options_);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE((*again)->Run({{"image", RandomFloats({1, 3, 8, 8}, 3)}}).ok());
}

TEST_F(GlFaults, LostContextStopsTheSessionWhichStillReleasesEverything) {
  ASSERT_TRUE(Session::Create(*model_, options_).ok());  // programs compiled and cached
  const int64_t before = LiveGlObjects();
  {
    StatusOr<std::unique_ptr<Session>> session = Session::Create(*model_, options_);
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    const TensorData image = RandomFloats({1, 3, 8, 8}, 5);
    ASSERT_TRUE((*session)->Run({{"image", image}}).ok());
    EXPECT_GT(LiveGlObjects(), before);  // its pool and weights
    InjectGlFaultForTesting(GlFault::kContextLost, 0);
    auto lost = (*session)->Run({{"image", image}});
    ASSERT_FALSE(lost.ok());
    EXPECT_EQ(lost.status().code(), StatusCode::kContextLost) << lost.status().ToString();
    // Lost for good: no second run, no reshape.
    EXPECT_EQ((*session)->Run({{"image", image}}).status().code(), StatusCode::kContextLost);
    EXPECT_EQ((*session)->Reshape({{"image", {1, 3, 9, 9}}}).code(), StatusCode::kContextLost);
  }
  EXPECT_EQ(LiveGlObjects(), before);
}

TEST_F(GlFaults, SessionsCreatedAndDestroyedLeaveTheCountFlat) {
  ASSERT_TRUE(Session::Create(*model_, options_).ok());
  const int64_t before = LiveGlObjects();
  for (int i = 0; i < 20; ++i) {
    StatusOr<std::unique_ptr<Session>> session = Session::Create(*model_, options_);
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    ASSERT_TRUE((*session)->Run({{"image", RandomFloats({1, 3, 8, 8}, 7)}}).ok());
    ASSERT_TRUE((*session)->Reshape({{"image", {1, 3, 6 + i % 3, 8}}}).ok());
  }
  EXPECT_EQ(LiveGlObjects(), before);
}

}  // namespace
}  // namespace glpool::testing_util
