#include "gpu_backend/graph/passes/passes.h"

namespace glpool {

Status RunDefaultPasses(Graph& graph, PassStats* stats) {
  PassStats local;
  PassStats& s = stats ? *stats : local;
  // Seeded training Dropouts become Muls before RemoveIdentities looks at
  // Dropouts (it removes only inference ones). Identities next so the
  // patterns below see producers directly; BN
  // folding before fusion so Conv -> BN -> Relu ends as one Conv. Training
  // BNs are lowered before folding, which applies to inference ones only,
  // and before fusion, which may then fuse into their inference BN.
  GLPOOL_ASSIGN_OR_RETURN(s.seeded_dropouts_lowered, LowerSeededTrainingDropout(graph));
  GLPOOL_ASSIGN_OR_RETURN(s.identities_removed, RemoveIdentities(graph));
  GLPOOL_ASSIGN_OR_RETURN(s.training_batchnorms_lowered, LowerTrainingBatchNorm(graph));
  // Before fusion: the unrolled steps' Sigmoid and Tanh fuse into their Adds.
  GLPOOL_ASSIGN_OR_RETURN(s.recurrent_lowered, LowerRecurrent(graph));
  // Before fusion: the pattern's Add and Mul must not take activations first.
  GLPOOL_ASSIGN_OR_RETURN(s.layer_norm_formulas_fused, FuseLayerNormFormula(graph));
  // Before fusion, so MatMul -> Add -> activation ends as one MatMul.
  GLPOOL_ASSIGN_OR_RETURN(s.matmul_biases_folded, FoldBiasIntoMatMul(graph));
  // BNs, scales and shifts after a Conv fold in whatever order they come
  // (Paddle exports ConvTranspose -> Add(bias) -> BN), so both passes repeat
  // until neither folds more; each fold removes a node. Scale and shift
  // before the HardSwish formula: they stand between a Conv and the formula
  // that then fuses into it.
  for (;;) {
    GLPOOL_ASSIGN_OR_RETURN(const int batchnorms, FoldBatchNormIntoConv(graph));
    GLPOOL_ASSIGN_OR_RETURN(const int scale_shifts, FoldScaleShiftIntoConv(graph));
    s.batchnorms_folded += batchnorms;
    s.scale_shifts_folded += scale_shifts;
    if (batchnorms + scale_shifts == 0) break;
  }
  GLPOOL_ASSIGN_OR_RETURN(s.hardswish_formulas_fused, FuseHardSwishFormula(graph));
  GLPOOL_ASSIGN_OR_RETURN(s.hardswish_fused, FuseHardSwishPattern(graph));
  GLPOOL_ASSIGN_OR_RETURN(s.swish_fused, FuseSwishPattern(graph));
  GLPOOL_ASSIGN_OR_RETURN(s.activations_fused, FuseActivations(graph));
  GLPOOL_ASSIGN_OR_RETURN(s.output_scale_shifts_fused, FuseOutputScaleShift(graph));
  // After activation fusion (the gate's activation is then its producer's)
  // and before the gate fuses into Convs (the Mul it leaves may).
  GLPOOL_ASSIGN_OR_RETURN(s.gated_skips_fused, FuseGatedSkip(graph));
  // After the folds into Conv weights (which read inputs 1 and 2 only).
  GLPOOL_ASSIGN_OR_RETURN(s.channel_gates_fused, FuseChannelGateIntoConv(graph));
  // After activation fusion (an Add's Relu comes along) and the gate (which
  // takes only Convs of at most three inputs).
  GLPOOL_ASSIGN_OR_RETURN(s.residual_adds_fused, FuseResidualAddIntoConv(graph));
  // After the residual Adds fuse into Convs (those keep their Resize), and
  // before dead nodes go (the Resize's scales and sizes are then unread).
  GLPOOL_ASSIGN_OR_RETURN(s.nearest_upsamples_folded, FoldNearestUpsampleIntoElementwise(graph));
  // After activation fusion: the two Convs' activations come along.
  GLPOOL_ASSIGN_OR_RETURN(s.dead_nodes_removed, RemoveDeadNodes(graph));
  GLPOOL_ASSIGN_OR_RETURN(s.wide_variadics_split, SplitWideVariadics(graph));
  GLPOOL_ASSIGN_OR_RETURN(s.free_reshapes, MarkFreeReshapes(graph));
  // After MarkFreeReshapes: only the reshapes that would copy are folded.
  GLPOOL_ASSIGN_OR_RETURN(s.reshapes_folded, FoldReshapesIntoTransposes(graph));
  // After the reshapes fold: the shuffle is then one Transpose.
  GLPOOL_ASSIGN_OR_RETURN(s.channel_transposes_folded, FoldChannelTransposesIntoSlices(graph));
  if (s.reshapes_folded + s.channel_transposes_folded > 0) {
    // Their shape constants and the Slices' operands are now unread.
    GLPOOL_ASSIGN_OR_RETURN(const int dropped, RemoveDeadNodes(graph));
    s.dead_nodes_removed += dropped;
  }
  return Status::Ok();
}

}  // namespace glpool
