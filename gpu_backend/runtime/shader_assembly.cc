#include "gpu_backend/runtime/shader_assembly.h"

#include <algorithm>
#include <sstream>

namespace glpool {

const char* StorageKindName(StorageKind kind) {
  switch (kind) {
    case StorageKind::kTexture2D: return "texture 2D";
    case StorageKind::kTexture2DArray: return "texture 2D array";
    case StorageKind::kBuffer: return "buffer";
  }
  return "unknown";
}

namespace {

// The fused activation every kernel applies to its result before storing it
// (kernel.h: AddFusedActivationDefines). Mirrors fused_activation.h.
const char kActivation[] = R"glsl(#ifndef FUSED_ACTIVATION
#define FUSED_ACTIVATION 0
#endif
#ifndef ACT_P0
#define ACT_P0 0.0
#endif
#ifndef ACT_P1
#define ACT_P1 0.0
#endif
// Activation number `code` (0: none) with its parameters p0, p1; kernels
// pass constants, so compilers keep the one branch taken.
vec4 glpool_activation(int code, vec4 v, float p0, float p1) {
  if (code == 1) return max(v, vec4(0.0));
  if (code == 2) return clamp(v, vec4(p0), vec4(p1));
  if (code == 3) return vec4(1.0) / (vec4(1.0) + exp(-v));
  if (code == 4) return tanh(v);
  if (code == 5) return clamp(p0 * v + vec4(p1), vec4(0.0), vec4(1.0));
  if (code == 6) return v * clamp(v / 6.0 + vec4(0.5), vec4(0.0), vec4(1.0));
  if (code == 7) return mix(v * p0, v, greaterThanEqual(v, vec4(0.0)));
  if (code == 8) return mix(p0 * (exp(v) - vec4(1.0)), v, greaterThan(v, vec4(0.0)));
  if (code == 9) return v * (vec4(1.0) / (vec4(1.0) + exp(-v)));
  return v;
}
vec4 activate_only(vec4 v) { return glpool_activation(FUSED_ACTIVATION, v, ACT_P0, ACT_P1); }
// Then the fused output scale and shift, when the node has them.
vec4 activate(vec4 v) {
#ifdef ACT_SCALE
  return activate_only(v) * ACT_SCALE + vec4(ACT_SHIFT);
#else
  return activate_only(v);
#endif
}
)glsl";

// Every store into an RGBA16F image goes through this: v rounded to the
// nearest float16 (ties to even; from 65520 on, infinity), which the store
// then keeps exactly. The GL leaves the store's own conversion to the
// driver, and llvmpipe truncates toward zero: every stored activation
// shrinks by half a unit in the last place on average, a bias a deep network
// compounds (PP-OCRv4 det's mask erred 13x more in fp16 textures than in
// fp16 buffers, whose packHalf2x16 rounds to nearest).
const char kRoundToHalf[] = R"glsl(vec4 glpool_round_to_half(vec4 v) {
  uvec4 bits = floatBitsToUint(v);
  uvec4 magnitude = bits & 0x7fffffffu;
  uvec4 kept = bits & ~0x1fffu;  // sign, exponent and the 10 mantissa bits a half keeps
  uvec4 rest = bits & 0x1fffu;
  uvec4 up = uvec4(greaterThan(rest, uvec4(0x1000u))) | (uvec4(equal(rest, uvec4(0x1000u))) & ((kept >> 13u) & 1u));
  vec4 rounded = uintBitsToFloat(kept + up * 0x2000u);
  // Subnormal halves are the multiples of 2^-24 (scaling by 2^24 is exact).
  vec4 subnormal = sign(v) * roundEven(abs(v) * 16777216.0) / 16777216.0;
  vec4 overflow = uintBitsToFloat((bits & 0x80000000u) | 0x7f800000u);
  rounded = mix(rounded, subnormal, lessThan(magnitude, uvec4(0x38800000u)));
  rounded = mix(rounded, overflow, greaterThanEqual(magnitude, uvec4(0x477ff000u)));
  return mix(rounded, v, greaterThanEqual(magnitude, uvec4(0x7f800000u)));  // infinity, NaN
}
)glsl";

// Kernels name their work group and invocation through these, never through
// gl_WorkGroupID / gl_GlobalInvocationID: a dispatch larger than the
// device's work-group count limit runs in parts (GlProgram::Dispatch), and
// each part's first group arrives in glpool_group_base.
const char kGroupIds[] = R"glsl(uniform highp uvec3 glpool_group_base;
#define GLPOOL_GROUP_ID (gl_WorkGroupID + glpool_group_base)
#define GLPOOL_GLOBAL_ID (GLPOOL_GROUP_ID * gl_WorkGroupSize + gl_LocalInvocationID)
// The output (column, row, slice) of this invocation for kernels that
// compute one position (or block) per invocation. With LANES_ALONG_SLICES
// the dispatch's x runs over the slices: llvmpipe fills SIMD lanes along x
// only, and an output one column wide would leave all lanes but one idle.
#ifndef LANES_ALONG_SLICES
#define LANES_ALONG_SLICES 0
#endif
#if LANES_ALONG_SLICES
#define GLPOOL_OUTPUT_POSITION ivec3(GLPOOL_GLOBAL_ID.zyx)
#else
#define GLPOOL_OUTPUT_POSITION ivec3(GLPOOL_GLOBAL_ID)
#endif
)glsl";

std::vector<std::string> WordsAfter(const std::string& source, const std::string& tag) {
  std::vector<std::string> words;
  const size_t at = source.find(tag);
  if (at == std::string::npos) return words;
  const size_t end = source.find('\n', at);
  std::istringstream line(source.substr(at + tag.size(), end - at - tag.size()));
  for (std::string word; line >> word;) words.push_back(word);
  return words;
}

std::string Define(const std::string& name, int64_t value) {
  return "#define " + name + " " + std::to_string(value) + "\n";
}

std::string TensorPreamble(const TensorBinding& t) {
  const std::string& r = t.role;
  std::string s = "// " + r + ": " + std::to_string(t.layout.n) + "x" + std::to_string(t.layout.c) + "x" +
                  std::to_string(t.layout.h) + "x" + std::to_string(t.layout.w) + " in a " +
                  (t.fp16 ? "fp16 " : "fp32 ") + StorageKindName(t.storage) + "\n";
  s += Define(r + "_N", t.layout.n) + Define(r + "_C", t.layout.c) + Define(r + "_H", t.layout.h) +
       Define(r + "_W", t.layout.w) + Define(r + "_S", t.layout.slices()) + Define(r + "_ROWS", t.layout.rows()) +
       Define(r + "_SLICE_BASE", t.slice_base);
  // The slice of the object that slice s of the tensor is.
  const std::string slice = "(s + " + r + "_SLICE_BASE)";
  const std::string access = t.is_output ? "writeonly" : "readonly";
  if (t.is_output) {
    // Padding lanes (channels >= C) are always stored as zero, so a later
    // kernel may reduce whole vec4 slices without NaN or garbage leaking in.
    s += "vec4 " + r + "_mask_padding(int s, vec4 v) { return mix(vec4(0.0), v, lessThan(ivec4(s * 4) + "
         "ivec4(0, 1, 2, 3), ivec4(" + r + "_C))); }\n";
  }
  const std::string binding = std::to_string(t.binding);
  if (t.storage == StorageKind::kBuffer && !t.texture_buffer_directive.empty()) {
    // A view as RGBA16F or RGBA32F texels: fp16's packed halves are the
    // same bytes, so texelFetch returns the vec4 either way.
    s += "layout(binding = " + std::to_string(t.texture_unit) + ") uniform highp samplerBuffer " + r + "_texels;\n";
    s += "vec4 " + r + "_load(int x, int y, int s) { return texelFetch(" + r + "_texels, (" + slice + " * " + r +
         "_ROWS + y) * " + r + "_W + x); }\n";
  } else if (t.storage == StorageKind::kBuffer) {
    const std::string element = t.fp16 ? "uvec2" : "vec4";
    s += "layout(std430, binding = " + binding + ") " + access + " restrict buffer " + r + "_block { " + element +
         " texels[]; } " + r + "_buffer;\n";
    const std::string index = "(" + slice + " * " + r + "_ROWS + y) * " + r + "_W + x";
    if (t.is_output) {
      s += "void " + r + "_store(int x, int y, int s, vec4 v) { v = " + r + "_mask_padding(s, v); " + r +
           "_buffer.texels[" + index + "] = " +
           (t.fp16 ? "uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw))" : "v") + "; }\n";
    } else {
      s += "vec4 " + r + "_load(int x, int y, int s) { " + element + " t = " + r + "_buffer.texels[" + index +
           "]; return " + (t.fp16 ? "vec4(unpackHalf2x16(t.x), unpackHalf2x16(t.y))" : "t") + "; }\n";
    }
  } else {
    const bool array = t.storage == StorageKind::kTexture2DArray;
    const std::string type = array ? "image2DArray" : "image2D";
    const std::string coord = array ? "ivec3(x, y, " + slice + ")" : "ivec2(x, " + slice + " * " + r + "_ROWS + y)";
    s += "layout(" + std::string(t.fp16 ? "rgba16f" : "rgba32f") + ", binding = " + binding + ") " + access +
         " uniform highp " + type + " " + r + "_image;\n";
    if (t.is_output) {
      s += "void " + r + "_store(int x, int y, int s, vec4 v) { v = " + r + "_mask_padding(s, v); imageStore(" + r +
           "_image, " + coord + (t.fp16 ? ", glpool_round_to_half(v)); }\n" : ", v); }\n");
    } else {
      s += "vec4 " + r + "_load(int x, int y, int s) { return imageLoad(" + r + "_image, " + coord + "); }\n";
    }
  }
  if (!t.is_output) {
    s += "float " + r + "_load_scalar(int n, int c, int h, int w) { vec4 t = " + r + "_load(w, n * " + r +
         "_H + h, c / 4); int lane = c % 4; return lane == 0 ? t.x : lane == 1 ? t.y : lane == 2 ? t.z : t.w; }\n";
  }
  return s;
}

}  // namespace

StatusOr<KernelInterface> ParseKernelInterface(const std::string& name, const std::string& source) {
  KernelInterface interface;
  if (source.find("// glpool-tensors:") == std::string::npos) {
    return InternalError("shader " + name + " lacks its '// glpool-tensors:' line");
  }
  bool optional = false;
  bool optional_inputs = false, optional_outputs = false;
  for (std::string role : WordsAfter(source, "// glpool-tensors:")) {
    if (!role.empty() && role.front() == '[') {
      optional = true;
      role.erase(0, 1);
    }
    const bool closes = !role.empty() && role.back() == ']';
    if (closes) role.pop_back();
    if (role.rfind("in", 0) == 0) {
      if (!optional && optional_inputs) {
        return InternalError("shader " + name + ": optional inputs must come after the required ones");
      }
      optional_inputs = optional_inputs || optional;
      interface.inputs.push_back(role);
      if (!optional) interface.required_inputs = interface.inputs.size();
    } else if (role.rfind("out", 0) == 0) {
      if (!optional && optional_outputs) {
        return InternalError("shader " + name + ": optional outputs must come after the required ones");
      }
      optional_outputs = optional_outputs || optional;
      interface.outputs.push_back(role);
      if (!optional) interface.required_outputs = interface.outputs.size();
    } else {
      return InternalError("shader " + name + ": tensor role '" + role + "' must start with in or out");
    }
    if (closes) optional = false;
  }
  interface.weights = WordsAfter(source, "// glpool-weights:");
  return interface;
}

StatusOr<std::string> AssembleKernel(const std::string& name, const std::string& source,
                                     const std::vector<std::pair<std::string, std::string>>& defines,
                                     const std::vector<TensorBinding>& tensors,
                                     const std::vector<WeightBinding>& weights) {
  GLPOOL_ASSIGN_OR_RETURN(KernelInterface interface, ParseKernelInterface(name, source));
  std::vector<std::string> bound_inputs, bound_outputs, bound_weights;
  for (const TensorBinding& t : tensors) (t.is_output ? bound_outputs : bound_inputs).push_back(t.role);
  for (const WeightBinding& w : weights) bound_weights.push_back(w.name);
  // Bound roles: the required ones, then any prefix of the optional ones.
  auto matches = [](const std::vector<std::string>& bound, const std::vector<std::string>& declared, size_t required) {
    return bound.size() >= required && bound.size() <= declared.size() &&
           std::equal(bound.begin(), bound.end(), declared.begin());
  };
  if (!matches(bound_inputs, interface.inputs, interface.required_inputs) ||
      !matches(bound_outputs, interface.outputs, interface.required_outputs) || bound_weights != interface.weights) {
    return InternalError("shader " + name + ": the bound tensors and weights do not match its declared interface");
  }
  const size_t line_end = source.find('\n');
  if (source.compare(0, line_end, "#version 310 es") != 0) {
    return InternalError("shader " + name + " must start with '#version 310 es'");
  }
  std::string text = "#version 310 es\n";
  std::string directive;
  for (const WeightBinding& w : weights) {
    if (!w.texture_buffer_directive.empty()) directive = w.texture_buffer_directive;
  }
  for (const TensorBinding& t : tensors) {
    if (!t.texture_buffer_directive.empty()) directive = t.texture_buffer_directive;
  }
  if (!directive.empty()) text += directive + "\n";
  for (const auto& [key, value] : defines) text += "#define " + key + " " + value + "\n";
  text += "precision highp float;\nprecision highp int;\n";
  text += kGroupIds;
  text += kActivation;
  const bool stores_half_image = std::any_of(tensors.begin(), tensors.end(), [](const TensorBinding& t) {
    return t.is_output && t.fp16 && t.storage != StorageKind::kBuffer;
  });
  if (stores_half_image) text += kRoundToHalf;
  for (const TensorBinding& t : tensors) text += TensorPreamble(t);
  // Kernels read weights only through NAME_load(i), whatever holds them.
  for (const WeightBinding& w : weights) {
    const std::string binding = std::to_string(w.binding);
    if (!w.texture_buffer_directive.empty()) {
      text += "layout(binding = " + binding + ") uniform highp samplerBuffer " + w.name + "_texture;\n";
      text += "vec4 " + w.name + "_load(int i) { return texelFetch(" + w.name + "_texture, i); }\n";
      continue;
    }
    if (w.texture) {
      text += "layout(binding = " + binding + ") uniform highp sampler2D " + w.name + "_texture;\n";
      text += "vec4 " + w.name + "_load(int i) { return texelFetch(" + w.name + "_texture, ivec2(i & " +
              std::to_string(kWeightTextureWidth - 1) + ", i >> " + std::to_string(kWeightTextureShift) +
              "), 0); }\n";
      continue;
    }
    if (w.uniform_vec4s > 0) {
      text += "layout(std140, binding = " + binding + ") uniform " + w.name + "_block { vec4 " + w.name + "_data[" +
              std::to_string(w.uniform_vec4s) + "]; };\n";
    } else {
      text += "layout(std430, binding = " + binding + ") readonly restrict buffer " + w.name + "_block { vec4 " +
              w.name + "_data[]; };\n";
    }
    text += "vec4 " + w.name + "_load(int i) { return " + w.name + "_data[i]; }\n";
  }
  text += "#line 2\n";
  text += source.substr(line_end + 1);
  return text;
}

StatusOr<std::string> AssembleRepresentative(const std::string& name, const std::string& source,
                                             StorageKind storage, bool fp16) {
  GLPOOL_ASSIGN_OR_RETURN(KernelInterface interface, ParseKernelInterface(name, source));
  // Odd sizes on purpose: nothing may assume multiples of four.
  const Phwc4Layout layout{1, 5, 7, 13};
  std::vector<TensorBinding> tensors;
  uint32_t binding = 0;
  for (const std::string& role : interface.inputs) tensors.push_back({role, false, storage, fp16, layout, binding++, "", 0});
  for (const std::string& role : interface.outputs) tensors.push_back({role, true, storage, fp16, layout, binding++, "", 0});
  std::vector<WeightBinding> weights;
  uint32_t weight_binding = storage == StorageKind::kBuffer ? binding : 0;
  for (const std::string& weight : interface.weights) weights.push_back({weight, weight_binding++, 0, false, ""});
  return AssembleKernel(name, source, {}, tensors, weights);
}

}  // namespace glpool
