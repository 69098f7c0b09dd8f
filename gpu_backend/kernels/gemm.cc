// Gemm: Y = alpha * op(A) @ op(B) + beta * C. With C constant or absent it
// is a matmul.comp product whose bias holds beta * C; a C that arrives at
// run time needs shaders/gemm.comp.
#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/broadcast_map.h"
#include "gpu_backend/kernels/conv_common.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/matmul_plan.h"

namespace glpool {
namespace {

// beta * C broadcast to Y [M, N], as matmul.comp's bias: one vec4 per output
// slice when C is the same for every row, else one per (row, slice).
void SetBias(const Tensor& c, float beta, int64_t rows, int64_t columns, MatMulSpec& spec) {
  const std::vector<float> values = c.data.ToFloats();
  const Shape& shape = c.shape;
  const int64_t c_rows = shape.size() == 2 ? shape[0] : 1;
  const int64_t c_columns = shape.empty() ? 1 : shape.back();
  const int64_t slices = (columns + 3) / 4;
  spec.bias_mode = c_rows == 1 ? 1 : 2;
  const int64_t bias_rows = c_rows == 1 ? 1 : rows;
  spec.bias.assign(static_cast<size_t>(bias_rows * slices * 4), 0.0f);
  for (int64_t m = 0; m < bias_rows; ++m) {
    for (int64_t n = 0; n < columns; ++n) {
      const int64_t from = (c_rows == 1 ? 0 : m) * c_columns + (c_columns == 1 ? 0 : n);
      spec.bias[static_cast<size_t>(m * slices * 4 + n)] = beta * values[static_cast<size_t>(from)];
    }
  }
}

}  // namespace

StatusOr<KernelPlan> BuildGemm(const Graph& graph, const Node& node, const KernelLimits& limits) {
  if (node.inputs.size() < 2 || node.inputs.size() > 3 || node.outputs.size() != 1) {
    return InvalidModelError("needs A, B, optional C and one output");
  }
  MatMulSpec spec;
  GLPOOL_ASSIGN_OR_RETURN(spec.a, RequireTensor(graph, node.inputs[0]));
  GLPOOL_ASSIGN_OR_RETURN(spec.b, RequireTensor(graph, node.inputs[1]));
  GLPOOL_ASSIGN_OR_RETURN(spec.y, RequireTensor(graph, node.outputs[0]));
  const Tensor* c = nullptr;
  if (node.inputs.size() == 3 && !node.inputs[2].empty()) {
    GLPOOL_ASSIGN_OR_RETURN(c, RequireTensor(graph, node.inputs[2]));
  }
  if (spec.a->shape.size() != 2 || spec.b->shape.size() != 2 || spec.y->shape.size() != 2) {
    return InvalidModelError("A " + ShapeToString(spec.a->shape) + ", B " + ShapeToString(spec.b->shape) + " and Y " +
                             ShapeToString(spec.y->shape) + " must be matrices");
  }
  spec.trans_a = node.GetInt("transA", 0) != 0;
  spec.trans_b = node.GetInt("transB", 0) != 0;
  spec.alpha = node.GetFloat("alpha", 1.0f);
  const float beta = node.GetFloat("beta", 1.0f);
  const int64_t rows = spec.y->shape[0], columns = spec.y->shape[1];
  if (c) {
    auto map = MapBroadcast(c->shape, spec.y->shape);
    if (!map.ok() || c->shape.size() > 2) {
      return InvalidModelError("C " + ShapeToString(c->shape) + " does not broadcast to Y " +
                               ShapeToString(spec.y->shape));
    }
    if (!c->is_constant) {
      GLPOOL_ASSIGN_OR_RETURN(KernelPlan product, BuildMatMulPlan(node, spec, limits));  // checks the shapes
      const int64_t k = spec.trans_a ? spec.a->shape[0] : spec.a->shape[1];
      KernelPlan plan;
      plan.shader = "gemm";
      plan.inputs = {spec.a->name, spec.b->name, c->name};
      plan.outputs = {spec.y->name};
      plan.defines = {{"K_SIZE", std::to_string(k)},
                      {"TRANS_A", spec.trans_a ? "1" : "0"},
                      {"TRANS_B", spec.trans_b ? "1" : "0"},
                      {"ALPHA", GlslFloat(spec.alpha)},
                      {"BETA", GlslFloat(beta)},
                      {"C_MAP", map->Glsl()}};
      GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
      // The same dispatch as the product's, x on the slices included.
      for (const auto& define : product.defines) {
        if (define.first == "LANES_ALONG_SLICES") plan.defines.push_back(define);
      }
      plan.local_size = product.local_size;
      plan.groups = product.groups;
      return plan;
    }
    SetBias(*c, beta, rows, columns, spec);
  }
  return BuildMatMulPlan(node, spec, limits);
}

}  // namespace glpool
