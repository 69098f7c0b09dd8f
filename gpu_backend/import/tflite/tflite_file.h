// A .tflite file opened for reading: the bytes, checked by the flatbuffers
// Verifier against glpool's schema subset (tflite_schema.fbs) before any
// table is read, then the few structural checks the Verifier cannot make
// (one subgraph, every tensor/buffer/opcode index in range). After Open
// succeeds every index the reader follows is known to be valid. Internal to
// gpu_backend/import/tflite/.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/import/tflite/tflite_schema_generated.h"

namespace glpool {

namespace tfl = glpool_tflite;

// TFLite builtin operator codes the reader maps (the published values).
enum class TfliteOp : int {
  kAdd = 0, kAveragePool2d = 1, kConcatenation = 2, kConv2d = 3, kDepthwiseConv2d = 4,
  kDequantize = 6, kFloor = 8, kFullyConnected = 9, kLogistic = 14, kMaxPool2d = 17, kMul = 18,
  kRelu = 19, kReluN1To1 = 20, kRelu6 = 21, kReshape = 22, kResizeBilinear = 23, kSoftmax = 25,
  kTanh = 28, kCustom = 32, kPad = 34, kTranspose = 39, kMean = 40, kSub = 41, kDiv = 42,
  kSqueeze = 43, kStridedSlice = 45, kExp = 47, kPrelu = 54, kMaximum = 55, kMinimum = 57,
  kNeg = 59, kPadV2 = 60, kTransposeConv = 67, kLog = 73, kSum = 74, kSqrt = 75, kRsqrt = 76,
  kReduceMax = 82, kResizeNearestNeighbor = 97, kLeakyRelu = 98, kSquaredDifference = 99,
  kAbs = 101, kQuantize = 114, kHardSwish = 117,
};

class TfliteFile {
 public:
  // kInvalidModel naming `label` for anything the Verifier or the index
  // checks refuse; kUnsupported for valid files glpool does not read
  // (several subgraphs, buffers stored outside the flatbuffer).
  static StatusOr<std::unique_ptr<TfliteFile>> Open(std::string bytes, std::string label);

  const std::string& label() const { return label_; }
  const tfl::Model& model() const { return *model_; }
  const tfl::SubGraph& subgraph() const { return *subgraph_; }
  int tensor_count() const { return static_cast<int>(subgraph_->tensors()->size()); }
  const tfl::Tensor& tensor(int index) const { return *subgraph_->tensors()->Get(index); }
  int operator_count() const;
  const tfl::Operator& op(int index) const { return *subgraph_->operators()->Get(index); }
  // The bytes of a tensor's buffer (empty for activations).
  const flatbuffers::Vector<uint8_t>* buffer_data(const tfl::Tensor& tensor) const;

  // The operator's builtin code (custom ops: kCustom) and printable name:
  // "CONV_2D", or the custom code, e.g. "Convolution2DTransposeBias".
  int builtin_code(const tfl::Operator& op) const;
  std::string op_name(const tfl::Operator& op) const;
  int op_version(const tfl::Operator& op) const;
  // "op 12 (CONV_2D)" for messages.
  std::string op_label(int index) const;
  // The tensor's name, or "#<index>" when it has none.
  std::string tensor_name(int index) const;

 private:
  TfliteFile() = default;
  Status CheckIndices() const;

  std::string bytes_;
  std::string label_;
  const tfl::Model* model_ = nullptr;
  const tfl::SubGraph* subgraph_ = nullptr;
};

// True when `bytes` carry the TFLite file identifier ("TFL3" at offset 4).
bool LooksLikeTflite(const std::string& bytes);
// The published name of a builtin operator code ("BUILTIN_<n>" if unknown).
std::string TfliteBuiltinName(int code);

}  // namespace glpool
