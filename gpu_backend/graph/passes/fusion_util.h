// What the activation-fusing passes share.
#pragma once

#include <string>

#include "gpu_backend/graph/fused_activation.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

// Whether `node` may take a fused activation (and has none yet).
bool AcceptsFusedActivation(const Node& node);
// Whether nodes of `op_type` (default domain) take a fused activation.
bool TakesFusedActivation(const std::string& op_type);

// Gives node `producer_index` the activation and makes it write
// `new_output` instead of its own (now gone) output tensor; false (graph
// untouched) if the producer has extra outputs or a non-float output.
bool FuseIntoProducer(Graph& graph, size_t producer_index, const std::string& new_output,
                      const FusedActivation& activation);

}  // namespace glpool
