#version 310 es
// glpool-tensors: in0 out0
// Reductions over any set of axes (reduce.cc): one invocation per output
// texel, each lane walking its COUNT input elements. Output flat index f
// unravels over KEEP_SHAPE (the input shape with reduced dims 1) into the
// first element's input offset; r < COUNT unravels over RED_SHAPE into the
// offset of the r-th reduced element.
#ifndef OP
#define OP 1  // 0 sum, 1 mean, 2 max, 3 min, 4 prod, 5 L1, 6 L2, 7 sum square, 8 log sum, 9 log sum exp
#endif
#ifndef COUNT
#define COUNT 7
#endif
#ifndef KEEP_SHAPE
#define KEEP_SHAPE int[8](1, 1, 1, 1, 1, 5, 1, 13)
#define IN_STRIDES int[8](0, 0, 0, 0, 455, 91, 13, 1)
#define RED_SHAPE int[8](1, 1, 1, 1, 1, 1, 1, 7)
#define RED_STRIDES int[8](0, 0, 0, 0, 0, 0, 0, 13)
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

const int kKeepShape[8] = KEEP_SHAPE;
const int kInStrides[8] = IN_STRIDES;
const int kRedShape[8] = RED_SHAPE;
const int kRedStrides[8] = RED_STRIDES;
const float kLargest = 3.402823e38;

int unravel_dot(int f, int shape[8], int strides[8]) {
  int offset = 0;
  for (int k = 7; k >= 0; --k) {
    offset += (f % shape[k]) * strides[k];
    f /= shape[k];
  }
  return offset;
}

float load_flat(int g) {
  int w = g % in0_W;
  g /= in0_W;
  int h = g % in0_H;
  g /= in0_H;
  return in0_load_scalar(g / in0_C, g % in0_C, h, w);
}

float reduce_from(int base) {
#if OP == 9
  // log(sum(exp(x))), shifted by the max so exp cannot overflow.
  float m = -kLargest;
  for (int r = 0; r < COUNT; ++r) m = max(m, load_flat(base + unravel_dot(r, kRedShape, kRedStrides)));
#endif
#if OP == 2
  float acc = -kLargest;
#elif OP == 3
  float acc = kLargest;
#elif OP == 4
  float acc = 1.0;
#else
  float acc = 0.0;
#endif
  for (int r = 0; r < COUNT; ++r) {
    float v = load_flat(base + unravel_dot(r, kRedShape, kRedStrides));
#if OP == 2
    acc = max(acc, v);
#elif OP == 3
    acc = min(acc, v);
#elif OP == 4
    acc *= v;
#elif OP == 5
    acc += abs(v);
#elif OP == 6 || OP == 7
    acc += v * v;
#elif OP == 9
    acc += exp(v - m);
#else
    acc += v;
#endif
  }
#if OP == 1
  return acc / float(COUNT);
#elif OP == 6
  return sqrt(acc);
#elif OP == 8
  return log(acc);
#elif OP == 9
  return m + log(acc);
#else
  return acc;
#endif
}

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  int n = p.y / out0_H;
  int h = p.y % out0_H;
  vec4 v = vec4(0.0);
  for (int lane = 0; lane < 4; ++lane) {
    int c = p.z * 4 + lane;
    if (c >= out0_C) break;  // padding lanes: the store zeroes them
    int f = ((n * out0_C + c) * out0_H + h) * out0_W + p.x;
    v[lane] = reduce_from(unravel_dot(f, kKeepShape, kInStrides));
  }
  out0_store(p.x, p.y, p.z, activate(v));
}
