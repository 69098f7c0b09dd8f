// Deterministic stand-ins for weights a graph-only model does not ship.
//
// The values depend only on the tensor name, dtype and shape, so planning
// and benchmarking runs are reproducible across machines. Floats are
// uniform in [-b, b] with b = 1/sqrt(fan_in) (fan_in = product of all dims
// but the first; b = 0.1 for rank <= 1), which keeps activations of deep
// networks finite; integers are zero, because integer initializers are
// usually shape operands and random ones would only produce nonsense shapes.
#pragma once

#include <string>

#include "gpu_backend/graph/graph.h"

namespace glpool {

TensorData RandomTensorData(const std::string& name, DataType dtype, const Shape& shape);

// Uniform in [low, high), for tensors that must stay positive.
TensorData RandomTensorDataInRange(const std::string& name, DataType dtype, const Shape& shape,
                                   float low, float high);

}  // namespace glpool
