#include <gtest/gtest.h>

#include <random>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

// Multiples of 1/4 in [-2, 2]: exact in fp16, so every precision compares
// the same values, and equal often enough that select_last_index matters.
// Results are then exact: tolerances are 0.
TensorData Quarters(const Shape& shape, uint32_t seed) { return ExactFractions(shape, seed, 4, 2); }

// The indices are int64, which the GPU keeps in fp32 storage in every
// variant, so fp16 variants hold them exactly too.
KernelCase Arg(const std::string& op, const Shape& in, int64_t axis, bool keepdims, const Shape& out,
               bool select_last = false) {
  KernelCase c;
  c.node.name = op + "_node";
  c.node.op_type = op;
  c.node.inputs = {"x"};
  c.node.outputs = {"y"};
  c.node.attributes["axis"] = axis;
  c.node.attributes["keepdims"] = int64_t{keepdims ? 1 : 0};
  if (select_last) c.node.attributes["select_last_index"] = int64_t{1};
  c.inputs["x"] = Quarters(in, 17);
  c.outputs["y"] = out;
  c.output_dtypes["y"] = DataType::kInt64;
  return c;
}

TEST(ArgExtremeTest, ArgMaxOverChannels) {
  for (int64_t channels : {1, 3, 5, 13}) {
    SCOPED_TRACE("C=" + std::to_string(channels));
    ExpectMatchesReference(Arg("ArgMax", {1, channels, 7, 13}, 1, true, {1, 1, 7, 13}),
                           channels == 5 ? AllVariants() : SweepVariants(), 0, 0);
  }
}

TEST(ArgExtremeTest, AxesRanksAndKeepdims) {
  ExpectMatchesReference(Arg("ArgMin", {2, 5, 127}, -1, false, {2, 5}), SweepVariants(), 0, 0);
  ExpectMatchesReference(Arg("ArgMax", {2, 13, 7, 5}, -2, true, {2, 13, 1, 5}), SweepVariants(), 0, 0);
  ExpectMatchesReference(Arg("ArgMin", {7, 13}, 0, true, {1, 13}), SweepVariants(), 0, 0);
  ExpectMatchesReference(Arg("ArgMax", {13}, 0, false, {}), SweepVariants(), 0, 0);
}

TEST(ArgExtremeTest, SelectLastIndexOnTies) {
  // 17 distinct values over axes of 13 and 127: ties on nearly every row.
  for (const char* op : {"ArgMax", "ArgMin"}) {
    SCOPED_TRACE(op);
    ExpectMatchesReference(Arg(op, {1, 5, 7, 13}, 3, true, {1, 5, 7, 1}, true), SweepVariants(), 0, 0);
    ExpectMatchesReference(Arg(op, {3, 127, 1}, 1, false, {3, 1}, true), SweepVariants(), 0, 0);
  }
}

}  // namespace
}  // namespace glpool::testing
