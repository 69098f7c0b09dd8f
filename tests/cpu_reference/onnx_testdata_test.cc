// The ONNX project's own backend-test cases (Debian's libonnx-testdata) on
// the CPU reference. For every case whose ops are all ops the issue lists:
//  - it passes or is unsupported with a reason (never fails);
//  - a float case of rank <= 4 is never unsupported;
//  - at least 95% of them pass.
// The counts per folder go to the test log. A missing testdata folder fails
// the test: the rules cannot be checked without it.
#include <filesystem>
#include <iostream>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/cpu_reference/onnx_test_case.h"
#include "gpu_backend/cpu_reference/registry.h"
#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

// The ops issue 4 lists, plus those the shape arithmetic of real models and
// LayerNormalization-style subgraphs need.
const std::set<std::string> kListedOps = {
    "Conv", "ConvTranspose", "Gemm", "MatMul", "Add", "Sub", "Mul", "Div", "Pow", "Concat", "Slice",
    "Split", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "Relu", "Clip", "Sigmoid",
    "Tanh", "HardSigmoid", "HardSwish", "LeakyRelu", "PRelu", "Elu", "Softmax", "LogSoftmax", "Resize",
    "Upsample", "Pad", "Transpose", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "ReduceMean",
    "ReduceSum", "ReduceMax", "Sqrt", "Exp", "Erf", "DepthToSpace", "SpaceToDepth", "Shape", "Gather",
    "Cast", "Constant", "ConstantOfShape", "Range", "Identity", "Dropout", "BatchNormalization", "Neg",
    "Abs", "Reciprocal", "Log", "Equal", "Where"};

bool OfListedOps(const CaseResult& r) {
  if (r.model_ops.empty()) return false;
  for (const std::string& op : r.model_ops) {
    if (!kListedOps.count(op)) return false;
  }
  return true;
}

CaseOptions CpuOptions() {
  CaseOptions options;
  options.runner = [](const Graph& graph, const std::map<std::string, TensorData>& inputs) {
    return cpu_reference::RunGraph(graph, inputs);
  };
  options.is_supported_op = cpu_reference::IsSupportedOp;
  return options;
}

TEST(OnnxTestdataTest, ListedOpCasesPassOrAreUnsupportedWithAReason) {
  const std::string root = GLPOOL_ONNX_TESTDATA_DIR;
  ASSERT_TRUE(std::filesystem::is_directory(root))
      << root << " is missing: install Debian's libonnx-testdata to check the CPU reference";
  CaseTally listed_total, all_total;
  for (const char* folder : {"node", "pytorch-converted", "simple", "pytorch-operator"}) {
    const std::string dir = root + "/" + folder;
    ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir << " is missing";
    auto cases = ExpandCaseDirs({dir});
    ASSERT_TRUE(cases.ok()) << cases.status().ToString();
    CaseTally listed, all;
    for (const std::string& case_dir : *cases) {
      const CaseResult r = RunOnnxTestCase(case_dir, CpuOptions());
      all.Add(r);
      all_total.Add(r);
      if (!OfListedOps(r)) continue;
      listed.Add(r);
      listed_total.Add(r);
      EXPECT_NE(r.outcome, CaseOutcome::kFail) << case_dir << ": " << r.Summary();
      if (r.outcome == CaseOutcome::kUnsupported) {
        EXPECT_FALSE(r.reason.empty()) << case_dir;
        EXPECT_FALSE(r.float_case && r.max_rank <= 4)
            << case_dir << " is a float case of rank " << r.max_rank << " but " << r.Summary();
      }
    }
    std::cout << folder << ": listed-op cases " << listed.Line() << "; all cases " << all.Line() << "\n";
  }
  std::cout << "total: listed-op cases " << listed_total.Line() << "; all cases " << all_total.Line() << "\n";
  const int listed_count = listed_total.passed + listed_total.failed + listed_total.unsupported;
  ASSERT_GT(listed_count, 0);
  EXPECT_GE(listed_total.passed * 100, listed_count * 95)
      << listed_total.passed << " of " << listed_count << " listed-op cases pass";
}

TEST(OnnxTestdataTest, MissingFolderIsAnError) {
  EXPECT_FALSE(ExpandCaseDirs({"/nonexistent/glpool"}).ok());
}

}  // namespace
}  // namespace glpool
