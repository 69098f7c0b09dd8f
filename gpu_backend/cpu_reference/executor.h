// The CPU reference executor: runs a Graph node by node in plain C++ — the
// oracle every GPU kernel is checked against.
//
// It runs any graph whose ops the registry supports, before or after the
// graph passes (it honours the fused-activation attribute, graph.h). It
// computes every shape from the data and, by default, checks each result
// against the shape and dtype the graph recorded, so it also checks import.
// Nothing throws or aborts: every failure is a Status that names the node or
// tensor (unsupported op, wrong input, broken model, shape disagreement).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {
namespace cpu_reference {

struct RunOptions {
  // Compare every computed tensor with the dtype and shape in graph.tensors
  // (skipped for tensors the graph records with an undefined dtype).
  bool check_graph_shapes = true;
  // Return every computed tensor, not only the graph outputs (to compare a
  // backend tensor by tensor). Costs memory: nothing is freed early.
  bool keep_all_tensors = false;
};

// Runs `graph` on `inputs` (one per graph input, by name, with exactly the
// dtype and shape the graph declares) and returns the graph outputs by name.
StatusOr<std::map<std::string, TensorData>> RunGraph(
    const Graph& graph, const std::map<std::string, TensorData>& inputs,
    const RunOptions& options = {});

// Ok when every node has a kernel at the graph's opset; otherwise an
// Unsupported status listing each unsupported op once, with a node using it.
Status CheckGraphSupported(const Graph& graph);

// Runs one node on constant inputs (nullptr for an omitted optional input):
// what constant folding needs. Returns one TensorData per node output.
// `output_dtypes` (optional, kUndefined where unknown): the dtypes the graph
// records for the outputs, which settle whether a float16 op's output is
// float16 or float32 (some ops keep statistics in float32).
StatusOr<std::vector<TensorData>> RunNode(const Node& node, int64_t opset,
                                          const std::vector<const TensorData*>& inputs,
                                          const std::vector<DataType>& output_dtypes = {});

}  // namespace cpu_reference
}  // namespace glpool
