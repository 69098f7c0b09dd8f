// Elementwise activations shared by the standalone activation ops and by the
// fused-activation attribute (graph.h), so that a fused graph computes
// exactly what its unfused original computes.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {
namespace cpu_reference {

enum class ActivationKind {
  kRelu,
  kClip,         // a = min, b = max
  kSigmoid,
  kTanh,
  kHardSigmoid,  // a = alpha, b = beta
  kHardSwish,
  kLeakyRelu,    // a = alpha
  kElu,          // a = alpha
  kSelu,         // a = alpha, b = gamma
  kCelu,         // a = alpha
  kSoftplus,
  kSoftsign,
  kThresholdedRelu,  // a = alpha
  kSwish,            // x * sigmoid(x) (a fused activation only)
};

struct Activation {
  ActivationKind kind = ActivationKind::kRelu;
  float a = 0.0f;
  float b = 0.0f;

  float operator()(float x) const;
};

void ApplyActivation(const Activation& activation, std::vector<float>& values);

// Reads the node's fused activation (graph.h's attributes) into
// *activation; *present is false when the node carries none. Invalid
// attributes (unknown type, wrong parameter count) fail.
Status ReadFusedActivation(const Node& node, bool* present, Activation* activation);

}  // namespace cpu_reference
}  // namespace glpool
