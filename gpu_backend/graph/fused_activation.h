// The activation a fusion pass attached to a node (graph.h documents the
// attributes), read back in one place so the CPU reference and the GPU
// kernels agree on what each activation computes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

struct FusedActivation {
  std::string type;           // ONNX op name: "Relu", "Clip", ...
  std::vector<float> params;  // see graph.h for the meaning per type
};

// The node's fused activation; nullopt when it has none.
std::optional<FusedActivation> GetFusedActivation(const Node& node);

// Records `activation` on `node` (overwrites an earlier one).
void SetFusedActivation(Node& node, const FusedActivation& activation);

// Whether ONNX op `type` is an activation the attribute may carry (the
// attribute also carries Swish, x * Sigmoid(x), fused from that pattern:
// ValidateFusedActivation accepts it).
bool IsFusableActivation(const std::string& type);
// Those ONNX ops, in the order the shaders number them.
std::vector<std::string> FusableActivationTypes();

// Checks that `activation` has a known type and the right number of params.
Status ValidateFusedActivation(const FusedActivation& activation);

// Applies the activation to one value; an invalid activation returns x.
float ApplyFusedActivation(const FusedActivation& activation, float x);

}  // namespace glpool
