// FuseHardSwishFormula (passes.h): HardSwish written out with Add, Clip,
// Mul and Div, as exporters without a HardSwish op write it.
#include <cmath>
#include <limits>

#include "gpu_backend/graph/passes/fusion_util.h"
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

bool Near(float value, float want) { return std::fabs(value - want) <= 1e-6f * std::max(1.0f, std::fabs(want)); }

// Clip's bounds: attributes before opset 11, optional constant inputs after.
bool ClipBounds(const Graph& graph, const Node& clip, float* lo, float* hi) {
  *lo = -std::numeric_limits<float>::infinity();
  *hi = std::numeric_limits<float>::infinity();
  if (graph.opset < 11) {
    *lo = clip.GetFloat("min", *lo);
    *hi = clip.GetFloat("max", *hi);
    return true;
  }
  if (clip.inputs.size() > 1 && !clip.inputs[1].empty() && !ScalarFp32(graph, clip.inputs[1], lo)) return false;
  if (clip.inputs.size() > 2 && !clip.inputs[2].empty() && !ScalarFp32(graph, clip.inputs[2], hi)) return false;
  return true;
}

}  // namespace

StatusOr<int> FuseHardSwishFormula(Graph& graph) {
  int fused = 0;
  // Rebuilt only after a rewrite.
  std::map<std::string, size_t> producer = ProducerIndex(graph);
  std::map<std::string, int> readers = CountReaders(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    // add = x + 3, read by clip only.
    const Node& add = graph.nodes[i];
    if (!add.domain.empty() || add.op_type != "Add" || add.outputs.size() != 1 ||
        add.HasAttribute(kFusedActivationAttr)) {
      continue;
    }
    std::string x;
    float three = 0;
    for (size_t side = 0; side < 2 && add.inputs.size() == 2; ++side) {
      if (ScalarFp32(graph, add.inputs[1 - side], &three) && Near(three, 3.0f)) x = add.inputs[side];
    }
    auto x_it = producer.find(x);
    if (x.empty() || x_it == producer.end() || readers.at(x) != 2 || IsGraphOutput(graph, x)) continue;
    if (!AcceptsFusedActivation(graph.nodes[x_it->second])) continue;
    // clip = Clip(add, 0, 6), read by mul only.
    const long clip_at = OnlyReader(graph, readers, add.outputs[0]);
    if (clip_at < 0) continue;
    const Node& clip = graph.nodes[static_cast<size_t>(clip_at)];
    float lo = 0, hi = 0;
    if (clip.op_type != "Clip" || clip.inputs[0] != add.outputs[0] || clip.outputs.size() != 1 ||
        !ClipBounds(graph, clip, &lo, &hi) || lo != 0.0f || !Near(hi, 6.0f)) {
      continue;
    }
    // mul = x * clip, read by the last step only.
    const long mul_at = OnlyReader(graph, readers, clip.outputs[0]);
    if (mul_at < 0) continue;
    const Node& mul = graph.nodes[static_cast<size_t>(mul_at)];
    if (mul.op_type != "Mul" || OtherInput(mul, clip.outputs[0]) != x || mul.outputs.size() != 1) continue;
    // out = mul / 6 or mul * (1/6).
    const long last_at = OnlyReader(graph, readers, mul.outputs[0]);
    if (last_at < 0) continue;
    const Node& last = graph.nodes[static_cast<size_t>(last_at)];
    float factor = 0;
    const bool divides = last.op_type == "Div" && last.inputs.size() == 2 && last.inputs[0] == mul.outputs[0] &&
                         ScalarFp32(graph, last.inputs[1], &factor) && Near(factor, 6.0f);
    const bool scales = last.op_type == "Mul" && ScalarFp32(graph, OtherInput(last, mul.outputs[0]), &factor) &&
                        Near(factor, 1.0f / 6.0f);
    if ((!divides && !scales) || last.outputs.size() != 1 || last.HasAttribute(kFusedActivationAttr)) continue;

    const std::string out = last.outputs[0];
    const std::vector<std::string> gone = {add.outputs[0], clip.outputs[0], mul.outputs[0]};
    const std::set<size_t> drop = {i, static_cast<size_t>(clip_at), static_cast<size_t>(mul_at),
                                   static_cast<size_t>(last_at)};
    if (!FuseIntoProducer(graph, x_it->second, out, FusedActivation{"HardSwish", {}})) continue;
    for (const std::string& name : gone) graph.tensors.erase(name);
    EraseNodes(graph, drop);
    i = x_it->second;  // the nodes after the producer are looked at again
    ++fused;
    producer = ProducerIndex(graph);
    readers = CountReaders(graph);
  }
  return fused;
}

}  // namespace glpool
