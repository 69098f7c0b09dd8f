// The case runner itself: folder expansion, tolerance choice, how a wrong
// output and an unsupported op are reported, the tally line.
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/cpu_reference/onnx_test_case.h"
#include "gpu_backend/cpu_reference/registry.h"
#include "gpu_backend/import/tensor_proto.h"
#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

namespace fs = std::filesystem;

const std::string kReluCase = std::string(GLPOOL_ONNX_TESTDATA_DIR) + "/node/test_relu";

CaseOptions CpuOptions() {
  CaseOptions options;
  options.runner = [](const Graph& graph, const std::map<std::string, TensorData>& inputs) {
    return cpu_reference::RunGraph(graph, inputs);
  };
  options.is_supported_op = cpu_reference::IsSupportedOp;
  return options;
}

// A copy of test_relu under a fresh temp folder whose first output element
// is off by `delta`; returns the case folder.
std::string CopyReluCaseWithError(const std::string& parent, float delta) {
  fs::remove_all(parent);
  const std::string dir = parent + "/test_relu_altered";
  fs::create_directories(dir);
  fs::copy(kReluCase, dir, fs::copy_options::recursive);
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir)) {
    fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
  }
  const std::string output = dir + "/test_data_set_0/output_0.pb";
  StatusOr<TensorData> data = LoadTensorProtoFile(output);
  EXPECT_TRUE(data.ok()) << data.status().ToString();
  std::vector<float> values = data->ToFloats();
  values[0] += delta;
  onnx::TensorProto proto;
  proto.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : data->shape) proto.add_dims(d);
  proto.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
  std::ofstream(output, std::ios::binary) << proto.SerializeAsString();
  return dir;
}

TEST(OnnxTestCaseTest, PassingCase) {
  const CaseResult r = RunOnnxTestCase(kReluCase, CpuOptions());
  EXPECT_EQ(r.outcome, CaseOutcome::kPass) << r.Summary();
  EXPECT_EQ(r.Summary(), "pass");
  EXPECT_EQ(r.model_ops, std::set<std::string>{"Relu"});
  EXPECT_TRUE(r.float_case);
  EXPECT_EQ(r.max_rank, 3);
}

TEST(OnnxTestCaseTest, WrongOutputFailsWithTheErrorAndTolerance) {
  const std::string parent = fs::temp_directory_path().string() + "/glpool_cpu_reference_case_test";
  const std::string dir = CopyReluCaseWithError(parent, 0.5f);
  auto cases = ExpandCaseDirs({parent});
  ASSERT_TRUE(cases.ok()) << cases.status().ToString();
  ASSERT_EQ(*cases, std::vector<std::string>{dir});
  const CaseResult r = RunOnnxTestCase(dir, CpuOptions());
  EXPECT_EQ(r.outcome, CaseOutcome::kFail);
  EXPECT_NEAR(r.max_abs_error, 0.5, 1e-6);
  EXPECT_EQ(r.Summary().rfind("fail (max abs error 0.5, tolerance ", 0), 0u) << r.Summary();
  CaseTally tally;
  tally.Add(r);
  tally.Add(RunOnnxTestCase(kReluCase, CpuOptions()));
  EXPECT_EQ(tally.Line(), "1 passed, 1 failed, 0 unsupported");
  fs::remove_all(parent);
}

void WriteFloatTensor(const std::string& path, const Shape& shape, const std::vector<float>& values) {
  onnx::TensorProto proto;
  proto.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : shape) proto.add_dims(d);
  proto.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
  std::ofstream(path, std::ios::binary) << proto.SerializeAsString();
}

// Exported models leave dims symbolic (batch, height, width): the case
// runner takes them from each data set's inputs, which may differ per set.
TEST(OnnxTestCaseTest, SymbolicInputDimsComeFromEachDataSet) {
  const std::string dir = fs::temp_directory_path().string() + "/glpool_symbolic_case_test/test_relu_symbolic";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy(kReluCase, dir, fs::copy_options::recursive);
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir)) {
    fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
  }
  onnx::ModelProto model;
  {
    std::ifstream in(dir + "/model.onnx", std::ios::binary);
    ASSERT_TRUE(model.ParseFromIstream(&in));
  }
  const char* names[] = {"batch", "height", "width"};
  for (auto* value : {model.mutable_graph()->mutable_input(0), model.mutable_graph()->mutable_output(0)}) {
    auto* dims = value->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim();
    ASSERT_EQ(dims->size(), 3);
    for (int i = 0; i < 3; ++i) dims->Mutable(i)->set_dim_param(names[i]);
  }
  std::ofstream(dir + "/model.onnx", std::ios::binary) << model.SerializeAsString();
  // A second data set of another shape: relu of -2..3.
  fs::create_directories(dir + "/test_data_set_1");
  WriteFloatTensor(dir + "/test_data_set_1/input_0.pb", {1, 2, 3}, {-2, -1, 0, 1, 2, 3});
  WriteFloatTensor(dir + "/test_data_set_1/output_0.pb", {1, 2, 3}, {0, 0, 0, 1, 2, 3});

  const CaseResult r = RunOnnxTestCase(dir, CpuOptions());
  EXPECT_EQ(r.outcome, CaseOutcome::kPass) << r.Summary();
  fs::remove_all(fs::path(dir).parent_path());
}

TEST(OnnxTestCaseTest, UnsupportedOpIsNamed) {
  CaseOptions options = CpuOptions();
  options.is_supported_op = [](const std::string& op) { return op != "Relu"; };
  const CaseResult r = RunOnnxTestCase(kReluCase, options);
  EXPECT_EQ(r.outcome, CaseOutcome::kUnsupported);
  EXPECT_EQ(r.Summary(), "unsupported (op Relu is not supported)");
}

TEST(OnnxTestCaseTest, ToleranceFollowsTheFolderName) {
  EXPECT_EQ(ToleranceForCaseDir("/data/node/test_abs").kind, Tolerance::Kind::kElementwise);
  EXPECT_EQ(ToleranceForCaseDir("/shared/models/u2netp/").kind, Tolerance::Kind::kRelativeToMax);
}

TEST(OnnxTestCaseTest, FolderWithoutCasesIsAnError) {
  const std::string empty = fs::temp_directory_path().string() + "/glpool_cpu_reference_empty";
  fs::remove_all(empty);
  fs::create_directories(empty);
  auto cases = ExpandCaseDirs({empty});
  EXPECT_FALSE(cases.ok());
  EXPECT_EQ(cases.status().code(), StatusCode::kNotFound);
  fs::remove_all(empty);
}

}  // namespace
}  // namespace glpool
