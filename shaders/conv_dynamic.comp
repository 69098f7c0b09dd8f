#version 310 es
// glpool-tensors: in0 in1 out0
// glpool-weights: bias
// Conv (TRANSPOSED 0) or ConvTranspose (TRANSPOSED 1) whose weights are a
// tensor computed or fed at run time (in1, ONNX layout in PHWC4), so they
// cannot be packed for vec4 loads ahead of time: each output channel sums
// its own scalar products. Correct for every group layout, but several times
// slower than conv.comp: models with constant weights never come here.
// The bias (constant) arrives as one vec4 per output slice.
#ifndef TRANSPOSED
#define TRANSPOSED 0
#endif
#ifndef IC_PER_GROUP
#define IC_PER_GROUP in0_C
#endif
#ifndef OC_PER_GROUP
#define OC_PER_GROUP out0_C
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

// The input coordinate tap (ky, kx) reads for output (oy, ox), or -1.
int source(int o, int k, int stride, int dilation, int pad, int size) {
#if TRANSPOSED
  int t = o + pad - k * dilation;
  if (t < 0 || t % stride != 0 || t / stride >= size) return -1;
  return t / stride;
#else
  int i = o * stride - pad + k * dilation;
  return i < 0 || i >= size ? -1 : i;
#endif
}

float channel_sum(int n, int oy, int ox, int oc) {
  int g = oc / OC_PER_GROUP;
  float sum = 0.0;
  for (int ky = 0; ky < KERNEL_H; ++ky) {
    int iy = source(oy, ky, STRIDE_Y, DILATION_Y, PAD_Y, in0_H);
    if (iy < 0) continue;
    for (int kx = 0; kx < KERNEL_W; ++kx) {
      int ix = source(ox, kx, STRIDE_X, DILATION_X, PAD_X, in0_W);
      if (ix < 0) continue;
      for (int i = 0; i < IC_PER_GROUP; ++i) {
        int ic = g * IC_PER_GROUP + i;
#if TRANSPOSED
        float w = in1_load_scalar(ic, oc - g * OC_PER_GROUP, ky, kx);  // W: C_in x C_out/group x kH x kW
#else
        float w = in1_load_scalar(oc, i, ky, kx);  // W: C_out x C_in/group x kH x kW
#endif
        sum += in0_load_scalar(n, ic, iy, ix) * w;
      }
    }
  }
  return sum;
}

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  int n = p.y / out0_H;
  int oy = p.y % out0_H;
  vec4 acc = bias_load(p.z);
  for (int lane = 0; lane < 4; ++lane) {
    int oc = p.z * 4 + lane;
    if (oc >= out0_C) break;  // padding lanes: the store zeroes them
    acc[lane] += channel_sum(n, oy, p.x, oc);
  }
  out0_store(p.x, p.y, p.z, activate(acc));
}
