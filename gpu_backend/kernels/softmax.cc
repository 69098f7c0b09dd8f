// Softmax, LogSoftmax and Hardmax (shaders/softmax.comp), with both semantics:
// before opset 13 the input is flattened to 2-D at `axis` (default 1) and
// each row of dims [axis, rank) is normalised; from 13 on only `axis`
// (default -1) is.
//
// Each row is reduced by one row of a work group in shared memory, or,
// many short rows, by one invocation each, so the work is O(elements)
// whatever the row length (a row of 6,625 classes costs three reads per
// element, not 6,625).
#include <algorithm>
#include <string>

#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {
namespace {

// Rows at least this many and this short (in texels) run one per invocation.
constexpr int64_t kRowsForOnePerInvocation = 32;
constexpr int64_t kShortRow = 512;

}  // namespace

StatusOr<KernelPlan> BuildSoftmax(const Graph& graph, const Node& node, const KernelLimits& limits) {
  if (node.inputs.size() != 1 || node.outputs.size() != 1) return InvalidModelError("needs one input and one output");
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, node.inputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*in));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
  if (in->shape != out->shape) return InvalidModelError("output shape differs from the input's");
  const size_t rank = in->shape.size();
  if (rank == 0) return UnsupportedError("scalar input");
  GLPOOL_RETURN_IF_ERROR(CheckIndexable(in->shape));
  const bool flatten = graph.opset < 13;
  GLPOOL_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(node.GetInt("axis", flatten ? 1 : -1), rank));
  const size_t first = static_cast<size_t>(axis);
  const size_t end = flatten ? rank : first + 1;
  // Rows counted in texels: the channel dim becomes its slice count.
  const size_t channel = rank == 1 ? 0 : 1;
  int64_t texels = 1, reduced = 1, inner = 1;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t extent = d == channel ? (in->shape[d] + 3) / 4 : in->shape[d];
    texels *= extent;
    if (d >= first && d < end) reduced *= extent;
    if (d >= end) inner *= extent;
  }
  const bool joined = first <= channel && channel < end;
  const int64_t rows = reduced > 0 ? texels / reduced : 0;
  const uint32_t most = std::min<uint32_t>(64, limits.max_invocations);
  // Many short rows (attention scores: one per query and head) take one
  // invocation each, in registers: PP-OCRv4 rec's [8, 40, 40] scores, one
  // llvmpipe thread, 2.3 -> 0.13 ms. Otherwise a row of invocations shares
  // each row: enough to share a long row, no more than it has.
  const bool row_per_invocation = rows >= kRowsForOnePerInvocation && reduced <= kShortRow;
  uint32_t per_row = 1;
  while (!row_per_invocation && per_row < most && per_row < reduced) per_row *= 2;
  KernelPlan plan;
  plan.shader = "softmax";
  plan.inputs = {in->name};
  plan.outputs = {out->name};
  plan.local_size = {row_per_invocation ? most : per_row, row_per_invocation ? 1 : most / per_row, 1};
  plan.defines = {{"LOG", node.op_type == "LogSoftmax" ? "1" : "0"},
                  {"HARD", node.op_type == "Hardmax" ? "1" : "0"},
                  {"JOINED", joined ? "1" : "0"},
                  {"REDUCED", std::to_string(reduced)},
                  {"INNER", std::to_string(std::max<int64_t>(inner, 1))},
                  {"ROW_COUNT", std::to_string(rows)},
                  {"ROW_PER_INVOCATION", row_per_invocation ? "1" : "0"}};
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  const uint32_t rows_per_group = row_per_invocation ? plan.local_size[0] : plan.local_size[1];
  plan.groups = {std::max<uint32_t>(1, DivideRoundUp(static_cast<uint64_t>(rows), rows_per_group)), 1, 1};
  return plan;
}

}  // namespace glpool
