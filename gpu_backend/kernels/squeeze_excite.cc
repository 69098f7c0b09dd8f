// SqueezeExcite (graph.h, FuseSqueezeExcite): shaders/squeeze_excite.comp,
// one work group per image.
#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {
namespace {

// W [rows, columns, 1, 1] as the shader's mat4s: for row slice r and column
// slice s, 4 vec4s whose vec4 j holds column 4s + j for rows 4r..4r+3.
std::vector<float> PackMatrix(const Tensor& w) {
  const int64_t rows = w.shape[0], columns = w.shape[1];
  const int64_t row_slices = (rows + 3) / 4, column_slices = (columns + 3) / 4;
  const std::vector<float> values = w.data.ToFloats();
  std::vector<float> packed(static_cast<size_t>(row_slices * column_slices * 16), 0.0f);
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t column = 0; column < columns; ++column) {
      const int64_t at = ((row / 4 * column_slices + column / 4) * 4 + column % 4) * 4 + row % 4;
      packed[static_cast<size_t>(at)] = values[static_cast<size_t>(row * columns + column)];
    }
  }
  return packed;
}

// One vec4 per slice of `count` values; 0 where absent.
StatusOr<std::vector<float>> PackBias(const Graph& graph, const std::string& name, int64_t count) {
  std::vector<float> packed(static_cast<size_t>((count + 3) / 4 * 4), 0.0f);
  if (name.empty()) return packed;
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* b, RequireTensor(graph, name));
  const std::vector<float> values = b->data.ToFloats();
  if (!b->is_constant || static_cast<int64_t>(values.size()) != count) {
    return InvalidModelError("bias '" + name + "' must be a constant of " + std::to_string(count) + " values");
  }
  std::copy(values.begin(), values.end(), packed.begin());
  return packed;
}

}  // namespace

StatusOr<KernelPlan> BuildSqueezeExcite(const Graph& graph, const Node& node, const KernelLimits& limits) {
  if (node.inputs.size() != 5 || node.outputs.size() != 1) {
    return InvalidModelError("needs X, W1, B1, W2, B2 (biases may be \"\") and one output");
  }
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* x, RequireTensor(graph, node.inputs[0]));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* w1, RequireTensor(graph, node.inputs[1]));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* w2, RequireTensor(graph, node.inputs[3]));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* y, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*x));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*y));
  const auto matrix = [](const Tensor* w) {
    return w->is_constant && w->shape.size() == 4 && w->shape[2] == 1 && w->shape[3] == 1;
  };
  if (x->shape.size() != 4 || !matrix(w1) || !matrix(w2) || w1->shape[1] != x->shape[1] ||
      w2->shape[1] != w1->shape[0] || y->shape != Shape{x->shape[0], w2->shape[0], 1, 1}) {
    return InvalidModelError("X " + ShapeToString(x->shape) + ", W1 " + ShapeToString(w1->shape) + ", W2 " +
                             ShapeToString(w2->shape) + " and Y " + ShapeToString(y->shape) +
                             " do not chain as [N, C, H, W] -> [R, C, 1, 1] -> [C2, R, 1, 1] -> [N, C2, 1, 1]");
  }
  const int64_t in_slices = (x->shape[1] + 3) / 4, hidden_slices = (w1->shape[0] + 3) / 4;
  const int64_t out_slices = (w2->shape[0] + 3) / 4;
  if ((in_slices + hidden_slices) * 16 > limits.max_shared_memory) {
    return UnsupportedError(std::to_string(in_slices + hidden_slices) + " slices of shared memory exceed the " +
                            std::to_string(limits.max_shared_memory) + " bytes a work group may have");
  }
  KernelPlan plan;
  plan.shader = "squeeze_excite";
  plan.inputs = {x->name};
  plan.outputs = {y->name};
  plan.defines = {{"IN_SLICES", std::to_string(in_slices)},
                  {"HIDDEN_SLICES", std::to_string(hidden_slices)},
                  {"OUT_SLICES", std::to_string(out_slices)}};
  const std::string hidden = node.GetString(kHiddenActivationAttr, "");
  if (!hidden.empty()) {
    GLPOOL_RETURN_IF_ERROR(AddActivationDefines(FusedActivation{hidden, node.GetFloats(kHiddenActivationParamsAttr)},
                                                "HIDDEN_ACTIVATION", "HIDDEN_P", plan));
  }
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> b1, PackBias(graph, node.inputs[2], w1->shape[0]));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> b2, PackBias(graph, node.inputs[4], w2->shape[0]));
  plan.weights.push_back({"w1", PackMatrix(*w1)});
  plan.weights.push_back({"b1", std::move(b1)});
  plan.weights.push_back({"w2", PackMatrix(*w2)});
  plan.weights.push_back({"b2", std::move(b2)});
  const uint32_t local = std::min<uint32_t>(64, limits.max_invocations);
  plan.local_size = {local, 1, 1};
  plan.groups = {1, static_cast<uint32_t>(x->shape[0]), 1};
  return plan;
}

}  // namespace glpool
