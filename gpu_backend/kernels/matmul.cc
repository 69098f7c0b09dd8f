// MatMul (shaders/matmul.comp), and the product plan Gemm shares.
#include <algorithm>

#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/logical_index.h"
#include "gpu_backend/kernels/conv_common.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/matmul_plan.h"

namespace glpool {
namespace {

// What a logical dim of an operand or of Y stands for: a batch dim (its
// index in Y's batch dims, >= 0) or one of the matrix dims.
constexpr int kRoleM = -1, kRoleN = -2, kRoleK = -3;

// Roles of an operand's dims: leading batch dims right-aligned with Y's
// `batch` batch dims, then the two matrix dims (`first`, `second`); a 1-D
// operand is just its reduction dim (numpy.matmul).
std::vector<int> Roles(size_t rank, size_t batch, int first, int second) {
  if (rank == 1) return {kRoleK};
  std::vector<int> roles;
  for (size_t i = 0; i + 2 < rank; ++i) roles.push_back(static_cast<int>(i + batch - (rank - 2)));
  roles.push_back(first);
  roles.push_back(second);
  return roles;
}

struct OperandRead {
  std::array<int, 4> map{-1, -1, -1, -1};
  int mode = 0;  // matmul.comp: 0 scalar, 1 lanes, 2 k-vector, 3 k per lane, 4 shared
};

OperandRead MapOperand(const Shape& shape, const std::vector<int>& roles, const std::vector<int>& y_roles,
                       size_t y_rank) {
  OperandRead read;
  for (size_t d = 0; d < shape.size(); ++d) {
    const int axis = Phwc4AxisOf(d, shape.size());
    if (roles[d] == kRoleK) {
      read.map[axis] = 4;
    } else if (shape[d] != 1) {  // a size-1 dim reads coordinate 0: broadcast
      const size_t y_dim = static_cast<size_t>(std::find(y_roles.begin(), y_roles.end(), roles[d]) - y_roles.begin());
      read.map[axis] = Phwc4AxisOf(y_dim, y_rank);
    }
  }
  const bool follows_lanes = std::count(read.map.begin(), read.map.end(), 1) > 0;
  if (read.map[1] == 1) {
    read.mode = 1;
  } else if (read.map[1] == 4) {
    read.mode = follows_lanes ? 3 : 2;
  } else {
    read.mode = follows_lanes ? 0 : 4;
  }
  return read;
}

std::string Glsl(const std::array<int, 4>& map) {
  return "ivec4(" + std::to_string(map[0]) + ", " + std::to_string(map[1]) + ", " + std::to_string(map[2]) + ", " +
         std::to_string(map[3]) + ")";
}

}  // namespace

StatusOr<KernelPlan> BuildMatMulPlan(const Node& node, const MatMulSpec& spec, const KernelLimits& limits) {
  const Shape& sa = spec.a->shape;
  const Shape& sb = spec.b->shape;
  const Shape& sy = spec.y->shape;
  for (const Shape* shape : {&sa, &sb, &sy}) {
    if (shape->size() > 4) {
      return UnsupportedError("a matrix product of rank " + std::to_string(shape->size()) +
                              " is not supported on the GPU (PHWC4 folds batch dims beyond 2 into H)");
    }
  }
  if (sa.empty() || sb.empty()) return InvalidModelError("operands must not be scalars");
  const size_t batch = std::max<size_t>(sa.size(), sb.size()) < 2 ? 0 : std::max(sa.size(), sb.size()) - 2;
  const std::vector<int> roles_a = Roles(sa.size(), batch, spec.trans_a ? kRoleK : kRoleM,
                                         spec.trans_a ? kRoleM : kRoleK);
  const std::vector<int> roles_b = Roles(sb.size(), batch, spec.trans_b ? kRoleN : kRoleK,
                                         spec.trans_b ? kRoleK : kRoleN);
  // Y's dims: broadcast batch dims, M unless A is 1-D, N unless B is 1-D.
  std::vector<int> y_roles;
  Shape expected;
  auto size_of = [](const Shape& shape, const std::vector<int>& roles, int role) -> int64_t {
    for (size_t d = 0; d < shape.size(); ++d) {
      if (roles[d] == role) return shape[d];
    }
    return 1;
  };
  for (size_t j = 0; j < batch; ++j) {
    const int64_t da = size_of(sa, roles_a, static_cast<int>(j)), db = size_of(sb, roles_b, static_cast<int>(j));
    if (da != db && da != 1 && db != 1) {
      return InvalidModelError("batch dims of " + ShapeToString(sa) + " and " + ShapeToString(sb) +
                               " do not broadcast");
    }
    y_roles.push_back(static_cast<int>(j));
    expected.push_back(std::max(da, db));
  }
  if (sa.size() >= 2) {
    y_roles.push_back(kRoleM);
    expected.push_back(size_of(sa, roles_a, kRoleM));
  }
  if (sb.size() >= 2) {
    y_roles.push_back(kRoleN);
    expected.push_back(size_of(sb, roles_b, kRoleN));
  }
  const int64_t k = size_of(sa, roles_a, kRoleK);
  if (k != size_of(sb, roles_b, kRoleK) || expected != sy) {
    return InvalidModelError("A " + ShapeToString(sa) + " and B " + ShapeToString(sb) + " do not multiply into Y " +
                             ShapeToString(sy));
  }
  const OperandRead read_a = MapOperand(sa, roles_a, y_roles, sy.size());
  const OperandRead read_b = MapOperand(sb, roles_b, y_roles, sy.size());

  KernelPlan plan;
  plan.shader = "matmul";
  plan.inputs = {spec.a->name, spec.b->name};
  plan.outputs = {spec.y->name};
  plan.defines.emplace_back("K_SIZE", std::to_string(k));
  plan.defines.emplace_back("A_MAP", Glsl(read_a.map));
  plan.defines.emplace_back("A_MODE", std::to_string(read_a.mode));
  plan.defines.emplace_back("B_MAP", Glsl(read_b.map));
  plan.defines.emplace_back("B_MODE", std::to_string(read_b.mode));
  plan.defines.emplace_back("ALPHA", GlslFloat(spec.alpha));
  plan.defines.emplace_back("BIAS_MODE", std::to_string(spec.bias.empty() ? 0 : spec.bias_mode));
  // The weights line always names bias; without one it holds a zero vec4.
  plan.weights.push_back({"bias", spec.bias.empty() ? std::vector<float>(4, 0.0f) : spec.bias});
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  const Phwc4Layout out = LayoutOf(sy);
  // B's channels are Y's columns and A never reads the column: blocks of 4
  // columns share A's loads and read B a texel (4 columns) at a time.
  const bool column_block = read_b.mode == 4 && read_b.map[1] == 3 &&
                            std::count(read_a.map.begin(), read_a.map.end(), 3) == 0;
  plan.defines.emplace_back("COLUMN_BLOCK", column_block ? "1" : "0");
  // Such a block takes up to 4 texels of columns and up to 4 slices, as
  // long as a row of blocks still fills a batch of 8 lanes (PP-OCRv4 rec's
  // class head, [40, 120] x [120, 6625], one llvmpipe thread: 15 -> 10 ms
  // with 4 texels by 2 slices against 1 by 1).
  int64_t column_texels = 1, row_slices = 1;
  uint32_t columns = static_cast<uint32_t>(out.w);
  if (column_block) {
    column_texels = NarrowToFillLanes(DivideRoundUp(static_cast<uint64_t>(out.w), 4), 4);
    row_slices = OutputSlicesPerInvocation(out.slices());
    plan.defines.emplace_back("COLUMN_TEXELS", std::to_string(column_texels));
    plan.defines.emplace_back("ROW_SLICES", std::to_string(row_slices));
    columns = DivideRoundUp(static_cast<uint64_t>(out.w), static_cast<uint32_t>(4 * column_texels));
  }
  const uint32_t slice_blocks = DivideRoundUp(static_cast<uint64_t>(out.slices()), static_cast<uint32_t>(row_slices));
  // A Gemm's Y is [M, N]: one column, N / 4 slices. Groups one column wide
  // would run one SIMD lane in 8 on llvmpipe (conv_common.h
  // NarrowToFillLanes), so such outputs put the dispatch's x on the slices.
  if (PutSlicesAlongLanes(columns, out.rows(), slice_blocks, limits, plan)) return plan;
  plan.local_size = LocalSize3D(columns, out.rows(), slice_blocks, limits.max_invocations);
  plan.groups = {DivideRoundUp(columns, plan.local_size[0]), DivideRoundUp(out.rows(), plan.local_size[1]),
                 DivideRoundUp(slice_blocks, plan.local_size[2])};
  return plan;
}

StatusOr<KernelPlan> BuildMatMul(const Graph& graph, const Node& node, const KernelLimits& limits) {
  if (node.inputs.size() < 2 || node.inputs.size() > 3 || node.outputs.size() != 1) {
    return InvalidModelError("needs two inputs (and the folded bias) and one output");
  }
  MatMulSpec spec;
  GLPOOL_ASSIGN_OR_RETURN(spec.a, RequireTensor(graph, node.inputs[0]));
  GLPOOL_ASSIGN_OR_RETURN(spec.b, RequireTensor(graph, node.inputs[1]));
  GLPOOL_ASSIGN_OR_RETURN(spec.y, RequireTensor(graph, node.outputs[0]));
  if (node.inputs.size() == 3 && !node.inputs[2].empty()) {
    // The folded bias (graph.h), one value per column of Y's last dim: the
    // channels of a rank-1 or rank-2 Y (one vec4 per slice), else its W
    // (the value repeated in a vec4 per column).
    GLPOOL_ASSIGN_OR_RETURN(const Tensor* bias, RequireTensor(graph, node.inputs[2]));
    const Shape& sy = spec.y->shape;
    const int64_t columns = sy.empty() ? 1 : sy.back();
    if (!bias->is_constant || bias->dtype != DataType::kFloat32 || ElementCount(bias->shape) != columns) {
      return InvalidModelError("the MatMul bias must be a constant fp32 tensor with one value per output column");
    }
    const std::vector<float> values = bias->data.ToFloats();
    if (sy.size() <= 2) {
      spec.bias_mode = 1;
      spec.bias.assign(static_cast<size_t>((columns + 3) / 4 * 4), 0.0f);
      std::copy(values.begin(), values.end(), spec.bias.begin());
    } else {
      spec.bias_mode = 3;
      spec.bias.reserve(static_cast<size_t>(columns * 4));
      for (float v : values) spec.bias.insert(spec.bias.end(), 4, v);
    }
  }
  return BuildMatMulPlan(node, spec, limits);
}

}  // namespace glpool
