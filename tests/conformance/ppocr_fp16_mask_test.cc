// fp16 keeps a real detector's answer: PP-OCRv4 det (real weights, as
// shipped) on a rendered page of text (scripts/ppocr-cases.py, the ppocr
// fixture), stored in fp16 with buffers and with textures, puts at least
// 99.9% of the mask's pixels on the same side of PaddleOCR's 0.3 threshold
// as ONNX Runtime's fp32 output does. Mask pixels: those above the
// threshold in either.
#include <gtest/gtest.h>

#include <filesystem>

#include "gpu_backend/gl/gl_context.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/import/tensor_proto.h"
#include "gpu_backend/runtime/executor.h"

namespace glpool {
namespace {

namespace fs = std::filesystem;

constexpr float kThreshold = 0.3f;

TEST(PpOcrFp16, DetMaskAgreesWithFp32) {
  const fs::path dir = fs::path(GLPOOL_PPOCR_CASES_DIR) / "det_page";
  ASSERT_TRUE(fs::exists(dir / "test_data_set_0" / "output_0.pb"))
      << dir << " is missing: the ppocr_cases test makes it (scripts/ppocr-cases.py, which needs the npm cache "
      << "scripts/fetch-models.sh fills)";
  StatusOr<TensorData> input = LoadTensorProtoFile((dir / "test_data_set_0" / "input_0.pb").string());
  StatusOr<TensorData> fp32 = LoadTensorProtoFile((dir / "test_data_set_0" / "output_0.pb").string());
  ASSERT_TRUE(input.ok() && fp32.ok());
  ImportOptions import;
  import.input_shapes["x"] = input->shape;
  StatusOr<Graph> graph = LoadOnnxModel((dir / "model.onnx").string(), import);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  ASSERT_TRUE(RunDefaultPasses(*graph).ok());
  auto context = gl::CreateHeadlessContext();
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  const std::map<std::string, TensorData> inputs = {{"x", *input}};
  StatusOr<std::set<std::string>> unsafe = FindHalfUnsafeTensors(*graph, inputs, nullptr);
  ASSERT_TRUE(unsafe.ok()) << unsafe.status().ToString();
  const std::vector<float> expected = fp32->ToFloats();
  for (ObjectKind objects : {ObjectKind::kBuffers, ObjectKind::kTextures}) {
    ExecutorOptions options;
    options.objects = objects;
    options.precision = Precision::kFp16;
    options.fp32_tensors = *unsafe;
    StatusOr<std::unique_ptr<Executor>> executor = Executor::Create(*graph, options);
    ASSERT_TRUE(executor.ok()) << executor.status().ToString();
    StatusOr<std::map<std::string, TensorData>> outputs = (*executor)->Run(inputs);
    ASSERT_TRUE(outputs.ok()) << outputs.status().ToString();
    const std::vector<float> got = outputs->at(graph->outputs[0]).ToFloats();
    ASSERT_EQ(got.size(), expected.size());
    size_t mask = 0, flipped = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const bool a = got[i] > kThreshold, b = expected[i] > kThreshold;
      mask += a || b;
      flipped += a != b;
    }
    const double agreement = 1.0 - static_cast<double>(flipped) / static_cast<double>(mask);
    std::cout << ObjectKindName(objects) << ": " << flipped << " of " << mask
              << " mask pixels on the other side of 0.3 than fp32 (" << 100.0 * agreement << "% agree)\n";
    EXPECT_GT(mask, 10000u) << "the page should give a real mask";
    EXPECT_GE(agreement, 0.999) << ObjectKindName(objects) << ": " << flipped << " of " << mask << " mask pixels flip";
  }
}

}  // namespace
}  // namespace glpool
