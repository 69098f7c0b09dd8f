// What the import steps share while one model becomes a Graph. Internal to
// gpu_backend/import/; callers use onnx_import.h.
#pragma once

#include <map>
#include <set>
#include <string>

#include "gpu_backend/graph/graph.h"
#include "gpu_backend/import/onnx_import.h"

namespace glpool {

// A tensor's type as the model (value_info, graph outputs) or ONNX's shape
// inference states it; dims of -1 are unknown. Only a fallback for ops our
// own shape rules do not cover.
struct TypeHint {
  DataType dtype = DataType::kUndefined;
  bool has_shape = false;
  Shape dims;
};

// The type a ValueInfoProto declares; empty when it is not a tensor type.
TypeHint TypeHintFromValueInfo(const onnx::ValueInfoProto& info);

struct ImportState {
  std::string label;      // the file name messages start with
  std::string model_dir;  // where external data lives
  ImportOptions options;
  Graph graph;
  std::map<std::string, TypeHint> hints;
  std::set<std::string> resolved;       // tensors whose dtype and static shape are known
  std::set<std::string> random_filled;  // initializers filled because their data was missing
  // The NodeProto behind each node, by the node's (possibly generated)
  // name, for ONNX's per-node shape inference. Valid during import only.
  std::map<std::string, const onnx::NodeProto*> node_protos;
};

// Builds state->graph from `model`: tensors, nodes (Constant nodes become
// constant tensors), inputs with options.input_shapes applied, outputs,
// topological order. Shapes of node outputs are not known yet.
Status ConvertModel(const onnx::ModelProto& model, ImportState* state);

// Records the types the model declares (value_info, graph outputs) and
// where each node's NodeProto is.
void CollectTypeHints(const onnx::ModelProto& model, ImportState* state);

// ONNX's own shape inference for one node whose inputs are all resolved:
// runs it on a one-node model whose inputs carry our static shapes and
// constants, so its answer is static too. The fallback for ops without a
// rule of ours; run per node (not on the whole model) so that a malformed
// model meets ONNX's inference code only where glpool has no rule.
StatusOr<std::vector<TypeHint>> InferNodeWithOnnx(const Node& node, const ImportState& state);

// Infers every node output's dtype and static shape, folding constant
// subgraphs as it goes, until nothing changes; folded nodes leave the graph.
Status ResolveShapes(ImportState* state);

// An If whose inputs are resolved. With a constant condition (an
// initializer, or shape arithmetic folded so far) the taken branch replaces
// it: `inlined`, and `nodes` (to stand where the If stood) are the branch's
// nodes with every name it defines made unique under "<If name>/", its
// outer references bound, and an Identity per output. Otherwise the If
// stays: both branches are resolved against the outer shapes (stored back
// on the node, folded) and must agree on each output's dtype and shape,
// which become the If's (kUnsupported naming both shapes when they differ).
struct IfResolution {
  bool inlined = false;
  std::vector<Node> nodes;
};
StatusOr<IfResolution> ResolveIf(Node& node, ImportState* state);

// Refills randomly filled tensors that must be positive to keep the model
// well defined (BatchNormalization scale and variance).
void AdjustRandomWeights(ImportState* state);

}  // namespace glpool
