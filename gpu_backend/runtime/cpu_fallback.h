// Per-node CPU fallback: a node the GPU cannot run (its op has no GPU
// kernel, or the kernel refuses the node with kUnsupported) runs on the CPU
// reference inside the GPU run.
//
// The node stays a task: compile gives it usage records like any other, so
// the planner sees every tensor it reads and writes and pools them as
// usual. At run time the executor waits for the GPU, reads the node's
// non-constant inputs back from their objects (pooled, arena range or
// external), runs the reference kernel with the graph's constants, checks
// each result against the shape and dtype the graph recorded, and uploads
// it into the output's object. Nothing here touches GL: the executor passes
// the two transfers in.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

// Ok when `node` may run on the CPU reference after the GPU refused it with
// `gpu_refusal`: the refusal is kUnsupported (a broken node stays an error)
// and the reference has a kernel for the op at the graph's opset. Otherwise
// the refusal, saying also why the CPU reference cannot take the node.
Status CheckCpuFallback(const Graph& graph, const Node& node, const Status& gpu_refusal);

struct FallbackTransfers {
  // The logical values (row-major, as the GPU stores them: gpu_values.h) of
  // tensor `name`, read back from its GL object.
  std::function<StatusOr<std::vector<float>>(const std::string& name)> read;
  // Uploads logical values into the object of tensor `name`.
  std::function<Status(const std::string& name, const std::vector<float>& values)> write;
};

// Runs `node` on the CPU reference, moving its tensors through `io`.
// Errors name the node.
Status RunCpuFallbackNode(const Graph& graph, const Node& node, const FallbackTransfers& io);

}  // namespace glpool
