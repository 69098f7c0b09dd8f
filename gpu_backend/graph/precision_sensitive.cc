#include "gpu_backend/graph/precision_sensitive.h"

#include <map>
#include <vector>

#include "gpu_backend/graph/fused_activation.h"

namespace glpool {
namespace {

bool Squashes(const Node& node) {
  if (node.op_type == "Sigmoid" || node.op_type == "Softmax" || node.op_type == "LogSoftmax") return true;
  const std::optional<FusedActivation> fused = GetFusedActivation(node);
  return fused && fused->type == "Sigmoid";
}

bool MovesValues(const Node& node) {
  static const std::set<std::string> kMoves = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Identity"};
  return kMoves.count(node.op_type) != 0;
}

// Ops that pass values through unchanged or offset/scale them by constants:
// their input's precision is their output's.
bool PassesValues(const Graph& graph, const Node& node) {
  if (MovesValues(node)) return true;
  if (node.op_type != "Add" && node.op_type != "Sub" && node.op_type != "Mul" && node.op_type != "Div") return false;
  int computed = 0;
  for (const std::string& in : node.inputs) {
    const Tensor* t = graph.FindTensor(in);
    if (t && !t->is_constant) ++computed;
  }
  return computed == 1;
}

}  // namespace

std::set<std::string> PrecisionSensitiveTensors(const Graph& graph) {
  std::map<std::string, const Node*> producer;
  std::map<std::string, std::vector<const Node*>> consumers;
  for (const Node& node : graph.nodes) {
    for (const std::string& out : node.outputs) producer[out] = &node;
    for (const std::string& in : node.inputs) consumers[in].push_back(&node);
  }
  const std::set<std::string> outputs(graph.outputs.begin(), graph.outputs.end());
  // Whether `name` is a graph output or reaches one through moves only.
  auto is_head_output = [&](std::string name) {
    for (int steps = 0; steps < 16; ++steps) {
      if (outputs.count(name)) return true;
      const auto& users = consumers[name];
      if (users.size() != 1 || !MovesValues(*users[0]) || users[0]->outputs.empty()) return false;
      name = users[0]->outputs[0];
    }
    return false;
  };
  std::set<std::string> kept;
  for (const Node& node : graph.nodes) {
    if (!Squashes(node) || node.outputs.empty() || !is_head_output(node.outputs[0])) continue;
    std::vector<std::string> pending;
    for (const std::string& in : node.inputs) pending.push_back(in);
    // A bounded walk: heads are short, and a hostile graph must not loop.
    for (int steps = 0; !pending.empty() && steps < 64; ++steps) {
      const std::string name = pending.back();
      pending.pop_back();
      const Tensor* tensor = graph.FindTensor(name);
      if (!tensor || tensor->is_constant || tensor->dtype != DataType::kFloat32 || !kept.insert(name).second) continue;
      auto from = producer.find(name);
      if (from == producer.end() || !PassesValues(graph, *from->second)) continue;
      for (const std::string& in : from->second->inputs) pending.push_back(in);
    }
  }
  return kept;
}

}  // namespace glpool
