#include "gpu_backend/import/op_signatures.h"

#include <onnx/defs/schema.h>

#include <climits>
#include <set>

namespace glpool {
namespace {

using A = onnx::AttributeProto;

// One formal input: its name and whether it may be left out.
struct In {
  const char* name;
  bool optional;
};

OpSignature Make(const char* op, int since, std::vector<In> inputs, int min_inputs, int max_inputs,
                 int max_outputs, std::map<std::string, AttributeSignature> attributes) {
  OpSignature s;
  s.op_type = op;
  s.since_version = since;
  s.min_inputs = min_inputs;
  s.max_inputs = max_inputs;
  s.min_outputs = 1;
  s.max_outputs = max_outputs;
  for (const In& in : inputs) {
    s.input_names.push_back(in.name);
    s.input_optional.push_back(in.optional);
  }
  s.attributes = std::move(attributes);
  return s;
}

AttributeSignature Int() { return {A::INT, false}; }
AttributeSignature Ints() { return {A::INTS, false}; }
AttributeSignature Float() { return {A::FLOAT, false}; }
AttributeSignature String() { return {A::STRING, false}; }
AttributeSignature Required(AttributeSignature a) {
  a.required = true;
  return a;
}

// Signatures that changed, or ops that appeared, in opsets 18-21, for the
// ops glpool reads (ONNX's docs/Changelog.md, "Version 18" to "Version 21").
std::vector<OpSignature> BuildNewerSignatures() {
  std::vector<OpSignature> table;
  // 18: every reduction but ReduceSum (13) takes its axes as input 1 and
  // gains noop_with_empty_axes; 20: ReduceMax/ReduceMin accept bool (same
  // signature).
  for (const char* op : {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
                         "ReduceMin", "ReduceProd", "ReduceSumSquare"}) {
    table.push_back(Make(op, 18, {{"data", false}, {"axes", true}}, 1, 2, 1,
                         {{"keepdims", Int()}, {"noop_with_empty_axes", Int()}}));
  }
  for (const char* op : {"ReduceMax", "ReduceMin"}) {
    table.push_back(Make(op, 20, {{"data", false}, {"axes", true}}, 1, 2, 1,
                         {{"keepdims", Int()}, {"noop_with_empty_axes", Int()}}));
  }
  // 18: num_outputs splits into that many (the last one smaller).
  table.push_back(Make("Split", 18, {{"input", false}, {"split", true}}, 1, 2, INT_MAX,
                       {{"axis", Int()}, {"num_outputs", Int()}}));
  // 18: axes (input 3) names the padded dims; 19: mode "wrap"; 21: int4.
  for (int since : {18, 19, 21}) {
    table.push_back(Make("Pad", since, {{"data", false}, {"pads", false}, {"constant_value", true}, {"axes", true}},
                         2, 4, 1, {{"mode", String()}}));
  }
  // 18: antialias, axes, keep_aspect_ratio_policy; 19: half_pixel_symmetric.
  for (int since : {18, 19}) {
    table.push_back(Make("Resize", since, {{"X", false}, {"roi", true}, {"scales", true}, {"sizes", true}}, 1, 4, 1,
                         {{"antialias", Int()},
                          {"axes", Ints()},
                          {"coordinate_transformation_mode", String()},
                          {"cubic_coeff_a", Float()},
                          {"exclude_outside", Int()},
                          {"extrapolation_value", Float()},
                          {"keep_aspect_ratio_policy", String()},
                          {"mode", String()},
                          {"nearest_mode", String()}}));
  }
  // 19: dilations.
  table.push_back(Make("AveragePool", 19, {{"X", false}}, 1, 1, 1,
                       {{"auto_pad", String()},
                        {"ceil_mode", Int()},
                        {"count_include_pad", Int()},
                        {"dilations", Ints()},
                        {"kernel_shape", Required(Ints())},
                        {"pads", Ints()},
                        {"strides", Ints()}}));
  // 18: ceil_mode.
  table.push_back(Make("LpPool", 18, {{"X", false}}, 1, 1, 1,
                       {{"auto_pad", String()},
                        {"ceil_mode", Int()},
                        {"dilations", Ints()},
                        {"kernel_shape", Required(Ints())},
                        {"p", Int()},
                        {"pads", Ints()},
                        {"strides", Ints()}}));
  // 19: saturate (float8 targets only); 21: int4 (same signature).
  for (int since : {19, 21}) {
    table.push_back(Make("Cast", since, {{"input", false}}, 1, 1, 1, {{"saturate", Int()}, {"to", Required(Int())}}));
    table.push_back(Make("CastLike", since, {{"input", false}, {"target_type", false}}, 2, 2, 1,
                         {{"saturate", Int()}}));
  }
  // New ops.
  table.push_back(Make("Mish", 18, {{"X", false}}, 1, 1, 1, {}));
  table.push_back(Make("Gelu", 20, {{"X", false}}, 1, 1, 1, {{"approximate", String()}}));
  // 18: scale and bias per group; 21: per channel, and stash_type.
  table.push_back(Make("GroupNormalization", 18, {{"X", false}, {"scale", false}, {"bias", false}}, 3, 3, 1,
                       {{"epsilon", Float()}, {"num_groups", Required(Int())}}));
  table.push_back(Make("GroupNormalization", 21, {{"X", false}, {"scale", false}, {"bias", false}}, 3, 3, 1,
                       {{"epsilon", Float()}, {"num_groups", Required(Int())}, {"stash_type", Int()}}));
  return table;
}

const std::vector<OpSignature>& NewerSignatures() {
  static const std::vector<OpSignature> table = BuildNewerSignatures();
  return table;
}

// The newest entry of ours for `op_type` at or below `opset`, or null.
const OpSignature* FindNewer(const std::string& op_type, int64_t opset) {
  const OpSignature* best = nullptr;
  for (const OpSignature& s : NewerSignatures()) {
    if (s.op_type == op_type && s.since_version <= opset && (!best || s.since_version > best->since_version)) {
      best = &s;
    }
  }
  return best;
}

// Ops opsets 18-21 added that glpool does not read, so that a model using
// one hears "not supported" rather than "no such op".
bool IsUnreadNewOp(const std::string& op_type) {
  static const std::set<std::string> kOps = {
      "BitwiseAnd",    "BitwiseNot",    "BitwiseOr",      "BitwiseXor",   "CenterCropPad", "Col2Im",
      "DeformConv",    "AffineGrid",    "ImageDecoder",   "RegexFullMatch", "StringConcat", "StringSplit"};
  return kOps.count(op_type) != 0;
}

OpSignature FromSchema(const onnx::OpSchema& schema) {
  OpSignature s;
  s.op_type = schema.Name();
  s.since_version = schema.since_version();
  s.min_inputs = schema.min_input();
  s.max_inputs = schema.max_input();
  s.min_outputs = schema.min_output();
  s.max_outputs = schema.max_output();
  for (const auto& formal : schema.inputs()) {
    s.input_names.push_back(formal.GetName());
    s.input_optional.push_back(formal.GetOption() == onnx::OpSchema::Optional);
  }
  for (const auto& [name, attribute] : schema.attributes()) {
    s.attributes[name] = AttributeSignature{attribute.type, attribute.required};
  }
  return s;
}

}  // namespace

int64_t LibOnnxMaxOpset() {
  const auto& map = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  auto it = map.find("");
  return it == map.end() ? 17 : it->second.second;
}

bool IsNewerThanLibOnnx(const std::string& op_type, int64_t opset) {
  return opset > LibOnnxMaxOpset() && FindNewer(op_type, opset) != nullptr;
}

StatusOr<OpSignature> FindOpSignature(const std::string& op_type, int64_t opset) {
  if (opset > LibOnnxMaxOpset()) {
    if (const OpSignature* newer = FindNewer(op_type, opset)) return *newer;
    if (IsUnreadNewOp(op_type)) {
      return UnsupportedError("op '" + op_type + "' (added in ONNX opsets 18-21) is not supported");
    }
  }
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(op_type, static_cast<int>(opset), "");
  if (schema == nullptr) {
    return UnsupportedError("unknown op '" + op_type + "' (no such op in ONNX opset " + std::to_string(opset) + ")");
  }
  return FromSchema(*schema);
}

}  // namespace glpool
