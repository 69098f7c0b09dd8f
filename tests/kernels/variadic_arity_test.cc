// Concat, Sum, Mean, Max and Min of any arity on the GPU: nodes wider than
// a task may bind run as trees of tasks (SplitWideVariadics, at the width
// the context's binding limits allow: runtime/binding_limits.h).
#include <gtest/gtest.h>

#include <algorithm>

#include "gpu_backend/runtime/binding_limits.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

// `count` inputs; Concat's along channels with sizes 1..5 (never a
// multiple of 4 throughout, so lane-by-lane mode too), the elementwise ops'
// every third input broadcasting along channels.
KernelCase Wide(const std::string& op, size_t count) {
  KernelCase c;
  c.node.name = op + "_node";
  c.node.op_type = op;
  int64_t channels = 0;
  for (size_t i = 0; i < count; ++i) {
    const std::string name = "x" + std::to_string(i);
    c.node.inputs.push_back(name);
    Shape shape = {1, 5, 3, 7};
    if (op == "Concat") {
      shape[1] = 1 + static_cast<int64_t>(i * 7 % 5);
      channels += shape[1];
    } else if (i % 3 == 2) {
      shape[1] = 1;
    }
    c.inputs[name] = RandomTensor(shape, static_cast<uint32_t>(101 + i));
  }
  if (op == "Concat") c.node.attributes["axis"] = int64_t{1};
  c.node.outputs = {"y"};
  c.outputs["y"] = {1, op == "Concat" ? channels : 5, 3, 7};
  return c;
}

const char* const kOps[] = {"Concat", "Sum", "Mean", "Max", "Min"};

// Every object kind in fp32 at 8, 13 and 32 inputs, and in fp16 at 13
// (each variant compiles its shaders: ~0.5 s each on llvmpipe). No graph
// passes: the executor alone splits what the context cannot bind.
void ExpectEveryArityMatches(const std::string& op) {
  std::vector<ExecutorOptions> fp32, fp16;
  for (const ExecutorOptions& options : AllVariants()) {
    (options.precision == Precision::kFp32 ? fp32 : fp16).push_back(options);
  }
  for (size_t count : {8u, 13u, 32u}) {
    SCOPED_TRACE(op + " of " + std::to_string(count));
    ExpectMatchesReference(Wide(op, count), fp32);
    if (count == 13) ExpectMatchesReference(Wide(op, count), fp16);
  }
}

TEST(VariadicArityTest, Concat) { ExpectEveryArityMatches("Concat"); }
TEST(VariadicArityTest, Sum) { ExpectEveryArityMatches("Sum"); }
TEST(VariadicArityTest, Mean) { ExpectEveryArityMatches("Mean"); }
TEST(VariadicArityTest, Max) { ExpectEveryArityMatches("Max"); }
TEST(VariadicArityTest, Min) { ExpectEveryArityMatches("Min"); }

// One tensor read by many inputs (x * x style): a partial may bind it more
// than once, which is allowed for reads, and the tree must still add up.
TEST(VariadicArityTest, RepeatedInputs) {
  for (const char* op : {"Concat", "Sum", "Mean"}) {
    SCOPED_TRACE(op);
    KernelCase c = Wide(op, 2);
    const std::vector<std::string> two = c.node.inputs;
    c.node.inputs.clear();
    int64_t channels = 0;
    for (int i = 0; i < 11; ++i) {
      c.node.inputs.push_back(two[i % 3 == 0 ? 0 : 1]);
      channels += c.inputs.at(c.node.inputs.back()).shape[1];
    }
    if (std::string(op) == "Concat") c.outputs["y"][1] = channels;
    ExpectMatchesReference(c, SweepVariants());
  }
}

// A device with GLES 3.1's minimum (4 storage blocks / image units): trees
// of at most 3 inputs, deeper than the default ones.
TEST(VariadicArityTest, SmallestGuaranteedBindingLimit) {
  std::vector<ExecutorOptions> variants;
  for (const ExecutorOptions& options : AllVariants()) {
    if (options.precision == Precision::kFp32 || options.objects == ObjectKind::kTextures) {
      variants.push_back(options);
      variants.back().max_task_bindings = 4;
    }
  }
  for (const char* op : kOps) {
    SCOPED_TRACE(op);
    ExpectMatchesReference(Wide(op, 13), variants);
  }
}

// Each task binds at most the limit, the partial results are tasks of
// their own, and none of them falls back to the CPU.
TEST(VariadicArityTest, TasksStayWithinTheBindingLimit) {
  for (uint32_t bindings : {4u, 5u, 8u}) {
    for (ObjectKind kind : {ObjectKind::kTextures, ObjectKind::kBuffers, ObjectKind::kArena}) {
      ExecutorOptions options;
      options.objects = kind;
      options.max_task_bindings = bindings;
      for (const char* op : kOps) {
        SCOPED_TRACE(std::string(op) + " " + ObjectKindName(kind) + " bindings " + std::to_string(bindings));
        StatusOr<std::vector<TaskInfo>> tasks = TasksOnGpu(Wide(op, 32), options);
        ASSERT_TRUE(tasks.ok()) << tasks.status().ToString();
        // A tree over 32 leaves with fan-in f has at least ceil(31 / (f - 1)) nodes.
        const size_t fan_in = bindings - 1;
        EXPECT_GE(tasks->size(), (31 + fan_in - 2) / (fan_in - 1));
        for (const TaskInfo& task : *tasks) {
          EXPECT_FALSE(task.on_cpu) << task.node;
          EXPECT_LE(task.tensors.size(), bindings) << task.node;
        }
      }
    }
  }
}

TEST(VariadicArityTest, WidthFollowsTheContext) {
  StatusOr<GlInfo> info = ContextInfo();
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  const int64_t buffers = TaskBindingLimit(*info, ObjectKind::kBuffers, 0);
  EXPECT_EQ(buffers, info->max_compute_ssbo_blocks);
  EXPECT_LE(TaskBindingLimit(*info, ObjectKind::kTextures, 0), info->max_compute_image_uniforms);
  EXPECT_EQ(TaskBindingLimit(*info, ObjectKind::kArena, 6), std::min<int64_t>(6, buffers));
  StatusOr<size_t> width = VariadicSplitWidth(*info, ObjectKind::kBuffers, 4);
  ASSERT_TRUE(width.ok());
  EXPECT_EQ(*width, 3u);
  GlInfo tiny = *info;
  tiny.max_compute_ssbo_blocks = 2;
  StatusOr<size_t> refused = VariadicSplitWidth(tiny, ObjectKind::kArena, 0);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS 2"), std::string::npos)
      << refused.status().message();
}

}  // namespace
}  // namespace glpool::testing
