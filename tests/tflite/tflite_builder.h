// Builds small .tflite files in memory with flatbuffers' builder and the
// reader's own schema, for tests: networks of a few ops with known weights.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "gpu_backend/import/tflite/tflite_schema_generated.h"

namespace glpool::testing_tflite {

namespace tfl = glpool_tflite;

class TfliteBuilder {
 public:
  TfliteBuilder() { buffers_.push_back(tfl::CreateBuffer(fbb_)); }  // buffer 0: empty

  int Tensor(const std::string& name, const std::vector<int32_t>& shape, tfl::TensorType type = tfl::TensorType::FLOAT32,
             const std::vector<uint8_t>& data = {}, flatbuffers::Offset<tfl::QuantizationParameters> quant = 0) {
    uint32_t buffer = 0;
    if (!data.empty()) {
      buffers_.push_back(tfl::CreateBuffer(fbb_, fbb_.CreateVector(data)));
      buffer = static_cast<uint32_t>(buffers_.size() - 1);
    }
    tensors_.push_back(tfl::CreateTensor(fbb_, fbb_.CreateVector(shape), type, buffer, fbb_.CreateString(name), quant));
    return static_cast<int>(tensors_.size() - 1);
  }
  int Floats(const std::string& name, const std::vector<int32_t>& shape, const std::vector<float>& values) {
    std::vector<uint8_t> bytes(values.size() * 4);
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return Tensor(name, shape, tfl::TensorType::FLOAT32, bytes);
  }
  int Ints(const std::string& name, const std::vector<int32_t>& values) {
    std::vector<uint8_t> bytes(values.size() * 4);
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return Tensor(name, {static_cast<int32_t>(values.size())}, tfl::TensorType::INT32, bytes);
  }
  // Builtin op; `options` built beforehand with fbb().
  void Op(int code, const std::vector<int32_t>& inputs, const std::vector<int32_t>& outputs,
          tfl::BuiltinOptions options_type = tfl::BuiltinOptions::NONE, flatbuffers::Offset<void> options = 0,
          const std::string& custom = "", const std::vector<uint8_t>& custom_options = {}) {
    const uint32_t code_index = OpCode(code, custom);
    ops_.push_back(tfl::CreateOperator(fbb_, code_index, fbb_.CreateVector(inputs), fbb_.CreateVector(outputs),
                                       options_type, options,
                                       custom_options.empty() ? 0 : fbb_.CreateVector(custom_options)));
  }
  std::string Finish(const std::vector<int32_t>& inputs, const std::vector<int32_t>& outputs) {
    auto subgraph = tfl::CreateSubGraph(fbb_, fbb_.CreateVector(tensors_), fbb_.CreateVector(inputs),
                                        fbb_.CreateVector(outputs), fbb_.CreateVector(ops_), fbb_.CreateString("test"));
    std::vector<flatbuffers::Offset<tfl::SubGraph>> subgraphs = {subgraph};
    auto model = tfl::CreateModel(fbb_, 3, fbb_.CreateVector(codes_), fbb_.CreateVector(subgraphs),
                                  fbb_.CreateString("glpool test"), fbb_.CreateVector(buffers_));
    tfl::FinishModelBuffer(fbb_, model);
    return std::string(reinterpret_cast<const char*>(fbb_.GetBufferPointer()), fbb_.GetSize());
  }
  flatbuffers::FlatBufferBuilder& fbb() { return fbb_; }

 private:
  uint32_t OpCode(int code, const std::string& custom) {
    for (size_t i = 0; i < code_keys_.size(); ++i) {
      if (code_keys_[i] == std::to_string(code) + custom) return static_cast<uint32_t>(i);
    }
    code_keys_.push_back(std::to_string(code) + custom);
    codes_.push_back(tfl::CreateOperatorCode(fbb_, static_cast<int8_t>(code < 127 ? code : 127),
                                             custom.empty() ? 0 : fbb_.CreateString(custom), 1, code));
    return static_cast<uint32_t>(codes_.size() - 1);
  }

  flatbuffers::FlatBufferBuilder fbb_;
  std::vector<flatbuffers::Offset<tfl::Buffer>> buffers_;
  std::vector<flatbuffers::Offset<tfl::Tensor>> tensors_;
  std::vector<flatbuffers::Offset<tfl::Operator>> ops_;
  std::vector<flatbuffers::Offset<tfl::OperatorCode>> codes_;
  std::vector<std::string> code_keys_;
};

}  // namespace glpool::testing_tflite
