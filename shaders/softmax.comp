#version 310 es
// glpool-tensors: in0 out0
// Softmax, LogSoftmax (LOG 1) or Hardmax (HARD 1) over rows of elements;
// Hardmax marks the first largest element of each row with 1.
//
// Work is counted in texels: T = row-major index over the logical shape
// with the channel dim C replaced by its slice count S (so T walks the
// PHWC4 texels in logical order). A row is the texels
// T = (o * REDUCED + r) * INNER + i, r < REDUCED, for one (o, i).
// JOINED 0: the reduced dims exclude the channel, so each of a texel's four
//   lanes belongs to its own row and rows are reduced lane by lane (vec4).
// JOINED 1: the reduced dims include the channel: the lanes of a texel are
//   one row's elements (padding lanes, c >= C, excluded).
// One work group row of LOCAL_X invocations reduces one row in shared
// memory (max, then sum of exponentials), then writes it: every element is
// read three times, whatever the row length. ROW_PER_INVOCATION 1: many
// short rows (attention scores), each reduced by one invocation alone in
// registers, rows along x: no shared memory, no barriers (on llvmpipe a
// tree of shared-memory steps cost far more than the row's own reads).
#ifndef LOG
#define LOG 0
#endif
#ifndef HARD
#define HARD 0
#endif
#ifndef JOINED
#define JOINED 0
#endif
#ifndef REDUCED
#define REDUCED 5
#endif
#ifndef INNER
#define INNER 1
#endif
#ifndef ROW_COUNT
#define ROW_COUNT 1
#endif
#ifndef ROW_PER_INVOCATION
#define ROW_PER_INVOCATION 0
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

const float kLowest = -3.402823e38;
const int kNoKey = 2147483647;
const int kHW = in0_H * in0_W;

#if !ROW_PER_INVOCATION
shared vec4 partial[LOCAL_X * LOCAL_Y];
#if HARD
shared ivec4 partial_key[LOCAL_X * LOCAL_Y];
#endif
#endif

// (x, y, s) of texel t.
ivec3 texel_of(int t) {
  int hw = t % kHW;
  int ns = t / kHW;
  return ivec3(hw % in0_W, (ns / in0_S) * in0_H + hw / in0_W, ns % in0_S);
}

// Logical flat index of each lane of texel t: orders a row's elements.
ivec4 keys_of(int t) {
  int hw = t % kHW;
  int ns = t / kHW;
  int c = (ns % in0_S) * 4;
  return ((ivec4(ns / in0_S * in0_C) + ivec4(c, c + 1, c + 2, c + 3)) * kHW) + ivec4(hw);
}

bvec4 real_lanes(int s) { return lessThan(ivec4(s * 4) + ivec4(0, 1, 2, 3), ivec4(in0_C)); }

vec4 finish(vec4 x, vec4 largest, vec4 sum) {
#if LOG
  return x - largest - log(sum);
#else
  return exp(x - largest) / sum;
#endif
}

ivec4 pick(bvec4 which, ivec4 a, ivec4 b) {
  return ivec4(which.x ? a.x : b.x, which.y ? a.y : b.y, which.z ? a.z : b.z, which.w ? a.w : b.w);
}

// The elements r = first, first + step, ... of the row that starts at
// texel `base`: their largest (and for Hardmax its first key) folded into
// largest / key.
void scan_largest(int base, int first, int step, inout vec4 largest, inout ivec4 key) {
  for (int r = first; r < REDUCED; r += step) {
    int t = base + r * INNER;
    ivec3 p = texel_of(t);
    vec4 v = in0_load(p.x, p.y, p.z);
#if JOINED
    v = mix(vec4(kLowest), v, real_lanes(p.z));
#endif
#if HARD
    // Strictly greater keeps the earliest; the first real element always enters.
    bvec4 take = bvec4(uvec4(greaterThan(v, largest)) | uvec4(equal(key, ivec4(kNoKey))));
#if JOINED
    take = bvec4(uvec4(take) & uvec4(real_lanes(p.z)));
#endif
    key = pick(take, keys_of(t), key);
#endif
    largest = max(largest, v);
  }
}

// JOINED: a row's lanes are one row, so its largest is their largest (and
// its key the first key holding it).
void join_lanes(inout vec4 largest, inout ivec4 key) {
#if JOINED
  float m = max(max(largest.x, largest.y), max(largest.z, largest.w));
#if HARD
  int k = kNoKey;
  for (int lane = 0; lane < 4; ++lane) {
    if (largest[lane] == m) k = min(k, key[lane]);
  }
  key = ivec4(k);
#endif
  largest = vec4(m);
#endif
}

vec4 scan_sum(int base, int first, int step, vec4 largest) {
  vec4 sum = vec4(0.0);
  for (int r = first; r < REDUCED; r += step) {
    ivec3 p = texel_of(base + r * INNER);
    vec4 e = exp(in0_load(p.x, p.y, p.z) - largest);
#if JOINED
    e = mix(vec4(0.0), e, real_lanes(p.z));
#endif
    sum += e;
  }
  return sum;
}

vec4 join_sum(vec4 sum) {
#if JOINED
  return vec4(sum.x + sum.y + sum.z + sum.w);
#else
  return sum;
#endif
}

// Pass 3 (padding lanes are zeroed by the store).
void write_row(int base, int first, int step, vec4 largest, vec4 sum, ivec4 key) {
  for (int r = first; r < REDUCED; r += step) {
    int t = base + r * INNER;
    ivec3 p = texel_of(t);
#if HARD
    out0_store(p.x, p.y, p.z, activate(vec4(equal(keys_of(t), key))));
#else
    out0_store(p.x, p.y, p.z, activate(finish(in0_load(p.x, p.y, p.z), largest, sum)));
#endif
  }
}

int row_base(int row) { return (row / INNER) * REDUCED * INNER + row % INNER; }

#if ROW_PER_INVOCATION
void main() {
  int row = int(GLPOOL_GROUP_ID.x) * LOCAL_X + int(gl_LocalInvocationID.x);
  if (row >= ROW_COUNT) return;
  int base = row_base(row);
  vec4 largest = vec4(kLowest);
  ivec4 key = ivec4(kNoKey);
  scan_largest(base, 0, 1, largest, key);
  join_lanes(largest, key);
  vec4 sum = vec4(1.0);
#if !HARD
  sum = join_sum(scan_sum(base, 0, 1, largest));
#endif
  write_row(base, 0, 1, largest, sum, key);
}
#else
void main() {
  int lx = int(gl_LocalInvocationID.x);
  int slot = int(gl_LocalInvocationID.y) * LOCAL_X + lx;
  int head = slot - lx;  // this row's first slot
  int row = int(GLPOOL_GROUP_ID.x) * LOCAL_Y + int(gl_LocalInvocationID.y);
  // Rows past the end scan nothing but keep to the barriers.
  int first = row < ROW_COUNT ? lx : REDUCED;
  int base = row_base(min(row, ROW_COUNT - 1));

  // Pass 1: the largest element (and, for Hardmax, its first key).
  vec4 largest = vec4(kLowest);
  ivec4 key = ivec4(kNoKey);
  scan_largest(base, first, LOCAL_X, largest, key);
  partial[slot] = largest;
#if HARD
  partial_key[slot] = key;
#endif
  memoryBarrierShared();
  barrier();
  for (int stride = LOCAL_X / 2; stride > 0; stride /= 2) {
    if (lx < stride) {
      vec4 other = partial[slot + stride];
#if HARD
      ivec4 other_key = partial_key[slot + stride];
      bvec4 wins = bvec4(uvec4(greaterThan(other, partial[slot])) |
                         (uvec4(equal(other, partial[slot])) & uvec4(lessThan(other_key, partial_key[slot]))));
      partial_key[slot] = pick(wins, other_key, partial_key[slot]);
#endif
      partial[slot] = max(partial[slot], other);
    }
    memoryBarrierShared();
    barrier();
  }
  largest = partial[head];
#if HARD
  key = partial_key[head];
#endif
  join_lanes(largest, key);
  memoryBarrierShared();
  barrier();  // every invocation has read partial[head] before it is reused

  vec4 sum = vec4(1.0);
#if !HARD
  // Pass 2: the sum of exponentials.
  partial[slot] = scan_sum(base, first, LOCAL_X, largest);
  memoryBarrierShared();
  barrier();
  for (int stride = LOCAL_X / 2; stride > 0; stride /= 2) {
    if (lx < stride) partial[slot] += partial[slot + stride];
    memoryBarrierShared();
    barrier();
  }
  sum = join_sum(partial[head]);
#endif
  write_row(base, first, LOCAL_X, largest, sum, key);
}
#endif
