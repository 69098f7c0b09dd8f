#include "samples/overlay/demo_graph.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <vector>

namespace glpool::overlay {
namespace {

TensorData Ramp(const Shape& shape, float phase) {
  std::vector<float> values(static_cast<size_t>(ElementCount(shape)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = 0.5f + 0.4f * std::sin(0.01f * i + phase);
  return TensorData::FromFloats(shape, values);
}

void SetFloatType(onnx::ValueInfoProto* value, const std::string& name, const Shape& shape) {
  value->set_name(name);
  auto* type = value->mutable_type()->mutable_tensor_type();
  type->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : shape) type->mutable_shape()->add_dim()->set_dim_value(d);
}

void AddInitializer(onnx::GraphProto* graph, const std::string& name, const TensorData& data) {
  onnx::TensorProto* tensor = graph->add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : data.shape) tensor->add_dims(d);
  tensor->set_raw_data(std::string(data.bytes.begin(), data.bytes.end()));
}

}  // namespace

StatusOr<DemoNetwork> BuildDemoNetwork() {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("glpool_demo");
  // Two interleaved chains of different tensor sizes: a big one (a*) and a
  // small one (b*). Each node reads the two latest results of its chain.
  const Shape big = {1, 8, 32, 32}, small = {1, 4, 16, 16};
  SetFloatType(graph->add_input(), "x", big);
  SetFloatType(graph->add_input(), "y", small);
  std::map<std::string, TensorData> inputs = {{"x", Ramp(big, 0.0f)}, {"y", Ramp(small, 1.0f)}};
  constexpr int kSteps = 6;
  // A constant per chain starts it, since a task never binds one object
  // twice (Add(x, x) would).
  AddInitializer(graph, "ca", Ramp(big, 2.0f));
  AddInitializer(graph, "cb", Ramp(small, 3.0f));
  std::string a_prev = "x", a_prev2 = "ca", b_prev = "y", b_prev2 = "cb";
  for (int i = 1; i <= kSteps; ++i) {
    const std::string op = (i % 2) ? "Add" : "Mul";
    const std::string a = i == kSteps ? "a_out" : "a" + std::to_string(i);
    const std::string b = i == kSteps ? "b_out" : "b" + std::to_string(i);
    auto add_node = [&](const std::string& name, const std::string& type, const std::string& in0,
                        const std::string& in1, const std::string& out) {
      onnx::NodeProto* node = graph->add_node();
      node->set_name(name);
      node->set_op_type(type);
      node->add_input(in0);
      node->add_input(in1);
      node->add_output(out);
    };
    add_node("a_" + op + std::to_string(i), op, a_prev, a_prev2, a);
    add_node("b_" + op + std::to_string(i), op == "Add" ? "Mul" : "Add", b_prev, b_prev2, b);
    a_prev2 = a_prev;
    a_prev = a;
    b_prev2 = b_prev;
    b_prev = b;
  }
  SetFloatType(graph->add_output(), "a_out", big);
  SetFloatType(graph->add_output(), "b_out", small);
  const std::string bytes = model.SerializeAsString();
  ModelOptions options;
  options.run_graph_passes = false;  // shown exactly as built
  GLPOOL_ASSIGN_OR_RETURN(Model loaded, Model::FromMemory(bytes.data(), bytes.size(), options, ".", "glpool demo"));
  return DemoNetwork{std::move(loaded), static_cast<size_t>(graph->node_size()), std::move(inputs)};
}

}  // namespace glpool::overlay
