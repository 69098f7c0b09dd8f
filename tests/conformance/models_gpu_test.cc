// Every runnable model in ../shared/models on the GPU (llvmpipe here):
// for each object kind and precision, the naive pool matches ONNX Runtime's
// output within tolerance (1e-3 x max |reference| in fp32, 3e-2 in fp16),
// every pooled strategy gives outputs bit-identical to naive (each distinct
// plan is run once: strategies that agree share the run), and the GL
// bytes allocated for the pool equal the plan's total.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <tuple>

#include "gpu_backend/gl/gl_context.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/runtime/executor.h"
#include "gpu_backend/runtime/fp16_calibration.h"
#include "gpu_backend/runtime/pool_plan.h"

namespace glpool {

// Readable parameters in gtest's output (found by argument-dependent lookup).
void PrintTo(ObjectKind kind, std::ostream* out) { *out << ObjectKindName(kind); }
void PrintTo(Precision precision, std::ostream* out) { *out << PrecisionName(precision); }

namespace {

namespace fs = std::filesystem;

std::vector<std::string> ModelNames() {
  return {"mobilenet_v2", "mobilenet_v3_small", "squeezenet1_1", "u2netp"};
}

// u2netp takes seconds per run on llvmpipe: the suite runs it with naive
// and auto (what users get), and bench/strategy_sweep.sh sets
// GLPOOL_SWEEP_EVERY_STRATEGY=1 to run it with every strategy.
std::vector<std::string> StrategiesToRun(const std::string& model, ObjectKind kind) {
  const char* sweep = std::getenv("GLPOOL_SWEEP_EVERY_STRATEGY");
  if (model == "u2netp" && (sweep == nullptr || std::string(sweep) != "1")) return {"naive", "auto"};
  return StrategyNamesFor(ObjectKindName(kind));
}

// One test per model x object kind x precision, so ctest spreads the slow
// ones (u2netp takes seconds per run on llvmpipe) over the cores.
using Variant = std::tuple<std::string, ObjectKind, Precision>;

// Everything about a plan that the shaders see: for each tensor, which
// object (numbered by first use, so equal groupings compare equal), its
// offset and the object's size and texture extent.
std::string PlanSignature(const Executor& executor) {
  std::map<size_t, size_t> renumbered;
  std::string signature;
  for (const PlacedTensor& tensor : executor.tensors()) {
    const size_t object = renumbered.emplace(tensor.object, renumbered.size()).first->second;
    const PoolObject& placed = executor.objects()[tensor.object];
    signature += std::to_string(object) + "@" + std::to_string(tensor.offset) + ":" + std::to_string(placed.bytes) +
                 "/" + std::to_string(placed.width) + "x" + std::to_string(placed.height) +
                 (tensor.buffer_fallback ? "b" : "") + (tensor.half ? "h" : "") + ";";
  }
  return signature;
}

class ModelsGpuTest : public ::testing::TestWithParam<Variant> {
 protected:
  static void SetUpTestSuite() {
    auto made = gl::CreateHeadlessContext();
    if (made.ok()) context_ = std::move(made).value().release();
    else context_error_ = new std::string(made.status().ToString());
  }
  static gl::GlContext* context_;
  static std::string* context_error_;
};
gl::GlContext* ModelsGpuTest::context_ = nullptr;
std::string* ModelsGpuTest::context_error_ = nullptr;

TEST_P(ModelsGpuTest, EveryStrategyBitIdenticalToNaiveAndCloseToReference) {
  const auto& [model, kind, precision] = GetParam();
  ASSERT_NE(context_, nullptr) << "no GLES 3.1 context: " << *context_error_;
  const fs::path dir = fs::path(GLPOOL_SHARED_DIR) / "models" / model;
  ASSERT_TRUE(fs::exists(dir / "model.onnx")) << dir << " is missing: the shared models folder must sit beside the checkout";
  auto graph = LoadOnnxModel((dir / "model.onnx").string());
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  ASSERT_TRUE(RunDefaultPasses(*graph).ok());
  auto input = LoadTensorProtoFile((dir / "test_data_set_0" / "input_0.pb").string());
  auto expected = LoadTensorProtoFile((dir / "test_data_set_0" / "output_0.pb").string());
  ASSERT_TRUE(input.ok() && expected.ok());
  ASSERT_EQ(graph->inputs.size(), 1u);
  ASSERT_EQ(graph->outputs.size(), 1u);
  const std::map<std::string, TensorData> inputs = {{graph->inputs[0], *input}};
  const std::vector<float> reference = expected->ToFloats();
  float max_reference = 0;
  for (float v : reference) max_reference = std::max(max_reference, std::fabs(v));

  ExecutorOptions options;
  options.objects = kind;
  options.precision = precision;
  options.programs = std::make_shared<ProgramCache>();
  if (precision == Precision::kFp16) {
    // fp16 calibrates on the input: the randomly initialised mobilenets
    // shrink their activations to 1e-8 .. 1e-10, below half's subnormals,
    // and those tensors must stay fp32 for the answer to survive.
    auto half_unsafe = CalibratedFp32Tensors(*graph, inputs, options.programs);
    ASSERT_TRUE(half_unsafe.ok()) << half_unsafe.status().ToString();
    options.fp32_tensors = *half_unsafe;
    RecordProperty("fp16_kept_fp32_tensors", std::to_string(half_unsafe->size()));
  }
  std::vector<float> naive_output;
  std::map<std::string, std::string> strategy_of_plan;  // plan signature -> first strategy that gave it
  for (const std::string& strategy : StrategiesToRun(model, kind)) {
    SCOPED_TRACE(strategy);
    options.strategy = strategy;
    auto executor = Executor::Create(*graph, options);
    ASSERT_TRUE(executor.ok()) << executor.status().ToString();
    EXPECT_EQ((*executor)->memory().gl_pool_bytes, (*executor)->memory().pool_bytes);
    EXPECT_LE((*executor)->memory().pool_bytes, (*executor)->memory().naive_bytes);
    // Strategies often agree; a plan already run proves nothing new, and
    // u2netp takes seconds per run on llvmpipe.
    const auto [first, added] = strategy_of_plan.emplace(PlanSignature(**executor), strategy);
    if (!added) {
      RecordProperty(strategy, "same plan as " + first->second);
      continue;
    }
    auto outputs = (*executor)->Run(inputs);
    ASSERT_TRUE(outputs.ok()) << outputs.status().ToString();
    const std::vector<float> got = outputs->begin()->second.ToFloats();
    ASSERT_EQ(got.size(), reference.size());
    if (strategy == "naive") {
      naive_output = got;
      float max_error = 0;
      for (size_t i = 0; i < got.size(); ++i) max_error = std::max(max_error, std::fabs(got[i] - reference[i]));
      const float tolerance = (precision == Precision::kFp16 ? 3e-2f : 1e-3f) * max_reference;
      EXPECT_LE(max_error, tolerance) << "max abs error against ONNX Runtime";
      RecordProperty("max_error", std::to_string(max_error));
    } else {
      ASSERT_EQ(naive_output.size(), got.size()) << "naive must run first";
      EXPECT_EQ(std::memcmp(naive_output.data(), got.data(), got.size() * sizeof(float)), 0)
          << "outputs differ from naive";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SharedModels, ModelsGpuTest,
                         ::testing::Combine(::testing::ValuesIn(ModelNames()),
                                            ::testing::Values(ObjectKind::kTextures, ObjectKind::kBuffers,
                                                              ObjectKind::kArena),
                                            ::testing::Values(Precision::kFp32, Precision::kFp16)),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" + ObjectKindName(std::get<1>(info.param)) + "_" +
                                  PrecisionName(std::get<2>(info.param));
                         });

}  // namespace
}  // namespace glpool
