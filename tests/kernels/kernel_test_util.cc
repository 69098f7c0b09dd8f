#include "tests/kernels/kernel_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <random>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/cpu_reference/value.h"
#include "gpu_backend/gl/gl_context.h"
#include "gpu_backend/gl/gl_info.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/runtime/gpu_values.h"

namespace glpool::testing {

TensorData RandomTensor(const Shape& shape, uint32_t seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> values(static_cast<size_t>(ElementCount(shape)));
  for (float& v : values) v = dist(rng);
  return TensorData::FromFloats(shape, values);
}

TensorData ExactFractions(const Shape& shape, uint32_t seed, int denominator, int limit) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-limit * denominator, limit * denominator);
  std::vector<double> values(static_cast<size_t>(ElementCount(shape)));
  for (double& v : values) v = static_cast<double>(dist(rng)) / denominator;
  return TypedTensor(DataType::kFloat32, shape, values);
}

TensorData TypedTensor(DataType dtype, const Shape& shape, const std::vector<double>& values) {
  cpu_reference::Value value;
  value.dtype = dtype;
  value.shape = shape;
  for (double v : values) {
    if (cpu_reference::IsFloatingType(dtype)) {
      value.floats.push_back(static_cast<float>(v));
    } else {
      value.ints.push_back(cpu_reference::WrapToType(dtype, static_cast<int64_t>(v)));
    }
  }
  return cpu_reference::ValueToTensorData(value);
}

std::string PlanDefine(const KernelPlan& plan, const std::string& name) {
  for (const auto& [key, value] : plan.defines) {
    if (key == name) return value;
  }
  return "";
}

Graph GraphOf(const KernelCase& c) {
  Graph graph;
  graph.name = c.node.op_type + "_case";
  graph.opset = c.opset;
  for (const auto& [name, data] : c.inputs) {
    graph.tensors[name] = Tensor{name, data.dtype, data.shape, false, {}};
    graph.inputs.push_back(name);
  }
  for (const auto& [name, data] : c.constants) {
    graph.tensors[name] = Tensor{name, data.dtype, data.shape, true, data};
  }
  for (const auto& [name, shape] : c.outputs) {
    auto dtype = c.output_dtypes.find(name);
    graph.tensors[name] = Tensor{name, dtype == c.output_dtypes.end() ? DataType::kFloat32 : dtype->second, shape,
                                 false, {}};
    graph.outputs.push_back(name);
  }
  graph.nodes.push_back(c.node);
  return graph;
}

namespace {

gl::GlContext* SharedContext(std::string* error) {
  static std::unique_ptr<gl::GlContext> context;
  static std::string failure;
  if (!context && failure.empty()) {
    auto created = gl::CreateHeadlessContext();
    if (created.ok()) {
      context = std::move(created).value();
    } else {
      failure = created.status().ToString();
    }
  }
  *error = failure;
  return context.get();
}

}  // namespace

Comparison CompareWithReference(const KernelCase& c, const ExecutorOptions& options) {
  Comparison result;
  std::string context_error;
  if (SharedContext(&context_error) == nullptr) {
    result.error = "no GLES 3.1 context: " + context_error;
    return result;
  }
  const Graph graph = GraphOf(c);
  auto reference = cpu_reference::RunGraph(graph, c.inputs);
  if (!reference.ok()) {
    result.error = "CPU reference: " + reference.status().ToString();
    return result;
  }
  Graph gpu_graph = graph;
  if (c.default_passes) {
    Status passes = RunDefaultPasses(gpu_graph);
    if (!passes.ok()) {
      result.error = "graph passes: " + passes.ToString();
      return result;
    }
  }
  auto executor = Executor::Create(gpu_graph, options);
  if (!executor.ok()) {
    result.error = "GPU executor: " + executor.status().ToString();
    return result;
  }
  auto outputs = (*executor)->Run(c.inputs);
  if (!outputs.ok()) {
    result.error = "GPU run: " + outputs.status().ToString();
    return result;
  }
  for (const auto& [name, expected] : *reference) {
    auto it = outputs->find(name);
    if (it == outputs->end()) {
      result.error = "GPU produced no output " + name;
      return result;
    }
    if (expected.element_count() != it->second.element_count()) {
      result.error = "output " + name + " has " + std::to_string(it->second.element_count()) + " values, expected " +
                     std::to_string(expected.element_count());
      return result;
    }
    OutputComparison output;
    output.name = name;
    output.exact = IsIntegerOrBool(expected.dtype);
    if (output.exact) {
      // Compared as integers: floats would round values past 2^24.
      const std::vector<int64_t> want = expected.ToInt64s();
      const std::vector<int64_t> got = it->second.ToInt64s();
      for (size_t i = 0; i < want.size(); ++i) {
        output.max_abs_error = std::max(output.max_abs_error, static_cast<float>(std::llabs(got[i] - want[i])));
        output.max_abs_reference = std::max(output.max_abs_reference, static_cast<float>(std::llabs(want[i])));
      }
    } else {
      const std::vector<float> want = expected.ToFloats();
      const std::vector<float> got = it->second.ToFloats();
      for (size_t i = 0; i < want.size(); ++i) {
        const float error = std::isnan(got[i]) != std::isnan(want[i]) ? INFINITY
                            : std::isnan(want[i])                     ? 0.0f
                                                                      : std::fabs(got[i] - want[i]);
        output.max_abs_error = std::max(output.max_abs_error, error);
        if (!std::isnan(want[i])) output.max_abs_reference = std::max(output.max_abs_reference, std::fabs(want[i]));
      }
    }
    result.outputs.push_back(std::move(output));
  }
  result.ran = true;
  return result;
}

Status CreateOnGpu(const KernelCase& c, const ExecutorOptions& options) {
  std::string context_error;
  if (SharedContext(&context_error) == nullptr) return UnavailableError("no GLES 3.1 context: " + context_error);
  return Executor::Create(GraphOf(c), options).status();
}

StatusOr<std::vector<TaskInfo>> TasksOnGpu(const KernelCase& c, const ExecutorOptions& options) {
  std::string context_error;
  if (SharedContext(&context_error) == nullptr) return UnavailableError("no GLES 3.1 context: " + context_error);
  GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<Executor> executor, Executor::Create(GraphOf(c), options));
  return executor->tasks();
}

StatusOr<GlInfo> ContextInfo() {
  std::string context_error;
  if (SharedContext(&context_error) == nullptr) return UnavailableError("no GLES 3.1 context: " + context_error);
  return gl::QueryGlInfo();
}

std::vector<ExecutorOptions> AllVariants() {
  std::vector<ExecutorOptions> variants;
  for (ObjectKind kind : {ObjectKind::kTextures, ObjectKind::kBuffers, ObjectKind::kArena}) {
    for (Precision precision : {Precision::kFp32, Precision::kFp16}) {
      ExecutorOptions options;
      options.objects = kind;
      options.precision = precision;
      variants.push_back(options);
    }
  }
  return variants;
}

std::string VariantName(const ExecutorOptions& options) {
  return std::string(ObjectKindName(options.objects)) + "/" + PrecisionName(options.precision);
}

std::vector<ExecutorOptions> SweepVariants() {
  ExecutorOptions buffers, textures;
  buffers.objects = ObjectKind::kBuffers;
  textures.objects = ObjectKind::kTextures;
  textures.precision = Precision::kFp16;
  return {buffers, textures};
}

void ExpectMatchesReference(const KernelCase& c, float fp32_tolerance, float fp16_tolerance) {
  ExpectMatchesReference(c, AllVariants(), fp32_tolerance, fp16_tolerance);
}

void ExpectMatchesReference(const KernelCase& c, const std::vector<ExecutorOptions>& variants, float fp32_tolerance,
                            float fp16_tolerance) {
  for (const ExecutorOptions& options : variants) {
    const Comparison result = CompareWithReference(c, options);
    ASSERT_TRUE(result.ran) << VariantName(options) << ": " << result.error;
    const float tolerance = options.precision == Precision::kFp16 ? fp16_tolerance : fp32_tolerance;
    for (const OutputComparison& output : result.outputs) {
      const float scale = output.max_abs_reference > 0 ? output.max_abs_reference : 1.0f;
      EXPECT_LE(output.max_abs_error, output.exact ? 0.0f : tolerance * scale)
          << c.node.op_type << " " << VariantName(options) << ", output " << output.name
          << (output.exact ? " (exact)" : "") << ": max abs error " << output.max_abs_error
          << " against max |reference| " << output.max_abs_reference;
    }
  }
}

}  // namespace glpool::testing
