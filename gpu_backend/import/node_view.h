// Read access to a node's inputs for shape rules and constant folding.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

// The phrase every "operand computed at run time" error carries, so the
// importer can tell it (a fallback to declared types may still help) from
// a real refusal.
inline constexpr char kRunTimeOperand[] = "is computed at run time";
inline bool IsRunTimeOperandError(const Status& status) {
  return status.code() == StatusCode::kUnsupported && status.message().find(kRunTimeOperand) != std::string::npos;
}

class NodeView {
 public:
  NodeView(const Graph& graph, const Node& node) : graph_(graph), node_(node) {}

  const Node& node() const { return node_; }
  int64_t opset() const { return graph_.opset; }
  size_t input_count() const { return node_.inputs.size(); }
  // Whether optional input i is present.
  bool has(size_t i) const { return i < node_.inputs.size() && !node_.inputs[i].empty(); }
  // Only for present inputs (the import guarantees they exist in the graph).
  const Tensor& in(size_t i) const { return *graph_.FindTensor(node_.inputs[i]); }
  const Shape& shape(size_t i) const { return in(i).shape; }
  DataType dtype(size_t i) const { return in(i).dtype; }
  int64_t rank(size_t i) const { return static_cast<int64_t>(in(i).shape.size()); }
  bool is_constant(size_t i) const { return has(i) && in(i).is_constant; }

  // Input i's values as integers; kInvalidModel naming `what` if the input
  // is missing, kUnsupported if it is computed at run time.
  StatusOr<std::vector<int64_t>> ConstInts(size_t i, const std::string& what) const {
    if (!has(i)) return InvalidModelError("missing input '" + what + "'");
    if (!in(i).is_constant) {
      return UnsupportedError("input '" + what + "' (" + node_.inputs[i] +
                              ") " + kRunTimeOperand + ", so the output shape is not static");
    }
    return in(i).data.ToInt64s();
  }
  StatusOr<std::vector<float>> ConstFloats(size_t i, const std::string& what) const {
    if (!has(i)) return InvalidModelError("missing input '" + what + "'");
    if (!in(i).is_constant) {
      return UnsupportedError("input '" + what + "' (" + node_.inputs[i] +
                              ") " + kRunTimeOperand + ", so the output shape is not static");
    }
    return in(i).data.ToFloats();
  }

 private:
  const Graph& graph_;
  const Node& node_;
};

}  // namespace glpool
