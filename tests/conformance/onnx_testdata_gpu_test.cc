// ONNX's own backend-test cases (Debian's libonnx-testdata) on the GPU:
// in the node, pytorch-converted and simple folders, every case the CPU
// reference passes also passes on the GPU (default buffers, fp32, auto
// pool) and no case fails on the GPU — an op it cannot run is reported
// unsupported with a reason, never answered wrongly. A case the GPU leaves
// unsupported must hold an op only the CPU reference runs, and must pass
// with the per-node CPU fallback on.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include <onnx/onnx_pb.h>

#include "api/case_backends.h"
#include "gpu_backend/cpu_reference/registry.h"
#include "gpu_backend/gl/gl_context.h"
#include "gpu_backend/import/constant_folding.h"
#include "gpu_backend/import/file_util.h"
#include "gpu_backend/kernels/kernel.h"

namespace glpool {
namespace {

namespace fs = std::filesystem;

// An op of the case's model that only the CPU reference runs (LSTM, GRU,
// the quantized ops, If on data): in a GPU session it takes the per-node
// fallback, which the cases leave off, so the GPU reports the case
// unsupported. Empty when every op has a GPU kernel or import removes it.
std::string FallbackOnlyOp(const std::string& dir) {
  StatusOr<std::string> bytes = ReadFileBytes(dir + "/model.onnx");
  onnx::ModelProto model;
  if (!bytes.ok() || !ParseProto(*bytes, &model)) return "";
  for (const onnx::NodeProto& node : model.graph().node()) {
    const std::string& op = node.op_type();
    if (FindKernel(op) == nullptr && cpu_reference::IsSupportedOp(op) && !IsFoldableOp(op) && op != "Constant" &&
        op != "Identity" && op != "Dropout") {
      return op;
    }
  }
  return "";
}

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
    const std::string fallback_only = FallbackOnlyOp(dir);
    EXPECT_FALSE(fallback_only.empty()) << dir << " passes on the CPU reference and every op has a GPU kernel; on the GPU: "
                                        << on_gpu.Summary();
    // That op runs on the CPU reference inside the GPU run: the case must
    // pass that way.
    const CaseResult mixed = RunOnnxTestCase(dir, gpu_with_fallback);
    EXPECT_EQ(mixed.outcome, CaseOutcome::kPass) << dir << " uses " << fallback_only << "; on the GPU: "
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
