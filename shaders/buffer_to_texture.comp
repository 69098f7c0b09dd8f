#version 310 es
// Copies a buffer of vec4 texels, laid out slice by slice, row by row, into
// a 2D or 2D-array image. Host uploads and the texture round-trip tests use it.
#ifndef IMAGE_FORMAT
#define IMAGE_FORMAT rgba32f
#endif
#ifndef IS_ARRAY
#define IS_ARRAY 0
#endif
#ifndef HALF_IMAGE
#define HALF_IMAGE 0  // 1 when IMAGE_FORMAT is rgba16f
#endif
precision highp float;
precision highp int;
precision highp image2D;
precision highp image2DArray;
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(std430, binding = 0) readonly buffer Source { vec4 texels[]; } source;
#if IS_ARRAY
layout(IMAGE_FORMAT, binding = 0) writeonly uniform image2DArray destination;
#else
layout(IMAGE_FORMAT, binding = 0) writeonly uniform image2D destination;
#endif
uniform ivec4 u_extent;  // width, height, layers, unused

// The store's own float-to-half conversion is the driver's choice (llvmpipe
// truncates toward zero): into rgba16f, values are rounded to the nearest
// half first (ties to even), as glpool's kernels store them.
vec4 round_to_half(vec4 v) {
  uvec4 bits = floatBitsToUint(v);
  uvec4 magnitude = bits & 0x7fffffffu;
  uvec4 kept = bits & ~0x1fffu;
  uvec4 rest = bits & 0x1fffu;
  uvec4 up = uvec4(greaterThan(rest, uvec4(0x1000u))) | (uvec4(equal(rest, uvec4(0x1000u))) & ((kept >> 13u) & 1u));
  vec4 rounded = uintBitsToFloat(kept + up * 0x2000u);
  vec4 subnormal = sign(v) * roundEven(abs(v) * 16777216.0) / 16777216.0;
  vec4 overflow = uintBitsToFloat((bits & 0x80000000u) | 0x7f800000u);
  rounded = mix(rounded, subnormal, lessThan(magnitude, uvec4(0x38800000u)));
  rounded = mix(rounded, overflow, greaterThanEqual(magnitude, uvec4(0x477ff000u)));
  return mix(rounded, v, greaterThanEqual(magnitude, uvec4(0x7f800000u)));
}

void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID);
  if (p.x >= u_extent.x || p.y >= u_extent.y || p.z >= u_extent.z) return;
  vec4 value = source.texels[(p.z * u_extent.y + p.y) * u_extent.x + p.x];
#if HALF_IMAGE
  value = round_to_half(value);
#endif
#if IS_ARRAY
  imageStore(destination, p, value);
#else
  imageStore(destination, p.xy, value);
#endif
}
