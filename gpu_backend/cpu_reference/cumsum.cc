// CumSum: running sums along one axis (exclusive and reverse variants).
// It has no GPU kernel; GPU runs reach it through the per-node CPU fallback.
#include <type_traits>

#include "gpu_backend/cpu_reference/kernels.h"

namespace glpool {
namespace cpu_reference {

Status RunCumSum(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> axes, ctx.IntsInput(1));
  if (axes.size() != 1) return InvalidModelError(ctx.InputLabel(1) + " must hold one axis");
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  if (rank == 0) return InvalidModelError("CumSum needs an input of rank 1 or more");
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(axes[0], rank));
  const bool exclusive = ctx.node.GetInt("exclusive", 0) != 0;
  const bool reverse = ctx.node.GetInt("reverse", 0) != 0;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x->shape[static_cast<size_t>(d)];
  for (int64_t d = axis + 1; d < rank; ++d) inner *= x->shape[static_cast<size_t>(d)];
  const int64_t length = x->shape[static_cast<size_t>(axis)];
  Value out = *x;
  auto scan = [&](auto& data) {
    using T = typename std::decay_t<decltype(data)>::value_type;
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        T running = 0;
        for (int64_t step = 0; step < length; ++step) {
          const int64_t k = reverse ? length - 1 - step : step;
          const size_t at = static_cast<size_t>((o * length + k) * inner + i);
          const T value = data[at];
          if (exclusive) {
            data[at] = running;
            running += value;
          } else {
            running += value;
            data[at] = running;
          }
        }
      }
    }
  };
  if (out.is_floating()) {
    scan(out.floats);
  } else {
    if (out.dtype == DataType::kBool) return UnsupportedError("CumSum of bool is not defined");
    scan(out.ints);
    for (int64_t& v : out.ints) v = WrapToType(out.dtype, v);
  }
  outputs[0] = std::move(out);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
