#version 310 es
// glpool-tensors: in0 out0
// glpool-weights: w1 b1 w2 b2
// SqueezeExcite (glpool's own node, graph.h): out0 = activate(W2 . h + B2),
// h = hidden(W1 . mean_HW(in0) + B1), for image GLPOOL_GROUP_ID.y in one
// work group: its invocations take the mean of a slice each, then a hidden
// slice each, then an output slice each, with the vectors between the
// stages in shared memory. One task for what were three tiny ones.
//
// Weights (squeeze_excite.cc): for output slice r and input slice s, the
// mat4 at vec4 (r * IN + s) * 4 whose column j holds input channel 4s + j's
// weights for the 4 output channels; padding channels are 0. Biases: one
// vec4 per output slice.
#ifndef IN_SLICES
#define IN_SLICES 2
#define HIDDEN_SLICES 1
#define OUT_SLICES 2
#endif
#ifndef HIDDEN_ACTIVATION
#define HIDDEN_ACTIVATION 0  // glpool_activation's numbering
#endif
#ifndef HIDDEN_P0
#define HIDDEN_P0 0.0
#endif
#ifndef HIDDEN_P1
#define HIDDEN_P1 0.0
#endif
#ifndef LOCAL_X
#define LOCAL_X 64
#define LOCAL_Y 1
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

shared vec4 pooled[IN_SLICES];
shared vec4 hidden[HIDDEN_SLICES];

mat4 w1_at(int at) { return mat4(w1_load(at), w1_load(at + 1), w1_load(at + 2), w1_load(at + 3)); }
mat4 w2_at(int at) { return mat4(w2_load(at), w2_load(at + 1), w2_load(at + 2), w2_load(at + 3)); }

void main() {
  int tid = int(gl_LocalInvocationID.x);
  int n = int(GLPOOL_GROUP_ID.y);
  for (int s = tid; s < IN_SLICES; s += LOCAL_X) {
    vec4 sum = vec4(0.0);
    for (int y = 0; y < in0_H; ++y) {
      for (int x = 0; x < in0_W; ++x) sum += in0_load(x, n * in0_H + y, s);
    }
    pooled[s] = sum / float(in0_H * in0_W);
  }
  memoryBarrierShared();
  barrier();
  for (int r = tid; r < HIDDEN_SLICES; r += LOCAL_X) {
    vec4 acc = b1_load(r);
    for (int s = 0; s < IN_SLICES; ++s) acc += w1_at((r * IN_SLICES + s) * 4) * pooled[s];
    hidden[r] = glpool_activation(HIDDEN_ACTIVATION, acc, HIDDEN_P0, HIDDEN_P1);
  }
  memoryBarrierShared();
  barrier();
  for (int o = tid; o < OUT_SLICES; o += LOCAL_X) {
    vec4 acc = b2_load(o);
    for (int r = 0; r < HIDDEN_SLICES; ++r) acc += w2_at((o * HIDDEN_SLICES + r) * 4) * hidden[r];
    out0_store(0, n, o, activate(acc));
  }
}
