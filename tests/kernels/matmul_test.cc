#include <gtest/gtest.h>

#include "gpu_backend/kernels/kernel_ops.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

KernelCase MatMul(const Shape& a, const Shape& b, const Shape& y, bool b_constant = false) {
  KernelCase c;
  c.node.name = "matmul";
  c.node.op_type = "MatMul";
  c.node.inputs = {"a", "b"};
  c.node.outputs = {"y"};
  c.inputs["a"] = RandomTensor(a, 21);
  (b_constant ? c.constants : c.inputs)["b"] = RandomTensor(b, 22);
  c.outputs["y"] = y;
  return c;
}

TEST(MatMulTest, Matrices) {
  ExpectMatchesReference(MatMul({3, 13}, {13, 5}, {3, 5}));
  ExpectMatchesReference(MatMul({1, 5}, {5, 13}, {1, 13}, true));
  ExpectMatchesReference(MatMul({127, 1}, {1, 3}, {127, 3}, true));
}

TEST(MatMulTest, Batched) {
  ExpectMatchesReference(MatMul({2, 3, 13}, {2, 13, 5}, {2, 3, 5}));        // rank 3
  ExpectMatchesReference(MatMul({2, 3, 7, 5}, {2, 3, 5, 13}, {2, 3, 7, 13}));  // rank 4
}

TEST(MatMulTest, Broadcasting) {
  ExpectMatchesReference(MatMul({2, 7, 13}, {13, 5}, {2, 7, 5}, true));           // Linear on a sequence
  ExpectMatchesReference(MatMul({1, 3, 7, 5}, {2, 1, 5, 3}, {2, 3, 7, 3}));       // both sides broadcast
  ExpectMatchesReference(MatMul({7, 5}, {2, 3, 5, 13}, {2, 3, 7, 13}));           // lower-rank A
  ExpectMatchesReference(MatMul({13}, {13, 5}, {5}));                             // 1-D A
  ExpectMatchesReference(MatMul({2, 3, 13}, {13}, {2, 3}, true));                 // 1-D B
  // A sequence times a [K, N] matrix (a recognizer's class head): Y's
  // columns are B's channels, written 4 per invocation; N and K not
  // multiples of 4.
  ExpectMatchesReference(MatMul({1, 9, 37}, {37, 131}, {1, 9, 131}, true));
  // Blocks of 4 texels by 4 slices, the last of both partial (5 slices, 70
  // columns), K a multiple of 4 and not.
  ExpectMatchesReference(MatMul({1, 18, 36}, {36, 70}, {1, 18, 70}, true));
  ExpectMatchesReference(MatMul({2, 18, 37}, {37, 70}, {2, 18, 70}, true));
}

TEST(MatMulTest, FusedActivation) {
  KernelCase c = MatMul({5, 7}, {7, 3}, {5, 3});
  c.node.attributes["fused_activation"] = std::string("Relu");
  ExpectMatchesReference(c);
}

// The bias FoldBiasIntoMatMul moves in (graph.h): one value per column,
// added before the fused activation, on channels (rank 1 and 2 Y) and on
// W (rank 3 and 4, both the 4-column blocks and single columns).
TEST(MatMulTest, FoldedBias) {
  struct Case {
    Shape a, b, y, bias;
    bool b_constant;
  };
  for (const Case& k : {Case{{13}, {13, 5}, {5}, {5}, true}, Case{{3, 13}, {13, 6}, {3, 6}, {6}, false},
                        Case{{1, 9, 37}, {37, 131}, {1, 9, 131}, {131}, true},
                        Case{{2, 3, 7, 5}, {2, 3, 5, 13}, {2, 3, 7, 13}, {1, 13}, false}}) {
    SCOPED_TRACE(ShapeToString(k.y));
    KernelCase c = MatMul(k.a, k.b, k.y, k.b_constant);
    c.node.inputs.push_back("bias");
    c.constants["bias"] = RandomTensor(k.bias, 23);
    c.node.attributes["fused_activation"] = std::string("Relu");
    ExpectMatchesReference(c);
  }
}

TEST(MatMulTest, RankFiveIsUnsupported) {
  const KernelCase c = MatMul({2, 2, 2, 3, 4}, {2, 2, 2, 4, 5}, {2, 2, 2, 3, 5});
  const Graph graph = GraphOf(c);
  auto plan = BuildMatMul(graph, graph.nodes[0], KernelLimits{});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(plan.status().message().find("rank 5"), std::string::npos) << plan.status().ToString();
}

}  // namespace
}  // namespace glpool::testing
