#version 310 es
// glpool-tensors: in0 out0
// glpool-weights: weights bias
// ONNX Conv with constant weights (a 1-D Conv arrives with H = 1).
//
// One invocation computes a block of OUT_PIXELS consecutive output columns
// times OUT_SLICES output slices (4 channels each): every input texel it
// loads feeds OUT_SLICES mat4 products and every weight it loads feeds
// OUT_PIXELS of them. Loads, not multiply-adds, bound a convolution here:
// llvmpipe gathers each lane's load separately and GPUs are bandwidth
// bound, so the block trades registers for fewer loads per product.
// Weights depend only on the work group's z and the loop counters, so a
// work group reads them in lockstep (broadcast loads on GPUs).
//
// Weights: conv_common.h PackGroupedWeights, [out slice][tap][in slice
// - first][4 vec4]; MODE 2 (depthwise) has one vec4 per (slice, tap). bias:
// one vec4 per output slice. Both padded to whole OUT_SLICES blocks.
#ifndef MODE
#define MODE 0  // 0 general (dense or grouped), 1 pointwise (1x1, stride 1, no pads), 2 depthwise
#endif
#ifndef OUT_SLICES
#define OUT_SLICES 1  // output slices per invocation
#endif
#ifndef OUT_PIXELS
#define OUT_PIXELS 2  // output columns per invocation
#endif
#ifndef IN_SLICES
#define IN_SLICES 2  // input slices per output slice in the weights
#endif
#ifndef IC_PER_GROUP
#define IC_PER_GROUP in0_C
#endif
#ifndef OC_PER_GROUP
#define OC_PER_GROUP out0_C
#endif
#ifndef GROUPED
#define GROUPED 0  // 1: an output slice reads only its groups' input slices (OUT_SLICES 1)
#endif
#ifndef KERNEL_H
#define KERNEL_H 3
#define KERNEL_W 3
#define STRIDE_Y 1
#define STRIDE_X 1
#define DILATION_Y 1
#define DILATION_X 1
#define PAD_Y 1
#define PAD_X 1
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

#define TAPS (KERNEL_H * KERNEL_W)

// The weights of one (output slice, tap, input slice) as a matrix whose
// column j holds input channel j's weights for the 4 output channels.
mat4 weights_at(int at) {
  return mat4(weights_data[at], weights_data[at + 1], weights_data[at + 2], weights_data[at + 3]);
}

void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID);
  int x_first = p.x * OUT_PIXELS;
  int os0 = int(gl_WorkGroupID.z) * OUT_SLICES;  // LOCAL_Z is 1: uniform per group
  if (x_first >= out0_W || p.y >= out0_ROWS) return;
  vec4 acc[OUT_SLICES * OUT_PIXELS];
  for (int b = 0; b < OUT_SLICES; ++b) {
    for (int i = 0; i < OUT_PIXELS; ++i) acc[b * OUT_PIXELS + i] = bias_data[os0 + b];
  }
  // Columns past the output's edge compute on clamped (valid) input and
  // are never stored.
  int xs[OUT_PIXELS];
  for (int i = 0; i < OUT_PIXELS; ++i) xs[i] = min(x_first + i, out0_W - 1);
#if MODE == 1
  for (int s = 0; s < in0_S; ++s) {
    vec4 v[OUT_PIXELS];
    for (int i = 0; i < OUT_PIXELS; ++i) v[i] = in0_load(xs[i], p.y, s);
    for (int b = 0; b < OUT_SLICES; ++b) {
      mat4 w = weights_at(((os0 + b) * IN_SLICES + s) * 4);
      for (int i = 0; i < OUT_PIXELS; ++i) acc[b * OUT_PIXELS + i] += w * v[i];
    }
  }
#else
  int n = p.y / out0_H;
  int y0 = (p.y % out0_H) * STRIDE_Y - PAD_Y;
#if GROUPED
  int first = os0 * 4;
  int last = min(first + 3, out0_C - 1);
  int s_begin = (first / OC_PER_GROUP) * IC_PER_GROUP / 4;
  int s_end = ((last / OC_PER_GROUP + 1) * IC_PER_GROUP + 3) / 4;
#else
  int s_begin = 0;
  int s_end = in0_S;
#endif
  for (int ky = 0; ky < KERNEL_H; ++ky) {
    int iy = y0 + ky * DILATION_Y;
    if (iy < 0 || iy >= in0_H) continue;
    int row = n * in0_H + iy;
    for (int kx = 0; kx < KERNEL_W; ++kx) {
      // Each column's input x, clamped into the image, and whether the tap
      // lies inside it: padding taps select zero (no branch per column).
      int ix[OUT_PIXELS];
      bvec4 inside[OUT_PIXELS];
      for (int i = 0; i < OUT_PIXELS; ++i) {
        int x = xs[i] * STRIDE_X - PAD_X + kx * DILATION_X;
        inside[i] = bvec4(x >= 0 && x < in0_W);
        ix[i] = clamp(x, 0, in0_W - 1);
      }
      int tap = ky * KERNEL_W + kx;
#if MODE == 2
      // Depthwise: output slice s reads input slice s, channel by channel.
      vec4 w = weights_data[os0 * TAPS + tap];
      for (int i = 0; i < OUT_PIXELS; ++i) acc[i] += mix(vec4(0.0), in0_load(ix[i], row, os0), inside[i]) * w;
#else
      for (int s = s_begin; s < s_end; ++s) {
        vec4 v[OUT_PIXELS];
        for (int i = 0; i < OUT_PIXELS; ++i) v[i] = mix(vec4(0.0), in0_load(ix[i], row, s), inside[i]);
        for (int b = 0; b < OUT_SLICES; ++b) {
          mat4 w = weights_at((((os0 + b) * TAPS + tap) * IN_SLICES + s - s_begin) * 4);
          for (int i = 0; i < OUT_PIXELS; ++i) acc[b * OUT_PIXELS + i] += w * v[i];
        }
      }
#endif
    }
  }
#endif
  for (int b = 0; b < OUT_SLICES; ++b) {
    if (os0 + b >= out0_S) break;
    for (int i = 0; i < OUT_PIXELS; ++i) {
      if (x_first + i < out0_W) out0_store(x_first + i, p.y, os0 + b, activate(acc[b * OUT_PIXELS + i]));
    }
  }
}
