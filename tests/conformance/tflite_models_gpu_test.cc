// MediaPipe's .tflite networks (fetched by scripts/fetch-models.sh) on the
// GPU against Arm NN's outputs (scripts/tflite-oracle.py, run by
// scripts/install-deps.sh into the cache): for each object kind and
// precision the naive pool is within 1e-3 x max |reference| (fp32) or
// 3e-2 x (fp16) of the reference, and every pooled strategy is
// bit-identical to naive. The reference is Arm NN's where the oracle could
// make one; where it wrote unsupported.txt instead (an op Arm NN 20.08
// computes differently, e.g. half-pixel bilinear resizes) it is glpool's
// CPU reference, and the test records which one it used and why. The two
// smallest networks run here; bench/tflite_models_gpu.sh runs all seven
// in every object kind and precision.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/gl/gl_context.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/tensor_proto.h"
#include "gpu_backend/import/tflite/tflite_import.h"
#include "gpu_backend/runtime/executor.h"
#include "gpu_backend/runtime/fp16_calibration.h"
#include "gpu_backend/runtime/pool_plan.h"
#include "samples/npm_models.h"

namespace glpool {
namespace {

namespace fs = std::filesystem;

fs::path CacheDir() { return GlpoolCacheDir(); }

struct TfliteModel {
  std::string package_path;  // under node_modules/@mediapipe/
  std::string name;
};

TfliteModel FaceShortRange() {
  return {"face_detection/face_detection_short_range.tflite", "face_detection_short_range"};
}
TfliteModel Selfie() { return {"selfie_segmentation/selfie_segmentation.tflite", "selfie_segmentation"}; }

// Every MediaPipe network the fetch script brings, when
// GLPOOL_EVERY_TFLITE_MODEL=1 (bench/tflite_models_gpu.sh sets it): too
// slow on a software rasterizer for the suite, which runs the two above.
std::vector<TfliteModel> EveryModelWhenAsked() {
  const char* every = std::getenv("GLPOOL_EVERY_TFLITE_MODEL");
  if (every == nullptr || std::string(every) != "1") return {};
  std::vector<TfliteModel> models;
  for (const char* path : {"face_detection/face_detection_short_range", "face_detection/face_detection_full_range",
                           "selfie_segmentation/selfie_segmentation", "selfie_segmentation/selfie_segmentation_landscape",
                           "pose/pose_landmark_lite", "pose/pose_landmark_full", "pose/pose_landmark_heavy"}) {
    const std::string file = path;
    models.push_back({file + ".tflite", file.substr(file.find('/') + 1)});
  }
  return models;
}

using Variant = std::tuple<TfliteModel, ObjectKind, Precision>;

class TfliteModelsGpuTest : public ::testing::TestWithParam<Variant> {
 protected:
  static void SetUpTestSuite() {
    auto made = gl::CreateHeadlessContext();
    if (made.ok()) context_ = std::move(made).value().release();
    else context_error_ = new std::string(made.status().ToString());
  }
  static gl::GlContext* context_;
  static std::string* context_error_;
};
gl::GlContext* TfliteModelsGpuTest::context_ = nullptr;
std::string* TfliteModelsGpuTest::context_error_ = nullptr;

TEST_P(TfliteModelsGpuTest, EveryStrategyBitIdenticalToNaiveAndCloseToArmNn) {
  const auto& [model, kind, precision] = GetParam();
  ASSERT_NE(context_, nullptr) << "no GLES 3.1 context: " << *context_error_;
  const fs::path file = CacheDir() / "npm" / "node_modules" / "@mediapipe" / model.package_path;
  const fs::path reference_dir = CacheDir() / "tflite-oracle" / model.name;
  ASSERT_TRUE(fs::exists(file)) << file << " is missing: run scripts/fetch-models.sh";
  const bool armnn = fs::exists(reference_dir / "output_0.pb");
  ASSERT_TRUE(armnn || fs::exists(reference_dir / "unsupported.txt"))
      << reference_dir << " holds no reference: run scripts/install-deps.sh (it runs scripts/tflite-oracle.py)";
  auto graph = LoadTfliteModel(file.string());
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  ASSERT_TRUE(RunDefaultPasses(*graph).ok());
  ASSERT_EQ(graph->inputs.size(), 1u);
  auto input = LoadTensorProtoFile((reference_dir / "input_0.pb").string());
  ASSERT_TRUE(input.ok()) << input.status().ToString();
  const std::map<std::string, TensorData> inputs = {{graph->inputs[0], *input}};
  std::vector<std::vector<float>> references;
  if (armnn) {
    RecordProperty("reference", "Arm NN");
    for (size_t k = 0; k < graph->outputs.size(); ++k) {
      auto expected = LoadTensorProtoFile((reference_dir / ("output_" + std::to_string(k) + ".pb")).string());
      ASSERT_TRUE(expected.ok()) << expected.status().ToString();
      references.push_back(expected->ToFloats());
    }
  } else {
    std::ifstream why(reference_dir / "unsupported.txt");
    std::string reason;
    std::getline(why, reason);
    RecordProperty("reference", "glpool CPU reference (no Arm NN reference: " + reason + ")");
    auto expected = cpu_reference::RunGraph(*graph, inputs);
    ASSERT_TRUE(expected.ok()) << expected.status().ToString();
    for (const std::string& name : graph->outputs) references.push_back(expected->at(name).ToFloats());
  }

  ExecutorOptions options;
  options.objects = kind;
  options.precision = precision;
  options.programs = std::make_shared<ProgramCache>();
  if (precision == Precision::kFp16) {
    // As glpool run and Session calibrate fp16 (SessionOptions::
    // calibration_inputs): tensors whose range half cannot hold stay fp32,
    // and the first nodes' outputs while the outputs err above tolerance.
    auto unsafe = CalibratedFp32Tensors(*graph, inputs, options.programs);
    ASSERT_TRUE(unsafe.ok()) << unsafe.status().ToString();
    options.fp32_tensors = *unsafe;
    RecordProperty("fp32_tensors", std::to_string(unsafe->size()));
  }
  std::map<std::string, std::vector<float>> naive_outputs;
  for (const std::string& strategy : StrategyNamesFor(ObjectKindName(kind))) {
    SCOPED_TRACE(strategy);
    options.strategy = strategy;
    auto executor = Executor::Create(*graph, options);
    ASSERT_TRUE(executor.ok()) << executor.status().ToString();
    EXPECT_EQ((*executor)->memory().gl_pool_bytes, (*executor)->memory().pool_bytes);
    auto outputs = (*executor)->Run(inputs);
    ASSERT_TRUE(outputs.ok()) << outputs.status().ToString();
    for (size_t k = 0; k < graph->outputs.size(); ++k) {
      const std::string& name = graph->outputs[k];
      ASSERT_TRUE(outputs->count(name)) << name;
      const std::vector<float> got = outputs->at(name).ToFloats();
      ASSERT_EQ(got.size(), references[k].size()) << name;
      if (strategy == "naive") {
        float max_reference = 0, max_error = 0;
        for (float v : references[k]) max_reference = std::max(max_reference, std::fabs(v));
        for (size_t i = 0; i < got.size(); ++i) max_error = std::max(max_error, std::fabs(got[i] - references[k][i]));
        const float tolerance = (precision == Precision::kFp16 ? 3e-2f : 1e-3f) * max_reference;
        EXPECT_LE(max_error, tolerance) << name << ": max abs error against the reference (max |ref| " << max_reference << ")";
        RecordProperty("max_error_" + std::to_string(k), std::to_string(max_error));
        naive_outputs[name] = got;
      } else {
        ASSERT_TRUE(naive_outputs.count(name)) << "naive must run first";
        EXPECT_EQ(std::memcmp(naive_outputs[name].data(), got.data(), got.size() * sizeof(float)), 0)
            << name << ": outputs differ from naive";
      }
    }
  }
}

auto VariantName = [](const auto& info) {
  return std::get<0>(info.param).name + "_" + ObjectKindName(std::get<1>(info.param)) + "_" +
         PrecisionName(std::get<2>(info.param));
};

INSTANTIATE_TEST_SUITE_P(EveryMediaPipeModel, TfliteModelsGpuTest,
                         ::testing::Combine(::testing::ValuesIn(EveryModelWhenAsked()),
                                            ::testing::Values(ObjectKind::kTextures, ObjectKind::kBuffers,
                                                              ObjectKind::kArena),
                                            ::testing::Values(Precision::kFp32, Precision::kFp16)),
                         VariantName);

INSTANTIATE_TEST_SUITE_P(MediaPipeSelfie, TfliteModelsGpuTest,
                         ::testing::Combine(::testing::Values(Selfie()),
                                            ::testing::Values(ObjectKind::kBuffers, ObjectKind::kArena),
                                            ::testing::Values(Precision::kFp32)),
                         VariantName);

INSTANTIATE_TEST_SUITE_P(MediaPipe, TfliteModelsGpuTest,
                         ::testing::Combine(::testing::Values(FaceShortRange()),
                                            ::testing::Values(ObjectKind::kTextures, ObjectKind::kBuffers,
                                                              ObjectKind::kArena),
                                            ::testing::Values(Precision::kFp32, Precision::kFp16)),
                         VariantName);

}  // namespace
}  // namespace glpool
