#include <gtest/gtest.h>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

KernelCase Reduce(const std::string& op, const Shape& in, const std::vector<int64_t>& axes, bool keepdims,
                  const Shape& out) {
  KernelCase c;
  c.node.name = op + "_node";
  c.node.op_type = op;
  c.node.inputs = {"x"};
  c.node.outputs = {"y"};
  c.node.attributes["keepdims"] = int64_t{keepdims ? 1 : 0};
  if (op == "ReduceSum") {
    c.node.inputs.push_back("axes");
    c.constants["axes"] = TensorData::FromInt64s({int64_t(axes.size())}, axes);
  } else {
    c.node.attributes["axes"] = axes;
  }
  c.inputs["x"] = RandomTensor(in, 51, op == "ReduceLogSum" || op == "ReduceProd" ? 0.5f : -2.0f, 2.0f);
  c.outputs["y"] = out;
  return c;
}

TEST(ReduceTest, SpatialMeanAndChannelSum) {
  for (int64_t channels : {1, 3, 5, 13}) {
    SCOPED_TRACE("C=" + std::to_string(channels));
    ExpectMatchesReference(Reduce("ReduceMean", {1, channels, 7, 13}, {2, 3}, true, {1, channels, 1, 1}),
                           channels == 5 ? AllVariants() : SweepVariants());
  }
  ExpectMatchesReference(Reduce("ReduceSum", {2, 13, 7, 5}, {1}, false, {2, 7, 5}), SweepVariants());
  ExpectMatchesReference(Reduce("ReduceMax", {2, 5, 127, 1}, {-2}, true, {2, 5, 1, 1}), SweepVariants());
}

TEST(ReduceTest, EveryOpAndNoKeepdims) {
  for (const char* op :
       {"ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"}) {
    SCOPED_TRACE(op);
    ExpectMatchesReference(Reduce(op, {1, 5, 7, 3}, {1, 3}, false, {1, 7}), {SweepVariants()[0]});
  }
  ExpectMatchesReference(Reduce("ReduceMean", {3, 5}, {0, 1}, false, {}), SweepVariants());
}

}  // namespace
}  // namespace glpool::testing
