#include "gpu_backend/graph/fused_activation.h"

#include <algorithm>
#include <cmath>

namespace glpool {
namespace {

struct ActivationKind {
  const char* type;
  size_t param_count;
  bool onnx_op = true;  // false: fused from a pattern of other ops only
};

constexpr ActivationKind kKinds[] = {
    {"Relu", 0},        {"Clip", 2},      {"Sigmoid", 0},   {"Tanh", 0},
    {"HardSigmoid", 2}, {"HardSwish", 0}, {"LeakyRelu", 1}, {"Elu", 1},
    {"Swish", 0, false},  // x * Sigmoid(x) (FuseSwishPattern)
};

const ActivationKind* FindKind(const std::string& type) {
  for (const ActivationKind& kind : kKinds) {
    if (type == kind.type) return &kind;
  }
  return nullptr;
}

}  // namespace

std::optional<FusedActivation> GetFusedActivation(const Node& node) {
  std::string type = node.GetString(kFusedActivationAttr, "");
  if (type.empty()) return std::nullopt;
  return FusedActivation{type, node.GetFloats(kFusedActivationParamsAttr)};
}

void SetFusedActivation(Node& node, const FusedActivation& activation) {
  node.attributes[kFusedActivationAttr] = activation.type;
  node.attributes[kFusedActivationParamsAttr] = activation.params;
}

bool IsFusableActivation(const std::string& type) {
  const ActivationKind* kind = FindKind(type);
  return kind != nullptr && kind->onnx_op;
}

std::vector<std::string> FusableActivationTypes() {
  std::vector<std::string> types;
  for (const ActivationKind& kind : kKinds) {
    if (kind.onnx_op) types.push_back(kind.type);
  }
  return types;
}

Status ValidateFusedActivation(const FusedActivation& activation) {
  const ActivationKind* kind = FindKind(activation.type);
  if (!kind) return UnsupportedError("unknown fused activation '" + activation.type + "'");
  if (activation.params.size() != kind->param_count) {
    return InvalidModelError("fused activation " + activation.type + " needs " +
                             std::to_string(kind->param_count) + " params, has " +
                             std::to_string(activation.params.size()));
  }
  return Status::Ok();
}

float ApplyFusedActivation(const FusedActivation& a, float x) {
  if (!ValidateFusedActivation(a).ok()) return x;
  const std::string& t = a.type;
  if (t == "Relu") return x > 0.0f ? x : 0.0f;
  if (t == "Clip") return std::min(std::max(x, a.params[0]), a.params[1]);
  if (t == "Sigmoid") return 1.0f / (1.0f + std::exp(-x));
  if (t == "Tanh") return std::tanh(x);
  if (t == "HardSigmoid") return std::min(1.0f, std::max(0.0f, a.params[0] * x + a.params[1]));
  if (t == "HardSwish") return x * std::min(1.0f, std::max(0.0f, x / 6.0f + 0.5f));
  if (t == "LeakyRelu") return x >= 0.0f ? x : a.params[0] * x;
  if (t == "Elu") return x >= 0.0f ? x : a.params[0] * (std::exp(x) - 1.0f);
  if (t == "Swish") return x * (1.0f / (1.0f + std::exp(-x)));
  return x;
}

}  // namespace glpool
