// Every case in ../shared/models on the CPU reference, on the imported graph
// and on the graph after the default passes (BatchNorm folding, activation
// fusion...): max |out - ref| <= 1e-4 x max |ref|.
#include <filesystem>
#include <iostream>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/cpu_reference/onnx_test_case.h"
#include "gpu_backend/cpu_reference/registry.h"
#include "gpu_backend/graph/passes/passes.h"
#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

const std::string kModelsDir = std::string(GLPOOL_SHARED_DIR) + "/models";

CaseOptions Options(bool fused, int* fused_activations) {
  CaseOptions options;
  options.runner = [](const Graph& graph, const std::map<std::string, TensorData>& inputs) {
    return cpu_reference::RunGraph(graph, inputs);
  };
  options.is_supported_op = cpu_reference::IsSupportedOp;
  options.tolerance = [](const std::string&) { return ModelTolerance(); };
  if (fused) {
    options.transform = [fused_activations](Graph& graph) {
      PassStats stats;
      Status status = RunDefaultPasses(graph, &stats);
      *fused_activations += stats.activations_fused + stats.hardswish_fused;
      return status;
    };
  }
  return options;
}

void RunAllModels(bool fused) {
  ASSERT_TRUE(std::filesystem::is_directory(kModelsDir)) << kModelsDir << " is missing";
  auto cases = ExpandCaseDirs({kModelsDir});
  ASSERT_TRUE(cases.ok()) << cases.status().ToString();
  ASSERT_GE(cases->size(), 4u);
  int fused_activations = 0;
  for (const std::string& dir : *cases) {
    const CaseResult r = RunOnnxTestCase(dir, Options(fused, &fused_activations));
    std::cout << (fused ? "fused   " : "unfused ") << dir << ": " << r.Summary() << " (max abs error "
              << r.max_abs_error << ", tolerance " << r.tolerance << ")\n";
    EXPECT_EQ(r.outcome, CaseOutcome::kPass) << dir << ": " << r.Summary();
  }
  // The fused run must really run fused graphs.
  if (fused) {
    EXPECT_GT(fused_activations, 0);
  }
}

TEST(SharedModelsTest, UnfusedGraphsMatchTheReferenceOutputs) { RunAllModels(false); }

TEST(SharedModelsTest, FusedGraphsMatchTheReferenceOutputs) { RunAllModels(true); }

}  // namespace
}  // namespace glpool
