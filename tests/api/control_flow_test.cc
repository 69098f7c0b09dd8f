// If through a Session, against ONNX Runtime's outputs
// (tests/data/control_flow, scripts/make-control-flow-cases.py):
// - if_on_data_lstm: the condition comes from the input's values; the If
//   and the LSTM after it run on the CPU reference inside the GPU run (the
//   per-node fallback), one data set down each branch;
// - if_folded_shapes: conditions known at import (a constant, and one from
//   the input's shape whose branches differ in shape) are inlined, so the
//   whole model runs on the GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "api_test_util.h"
#include "app_context.h"

namespace glpool::testing_util {
namespace {

namespace fs = std::filesystem;

std::string CaseDir(const std::string& name) { return std::string(GLPOOL_TEST_DATA_DIR) + "/control_flow/" + name; }

// Runs every data set of the case on `session`: each output within 1e-4 x
// its max |value| of ONNX Runtime's. Returns how many data sets ran.
int ExpectMatchesOnnxRuntime(Session& session, const Model& model, const std::string& dir) {
  int sets = 0;
  for (int set = 0; fs::exists(dir + "/test_data_set_" + std::to_string(set)); ++set) {
    const std::string data = dir + "/test_data_set_" + std::to_string(set);
    SCOPED_TRACE(data);
    StatusOr<TensorData> x = LoadTensorFile(data + "/input_0.pb");
    EXPECT_TRUE(x.ok()) << x.status().ToString();
    if (!x.ok()) continue;
    StatusOr<std::map<std::string, TensorData>> outputs = session.Run({{"x", *x}});
    EXPECT_TRUE(outputs.ok()) << outputs.status().ToString();
    if (!outputs.ok()) continue;
    for (size_t i = 0; i < model.outputs().size(); ++i) {
      const std::string& name = model.outputs()[i].name;
      StatusOr<TensorData> expected = LoadTensorFile(data + "/output_" + std::to_string(i) + ".pb");
      EXPECT_TRUE(expected.ok()) << expected.status().ToString();
      if (!expected.ok()) continue;
      EXPECT_EQ(outputs->at(name).shape, expected->shape) << name;
      float largest = 0;
      for (float v : expected->ToFloats()) largest = std::max(largest, std::fabs(v));
      EXPECT_LE(MaxAbsDifference(outputs->at(name), *expected), 1e-4f * largest) << name;
    }
    ++sets;
  }
  return sets;
}

TEST(ControlFlow, IfOnDataTakesTheFallbackAndLstmRunsOnTheGpu) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(CaseDir("if_on_data_lstm") + "/model.onnx");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  for (ObjectKind objects : {ObjectKind::kBuffers, ObjectKind::kTextures, ObjectKind::kArena}) {
    SCOPED_TRACE(ObjectKindName(objects));
    SessionOptions options;
    options.objects = objects;
    StatusOr<std::unique_ptr<Session>> session = Session::Create(*model, options);
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    EXPECT_EQ(ExpectMatchesOnnxRuntime(**session, *model, CaseDir("if_on_data_lstm")), 2);
    const PartitionReport& partition = (*session)->partition();
    // The LSTM is unrolled onto the GPU (passes.h, LowerRecurrent); the If on
    // data takes the fallback.
    EXPECT_EQ(partition.cpu_nodes, (std::vector<std::string>{"pick (If)"}));
    EXPECT_EQ(partition.cpu_tasks, 1u);
    EXPECT_GE(partition.gpu_tasks, 10u);  // Conv, ReduceSum, Greater, Relu, the LSTM's steps
    // The If reads its condition and the Conv's output (the branches' outer
    // tensors) and returns the chosen tensor.
    EXPECT_EQ(partition.transfers_to_cpu, 2u);
    EXPECT_EQ(partition.transfers_to_gpu, 1u);
    EXPECT_GT(partition.bytes_to_cpu, 0u);
  }
}

TEST(ControlFlow, IfOnDataRunsOnTheCpuReferenceSession) {
  StatusOr<Model> model = Model::Load(CaseDir("if_on_data_lstm") + "/model.onnx");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  SessionOptions options;
  options.backend = Backend::kCpuReference;
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model, options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  EXPECT_EQ(ExpectMatchesOnnxRuntime(**session, *model, CaseDir("if_on_data_lstm")), 2);
}

TEST(ControlFlow, IfsDecidedAtImportRunWhollyOnTheGpu) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(CaseDir("if_folded_shapes") + "/model.onnx");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  SessionOptions options;
  options.cpu_fallback = false;  // strict: nothing may need the CPU
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model, options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  EXPECT_EQ(ExpectMatchesOnnxRuntime(**session, *model, CaseDir("if_folded_shapes")), 1);
  for (const TaskInfo& task : (*session)->tasks()) EXPECT_NE(task.op_type, "If") << task.node;
  EXPECT_EQ((*session)->partition().cpu_tasks, 0u);
}

}  // namespace
}  // namespace glpool::testing_util
