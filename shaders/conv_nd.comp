#version 310 es
// glpool-tensors: in0 in1 [in2] out0
// Conv (TRANSPOSED 0) or ConvTranspose (TRANSPOSED 1) over any number of
// spatial dims: the 3-D (and higher) windows the 2-D shaders cannot run.
// PHWC4 folds every spatial dim but the last into H, row-major, so an output
// texel's row is unravelled into its coordinates with OUT_SIZE and an input
// row rebuilt with IN_SIZE. The weights in1 (ONNX layout, constant or not)
// fold the same way: tap t of the window is W's (h, w) = (t / KERNEL[last],
// t % KERNEL[last]). The optional bias in2 ([C]) is one texel per slice.
// Each output channel sums its own scalar products: right for every group
// layout, not fast; 1-D and 2-D windows never come here.
#ifndef TRANSPOSED
#define TRANSPOSED 0
#endif
#ifndef IC_PER_GROUP
#define IC_PER_GROUP in0_C
#endif
#ifndef OC_PER_GROUP
#define OC_PER_GROUP out0_C
#endif
#ifndef SPATIAL_RANK
#define SPATIAL_RANK 2
#define TAPS 9
#define IN_SIZE int[2](in0_H, in0_W)
#define OUT_SIZE int[2](out0_H, out0_W)
#define KERNEL int[2](3, 3)
#define STRIDE int[2](1, 1)
#define DILATION int[2](1, 1)
#define PAD int[2](1, 1)
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

#define LAST (SPATIAL_RANK - 1)
const int kIn[SPATIAL_RANK] = IN_SIZE;
const int kOut[SPATIAL_RANK] = OUT_SIZE;
const int kKernel[SPATIAL_RANK] = KERNEL;
const int kStride[SPATIAL_RANK] = STRIDE;
const int kDilation[SPATIAL_RANK] = DILATION;
const int kPad[SPATIAL_RANK] = PAD;

// The input coordinate along dim d that kernel offset k reads for output
// coordinate o, or -1 (padding, or a transposed tap between input pixels).
int source(int d, int o, int k) {
#if TRANSPOSED
  int t = o + kPad[d] - k * kDilation[d];
  if (t < 0 || t % kStride[d] != 0 || t / kStride[d] >= kIn[d]) return -1;
  return t / kStride[d];
#else
  int i = o * kStride[d] - kPad[d] + k * kDilation[d];
  return i < 0 || i >= kIn[d] ? -1 : i;
#endif
}

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  int n = p.y / out0_H;
  int o[SPATIAL_RANK];
  o[LAST] = p.x;
  int rest = p.y % out0_H;
  for (int d = LAST - 1; d >= 0; --d) {
    o[d] = rest % kOut[d];
    rest /= kOut[d];
  }
  vec4 acc = vec4(0.0);
  for (int t = 0; t < TAPS; ++t) {
    // The tap's input position: folded row and last-dim column.
    int k = t, row = 0, row_scale = 1, column = 0;
    bool inside = true;
    for (int d = LAST; d >= 0 && inside; --d) {
      int i = source(d, o[d], k % kKernel[d]);
      k /= kKernel[d];
      inside = i >= 0;
      if (d == LAST) {
        column = i;
      } else {
        row += i * row_scale;
        row_scale *= kIn[d];
      }
    }
    if (!inside) continue;
    int wh = t / kKernel[LAST], ww = t % kKernel[LAST];
    for (int lane = 0; lane < 4; ++lane) {
      int oc = p.z * 4 + lane;
      if (oc >= out0_C) break;  // padding lanes: the store zeroes them
      int g = oc / OC_PER_GROUP;
      float sum = 0.0;
      for (int i = 0; i < IC_PER_GROUP; ++i) {
        int ic = g * IC_PER_GROUP + i;
#if TRANSPOSED
        float w = in1_load_scalar(ic, oc - g * OC_PER_GROUP, wh, ww);  // W: C_in x C_out/group x k...
#else
        float w = in1_load_scalar(oc, i, wh, ww);  // W: C_out x C_in/group x k...
#endif
        sum += in0_load_scalar(n, ic, row, column) * w;
      }
      acc[lane] += sum;
    }
  }
#ifdef in2_N
  acc += in2_load(0, 0, p.z);
#endif
  out0_store(p.x, p.y, p.z, activate(acc));
}
