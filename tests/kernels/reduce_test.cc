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

// A mean or max over H and W runs as a global pool (reduce.cc): kept dims
// or not, negative axes, both sides of the pool's serial/tree threshold;
// other reductions of the plane stay reduce.comp's.
TEST(ReduceTest, PlaneMeanAndMaxRunAsGlobalPools) {
  struct Case {
    const char* op;
    Shape in;
    std::vector<int64_t> axes;
    bool keepdims;
    const char* shader;
  };
  for (const Case& k : {Case{"ReduceMean", {2, 13, 7, 5}, {2, 3}, false, "pool"},
                        Case{"ReduceMean", {1, 6, 40, 30}, {-1, -2}, true, "pool"},
                        Case{"ReduceMax", {1, 5, 7, 13}, {3, 2}, false, "pool"},
                        Case{"ReduceSum", {1, 5, 7, 13}, {2, 3}, false, "reduce"}}) {
    SCOPED_TRACE(std::string(k.op) + " " + ShapeToString(k.in) + (k.keepdims ? " keepdims" : ""));
    const Shape out = k.keepdims ? Shape{k.in[0], k.in[1], 1, 1} : Shape{k.in[0], k.in[1]};
    const KernelCase c = Reduce(k.op, k.in, k.axes, k.keepdims, out);
    StatusOr<std::vector<TaskInfo>> tasks = TasksOnGpu(c, ExecutorOptions{});
    ASSERT_TRUE(tasks.ok()) << tasks.status().ToString();
    ASSERT_EQ(tasks->size(), 1u);
    EXPECT_EQ(tasks->front().shader, k.shader);
    ExpectMatchesReference(c, SweepVariants());
  }
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
