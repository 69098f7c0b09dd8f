// ONNX's own backend-test cases (Debian's libonnx-testdata) on the GPU:
// in the node, pytorch-converted and simple folders, every case the CPU
// reference passes also passes on the GPU (default buffers, fp32, auto
// pool) — on its own kernels or, for ops with no GPU kernel (recurrent,
// quantized), with the per-node CPU fallback — and no case fails on the GPU — an op it cannot run is reported
// unsupported with a reason, never answered wrongly.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "gpu_backend/gl/gl_context.h"
#include "api/case_backends.h"

namespace glpool {
namespace {

namespace fs = std::filesystem;

class OnnxTestdataGpuTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxTestdataGpuTest, PassesEveryCaseTheCpuReferencePasses) {
  const fs::path root = fs::path(GLPOOL_ONNX_TESTDATA_DIR) / GetParam();
  ASSERT_TRUE(fs::is_directory(root))
      << root << " is missing: install Debian's libonnx-testdata to check the GPU against the CPU reference";
  auto context = gl::CreateHeadlessContext();
  ASSERT_TRUE(context.ok()) << "no GLES 3.1 context: " << context.status().ToString();
  auto cases = ExpandCaseDirs({root.string()});
  ASSERT_TRUE(cases.ok()) << cases.status().ToString();

  const CaseOptions cpu = CpuCaseOptions(/*fuse=*/false);
  const CaseOptions gpu = GpuCaseOptions(ExecutorOptions{});
  ExecutorOptions with_fallback;
  with_fallback.cpu_fallback = true;
  const CaseOptions gpu_with_fallback = GpuCaseOptions(with_fallback);
  CaseTally cpu_tally, gpu_tally;
  int passed_with_fallback = 0;
  for (const std::string& dir : *cases) {
    const CaseResult on_cpu = RunOnnxTestCase(dir, cpu);
    const CaseResult on_gpu = RunOnnxTestCase(dir, gpu);
    cpu_tally.Add(on_cpu);
    gpu_tally.Add(on_gpu);
    EXPECT_NE(on_gpu.outcome, CaseOutcome::kFail) << dir << ": " << on_gpu.Summary();
    if (on_cpu.outcome != CaseOutcome::kPass || on_gpu.outcome == CaseOutcome::kPass) continue;
    // An op with no GPU kernel (recurrent, quantized) runs on the CPU
    // reference inside the GPU run: the case must pass that way.
    const CaseResult mixed = RunOnnxTestCase(dir, gpu_with_fallback);
    EXPECT_EQ(mixed.outcome, CaseOutcome::kPass) << dir << " passes on the CPU reference; on the GPU: "
                                                 << on_gpu.Summary() << "; with the CPU fallback: " << mixed.Summary();
    if (mixed.outcome == CaseOutcome::kPass) ++passed_with_fallback;
  }
  EXPECT_GT(gpu_tally.passed, 0);
  RecordProperty("cpu", cpu_tally.Line());
  RecordProperty("gpu", gpu_tally.Line());
  std::cout << GetParam() << ": cpu " << cpu_tally.Line() << "; gpu " << gpu_tally.Line() << "; "
            << passed_with_fallback << " more pass with the CPU fallback\n";
}

INSTANTIATE_TEST_SUITE_P(Folders, OnnxTestdataGpuTest, ::testing::Values("node", "pytorch-converted", "simple"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace glpool
