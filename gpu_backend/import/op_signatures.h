// What the importer checks every node against: an op's inputs, outputs and
// attributes at the model's opset.
//
// Debian's libonnx (1.12) knows opsets up to 17. ONNX 1.13-1.16 added
// opsets 18-21; for the ops glpool reads whose signature changed there
// (Reduce* axes as an input, Split num_outputs, Pad axes, Resize antialias
// and axes, AveragePool dilations, Cast saturate) and for the ops those
// opsets added that glpool runs (GroupNormalization, Mish, Gelu), the
// signature comes from glpool's own table, written from ONNX's operator
// changelog. Every other op takes libonnx's newest schema at or below the
// model's opset: its signature did not change after 17 (some accept new
// element types, float8 and int4, which glpool refuses where a tensor
// declares one).
#pragma once

#include <onnx/onnx_pb.h>

#include <map>
#include <string>
#include <vector>

#include "common/status.h"

namespace glpool {

// The newest default-domain opset glpool reads.
// The default-domain opsets a model may declare.
inline constexpr int64_t kMinSupportedOpset = 1;
inline constexpr int64_t kMaxSupportedOpset = 21;

struct AttributeSignature {
  onnx::AttributeProto::AttributeType type = onnx::AttributeProto::UNDEFINED;
  bool required = false;
};

struct OpSignature {
  std::string op_type;
  int since_version = 0;
  int min_inputs = 0, max_inputs = 0;
  int min_outputs = 0, max_outputs = 0;
  // Per formal input, its name and whether it may be left out (""); the
  // last one stands for every later input of a variadic op.
  std::vector<std::string> input_names;
  std::vector<bool> input_optional;
  std::map<std::string, AttributeSignature> attributes;
};

// The signature of default-domain `op_type` at `opset`; kUnsupported naming
// the op when ONNX has no such op at that opset, or when it is one of the
// ops opsets 18-21 added that glpool does not read.
StatusOr<OpSignature> FindOpSignature(const std::string& op_type, int64_t opset);

// Whether `op_type` at `opset` has a signature newer than libonnx's: its
// meaning at that opset is not what libonnx's schema (and its shape
// inference) describe.
bool IsNewerThanLibOnnx(const std::string& op_type, int64_t opset);

// The newest default-domain opset libonnx knows (17 for 1.12).
int64_t LibOnnxMaxOpset();

}  // namespace glpool
