#version 310 es
// glpool-tensors: in0 [in1 in2] out0
// out0 = activate(OP(in0)) on whole vec4 texels. Optional inputs:
// - PRelu's slope in1, read like elementwise_binary's second operand: a vec4
//   when its layout is the output's (IN1_SAME), else lane by lane (IN1_MAP);
// - Clip's bounds when they are computed at run time: CLIP_MIN_ROLE /
//   CLIP_MAX_ROLE name the input (1 or 2) holding the scalar, 0 means the
//   constant P0 / P1.
#ifndef OP
#define OP 0
#endif
// OP codes (elementwise_unary.cc): 0 Relu, 1 Clip, 2 Sigmoid, 3 Tanh,
// 4 HardSigmoid, 5 HardSwish, 6 LeakyRelu, 7 PRelu, 8 Elu, 9 Sqrt, 10 Exp,
// 11 Erf, 12 Neg, 13 Abs, 14 Reciprocal, 15 Log, 16 Floor, 17 Ceil,
// 18 Round, 19 Sign, 20 Sin, 21 Cos, 22 Softplus, 23 Softsign, 24 Selu,
// 25 Celu, 26 ThresholdedRelu, 27 Tan, 28 Asin, 29 Acos, 30 Atan, 31 Sinh,
// 32 Cosh, 33 Asinh, 34 Acosh, 35 Atanh, 36 Not, 37 Cast; anything else
// copies.
// Integer and bool tensors hold whole numbers in float storage (bools as
// 1.0 / 0.0). Cast converts to CAST_TO: 0 float32 or float64 (a copy),
// 1 float16, 2 bool, 3 int8, 4 uint8, 5 int16, 6 int32 or int64.
#ifndef P0
#define P0 0.0
#endif
#ifndef P1
#define P1 0.0
#endif
#ifndef CLIP_MIN_ROLE
#define CLIP_MIN_ROLE 0
#endif
#ifndef CLIP_MAX_ROLE
#define CLIP_MAX_ROLE 0
#endif
#ifndef CAST_TO
#define CAST_TO 0
#endif
#ifndef IN1_SAME
#define IN1_SAME 1
#endif
#ifndef IN1_MAP
#define IN1_MAP ivec4(0, 1, 2, 3)
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

// erf to |error| < 3e-7 in fp32: its Taylor series near zero, where the
// tail form below would lose digits to cancellation, and Abramowitz &
// Stegun 7.1.26 (|error| <= 1.5e-7) beyond.
vec4 erf4(vec4 x) {
  vec4 a = abs(x);
  vec4 x2 = x * x;
  vec4 series = x * (1.1283791671 + x2 * (-0.3761263890 + x2 * (0.1128379167 + x2 * (-0.0268661706 +
                x2 * (0.0052239776 + x2 * (-0.0008548327 + x2 * 0.0001205533))))));
  vec4 t = 1.0 / (1.0 + 0.3275911 * a);
  vec4 poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  vec4 tail = sign(x) * (1.0 - poly * exp(-x2));
  return mix(tail, series, lessThan(a, vec4(0.5)));
}

// The float16 nearest to v (ties to even; overflow to infinity), as
// float16.h rounds: bit by bit, since GLSL leaves packHalf2x16's rounding
// to the implementation.
float to_half(float v) {
  uint bits = floatBitsToUint(v);
  uint magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) return v;  // infinity, NaN
  if (magnitude >= 0x477ff000u) return uintBitsToFloat((bits & 0x80000000u) | 0x7f800000u);
  if (magnitude < 0x38800000u) {
    // Subnormal halves are the multiples of 2^-24 (scaling by 2^24 is exact).
    return sign(v) * roundEven(abs(v) * 16777216.0) / 16777216.0;
  }
  uint kept = bits & ~0x1fffu;  // 10 mantissa bits of 23
  uint rest = bits & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (kept & 0x2000u) != 0u)) kept += 0x2000u;
  return uintBitsToFloat(kept);
}

// Whole numbers wrapped into [low, low + range), as a conversion to a
// narrower integer type wraps (exact: range is a power of two).
vec4 wrap(vec4 v, float low, float range) { return v - range * floor((v - low) / range); }

vec4 convert(vec4 x) {
#if CAST_TO == 1
  return vec4(to_half(x.x), to_half(x.y), to_half(x.z), to_half(x.w));
#elif CAST_TO == 2
  return vec4(notEqual(x, vec4(0.0)));
#elif CAST_TO >= 3
  // Toward zero; NaN (undefined in ONNX) becomes 0, as in the CPU reference.
  vec4 t = mix(trunc(x), vec4(0.0), isnan(x));
#if CAST_TO == 3
  return wrap(t, -128.0, 256.0);
#elif CAST_TO == 4
  return wrap(t, 0.0, 256.0);
#elif CAST_TO == 5
  return wrap(t, -32768.0, 65536.0);
#else
  return t;  // 32 and 64 bits: wider than float storage's exact range
#endif
#else
  return x;
#endif
}

vec4 apply(vec4 x, vec4 slope) {
#if OP == 0
  return max(x, vec4(0.0));
#elif OP == 1
  float lo = P0, hi = P1;
#if CLIP_MIN_ROLE == 1
  lo = in1_load(0, 0, 0).x;
#endif
#if CLIP_MAX_ROLE == 1
  hi = in1_load(0, 0, 0).x;
#elif CLIP_MAX_ROLE == 2 && defined(in2_N)
  hi = in2_load(0, 0, 0).x;
#endif
  return clamp(x, vec4(lo), vec4(hi));
#elif OP == 2
  return 1.0 / (1.0 + exp(-x));
#elif OP == 3
  // Clamped: some drivers compute tanh from exp and overflow to NaN.
  return tanh(clamp(x, -15.0, 15.0));
#elif OP == 4
  return clamp(P0 * x + P1, 0.0, 1.0);
#elif OP == 5
  return x * clamp(x / 6.0 + 0.5, 0.0, 1.0);
#elif OP == 6
  return mix(P0 * x, x, greaterThanEqual(x, vec4(0.0)));
#elif OP == 7
  return mix(slope * x, x, greaterThanEqual(x, vec4(0.0)));
#elif OP == 8
  return mix(P0 * (exp(x) - 1.0), x, greaterThan(x, vec4(0.0)));
#elif OP == 9
  return sqrt(x);
#elif OP == 10
  return exp(x);
#elif OP == 11
  return erf4(x);
#elif OP == 12
  return -x;
#elif OP == 13
  return abs(x);
#elif OP == 14
  return 1.0 / x;
#elif OP == 15
  return log(x);
#elif OP == 16
  return floor(x);
#elif OP == 17
  return ceil(x);
#elif OP == 18
  return roundEven(x);
#elif OP == 19
  return sign(x);
#elif OP == 20
  return sin(x);
#elif OP == 21
  return cos(x);
#elif OP == 22
  // log(1 + e^x) without overflowing e^x.
  return max(x, 0.0) + log(1.0 + exp(-abs(x)));
#elif OP == 23
  return x / (1.0 + abs(x));
#elif OP == 24
  return P1 * mix(P0 * (exp(x) - 1.0), x, greaterThan(x, vec4(0.0)));
#elif OP == 25
  return max(x, 0.0) + min(vec4(0.0), P0 * (exp(x / P0) - 1.0));
#elif OP == 26
  return mix(vec4(0.0), x, greaterThan(x, vec4(P0)));
#elif OP == 27
  return tan(x);
#elif OP == 28
  // Through atan: some drivers' asin is off by 3e-4 (llvmpipe among them).
  return atan(x, sqrt((1.0 - x) * (1.0 + x)));
#elif OP == 29
  return atan(sqrt((1.0 - x) * (1.0 + x)), x);
#elif OP == 30
  return atan(x);
#elif OP == 31
  return sinh(x);
#elif OP == 32
  return cosh(x);
#elif OP == 33
  return asinh(x);
#elif OP == 34
  return acosh(x);
#elif OP == 35
  return atanh(x);
#elif OP == 36
  return vec4(equal(x, vec4(0.0)));
#elif OP == 37
  return convert(x);
#elif OP == 38
  // Gelu: x * Phi(x), Phi through erf.
  return 0.5 * x * (1.0 + erf4(x * 0.70710678118654752));
#elif OP == 39
  // Gelu, tanh approximation (clamped as Tanh is).
  return 0.5 * x * (1.0 + tanh(clamp(0.79788456080286536 * (x + 0.044715 * x * x * x), -15.0, 15.0)));
#elif OP == 40
  // Mish: x * tanh(softplus(x)); softplus >= 0, so only its top needs a clamp.
  return x * tanh(min(max(x, 0.0) + log(1.0 + exp(-abs(x))), 15.0));
#else
  return x;
#endif
}

int pick(ivec4 coords, int axis) {
  return axis < 0 ? 0 : (axis == 0 ? coords.x : axis == 1 ? coords.y : axis == 2 ? coords.z : coords.w);
}

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  vec4 slope = vec4(0.0);
#if OP == 7
#if IN1_SAME
  slope = in1_load(p.x, p.y, p.z);
#else
  ivec4 map = IN1_MAP;
  for (int lane = 0; lane < 4; ++lane) {
    ivec4 o = ivec4(p.y / out0_H, p.z * 4 + lane, p.y % out0_H, p.x);
    if (o.y >= out0_C) break;  // padding lanes: the store zeroes them
    slope[lane] = in1_load_scalar(pick(o, map.x), pick(o, map.y), pick(o, map.z), pick(o, map.w));
  }
#endif
#endif
  out0_store(p.x, p.y, p.z, activate(apply(in0_load(p.x, p.y, p.z), slope)));
}
