#version 310 es
// glpool-tensors: in0 [in1 in2 in3 in4] out0
// glpool-weights: scale_shift
// Inference BatchNormalization.
// RUNTIME 0 (constant statistics): folded into one multiply-add per channel,
//   scale_shift_load(s) scaling slice s and scale_shift_load(in0_S + s)
//   shifting it.
// RUNTIME 1: scale, bias, mean and var are tensors in1..in4 of shape [C]
//   (one texel per slice), combined here; scale_shift is then unused.
#ifndef RUNTIME
#define RUNTIME 0
#endif
#ifndef EPSILON
#define EPSILON 1e-5
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  vec4 x = in0_load(p.x, p.y, p.z);
#if RUNTIME && defined(in4_N)
  vec4 v = (x - in3_load(0, 0, p.z)) * in1_load(0, 0, p.z) * inversesqrt(in4_load(0, 0, p.z) + EPSILON) +
           in2_load(0, 0, p.z);
#else
  vec4 v = x * scale_shift_load(p.z) + scale_shift_load(in0_S + p.z);
#endif
  out0_store(p.x, p.y, p.z, activate(v));
}
