#version 310 es
// glpool-tensors: in0 in1 out0
// Gather (ELEMENTS 0) and GatherElements (ELEMENTS 1) of data in0 at the
// indices in1 along one axis (gather.cc). One invocation per output texel,
// each lane reading one data element. Indices arrive as whole-number floats
// (int64 tensors live in float storage); negative ones count from the end
// of the axis. An index still outside the axis is clamped so the read stays
// inside the tensor: the GPU cannot raise an error, and the descriptor
// rejects such indices where they are constant.
#ifndef ELEMENTS
#define ELEMENTS 0
#endif
#ifndef DIM
#define DIM 7  // data's size along the axis
#endif
// Gather: data viewed as OUTER x DIM x INNER, the output as
// OUTER x COUNT x INNER with COUNT the number of indices, so output flat
// index f = (o * COUNT + k) * INNER + i reads data (o * DIM + idx[k]) * INNER + i.
#ifndef COUNT
#define COUNT 5
#define INNER 13
#endif
// GatherElements: the output has the indices' shape, INDEX_SHAPE (padded at
// the front to 8 dims). Output element f at coordinates (c0..c7) reads data
// at sum(ck * DATA_STRIDES[k]), where the axis' stride is 0 and
// AXIS_STRIDE * idx[f] takes its place.
#ifndef INDEX_SHAPE
#define INDEX_SHAPE int[8](1, 1, 1, 1, 1, 5, 7, 13)
#define DATA_STRIDES int[8](0, 0, 0, 0, 0, 91, 0, 1)
#define AXIS_STRIDE 13
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

float load_data(int g) {
  int w = g % in0_W;
  g /= in0_W;
  int h = g % in0_H;
  g /= in0_H;
  return in0_load_scalar(g / in0_C, g % in0_C, h, w);
}

// Index number g (flat in the indices tensor), made a position on the axis.
int load_index(int g) {
  int w = g % in1_W;
  g /= in1_W;
  int h = g % in1_H;
  g /= in1_H;
  int index = int(round(in1_load_scalar(g / in1_C, g % in1_C, h, w)));
  if (index < 0) index += DIM;
  return clamp(index, 0, DIM - 1);
}

#if ELEMENTS
const int kIndexShape[8] = INDEX_SHAPE;
const int kDataStrides[8] = DATA_STRIDES;

float gather(int f) {
  int offset = load_index(f) * AXIS_STRIDE;
  for (int k = 7; k >= 0; --k) {
    offset += (f % kIndexShape[k]) * kDataStrides[k];
    f /= kIndexShape[k];
  }
  return load_data(offset);
}
#else
float gather(int f) {
  int i = f % INNER;
  int k = f / INNER % COUNT;
  int o = f / (INNER * COUNT);
  return load_data((o * DIM + load_index(k)) * INNER + i);
}
#endif

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  int n = p.y / out0_H;
  int h = p.y % out0_H;
  vec4 v = vec4(0.0);
  for (int lane = 0; lane < 4; ++lane) {
    int c = p.z * 4 + lane;
    if (c >= out0_C) break;  // padding lanes: the store zeroes them
    v[lane] = gather(((n * out0_C + c) * out0_H + h) * out0_W + p.x);
  }
  out0_store(p.x, p.y, p.z, v);
}
