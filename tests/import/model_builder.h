// Builds tiny ONNX models in tests with the onnx protobuf API and writes
// them to a fresh temporary folder.
#pragma once

#include <onnx/onnx_pb.h>

#include <string>
#include <vector>

namespace glpool {
namespace testing_util {

// A fresh folder under $TMPDIR (or /tmp), removed when the program exits.
std::string MakeTempDir();

class ModelBuilder {
 public:
  explicit ModelBuilder(int64_t opset = 13);

  // dims: -1 for a symbolic dim (named "N"); elem: onnx::TensorProto type.
  ModelBuilder& Input(const std::string& name, const std::vector<int64_t>& dims,
                      int elem = onnx::TensorProto::FLOAT);
  ModelBuilder& Output(const std::string& name, int elem = onnx::TensorProto::FLOAT);
  ModelBuilder& Node(const std::string& op, const std::vector<std::string>& inputs,
                     const std::vector<std::string>& outputs, const std::string& name = "");
  // Attributes on the last node added.
  ModelBuilder& AttrInt(const std::string& key, int64_t value);
  ModelBuilder& AttrFloat(const std::string& key, float value);
  ModelBuilder& AttrInts(const std::string& key, const std::vector<int64_t>& values);
  ModelBuilder& AttrTensor(const std::string& key, const onnx::TensorProto& value);
  ModelBuilder& AttrGraph(const std::string& key, const onnx::GraphProto& graph);
  // Initializers with raw_data.
  ModelBuilder& FloatInit(const std::string& name, const std::vector<int64_t>& dims, const std::vector<float>& values);
  ModelBuilder& Int64Init(const std::string& name, const std::vector<int64_t>& dims, const std::vector<int64_t>& values);
  ModelBuilder& Init(const onnx::TensorProto& tensor);

  onnx::ModelProto& model() { return model_; }
  // Writes model.onnx (or `file`) into `dir`; returns its path.
  std::string Save(const std::string& dir, const std::string& file = "model.onnx") const;

 private:
  onnx::ModelProto model_;
};

// A subgraph (an If branch): nodes in order, outputs by name (untyped, as
// exporters often leave them).
onnx::GraphProto BranchGraph(const std::string& name, const std::vector<onnx::NodeProto>& nodes,
                             const std::vector<std::string>& outputs);
onnx::NodeProto NodeOf(const std::string& op, const std::vector<std::string>& inputs,
                       const std::vector<std::string>& outputs, const std::string& name = "");

onnx::TensorProto FloatTensorRaw(const std::string& name, const std::vector<int64_t>& dims,
                                 const std::vector<float>& values);
onnx::TensorProto Int64TensorRaw(const std::string& name, const std::vector<int64_t>& dims,
                                 const std::vector<int64_t>& values);

}  // namespace testing_util
}  // namespace glpool
