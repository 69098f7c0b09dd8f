#include "gpu_backend/compile/model_records.h"

#include "gpu_backend/compile/in_place_concat.h"

#include "planner/lower_bounds.h"

namespace glpool {
std::string ModelNameFromPath(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t dot = name.rfind('.');
  if (dot != std::string::npos && dot > 0) name = name.substr(0, dot);
  // A backend-test case folder names its model "model.onnx"; the folder says more.
  if (name == "model" && slash != std::string::npos && slash > 0) {
    const std::string dir = path.substr(0, slash);
    const size_t parent = dir.find_last_of('/');
    name = parent == std::string::npos ? dir : dir.substr(parent + 1);
  }
  return name;
}

StatusOr<ModelRecords> BuildModelRecords(const Graph& imported, const std::string& model,
                                         const ModelRecordsOptions& options) {
  ModelRecords result;
  result.model = model;
  Graph fused;
  if (options.fuse) {
    fused = imported;
    GLPOOL_RETURN_IF_ERROR(RunDefaultPasses(fused, &result.passes));
    if (options.in_place_concats) {
      MarkInPlaceConcats(fused, [&](const Node& node) { return options.in_place_concats(fused, node); });
    }
  }
  const Graph* chosen = options.fuse ? &fused : &imported;
  MemoryOrderResult ordered;
  if (options.memory_order) {
    MemoryOrderOptions order_options;
    order_options.precision = options.precision;
    order_options.budget_seconds = options.order_budget_seconds;
    GLPOOL_ASSIGN_OR_RETURN(ordered, OrderForMemory(*chosen, order_options));
    chosen = &ordered.graph;
    result.reordered = ordered.reordered;
  }
  const Graph& graph = *chosen;
  result.graph_nodes = static_cast<int64_t>(graph.nodes.size());
  result.graph_tensors = static_cast<int64_t>(graph.tensors.size());
  GLPOOL_ASSIGN_OR_RETURN(result.compiled, CompileGraph(graph, options.compile));
  result.buffers = ToRecordSet(result.compiled, options.precision, model);
  result.peak = OffsetsLowerBound(result.buffers.records);
  result.peak_given = options.memory_order ? ordered.peak_given : result.peak;
  result.textures_2d = Texture2DRecords(result.compiled);
  result.textures_3d = Texture3DRecords(result.compiled);
  return result;
}

StatusOr<ModelRecords> BuildModelRecords(const std::string& path, const ModelRecordsOptions& options) {
  GLPOOL_ASSIGN_OR_RETURN(Graph graph, LoadOnnxModel(path, options.import));
  StatusOr<ModelRecords> records = BuildModelRecords(graph, ModelNameFromPath(path), options);
  if (!records.ok()) return records.status().WithContext(path);
  return records;
}

}  // namespace glpool
