#include <gtest/gtest.h>

#include <utility>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

struct GemmSpec {
  int64_t m = 3, k = 13, n = 5;
  bool trans_a = false, trans_b = false;
  float alpha = 1.0f, beta = 1.0f;
  bool b_constant = true;
  Shape c;                 // empty: no C (tests add a scalar C by hand)
  bool c_constant = true;
};

KernelCase Gemm(const GemmSpec& spec) {
  KernelCase c;
  c.node.name = "gemm";
  c.node.op_type = "Gemm";
  c.node.inputs = {"a", "b"};
  c.node.outputs = {"y"};
  c.node.attributes["transA"] = int64_t{spec.trans_a};
  c.node.attributes["transB"] = int64_t{spec.trans_b};
  c.node.attributes["alpha"] = spec.alpha;
  c.node.attributes["beta"] = spec.beta;
  c.inputs["a"] = RandomTensor(spec.trans_a ? Shape{spec.k, spec.m} : Shape{spec.m, spec.k}, 11);
  (spec.b_constant ? c.constants : c.inputs)["b"] =
      RandomTensor(spec.trans_b ? Shape{spec.n, spec.k} : Shape{spec.k, spec.n}, 12);
  if (!spec.c.empty()) {
    c.node.inputs.push_back("c");
    (spec.c_constant ? c.constants : c.inputs)["c"] = RandomTensor(spec.c, 13);
  }
  c.outputs["y"] = {spec.m, spec.n};
  return c;
}

TEST(GemmTest, ClassifierShapes) {
  // mobilenet's classifier: [1, K] x [N, K]^T + [N], with odd sizes.
  for (const auto& [k, n] : {std::pair<int64_t, int64_t>{1, 1}, {3, 13}, {13, 5}}) {
    GemmSpec spec;
    spec.m = 1;
    spec.k = k;
    spec.n = n;
    spec.trans_b = true;
    spec.c = {n};
    SCOPED_TRACE("K " + std::to_string(k) + " N " + std::to_string(n));
    ExpectMatchesReference(Gemm(spec));
  }
}

// Outputs one column wide put the dispatch's x on the slices (matmul.cc):
// more slices than one work group holds, several rows, a runtime C too.
TEST(GemmTest, ManySlicesAndRows) {
  for (const auto& [m, n] : {std::pair<int64_t, int64_t>{1, 301}, {5, 270}, {70, 9}}) {
    GemmSpec spec;
    spec.m = m;
    spec.k = 6;
    spec.n = n;
    spec.c = {n};
    SCOPED_TRACE("M " + std::to_string(m) + " N " + std::to_string(n));
    ExpectMatchesReference(Gemm(spec));
  }
}

TEST(GemmTest, TransposesAlphaBeta) {
  for (bool trans_a : {false, true}) {
    for (bool trans_b : {false, true}) {
      GemmSpec spec;
      spec.m = 7;
      spec.trans_a = trans_a;
      spec.trans_b = trans_b;
      spec.alpha = 0.5f;
      spec.beta = -2.0f;
      spec.c = {1, 5};
      spec.b_constant = trans_a;  // both activation and constant B
      SCOPED_TRACE(std::string("transA ") + (trans_a ? "1" : "0") + " transB " + (trans_b ? "1" : "0"));
      ExpectMatchesReference(Gemm(spec));
    }
  }
}

TEST(GemmTest, ConstantBiasShapes) {
  for (const Shape& bias : {Shape{}, Shape{5}, Shape{3, 5}, Shape{3, 1}}) {
    GemmSpec spec;
    spec.c = bias;
    SCOPED_TRACE("C " + ShapeToString(bias));
    KernelCase c = Gemm(spec);
    if (bias.empty()) {  // Gemm() leaves out an empty C: add the scalar by hand
      c.node.inputs.push_back("c");
      c.constants["c"] = RandomTensor({}, 14);
    }
    ExpectMatchesReference(c);
  }
  GemmSpec none;
  ExpectMatchesReference(Gemm(none));
}

// A constant B with A not transposed and C a column bias runs as a 1x1 conv
// (gemm.cc); alpha, beta and either B layout must survive the packing.
// Transposed A, a per-row C and a B given at run time stay matmul.comp's.
TEST(GemmTest, ConstantBRunsAsPointwiseConv) {
  struct Case {
    bool trans_a, trans_b;
    Shape c;
    const char* shader;
  };
  for (const Case& k : {Case{false, false, {5}, "conv"}, Case{false, true, {1, 5}, "conv"},
                        Case{false, true, {1}, "conv"}, Case{true, true, {5}, "matmul"},
                        Case{false, false, {3, 5}, "matmul"}}) {
    GemmSpec spec;
    spec.trans_a = k.trans_a;
    spec.trans_b = k.trans_b;
    spec.alpha = 0.5f;
    spec.beta = -2.0f;
    spec.c = k.c;
    SCOPED_TRACE(std::string("transA ") + (k.trans_a ? "1" : "0") + " transB " + (k.trans_b ? "1" : "0") + " C " +
                 ShapeToString(k.c));
    const KernelCase c = Gemm(spec);
    StatusOr<std::vector<TaskInfo>> tasks = TasksOnGpu(c, ExecutorOptions{});
    ASSERT_TRUE(tasks.ok()) << tasks.status().ToString();
    ASSERT_EQ(tasks->size(), 1u);
    EXPECT_EQ(tasks->front().shader, k.shader);
    ExpectMatchesReference(c);
  }
}

TEST(GemmTest, RuntimeBias) {
  // As the ONNX node tests feed Gemm: every operand a graph input.
  for (const Shape& bias : {Shape{3, 5}, Shape{1}}) {
    GemmSpec spec;
    spec.b_constant = false;
    spec.c = bias;
    spec.c_constant = false;
    spec.trans_a = bias.size() == 1;
    spec.alpha = 0.25f;
    spec.beta = 0.5f;
    SCOPED_TRACE("C " + ShapeToString(bias));
    ExpectMatchesReference(Gemm(spec));
  }
}

TEST(GemmTest, FusedActivation) {
  GemmSpec spec;
  spec.m = 2;
  spec.k = 127;
  spec.n = 13;
  spec.trans_b = true;
  spec.c = {13};
  KernelCase c = Gemm(spec);
  c.node.attributes["fused_activation"] = std::string("Clip");
  c.node.attributes["fused_activation_params"] = std::vector<float>{-0.5f, 0.5f};
  ExpectMatchesReference(c);
}

}  // namespace
}  // namespace glpool::testing
