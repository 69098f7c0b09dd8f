// A test on the app's own EGL context with WriteConvChainModel loaded (x ->
// four 1x1 convolutions -> y): the small model the memory tests plan.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "api_test_util.h"
#include "app_context.h"

namespace glpool::testing_util {

class ConvChainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(app_.error(), "");
    StatusOr<Model> model = Model::Load(WriteConvChainModel());
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    model_ = std::make_unique<Model>(std::move(model).value());
  }

  AppEglContext app_;
  std::unique_ptr<Model> model_;
};

}  // namespace glpool::testing_util
