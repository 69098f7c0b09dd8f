// Tensors fp16 must not store even when their range fits half: the logits a
// Sigmoid, Softmax or LogSoftmax turns into probabilities.
//
// Half keeps 11 significant bits, so its absolute error grows with a
// tensor's largest values: a detector's logit map whose peaks reach 155 is
// stored to within 0.06, and a classifier's logits near 40 to within 0.016
// (1.6% of a probability). The squashing op's output is bounded and fine in
// half; its input is what must stay exact. The rule: for every Sigmoid,
// Softmax or LogSoftmax (or node whose fused activation is Sigmoid) whose
// output is a graph output, directly or through ops that only move values
// (Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Identity), its float
// input stays in fp32, followed back through those ops and through Add/Sub/
// Mul/Div by a constant (a bias) to the op that computed it (a Conv,
// MatMul...), whose output stays in fp32 too. Gates inside a network (the
// Sigmoid of a Swish, squeeze-excite) are not heads and stay half. Cost: a
// tensor or two per network head.
#pragma once

#include <set>
#include <string>

#include "gpu_backend/graph/graph.h"

namespace glpool {

std::set<std::string> PrecisionSensitiveTensors(const Graph& graph);

}  // namespace glpool
