#include "gpu_backend/graph/passes/passes.h"

namespace glpool {

Status RunDefaultPasses(Graph& graph, PassStats* stats) {
  PassStats local;
  PassStats& s = stats ? *stats : local;
  // Identities first so the patterns below see producers directly; BN
  // folding before fusion so Conv -> BN -> Relu ends as one Conv.
  GLPOOL_ASSIGN_OR_RETURN(s.identities_removed, RemoveIdentities(graph));
  GLPOOL_ASSIGN_OR_RETURN(s.batchnorms_folded, FoldBatchNormIntoConv(graph));
  GLPOOL_ASSIGN_OR_RETURN(s.hardswish_fused, FuseHardSwishPattern(graph));
  GLPOOL_ASSIGN_OR_RETURN(s.activations_fused, FuseActivations(graph));
  GLPOOL_ASSIGN_OR_RETURN(s.dead_nodes_removed, RemoveDeadNodes(graph));
  GLPOOL_ASSIGN_OR_RETURN(s.free_reshapes, MarkFreeReshapes(graph));
  return Status::Ok();
}

}  // namespace glpool
