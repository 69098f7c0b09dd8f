// fp16 calibration's accuracy search (gpu_backend/runtime/fp16_calibration.h)
// on a chain whose second node makes half lose the answer: x in [0, 1) plus
// 1000 is stored to within 0.25 in half (its spacing there is 0.5), and
// subtracting 1000 again leaves that error on values below 1. Keeping the
// first two nodes' outputs in fp32 is the smallest prefix that passes;
// the nodes after them stay half.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu_backend/runtime/executor.h"
#include "gpu_backend/runtime/fp16_calibration.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

constexpr char kInput[] = "x";

Node Binary(const std::string& op, const std::string& a, const std::string& b, const std::string& out) {
  Node node;
  node.name = op + "_" + out;
  node.op_type = op;
  node.inputs = {a, b};
  node.outputs = {out};
  return node;
}

// x -> Relu -> +1000 -> -1000 -> Relu -> *2 -> y
Graph OffsetChain(float offset) {
  Graph graph;
  graph.name = "offset_chain";
  graph.opset = 17;
  const Shape shape = {1, 4, 8, 8};
  graph.tensors[kInput] = Tensor{kInput, DataType::kFloat32, shape, false, {}};
  graph.inputs.push_back(kInput);
  graph.tensors["offset"] = Tensor{"offset", DataType::kFloat32, {}, true, TensorData::FromFloats({}, {offset})};
  graph.tensors["two"] = Tensor{"two", DataType::kFloat32, {}, true, TensorData::FromFloats({}, {2.0f})};
  for (const char* name : {"a", "b", "c", "d", "y"}) {
    graph.tensors[name] = Tensor{name, DataType::kFloat32, shape, false, {}};
  }
  Node relu;
  relu.name = "relu_a";
  relu.op_type = "Relu";
  relu.inputs = {kInput};
  relu.outputs = {"a"};
  graph.nodes.push_back(relu);
  graph.nodes.push_back(Binary("Add", "a", "offset", "b"));
  graph.nodes.push_back(Binary("Sub", "b", "offset", "c"));
  relu.name = "relu_d";
  relu.inputs = {"c"};
  relu.outputs = {"d"};
  graph.nodes.push_back(relu);
  graph.nodes.push_back(Binary("Mul", "d", "two", "y"));
  graph.outputs.push_back("y");
  return graph;
}

// The outputs' error of an fp16 run with `fp32_tensors` against fp32.
double MeasuredError(const Graph& graph, const std::map<std::string, TensorData>& inputs,
                     const std::set<std::string>& fp32_tensors) {
  ExecutorOptions options;
  auto reference = Executor::Create(graph, options);
  EXPECT_TRUE(reference.ok()) << reference.status().ToString();
  auto expected = (*reference)->Run(inputs);
  EXPECT_TRUE(expected.ok()) << expected.status().ToString();
  options.precision = Precision::kFp16;
  options.objects = ObjectKind::kTextures;  // not the calibration's own kind
  options.fp32_tensors = fp32_tensors;
  auto half = Executor::Create(graph, options);
  EXPECT_TRUE(half.ok()) << half.status().ToString();
  auto measured = (*half)->Run(inputs);
  EXPECT_TRUE(measured.ok()) << measured.status().ToString();
  return MaxRelativeOutputError(*expected, *measured);
}

class Fp16CalibrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Makes the kernel tests' shared GL context current.
    KernelCase probe;
    probe.node.op_type = "Relu";
    probe.node.inputs = {kInput};
    probe.node.outputs = {"y"};
    probe.inputs[kInput] = RandomTensor({1, 4}, 1);
    probe.outputs["y"] = {1, 4};
    ASSERT_TRUE(CreateOnGpu(probe).ok());
    inputs_[kInput] = RandomTensor({1, 4, 8, 8}, 7, 0.0f, 1.0f);
  }
  std::map<std::string, TensorData> inputs_;
};

TEST_F(Fp16CalibrationTest, KeepsTheShortestPrefixThatMeetsTheTolerance) {
  const Graph graph = OffsetChain(1000.0f);
  StatusOr<Fp16Calibration> calibration = CalibrateFp16(graph, inputs_, Fp16CalibrationOptions{});
  ASSERT_TRUE(calibration.ok()) << calibration.status().ToString();
  EXPECT_GT(calibration->half_error, 0.05) << "all-half storage should lose the values below 1";
  EXPECT_EQ(calibration->fp32_nodes, 2u);
  EXPECT_TRUE(calibration->accuracy_tensors.count("b"));
  EXPECT_FALSE(calibration->accuracy_tensors.count("c"));
  EXPECT_FALSE(calibration->accuracy_tensors.count("d"));
  EXPECT_LE(calibration->error, kDefaultFp16Tolerance);
  EXPECT_GE(calibration->probe_runs, 2u);
  // The chosen set holds on another object kind too, measured afresh.
  EXPECT_LE(MeasuredError(graph, inputs_, calibration->Fp32Tensors()), kDefaultFp16Tolerance);
  EXPECT_GT(MeasuredError(graph, inputs_, calibration->range_tensors), kDefaultFp16Tolerance);
}

TEST_F(Fp16CalibrationTest, AModelHalfHoldsNeedsOneProbeAndKeepsNothing) {
  // An offset of 1 keeps every value within half's precision.
  StatusOr<Fp16Calibration> calibration = CalibrateFp16(OffsetChain(1.0f), inputs_, Fp16CalibrationOptions{});
  ASSERT_TRUE(calibration.ok()) << calibration.status().ToString();
  EXPECT_LE(calibration->half_error, kDefaultFp16Tolerance);
  EXPECT_EQ(calibration->probe_runs, 1u);
  EXPECT_EQ(calibration->fp32_nodes, 0u);
  EXPECT_TRUE(calibration->accuracy_tensors.empty());
}

TEST_F(Fp16CalibrationTest, ZeroToleranceCalibratesTheRangeOnly) {
  Fp16CalibrationOptions options;
  options.tolerance = 0;
  StatusOr<Fp16Calibration> calibration = CalibrateFp16(OffsetChain(1000.0f), inputs_, options);
  ASSERT_TRUE(calibration.ok()) << calibration.status().ToString();
  EXPECT_EQ(calibration->probe_runs, 0u);
  EXPECT_TRUE(calibration->accuracy_tensors.empty());
}

TEST_F(Fp16CalibrationTest, AnExhaustedBudgetKeepsEveryNodeInFp32) {
  Fp16CalibrationOptions options;
  options.budget_seconds = 0;  // the all-half probe runs, then the deadline has passed
  StatusOr<Fp16Calibration> calibration = CalibrateFp16(OffsetChain(1000.0f), inputs_, options);
  ASSERT_TRUE(calibration.ok()) << calibration.status().ToString();
  EXPECT_TRUE(calibration->deadline_hit);
  EXPECT_EQ(calibration->fp32_nodes, 5u);
  EXPECT_EQ(calibration->error, 0.0);
  EXPECT_TRUE(calibration->accuracy_tensors.count("d"));
}

TEST(Fp16OutputError, IsRelativeToTheLargestReferenceValue) {
  std::map<std::string, TensorData> reference = {{"y", TensorData::FromFloats({3}, {4.0f, -8.0f, 1.0f})}};
  std::map<std::string, TensorData> measured = {{"y", TensorData::FromFloats({3}, {4.0f, -8.0f, 1.4f})}};
  EXPECT_NEAR(MaxRelativeOutputError(reference, measured), 0.05, 1e-6);
  measured["y"] = TensorData::FromFloats({3}, {4.0f, NAN, 1.0f});
  EXPECT_TRUE(std::isinf(MaxRelativeOutputError(reference, measured)));
}

}  // namespace
}  // namespace glpool::testing
