// The contract between the executor and one CPU reference kernel.
//
// A kernel reads its node's attributes and inputs from a KernelContext and
// writes one Value per node output into `outputs` (already sized to
// node.outputs.size(); it may leave an output empty only when the node does
// not name it). It computes shapes from its inputs, never from the graph, so
// the executor can check what shape inference claimed. Errors are Statuses
// that say what is wrong with which input or attribute; the executor adds
// the node. Kernels never throw or abort.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/cpu_reference/value.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {
namespace cpu_reference {

struct KernelContext {
  const Node& node;
  int64_t opset;                      // the model's default-domain opset
  std::vector<const Value*> inputs;   // nullptr for an omitted optional input

  size_t input_count() const { return inputs.size(); }
  bool has_input(size_t index) const { return index < inputs.size() && inputs[index]; }
  // The input, or an error naming it when absent.
  StatusOr<const Value*> Input(size_t index) const;
  // Same, and it must be float32 (the reference's compute type).
  StatusOr<const Value*> FloatInput(size_t index) const;
  // An integer input read as int64s (shape-like inputs: axes, pads, sizes...).
  StatusOr<std::vector<int64_t>> IntsInput(size_t index) const;
  // A float32 input read as floats (scales, roi...).
  StatusOr<std::vector<float>> FloatsInput(size_t index) const;
  // "input 1 ('pads')" for messages.
  std::string InputLabel(size_t index) const;
};

using KernelFn = Status (*)(const KernelContext& ctx, std::vector<Value>& outputs);

// Normalizes a possibly negative axis against `rank`, or fails naming it.
StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank);
// Row-major strides of `shape`.
std::vector<int64_t> StridesOf(const Shape& shape);

}  // namespace cpu_reference
}  // namespace glpool
