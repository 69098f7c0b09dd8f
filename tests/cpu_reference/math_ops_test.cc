// Gemm, MatMul and the normalizations.
#include <cmath>

#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

using testing_util::ExpectFloats;
using testing_util::Floats;
using testing_util::RunFloatOp;

const TensorData kA = Floats({2, 3}, {1, 2, 3, 4, 5, 6});
const TensorData kB = Floats({3, 2}, {1, 0, 0, 1, 1, 1});

TEST(GemmTest, AlphaBetaAndBroadcastC) {
  ExpectFloats(RunFloatOp("Gemm", {kA, kB}), {2, 2}, {4, 5, 10, 11});
  ExpectFloats(RunFloatOp("Gemm", {kA, kB, Floats({2}, {1, 2})}, {{"alpha", 2.0f}}), {2, 2}, {9, 12, 21, 24});
  ExpectFloats(RunFloatOp("Gemm", {kA, kB, Floats({1}, {1})}, {{"beta", 3.0f}}), {2, 2}, {7, 8, 13, 14});
}

TEST(GemmTest, Transposes) {
  const TensorData at = Floats({3, 2}, {1, 4, 2, 5, 3, 6});
  const TensorData bt = Floats({2, 3}, {1, 0, 1, 0, 1, 1});
  ExpectFloats(RunFloatOp("Gemm", {at, bt}, {{"transA", int64_t{1}}, {"transB", int64_t{1}}}), {2, 2},
               {4, 5, 10, 11});
}

TEST(MatMulTest, BatchesBroadcastAndVectorsPromote) {
  const TensorData a = Floats({2, 1, 2}, {1, 2, 3, 4});
  const TensorData b = Floats({2, 1}, {1, 1});
  ExpectFloats(RunFloatOp("MatMul", {a, b}), {2, 1, 1}, {3, 7});
  ExpectFloats(RunFloatOp("MatMul", {Floats({3}, {1, 2, 3}), Floats({3}, {4, 5, 6})}), {}, {32});
  ExpectFloats(RunFloatOp("MatMul", {kA, Floats({3}, {1, 1, 1})}), {2}, {6, 15});
}

TEST(NormalizationTest, BatchNormalizationInference) {
  // y = (x - mean) / sqrt(var + eps) * scale + bias per channel.
  const TensorData x = Floats({1, 2, 1, 2}, {1, 3, 10, 20});
  const TensorData y = RunFloatOp("BatchNormalization",
                                  {x, Floats({2}, {1, 2}), Floats({2}, {0, 1}), Floats({2}, {2, 10}),
                                   Floats({2}, {4, 25})},
                                  {{"epsilon", 0.0f}});
  ExpectFloats(y, {1, 2, 1, 2}, {-0.5f, 0.5f, 1, 5});
}

TEST(NormalizationTest, LayerNormalizationOverTheLastAxis) {
  // Mean 2, variance 2/3 per row.
  const float k = 1 / std::sqrt(2 / 3.0f + 1e-5f);
  ExpectFloats(RunFloatOp("LayerNormalization",
                          {Floats({2, 3}, {1, 2, 3, 2, 3, 4}), Floats({3}, {1, 1, 2}), Floats({3}, {0, 1, 0})},
                          {}, 17),
               {2, 3}, {-k, 1, 2 * k, -k, 1, 2 * k});
}

TEST(NormalizationTest, InstanceNormalizationPerChannel) {
  const float k = 1 / std::sqrt(1.0f + 1e-5f);
  ExpectFloats(RunFloatOp("InstanceNormalization",
                          {Floats({1, 1, 2}, {1, 3}), Floats({1}, {2}), Floats({1}, {1})}),
               {1, 1, 2}, {1 - 2 * k, 1 + 2 * k});
}

}  // namespace
}  // namespace glpool
