#version 310 es
// glpool-tensors: in0 out0
// MaxPool / AveragePool over H and W (GLOBAL 0), or GlobalAveragePool /
// GlobalMaxPool (GLOBAL 1). Channels never mix, so every path works on whole
// vec4 slices; padding lanes are zero in and zeroed again by the store.
#ifndef GLOBAL
#define GLOBAL 0
#endif
#ifndef IS_MAX
#define IS_MAX 1  // 0: average
#endif
#ifndef KERNEL_H
#define KERNEL_H 2
#define KERNEL_W 2
#define STRIDE_H 2
#define STRIDE_W 2
#define DILATION_H 1
#define DILATION_W 1
#define PAD_H 0
#define PAD_W 0
#define PAD_END_H 0
#define PAD_END_W 0
#endif
#ifndef COUNT_INCLUDE_PAD
#define COUNT_INCLUDE_PAD 0
#endif
#ifndef LOCAL_X
#define LOCAL_X 64
#define LOCAL_Y 1
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

// Below every finite value (fp16 storage turns it into -inf, as the
// reference has for an empty window).
const float kLowest = -3.402823e38;

#if GLOBAL
// One work group per (n, slice): its LOCAL_X invocations stride over the
// H x W plane, then fold their partial results in shared memory.
shared vec4 partial[LOCAL_X];

void main() {
  int tid = int(gl_LocalInvocationID.x);
  int n = int(gl_WorkGroupID.y);
  int s = int(gl_WorkGroupID.z);
  vec4 acc = vec4(IS_MAX == 1 ? kLowest : 0.0);
  for (int i = tid; i < in0_H * in0_W; i += LOCAL_X) {
    vec4 v = in0_load(i % in0_W, n * in0_H + i / in0_W, s);
#if IS_MAX
    acc = max(acc, v);
#else
    acc += v;
#endif
  }
  partial[tid] = acc;
  memoryBarrierShared();
  barrier();
  // LOCAL_X is a power of two (pool.cc).
  for (int stride = LOCAL_X / 2; stride > 0; stride /= 2) {
    if (tid < stride) {
#if IS_MAX
      partial[tid] = max(partial[tid], partial[tid + stride]);
#else
      partial[tid] += partial[tid + stride];
#endif
    }
    memoryBarrierShared();
    barrier();
  }
  if (tid == 0) {
    vec4 result = partial[0];
#if !IS_MAX
    result /= float(in0_H * in0_W);
#endif
    out0_store(0, n, s, activate(result));
  }
}

#else
void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  int n = p.y / out0_H;
  int oh = p.y % out0_H;
  int h0 = oh * STRIDE_H - PAD_H;
  int w0 = p.x * STRIDE_W - PAD_W;
#if IS_MAX
  vec4 acc = vec4(kLowest);
  for (int kh = 0; kh < KERNEL_H; ++kh) {
    int ih = h0 + kh * DILATION_H;
    if (ih < 0 || ih >= in0_H) continue;
    for (int kw = 0; kw < KERNEL_W; ++kw) {
      int iw = w0 + kw * DILATION_W;
      if (iw < 0 || iw >= in0_W) continue;
      acc = max(acc, in0_load(iw, n * in0_H + ih, p.z));
    }
  }
  vec4 result = acc;
#else
  // Clip the window to the input; the divisor counts either the valid cells
  // or, with count_include_pad, the cells inside the padded input too (never
  // those a ceil-mode window reaches beyond the end padding).
  int hb = max(h0, 0), he = min(h0 + KERNEL_H, in0_H);
  int wb = max(w0, 0), we = min(w0 + KERNEL_W, in0_W);
  vec4 acc = vec4(0.0);
  for (int ih = hb; ih < he; ++ih) {
    for (int iw = wb; iw < we; ++iw) acc += in0_load(iw, n * in0_H + ih, p.z);
  }
#if COUNT_INCLUDE_PAD
  int count = (min(h0 + KERNEL_H, in0_H + PAD_END_H) - h0) * (min(w0 + KERNEL_W, in0_W + PAD_END_W) - w0);
#else
  int count = (he - hb) * (we - wb);
#endif
  vec4 result = acc / float(max(count, 1));
#endif
  out0_store(p.x, p.y, p.z, activate(result));
}
#endif
