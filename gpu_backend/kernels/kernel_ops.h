// Every kernel descriptor's build function, listed once for registry.cc.
#pragma once

#include "gpu_backend/kernels/kernel.h"

namespace glpool {

StatusOr<KernelPlan> BuildElementwiseBinary(const Graph& graph, const Node& node, const KernelLimits& limits);

}  // namespace glpool
