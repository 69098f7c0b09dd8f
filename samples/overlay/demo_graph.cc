#include "samples/overlay/demo_graph.h"

#include <cmath>
#include <vector>

namespace glpool::overlay {
namespace {

TensorData Ramp(const Shape& shape, float phase) {
  std::vector<float> values(static_cast<size_t>(ElementCount(shape)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = 0.5f + 0.4f * std::sin(0.01f * i + phase);
  return TensorData::FromFloats(shape, values);
}

}  // namespace

DemoNetwork BuildDemoNetwork() {
  DemoNetwork demo;
  Graph& graph = demo.graph;
  graph.name = "glpool_demo";
  graph.opset = 13;
  // Two interleaved chains of different tensor sizes: a big one (a*) and a
  // small one (b*). Each node reads the two latest results of its chain.
  const Shape big = {1, 8, 32, 32}, small = {1, 4, 16, 16};
  auto add_tensor = [&](const std::string& name, const Shape& shape) {
    graph.tensors[name] = Tensor{name, DataType::kFloat32, shape, false, {}};
  };
  add_tensor("x", big);
  add_tensor("y", small);
  graph.inputs = {"x", "y"};
  demo.inputs["x"] = Ramp(big, 0.0f);
  demo.inputs["y"] = Ramp(small, 1.0f);
  constexpr int kSteps = 6;
  // A constant per chain starts it, since a task never binds one object
  // twice (Add(x, x) would).
  graph.tensors["ca"] = Tensor{"ca", DataType::kFloat32, big, true, Ramp(big, 2.0f)};
  graph.tensors["cb"] = Tensor{"cb", DataType::kFloat32, small, true, Ramp(small, 3.0f)};
  std::string a_prev = "x", a_prev2 = "ca", b_prev = "y", b_prev2 = "cb";
  for (int i = 1; i <= kSteps; ++i) {
    const std::string op = (i % 2) ? "Add" : "Mul";
    const std::string a = i == kSteps ? "a_out" : "a" + std::to_string(i);
    const std::string b = i == kSteps ? "b_out" : "b" + std::to_string(i);
    add_tensor(a, big);
    add_tensor(b, small);
    graph.nodes.push_back(Node{"a_" + op + std::to_string(i), op, "", {a_prev, a_prev2}, {a}, {}});
    graph.nodes.push_back(Node{"b_" + op + std::to_string(i), op == "Add" ? "Mul" : "Add", "", {b_prev, b_prev2}, {b}, {}});
    a_prev2 = a_prev;
    a_prev = a;
    b_prev2 = b_prev;
    b_prev = b;
  }
  graph.outputs = {"a_out", "b_out"};
  return demo;
}

}  // namespace glpool::overlay
