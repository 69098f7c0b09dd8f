// glpool's own cases for ONNX opsets 18-21 (tests/data/onnx_opset18_21,
// made by scripts/make-opset-cases.py with ONNX Runtime's outputs): every
// semantic change those opsets made to an op glpool runs, and the ops they
// added. Each case must pass on the CPU reference and on the GPU with
// buffers and with textures (fp32) — none may be unsupported.
#include <gtest/gtest.h>

#include <filesystem>

#include "api/case_backends.h"
#include "gpu_backend/gl/gl_context.h"

namespace glpool {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> CaseDirs() {
  std::vector<std::string> dirs;
  for (const auto& entry : fs::directory_iterator(GLPOOL_OPSET_CASES_DIR)) {
    if (entry.is_directory()) dirs.push_back(entry.path().string());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

void ExpectEveryCasePasses(const CaseOptions& options, const std::string& backend) {
  const std::vector<std::string> dirs = CaseDirs();
  ASSERT_GE(dirs.size(), 40u) << "cases missing from " << GLPOOL_OPSET_CASES_DIR;
  for (const std::string& dir : dirs) {
    const CaseResult result = RunOnnxTestCase(dir, options);
    EXPECT_EQ(result.outcome, CaseOutcome::kPass) << backend << ": " << dir << ": " << result.Summary();
  }
}

TEST(NewerOpsetCases, EveryCasePassesOnTheCpuReference) { ExpectEveryCasePasses(CpuCaseOptions(false), "cpu"); }

TEST(NewerOpsetCases, EveryCasePassesOnTheGpu) {
  auto context = gl::CreateHeadlessContext();
  ASSERT_TRUE(context.ok()) << "no GLES 3.1 context: " << context.status().ToString();
  for (ObjectKind objects : {ObjectKind::kBuffers, ObjectKind::kTextures}) {
    ExecutorOptions options;
    options.objects = objects;
    ExpectEveryCasePasses(GpuCaseOptions(options), objects == ObjectKind::kBuffers ? "gpu buffers" : "gpu textures");
  }
}

}  // namespace
}  // namespace glpool
