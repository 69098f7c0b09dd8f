#version 310 es
// glpool-tensors: in0 out0 [out1 out2 out3 out4 out5 out6]
// glpool-weights: channel_map
// A strided copy that only moves channels (channel_copy.h): output j's
// channel c at (n, h, w) is input channel channel_map[4 * MAP_BASES[j] + c]
// at the same (n, h, w), so an output texel is four input texels at its own
// position, one lane of each, and no index arithmetic. channel_map: one
// vec4 per output slice, the input channels as floats (padding lanes 0: the
// store zeroes them).
#ifndef MAP_BASES
#define MAP_BASES int[7](0, 0, 0, 0, 0, 0, 0)
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

const int kMapBase[7] = MAP_BASES;  // output j's first vec4 in channel_map

float lane_of(vec4 t, int lane) { return lane == 0 ? t.x : lane == 1 ? t.y : lane == 2 ? t.z : t.w; }

float channel_at(ivec3 p, int c) { return lane_of(in0_load(p.x, p.y, c / 4), c % 4); }

vec4 gather(int j, ivec3 p) {
  ivec4 c = ivec4(channel_map_load(kMapBase[j] + p.z));
  return vec4(channel_at(p, c.x), channel_at(p, c.y), channel_at(p, c.z), channel_at(p, c.w));
}

bool inside(ivec3 p, int w, int rows, int slices) { return p.x < w && p.y < rows && p.z < slices; }

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  // The dispatch covers the largest output; each output keeps its own part.
  if (inside(p, out0_W, out0_ROWS, out0_S)) out0_store(p.x, p.y, p.z, activate(gather(0, p)));
#ifdef out1_N
  if (inside(p, out1_W, out1_ROWS, out1_S)) out1_store(p.x, p.y, p.z, activate(gather(1, p)));
#endif
#ifdef out2_N
  if (inside(p, out2_W, out2_ROWS, out2_S)) out2_store(p.x, p.y, p.z, activate(gather(2, p)));
#endif
#ifdef out3_N
  if (inside(p, out3_W, out3_ROWS, out3_S)) out3_store(p.x, p.y, p.z, activate(gather(3, p)));
#endif
#ifdef out4_N
  if (inside(p, out4_W, out4_ROWS, out4_S)) out4_store(p.x, p.y, p.z, activate(gather(4, p)));
#endif
#ifdef out5_N
  if (inside(p, out5_W, out5_ROWS, out5_S)) out5_store(p.x, p.y, p.z, activate(gather(5, p)));
#endif
#ifdef out6_N
  if (inside(p, out6_W, out6_ROWS, out6_S)) out6_store(p.x, p.y, p.z, activate(gather(6, p)));
#endif
}
