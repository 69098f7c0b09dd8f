// Shape rules for the recurrent ops LSTM and GRU (ONNX's own inference is
// not run for them: onnx_node_inference.cc). Every dim is checked against
// the others, so a hostile model gets an error naming the input, not an
// out-of-bounds read later.
#include "gpu_backend/import/shape_rules_table.h"

namespace glpool {
namespace {

using Types = StatusOr<std::vector<TensorType>>;

Types Recurrent(const NodeView& v, int64_t gates, bool has_cell_state) {
  const std::string op = v.node().op_type;
  if (v.input_count() < 3 || !v.has(0) || !v.has(1) || !v.has(2)) {
    return InvalidModelError(op + " needs inputs X, W and R");
  }
  if (v.node().GetInt("layout", 0) != 0) return UnsupportedError(op + " with layout=1 (batch first) is not supported");
  if (v.rank(0) != 3 || v.rank(1) != 3 || v.rank(2) != 3) {
    return InvalidModelError(op + " X, W and R must have rank 3, got " + ShapeToString(v.shape(0)) + ", " +
                             ShapeToString(v.shape(1)) + ", " + ShapeToString(v.shape(2)));
  }
  const std::string direction = v.node().GetString("direction", "forward");
  const int64_t directions = direction == "bidirectional" ? 2 : 1;
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional") {
    return InvalidModelError(op + " direction '" + direction + "' is not forward, reverse or bidirectional");
  }
  const int64_t seq = v.shape(0)[0], batch = v.shape(0)[1], input = v.shape(0)[2];
  const int64_t hidden = v.shape(2)[2];
  if (v.node().HasAttribute("hidden_size") && v.node().GetInt("hidden_size", 0) != hidden) {
    return InvalidModelError(op + " hidden_size " + std::to_string(v.node().GetInt("hidden_size", 0)) +
                             " disagrees with R " + ShapeToString(v.shape(2)));
  }
  if (hidden <= 0 || hidden > (int64_t{1} << 24)) return InvalidModelError(op + " hidden size out of range");
  if (v.shape(1) != Shape{directions, gates * hidden, input}) {
    return InvalidModelError(op + " W is " + ShapeToString(v.shape(1)) + ", expected " +
                             ShapeToString({directions, gates * hidden, input}));
  }
  if (v.shape(2) != Shape{directions, gates * hidden, hidden}) {
    return InvalidModelError(op + " R is " + ShapeToString(v.shape(2)) + ", expected " +
                             ShapeToString({directions, gates * hidden, hidden}));
  }
  const Shape state = {directions, batch, hidden};
  std::vector<TensorType> outputs = {{v.dtype(0), {seq, directions, batch, hidden}}, {v.dtype(0), state}};
  if (has_cell_state) outputs.push_back({v.dtype(0), state});
  return outputs;
}

Types Lstm(const NodeView& v) { return Recurrent(v, 4, true); }
Types Gru(const NodeView& v) { return Recurrent(v, 3, false); }

}  // namespace

void AddRecurrentRules(ShapeRuleTable* t) {
  (*t)["LSTM"] = Lstm;
  (*t)["GRU"] = Gru;
}

}  // namespace glpool
