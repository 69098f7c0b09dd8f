// One node's kernel, built the way the executor builds it, and the same
// check for a whole graph without any GL: `glpool plan MODEL.onnx` runs it
// so that plan refuses exactly the models `run` would refuse (an axis out
// of range, a constant index outside its axis, a dtype the GPU cannot hold)
// instead of planning them.
#pragma once

#include <functional>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"
#include "gpu_backend/kernels/kernel.h"

namespace glpool {

// The node's kernel plan, with "node NAME (OP): " before any error:
// kUnsupported when the op has no GPU kernel or a bound tensor's dtype has
// no GPU storage (float64 is allowed only at a Cast's own edge).
StatusOr<KernelPlan> BuildNodeKernel(const Graph& graph, const Node& node, const KernelLimits& limits);

// Compiles `graph` and builds every task's kernel with the limits GLES 3.1
// guarantees on every device; the first failure comes back as above.
// `on_refusal`, when set, sees each failure first and may accept it by
// returning Ok (the runtime's CPU fallback, runtime/cpu_fallback.h).
using KernelRefusalCheck = std::function<Status(const Node& node, const Status& refusal)>;
Status CheckGpuKernels(const Graph& graph, const KernelRefusalCheck& on_refusal = nullptr);

}  // namespace glpool
