// LSTM and GRU as ops the GPU already runs (passes.h says which), unrolled
// over their time steps: the input projection of every step is one MatMul,
// each step a MatMul by the recurrence weights, the gate slices,
// Sigmoid/Tanh and the state updates; the states are ordinary
// intermediates, so the planner pools them like any other tensor.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/node_builder.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

// Longer sequences stay one node (run by the CPU fallback): unrolled, each
// step costs about 15 nodes, and planning grows with them.
constexpr int64_t kMaxUnrolledSteps = 256;

const Tensor* FloatTensor(const Graph& graph, const Node& node, size_t i) {
  if (i >= node.inputs.size() || node.inputs[i].empty()) return nullptr;
  const Tensor* t = graph.FindTensor(node.inputs[i]);
  return t != nullptr && t->dtype == DataType::kFloat32 ? t : nullptr;
}

bool Present(const Node& node, size_t i) { return i < node.inputs.size() && !node.inputs[i].empty(); }

// Only the default activations (LSTM: Sigmoid, Tanh, Tanh per direction;
// GRU: Sigmoid, Tanh), no clip, no coupled input and forget gates, layout 0.
bool DefaultRecurrence(const Node& node, int64_t directions, bool gru) {
  const size_t per_direction = gru ? 2 : 3;
  if (node.GetInt("layout", 0) != 0 || node.GetInt("input_forget", 0) != 0 || node.HasAttribute("clip") ||
      node.HasAttribute("activation_alpha") || node.HasAttribute("activation_beta")) {
    return false;
  }
  if (!node.HasAttribute("activations")) return true;
  const auto* names = std::get_if<std::vector<std::string>>(&node.attributes.at("activations"));
  if (names == nullptr || names->size() != per_direction * static_cast<size_t>(directions)) return false;
  for (size_t i = 0; i < names->size(); ++i) {
    if ((*names)[i] != (i % per_direction == 0 ? "Sigmoid" : "Tanh")) return false;
  }
  return true;
}

class RecurrentLowering {
 public:
  RecurrentLowering(Graph& graph, const Node& node, std::set<std::string>& node_names)
      : graph_(graph), lstm_(node), gru_(node.op_type == "GRU"), gates_(gru_ ? 3 : 4), b_(graph, node.name, node_names) {}

  std::vector<Node> Lower() {
    const Tensor* x = FloatTensor(graph_, lstm_, 0);
    const Tensor* w = FloatTensor(graph_, lstm_, 1);
    const Tensor* r = FloatTensor(graph_, lstm_, 2);
    if (x == nullptr || w == nullptr || r == nullptr || !w->is_constant || !r->is_constant) return {};
    const std::string direction = lstm_.GetString("direction", "forward");
    if (direction != "forward" && direction != "reverse" && direction != "bidirectional") return {};
    dirs_ = direction == "bidirectional" ? 2 : 1;
    if (!DefaultRecurrence(lstm_, dirs_, gru_) || x->shape.size() != 3 || w->shape.size() != 3 || r->shape.size() != 3) return {};
    seq_ = x->shape[0];
    batch_ = x->shape[1];
    input_ = x->shape[2];
    hidden_ = r->shape[2];
    if (seq_ < 1 || seq_ > kMaxUnrolledSteps || batch_ < 1 || input_ < 1 || hidden_ < 1 ||
        w->shape != Shape{dirs_, gates_ * hidden_, input_} || r->shape != Shape{dirs_, gates_ * hidden_, hidden_}) {
      return {};
    }
    const Tensor* bias = FloatTensor(graph_, lstm_, 3);
    const Tensor* peephole = FloatTensor(graph_, lstm_, 7);
    if ((Present(lstm_, 3) && (bias == nullptr || !bias->is_constant || bias->shape != Shape{dirs_, 2 * gates_ * hidden_})) ||
        (!gru_ && Present(lstm_, 7) &&
         (peephole == nullptr || !peephole->is_constant || peephole->shape != Shape{dirs_, 3 * hidden_}))) {
      return {};
    }
    if (Present(lstm_, 4) && !AllStepsUsed()) return {};
    for (size_t i : {size_t{5}, size_t{6}}) {
      if (gru_ && i == 6) continue;  // GRU has no cell state
      if (Present(lstm_, i) &&
          (FloatTensor(graph_, lstm_, i) == nullptr || FloatTensor(graph_, lstm_, i)->shape != Shape{dirs_, batch_, hidden_})) {
        return {};
      }
    }
    const std::vector<float> wv = w->data.ToFloats(), rv = r->data.ToFloats();
    const std::vector<float> bv = bias ? bias->data.ToFloats() : std::vector<float>();
    const std::vector<float> pv = peephole ? peephole->data.ToFloats() : std::vector<float>();

    const std::string x2 = b_.NewTensor("x_rows", {seq_ * batch_, input_});
    b_.Add("Reshape", {lstm_.inputs[0], Ints("x_rows_shape", {seq_ * batch_, input_})}, x2);
    std::vector<std::string> ys, yhs, ycs;
    for (int64_t d = 0; d < dirs_; ++d) {
      Direction(d, x2, wv, rv, bv, pv, direction == "reverse" || d == 1, ys, yhs, ycs);
    }
    Join(ys, 1, 0, {seq_, dirs_, batch_, hidden_});
    Join(yhs, 0, 1, {dirs_, batch_, hidden_});
    if (!gru_) Join(ycs, 0, 2, {dirs_, batch_, hidden_});
    return b_.TakeNodes();
  }

 private:
  bool AllStepsUsed() const {
    const Tensor* lens = graph_.FindTensor(lstm_.inputs[4]);
    if (lens == nullptr || !lens->is_constant) return false;
    for (int64_t v : lens->data.ToInt64s()) {
      if (v != seq_) return false;
    }
    return true;
  }

  std::string Ints(const std::string& suffix, const std::vector<int64_t>& values) {
    return b_.Constant(suffix, TensorData::FromInt64s({static_cast<int64_t>(values.size())}, values));
  }

  std::string Floats(const std::string& suffix, const Shape& shape, const std::vector<float>& values) {
    return b_.Constant(suffix, TensorData::FromFloats(shape, values));
  }

  std::string Op(const std::string& op, std::vector<std::string> inputs, const std::string& suffix,
                 const Shape& shape) {
    const std::string out = b_.NewTensor(suffix, shape);
    b_.Add(op, std::move(inputs), out);
    return out;
  }

  // data[..., begin:end along `axis`, ...] of a rank-2 tensor.
  std::string Slice2(const std::string& data, int64_t axis, int64_t begin, int64_t end, const std::string& suffix,
                     const Shape& shape) {
    const std::string out = b_.NewTensor(suffix, shape);
    if (graph_.opset >= 10) {
      b_.Add("Slice", {data, Ints("starts", {begin}), Ints("ends", {end}), Ints("axes", {axis})}, out);
    } else {
      Node& node = b_.Add("Slice", {data}, out);
      node.attributes["starts"] = std::vector<int64_t>{begin};
      node.attributes["ends"] = std::vector<int64_t>{end};
      node.attributes["axes"] = std::vector<int64_t>{axis};
    }
    return out;
  }

  std::string Reshape(const std::string& data, const Shape& shape, const std::string& suffix) {
    return Op("Reshape", {data, Ints(suffix + "_shape", shape)}, suffix, shape);
  }

  // The initial state of direction d: input i's slice, or zeros.
  std::string Initial(size_t i, int64_t d, const std::string& suffix) {
    const Shape state = {batch_, hidden_};
    if (!Present(lstm_, i)) return Floats(suffix, state, std::vector<float>(static_cast<size_t>(batch_ * hidden_)));
    std::string source = lstm_.inputs[i];
    if (dirs_ > 1) {
      const std::string rows = Reshape(source, {dirs_, batch_ * hidden_}, suffix + "_rows");
      source = Slice2(rows, 0, d, d + 1, suffix + "_dir", {1, batch_ * hidden_});
    }
    return Reshape(source, state, suffix);
  }

  void Direction(int64_t d, const std::string& x2, const std::vector<float>& wv, const std::vector<float>& rv,
                 const std::vector<float>& bv, const std::vector<float>& pv, bool reverse,
                 std::vector<std::string>& ys, std::vector<std::string>& yhs, std::vector<std::string>& ycs) {
    const int64_t H = hidden_, G = gates_ * hidden_;
    // W[d] and R[d] transposed, so each product is rows x weights; the two
    // biases summed once (GRU: but the recurrence's bias of the candidate,
    // which sits inside the reset gate's product).
    std::vector<float> wt(static_cast<size_t>(input_ * G)), rt(static_cast<size_t>(H * G)), bias(static_cast<size_t>(G));
    for (int64_t g = 0; g < G; ++g) {
      for (int64_t k = 0; k < input_; ++k) wt[k * G + g] = wv[(d * G + g) * input_ + k];
      for (int64_t k = 0; k < H; ++k) rt[k * G + g] = rv[(d * G + g) * H + k];
      if (!bv.empty()) bias[g] = bv[d * 2 * G + g] + (gru_ && g >= 2 * H ? 0.0f : bv[d * 2 * G + G + g]);
    }
    const std::string tag = "d" + std::to_string(d);
    const std::string w_t = Floats(tag + "_w_t", {input_, G}, wt);
    const std::string r_t = Floats(tag + "_r_t", {H, G}, rt);
    const std::string projected = Op("MatMul", {x2, w_t}, tag + "_x_w", {seq_ * batch_, G});
    const std::string gates_in = Op("Add", {projected, Floats(tag + "_bias", {G}, bias)}, tag + "_x_w_b", {seq_ * batch_, G});
    std::string peep_i, peep_o, peep_f;
    if (!pv.empty()) {
      auto part = [&](int k) {
        return Floats(tag + "_p" + std::to_string(k), {H},
                      std::vector<float>(pv.begin() + (d * 3 + k) * H, pv.begin() + (d * 3 + k + 1) * H));
      };
      peep_i = part(0);
      peep_o = part(1);
      peep_f = part(2);
    }
    std::string h = Initial(5, d, tag + "_h0");
    std::string c = gru_ ? "" : Initial(6, d, tag + "_c0");
    const Shape state = {batch_, H};
    GruWeights gru;
    if (gru_) gru = GruConstants(d, rt, bv, tag);
    std::vector<std::string> steps(static_cast<size_t>(seq_));
    for (int64_t s = 0; s < seq_; ++s) {
      const int64_t t = reverse ? seq_ - 1 - s : s;
      const std::string st = tag + "_t" + std::to_string(t);
      const std::string xg = Slice2(gates_in, 0, t * batch_, (t + 1) * batch_, st + "_x_gates", {batch_, G});
      if (gru_) {
        h = GruStep(xg, h, gru, st);
        steps[static_cast<size_t>(t)] = Reshape(h, {1, 1, batch_, H}, st + "_y");
        continue;
      }
      const std::string hg = Op("MatMul", {h, r_t}, st + "_h_gates", {batch_, G});
      const std::string g = Op("Add", {xg, hg}, st + "_gates", {batch_, G});
      // ONNX's gate order: input, output, forget, cell.
      std::string gi = Slice2(g, 1, 0, H, st + "_i_in", state);
      std::string go = Slice2(g, 1, H, 2 * H, st + "_o_in", state);
      std::string gf = Slice2(g, 1, 2 * H, 3 * H, st + "_f_in", state);
      const std::string gc = Slice2(g, 1, 3 * H, 4 * H, st + "_c_in", state);
      if (!peep_i.empty()) {
        gi = Op("Add", {gi, Op("Mul", {c, peep_i}, st + "_pi", state)}, st + "_i_peep", state);
        gf = Op("Add", {gf, Op("Mul", {c, peep_f}, st + "_pf", state)}, st + "_f_peep", state);
      }
      const std::string i = Op("Sigmoid", {gi}, st + "_i", state);
      const std::string f = Op("Sigmoid", {gf}, st + "_f", state);
      const std::string candidate = Op("Tanh", {gc}, st + "_candidate", state);
      c = Op("Add", {Op("Mul", {f, c}, st + "_kept", state), Op("Mul", {i, candidate}, st + "_written", state)},
             st + "_c", state);
      if (!peep_o.empty()) go = Op("Add", {go, Op("Mul", {c, peep_o}, st + "_po", state)}, st + "_o_peep", state);
      const std::string o = Op("Sigmoid", {go}, st + "_o", state);
      h = Op("Mul", {o, Op("Tanh", {c}, st + "_c_tanh", state)}, st + "_h", state);
      steps[static_cast<size_t>(t)] = Reshape(h, {1, 1, batch_, H}, st + "_y");
    }
    ys.push_back(Concat(steps, 0, tag + "_y", {seq_, 1, batch_, H}));
    yhs.push_back(Reshape(h, {1, batch_, H}, tag + "_y_h"));
    if (!gru_) ycs.push_back(Reshape(c, {1, batch_, H}, tag + "_y_c"));
  }

  // GRU's recurrence weights split as its step reads them: R transposed
  // for the update and reset gates, and for the candidate; the candidate's
  // recurrence bias.
  struct GruWeights {
    std::string r_zr, r_h, r_all, rb_h;
    bool linear_before_reset = false;
  };

  GruWeights GruConstants(int64_t d, const std::vector<float>& rt, const std::vector<float>& bv,
                          const std::string& tag) {
    const int64_t H = hidden_, G = 3 * hidden_;
    GruWeights w;
    w.linear_before_reset = lstm_.GetInt("linear_before_reset", 0) != 0;
    std::vector<float> zr(static_cast<size_t>(H * 2 * H)), hh(static_cast<size_t>(H * H)), rb(static_cast<size_t>(H));
    for (int64_t k = 0; k < H; ++k) {
      for (int64_t g = 0; g < 2 * H; ++g) zr[k * 2 * H + g] = rt[k * G + g];
      for (int64_t g = 0; g < H; ++g) hh[k * H + g] = rt[k * G + 2 * H + g];
    }
    if (!bv.empty()) {
      for (int64_t g = 0; g < H; ++g) rb[g] = bv[d * 2 * G + G + 2 * H + g];
    }
    w.rb_h = Floats(tag + "_rb_h", {H}, rb);
    if (w.linear_before_reset) {
      w.r_all = Floats(tag + "_r_t", {H, G}, rt);
    } else {
      w.r_zr = Floats(tag + "_r_zr", {H, 2 * H}, zr);
      w.r_h = Floats(tag + "_r_h", {H, H}, hh);
    }
    return w;
  }

  // One GRU step (ONNX's gate order: update z, reset r, candidate h):
  // z, r = Sigmoid(x.W + h.R + biases); candidate = Tanh(x.Wh + (r * h).Rh +
  // Rbh), or with linear_before_reset Tanh(x.Wh + r * (h.Rh + Rbh));
  // h' = candidate + z * (h - candidate).
  std::string GruStep(const std::string& xg, const std::string& h, const GruWeights& w, const std::string& st) {
    const int64_t H = hidden_;
    const Shape state = {batch_, H}, pair = {batch_, 2 * H};
    const std::string x_zr = Slice2(xg, 1, 0, 2 * H, st + "_x_zr", pair);
    const std::string x_h = Slice2(xg, 1, 2 * H, 3 * H, st + "_x_h", state);
    std::string h_zr, h_h;
    if (w.linear_before_reset) {
      const std::string hg = Op("MatMul", {h, w.r_all}, st + "_h_gates", {batch_, 3 * H});
      h_zr = Slice2(hg, 1, 0, 2 * H, st + "_h_zr", pair);
      h_h = Slice2(hg, 1, 2 * H, 3 * H, st + "_h_h", state);
    } else {
      h_zr = Op("MatMul", {h, w.r_zr}, st + "_h_zr", pair);
    }
    const std::string zr = Op("Add", {x_zr, h_zr}, st + "_zr_in", pair);
    const std::string z = Op("Sigmoid", {Slice2(zr, 1, 0, H, st + "_z_in", state)}, st + "_z", state);
    const std::string r = Op("Sigmoid", {Slice2(zr, 1, H, 2 * H, st + "_r_in", state)}, st + "_r", state);
    std::string recurrent;
    if (w.linear_before_reset) {
      recurrent = Op("Mul", {r, Op("Add", {h_h, w.rb_h}, st + "_h_h_b", state)}, st + "_reset", state);
    } else {
      const std::string reset_h = Op("Mul", {r, h}, st + "_reset_h", state);
      recurrent = Op("Add", {Op("MatMul", {reset_h, w.r_h}, st + "_h_h", state), w.rb_h}, st + "_reset", state);
    }
    const std::string candidate =
        Op("Tanh", {Op("Add", {x_h, recurrent}, st + "_candidate_in", state)}, st + "_candidate", state);
    const std::string kept = Op("Mul", {z, Op("Sub", {h, candidate}, st + "_delta", state)}, st + "_kept", state);
    return Op("Add", {candidate, kept}, st + "_h", state);
  }

  std::string Concat(const std::vector<std::string>& parts, int64_t axis, const std::string& suffix,
                     const Shape& shape) {
    const std::string out = b_.NewTensor(suffix, shape);
    b_.Add("Concat", parts, out).attributes["axis"] = axis;
    return out;
  }

  // Output `index` of the LSTM (when named) from the directions' parts.
  void Join(const std::vector<std::string>& parts, int64_t axis, size_t index, const Shape& shape) {
    if (index >= lstm_.outputs.size() || lstm_.outputs[index].empty()) return;
    const std::string& name = lstm_.outputs[index];
    if (parts.size() == 1) {
      // One direction: the part already has the output's shape.
      b_.Add("Reshape", {parts[0], Ints("out_shape", shape)}, name);
    } else {
      b_.Add("Concat", parts, name).attributes["axis"] = axis;
    }
  }

  Graph& graph_;
  const Node& lstm_;
  bool gru_;
  int64_t gates_;  // LSTM 4 (i, o, f, c), GRU 3 (z, r, h)
  NodeBuilder b_;
  int64_t dirs_ = 1, seq_ = 0, batch_ = 0, input_ = 0, hidden_ = 0;
};

}  // namespace

StatusOr<int> LowerRecurrent(Graph& graph) {
  return LowerNodes(
      graph, [](const Node& node) { return (node.op_type == "LSTM" || node.op_type == "GRU") && node.domain.empty(); },
      [&graph](const Node& node, std::set<std::string>& names) { return RecurrentLowering(graph, node, names).Lower(); });
}

}  // namespace glpool
