#version 310 es
// glpool-tensors: in0 out0 [out1 out2 out3 out4 out5 out6]
// Every output element is one input element at a strided position: Slice,
// Split, Transpose, DepthToSpace, SpaceToDepth and layout-changing Reshapes
// (strided_copy.cc derives the strides).
// Output j's logical elements are viewed as a row-major array of shape
// kShape[8j .. 8j+7]; the input element behind view index (i0..i7) has the
// logical flat index kBase[j] + sum(ik * kStride[8j + k]). Both flat
// indices convert to PHWC4 lanes as phwc4_layout.h lays them out.
// TEXEL 1: output channel c reads input channel c + 4k for one k per
// output (the descriptor checked), so one vec4 load fetches a whole texel.
// ONES_OUTPUT: an output stored as all ones (1.0, bool true) instead of a
// copy, inference Dropout's mask; -1 for none.
#ifndef TEXEL
#define TEXEL 0
#endif
#ifndef ONES_OUTPUT
#define ONES_OUTPUT -1
#endif
#ifndef VIEW_SHAPES
#define VIEW_SHAPES int[56](1, 5, 7, 13, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
#define VIEW_STRIDES int[56](455, 91, 13, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
#define VIEW_BASES int[7](0, 0, 0, 0, 0, 0, 0)
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

const int kShape[56] = VIEW_SHAPES;
const int kStride[56] = VIEW_STRIDES;
const int kBase[7] = VIEW_BASES;

// Input flat index of output j's element with flat index f.
int source_index(int j, int f) {
  int g = kBase[j];
  for (int k = 7; k >= 0; --k) {
    int size = kShape[8 * j + k];
    g += (f % size) * kStride[8 * j + k];
    f /= size;
  }
  return g;
}

// in0's (n, c, h, w) of a logical flat index.
ivec4 input_coords(int g) {
  int w = g % in0_W;
  g /= in0_W;
  int h = g % in0_H;
  g /= in0_H;
  return ivec4(g / in0_C, g % in0_C, h, w);
}

// Output j's texel at p, which has dims (N, C, H, W) = dims.
vec4 gather(int j, ivec3 p, ivec4 dims) {
  if (j == ONES_OUTPUT) return vec4(1.0);  // padding lanes: the store zeroes them
  int n = p.y / dims.z;
  int h = p.y % dims.z;
#if TEXEL
  ivec4 i = input_coords(source_index(j, ((n * dims.y + p.z * 4) * dims.z + h) * dims.w + p.x));
  return in0_load(i.w, i.x * in0_H + i.z, i.y / 4);
#else
  vec4 v = vec4(0.0);
  for (int lane = 0; lane < 4; ++lane) {
    int c = p.z * 4 + lane;
    if (c >= dims.y) break;  // padding lanes: the store zeroes them
    ivec4 i = input_coords(source_index(j, ((n * dims.y + c) * dims.z + h) * dims.w + p.x));
    v[lane] = in0_load_scalar(i.x, i.y, i.z, i.w);
  }
  return v;
#endif
}

bool inside(ivec3 p, int w, int rows, int slices) { return p.x < w && p.y < rows && p.z < slices; }

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  // The dispatch covers the largest output; each output keeps its own part.
  if (inside(p, out0_W, out0_ROWS, out0_S)) {
    out0_store(p.x, p.y, p.z, activate(gather(0, p, ivec4(out0_N, out0_C, out0_H, out0_W))));
  }
#ifdef out1_N
  if (inside(p, out1_W, out1_ROWS, out1_S)) {
    out1_store(p.x, p.y, p.z, activate(gather(1, p, ivec4(out1_N, out1_C, out1_H, out1_W))));
  }
#endif
#ifdef out2_N
  if (inside(p, out2_W, out2_ROWS, out2_S)) {
    out2_store(p.x, p.y, p.z, activate(gather(2, p, ivec4(out2_N, out2_C, out2_H, out2_W))));
  }
#endif
#ifdef out3_N
  if (inside(p, out3_W, out3_ROWS, out3_S)) {
    out3_store(p.x, p.y, p.z, activate(gather(3, p, ivec4(out3_N, out3_C, out3_H, out3_W))));
  }
#endif
#ifdef out4_N
  if (inside(p, out4_W, out4_ROWS, out4_S)) {
    out4_store(p.x, p.y, p.z, activate(gather(4, p, ivec4(out4_N, out4_C, out4_H, out4_W))));
  }
#endif
#ifdef out5_N
  if (inside(p, out5_W, out5_ROWS, out5_S)) {
    out5_store(p.x, p.y, p.z, activate(gather(5, p, ivec4(out5_N, out5_C, out5_H, out5_W))));
  }
#endif
#ifdef out6_N
  if (inside(p, out6_W, out6_ROWS, out6_S)) {
    out6_store(p.x, p.y, p.z, activate(gather(6, p, ivec4(out6_N, out6_C, out6_H, out6_W))));
  }
#endif
}
