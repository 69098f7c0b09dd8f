// Builds small Graph IR values directly, for pass and compile tests.
#pragma once

#include <string>
#include <vector>

#include "gpu_backend/graph/graph.h"

namespace glpool {
namespace testing_util {

class GraphBuilder {
 public:
  GraphBuilder() { graph_.opset = 13; }
  GraphBuilder& Input(const std::string& name, Shape shape) {
    Add(name, shape, false, {});
    graph_.inputs.push_back(name);
    return *this;
  }
  GraphBuilder& Output(const std::string& name) {
    graph_.outputs.push_back(name);
    return *this;
  }
  GraphBuilder& Constant(const std::string& name, Shape shape, const std::vector<float>& values) {
    Add(name, shape, true, TensorData::FromFloats(shape, values));
    return *this;
  }
  GraphBuilder& IntConstant(const std::string& name, Shape shape, const std::vector<int64_t>& values) {
    Add(name, shape, true, TensorData::FromInt64s(shape, values));
    graph_.tensors[name].dtype = DataType::kInt64;
    return *this;
  }
  // A node whose single output has `out_shape` (fp32).
  GraphBuilder& Op(const std::string& op, std::vector<std::string> inputs, const std::string& out, Shape out_shape,
                   std::map<std::string, AttributeValue> attributes = {}) {
    Node node;
    node.name = op + "_" + out;
    node.op_type = op;
    node.inputs = std::move(inputs);
    node.outputs = {out};
    node.attributes = std::move(attributes);
    graph_.nodes.push_back(node);
    Add(out, out_shape, false, {});
    return *this;
  }
  Graph& graph() { return graph_; }

 private:
  void Add(const std::string& name, Shape shape, bool constant, TensorData data) {
    Tensor tensor;
    tensor.name = name;
    tensor.dtype = DataType::kFloat32;
    tensor.shape = std::move(shape);
    tensor.is_constant = constant;
    tensor.data = std::move(data);
    graph_.tensors[name] = std::move(tensor);
  }
  Graph graph_;
};

}  // namespace testing_util
}  // namespace glpool
