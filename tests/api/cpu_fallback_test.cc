// Per-node CPU fallback: a node whose op has only a CPU reference (CumSum)
// runs inside the GPU run with its tensors read back from, and uploaded
// into, pooled objects; the partition report counts it; strict mode
// (SessionOptions::cpu_fallback = false) refuses the model naming the op.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "api_test_util.h"
#include "app_context.h"
#include "model_builder.h"

namespace glpool::testing_util {
namespace {

// x (1x5x7x3) -> Relu -> CumSum(axis 2) -> Mul x -> CumSum(axis 1,
// exclusive, reverse) -> Sigmoid -> y. Both CumSums read and write pooled
// intermediates, so each one moves one tensor each way.
std::string WriteCumSumModel() {
  ModelBuilder builder(14);
  builder.Input("x", {1, 5, 7, 3})
      .Output("y")
      .Int64Init("axis2", {}, {2})
      .Int64Init("axis1", {}, {1})
      .Node("Relu", {"x"}, {"r"}, "relu")
      .Node("CumSum", {"r", "axis2"}, {"c1"}, "running_sum")
      .Node("Mul", {"c1", "x"}, {"m"}, "mul")
      .Node("CumSum", {"m", "axis1"}, {"c2"}, "reverse_sum")
      .AttrInt("exclusive", 1)
      .AttrInt("reverse", 1)
      .Node("Sigmoid", {"c2"}, {"y"}, "sigmoid");
  return builder.Save(MakeTempDir());
}

// PHWC4 bytes of a 1xCxHxW fp32 tensor: channels in fours, 16 bytes a texel.
uint64_t Phwc4Bytes(int64_t c, int64_t h, int64_t w) { return static_cast<uint64_t>((c + 3) / 4 * h * w * 16); }

class CpuFallback : public ::testing::TestWithParam<std::tuple<ObjectKind, Precision>> {};

TEST_P(CpuFallback, CpuOnlyOpRunsInsideTheGpuRunAndMatchesTheReference) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(WriteCumSumModel());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const auto [objects, precision] = GetParam();
  SessionOptions gpu_options, cpu_options;
  gpu_options.objects = objects;
  gpu_options.precision = precision;
  cpu_options.backend = Backend::kCpuReference;
  StatusOr<std::unique_ptr<Session>> gpu = Session::Create(*model, gpu_options);
  StatusOr<std::unique_ptr<Session>> cpu = Session::Create(*model, cpu_options);
  ASSERT_TRUE(gpu.ok()) << gpu.status().ToString();
  ASSERT_TRUE(cpu.ok()) << cpu.status().ToString();

  // Inputs in [-0.5, 0.5) so Relu zeroes some and the sums stay in half's range.
  TensorData x = RandomFloats({1, 5, 7, 3}, 3);
  std::vector<float> shifted = x.ToFloats();
  for (float& v : shifted) v -= 0.5f;
  x = TensorData::FromFloats(x.shape, shifted);
  StatusOr<std::map<std::string, TensorData>> on_gpu = (*gpu)->Run({{"x", x}});
  StatusOr<std::map<std::string, TensorData>> on_cpu = (*cpu)->Run({{"x", x}});
  ASSERT_TRUE(on_gpu.ok()) << on_gpu.status().ToString();
  ASSERT_TRUE(on_cpu.ok()) << on_cpu.status().ToString();
  const float tolerance = precision == Precision::kFp16 ? 3e-3f : 1e-6f;
  EXPECT_LE(MaxAbsDifference(on_gpu->at("y"), on_cpu->at("y")), tolerance);
  // A second run moves the same tensors and gives the same answer.
  StatusOr<std::map<std::string, TensorData>> again = (*gpu)->Run({{"x", x}});
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(BitIdentical(again->at("y"), on_gpu->at("y")));

  const PartitionReport& partition = (*gpu)->partition();
  EXPECT_EQ(partition.cpu_tasks, 2u);
  EXPECT_EQ(partition.gpu_tasks, 3u);  // Relu, Mul, Sigmoid
  EXPECT_EQ(partition.cpu_nodes, (std::vector<std::string>{"running_sum (CumSum)", "reverse_sum (CumSum)"}));
  EXPECT_EQ(partition.transfers_to_cpu, 2u);
  EXPECT_EQ(partition.transfers_to_gpu, 2u);
  const uint64_t tensor_bytes = Phwc4Bytes(5, 7, 3) / (precision == Precision::kFp16 ? 2 : 1);
  EXPECT_EQ(partition.bytes_to_cpu, 2 * tensor_bytes);
  EXPECT_EQ(partition.bytes_to_gpu, 2 * tensor_bytes);
  // The planner saw every tensor: the fallback tasks are tasks, and their
  // tensors are pooled like any other.
  ASSERT_EQ((*gpu)->tasks().size(), 5u);
  std::vector<bool> on_cpu_flags;
  for (const TaskInfo& task : (*gpu)->tasks()) on_cpu_flags.push_back(task.on_cpu);
  EXPECT_EQ(on_cpu_flags, (std::vector<bool>{false, true, false, true, false}));
  std::set<std::string> pooled;
  for (const PlacedTensor& tensor : (*gpu)->tensors()) pooled.insert(tensor.name);
  for (const char* name : {"r", "c1", "m", "c2"}) EXPECT_TRUE(pooled.count(name)) << name;
}

INSTANTIATE_TEST_SUITE_P(Objects, CpuFallback,
                         ::testing::Values(std::make_tuple(ObjectKind::kBuffers, Precision::kFp32),
                                           std::make_tuple(ObjectKind::kTextures, Precision::kFp32),
                                           std::make_tuple(ObjectKind::kArena, Precision::kFp32),
                                           std::make_tuple(ObjectKind::kTextures, Precision::kFp16),
                                           std::make_tuple(ObjectKind::kArena, Precision::kFp16)));

TEST(CpuFallbackStrict, RefusesTheModelNamingTheNodeAndOp) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(WriteCumSumModel());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  SessionOptions options;
  options.cpu_fallback = false;
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model, options);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(session.status().message().find("running_sum (CumSum)"), std::string::npos) << session.status().message();
}

TEST(CpuFallbackStrict, AnOpWithNeitherKernelStillFailsNamingIt) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(WriteUnsupportedOpModel());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(session.status().message().find("no CPU fallback"), std::string::npos) << session.status().message();
}

// A case folder of tests/data (scripts/make-fallback-cases.sh: outputs from
// ONNX Runtime) run on the GPU with `objects`: every output within 1e-4 x
// its max |value| of ONNX Runtime's. Returns the session's partition.
PartitionReport RunCaseOnGpu(const std::string& case_name, const std::vector<std::string>& output_names,
                             ObjectKind objects) {
  const std::string dir = std::string(GLPOOL_TEST_DATA_DIR) + "/" + case_name;
  StatusOr<Model> model = Model::Load(dir + "/model.onnx");
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  StatusOr<TensorData> x = LoadTensorFile(dir + "/test_data_set_0/input_0.pb");
  EXPECT_TRUE(x.ok()) << x.status().ToString();
  if (!model.ok() || !x.ok()) return {};
  SessionOptions options;
  options.objects = objects;
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model, options);
  EXPECT_TRUE(session.ok()) << session.status().ToString();
  if (!session.ok()) return {};
  StatusOr<std::map<std::string, TensorData>> outputs = (*session)->Run({{"x", *x}});
  EXPECT_TRUE(outputs.ok()) << outputs.status().ToString();
  if (!outputs.ok()) return {};
  for (size_t i = 0; i < output_names.size(); ++i) {
    const std::string& name = output_names[i];
    StatusOr<TensorData> expected = LoadTensorFile(dir + "/test_data_set_0/output_" + std::to_string(i) + ".pb");
    EXPECT_TRUE(expected.ok()) << expected.status().ToString();
    if (!expected.ok()) continue;
    EXPECT_EQ(outputs->at(name).shape, expected->shape) << name;
    float largest = 0;
    for (float v : expected->ToFloats()) largest = std::max(largest, std::fabs(v));
    EXPECT_LE(MaxAbsDifference(outputs->at(name), *expected), 1e-4f * largest) << case_name << " " << name;
  }
  return (*session)->partition();
}

// A bidirectional LSTM with initial states and peepholes feeding a reverse
// GRU (linear_before_reset): both unrolled by the recurrent lowering, the
// whole model runs on the GPU and matches ONNX Runtime.
TEST(CpuFallbackCases, LstmAndGruMatchOnnxRuntimeInsideAGpuRun) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  for (ObjectKind objects : {ObjectKind::kTextures, ObjectKind::kArena}) {
    const PartitionReport partition = RunCaseOnGpu("recurrent_lstm_gru", {"y", "gru_h", "state_sum"}, objects);
    // Both are unrolled onto the GPU (passes.h, LowerRecurrent): nothing
    // crosses to the CPU.
    EXPECT_EQ(partition.cpu_nodes, (std::vector<std::string>{}));
    EXPECT_EQ(partition.cpu_tasks, 0u);
    EXPECT_GE(partition.gpu_tasks, 40u);
    EXPECT_EQ(partition.transfers_to_cpu, 0u);
    EXPECT_EQ(partition.transfers_to_gpu, 0u);
  }
}

// DynamicQuantizeLinear -> MatMulInteger, QuantizeLinear/DequantizeLinear
// per axis with int8 zero points, QLinearMatMul: uint8/int8/int32 tensors
// cross between GPU storage and the CPU reference exactly.
TEST(CpuFallbackCases, QuantizedOpsMatchOnnxRuntimeInsideAGpuRun) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  for (ObjectKind objects : {ObjectKind::kBuffers, ObjectKind::kTextures}) {
    const PartitionReport partition = RunCaseOnGpu("quantized_ops", {"dense", "x_round", "qdense"}, objects);
    EXPECT_EQ(partition.cpu_tasks, 6u);
    EXPECT_EQ(partition.gpu_tasks, 3u);  // Cast, and the two Muls
  }
}

}  // namespace
}  // namespace glpool::testing_util
