// DenseNet-121 (../shared/zoo, torchvision's graph with deterministic
// random weights) on the GPU against the CPU reference: its dense blocks
// end in Concats of up to 25 inputs, which run as trees of tasks within
// the context's binding limits. At 64x64 instead of 224x224 (every layer
// still runs, the last block at 2x2) so the suite stays fast on llvmpipe;
// bench/gpu_vs_reference runs it at full size (see the README).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>

#include <onnx/onnx_pb.h>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/gl/gl_context.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/file_util.h"
#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/runtime/executor.h"

namespace glpool {
namespace {

namespace fs = std::filesystem;

StatusOr<Graph> LoadDenseNetAt(int64_t size) {
  const fs::path path = fs::path(GLPOOL_SHARED_DIR) / "zoo" / "densenet121.onnx";
  GLPOOL_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(path.string(), "model"));
  onnx::ModelProto model;
  if (!ParseProto(bytes, &model)) return InvalidModelError(path.string() + " does not parse");
  if (model.graph().input_size() < 1) return InvalidModelError(path.string() + " has no input");
  auto* dims = model.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
  if (dims->dim_size() != 4) return InvalidModelError(path.string() + ": input is not NCHW");
  dims->mutable_dim(2)->set_dim_value(size);
  dims->mutable_dim(3)->set_dim_value(size);
  ImportOptions options;
  options.random_weights = true;
  return ImportOnnxModel(model, path.parent_path().string(), options, path.string());
}

size_t WidestConcat(const Graph& graph) {
  size_t widest = 0;
  for (const Node& node : graph.nodes) {
    if (node.op_type == "Concat") widest = std::max(widest, node.inputs.size());
  }
  return widest;
}

TEST(DenseNetGpuTest, RunsOnTheGpuAndMatchesTheCpuReference) {
  auto context = gl::CreateHeadlessContext();
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  StatusOr<Graph> graph = LoadDenseNetAt(64);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(WidestConcat(*graph), 25u);  // denseblock3: the input and 24 layers' outputs
  ASSERT_TRUE(RunDefaultPasses(*graph).ok());
  EXPECT_LE(WidestConcat(*graph), kMaxKernelVariadicInputs);

  TensorData x;
  {
    std::mt19937 rng(121);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> values(3 * 64 * 64);
    for (float& v : values) v = uniform(rng);
    x = TensorData::FromFloats({1, 3, 64, 64}, values);
  }
  const std::map<std::string, TensorData> inputs = {{graph->inputs[0], x}};
  auto reference = cpu_reference::RunGraph(*graph, inputs);
  ASSERT_TRUE(reference.ok()) << reference.status().ToString();
  const std::vector<float> want = reference->at(graph->outputs[0]).ToFloats();
  float largest = 0;
  for (float v : want) largest = std::max(largest, std::fabs(v));
  ASSERT_GT(largest, 0.0f);

  // Buffers and the arena compile the same shader text: one cache.
  auto programs = std::make_shared<ProgramCache>();
  for (ObjectKind kind : {ObjectKind::kBuffers, ObjectKind::kTextures, ObjectKind::kArena}) {
    SCOPED_TRACE(ObjectKindName(kind));
    ExecutorOptions options;
    options.objects = kind;  // no CPU fallback: every node runs on the GPU
    options.programs = programs;
    auto executor = Executor::Create(*graph, options);
    ASSERT_TRUE(executor.ok()) << executor.status().ToString();
    for (const TaskInfo& task : (*executor)->tasks()) ASSERT_FALSE(task.on_cpu) << task.node;
    auto outputs = (*executor)->Run(inputs);
    ASSERT_TRUE(outputs.ok()) << outputs.status().ToString();
    const std::vector<float> got = outputs->at(graph->outputs[0]).ToFloats();
    ASSERT_EQ(got.size(), want.size());
    float error = 0;
    for (size_t i = 0; i < got.size(); ++i) error = std::max(error, std::fabs(got[i] - want[i]));
    EXPECT_LE(error, 1e-3f * largest) << "max |reference| " << largest;
    RecordProperty(std::string("max_error_") + ObjectKindName(kind), std::to_string(error));
  }
}

}  // namespace
}  // namespace glpool
