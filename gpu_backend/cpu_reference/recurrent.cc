// LSTM and GRU as ONNX defines them (layout 0: X is [seq, batch, input]):
// forward, reverse and bidirectional; optional B, sequence_lens,
// initial_h, initial_c and peepholes P; clip; LSTM's input_forget; GRU's
// linear_before_reset. Only the default activations (Sigmoid, Tanh, Tanh)
// are implemented; others are refused naming the attribute.
// Gate orders: LSTM i, o, f, c (P: i, o, f); GRU z, r, h.
// Steps past a batch entry's sequence length write zeros to Y and keep its
// state, so Y_h/Y_c hold the last valid step.
#include <algorithm>
#include <cmath>

#include "gpu_backend/cpu_reference/kernels.h"

namespace glpool {
namespace cpu_reference {
namespace {

float Sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

struct RecurrentShape {
  int64_t seq = 0, batch = 0, input = 0, hidden = 0, directions = 1;
  bool reverse_only = false;
};

Status CheckDefaultActivations(const Node& node, const std::vector<std::string>& defaults) {
  auto it = node.attributes.find("activations");
  if (it == node.attributes.end()) return Status::Ok();
  const auto* names = std::get_if<std::vector<std::string>>(&it->second);
  if (names == nullptr) return InvalidModelError("attribute 'activations' must be a list of strings");
  for (size_t i = 0; i < names->size(); ++i) {
    if ((*names)[i] != defaults[i % defaults.size()]) {
      return UnsupportedError("activation '" + (*names)[i] + "' (only the default activations are supported)");
    }
  }
  return Status::Ok();
}

StatusOr<RecurrentShape> ReadShape(const KernelContext& ctx, int64_t gates) {
  if (ctx.node.GetInt("layout", 0) != 0) return UnsupportedError("layout=1 (batch first) is not supported");
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* w, ctx.FloatInput(1));
  GLPOOL_ASSIGN_OR_RETURN(const Value* r, ctx.FloatInput(2));
  RecurrentShape s;
  const std::string direction = ctx.node.GetString("direction", "forward");
  if (direction == "bidirectional") {
    s.directions = 2;
  } else if (direction == "reverse") {
    s.reverse_only = true;
  } else if (direction != "forward") {
    return InvalidModelError("direction '" + direction + "' is not forward, reverse or bidirectional");
  }
  if (x->shape.size() != 3 || r->shape.size() != 3) return InvalidModelError("X and R must have rank 3");
  s.seq = x->shape[0];
  s.batch = x->shape[1];
  s.input = x->shape[2];
  s.hidden = r->shape[2];
  if (w->shape != Shape{s.directions, gates * s.hidden, s.input} ||
      r->shape != Shape{s.directions, gates * s.hidden, s.hidden}) {
    return InvalidModelError("W " + ShapeToString(w->shape) + " or R " + ShapeToString(r->shape) +
                             " does not match X " + ShapeToString(x->shape));
  }
  return s;
}

// Optional input `index` as floats of exactly `shape`, or `fill` when absent.
StatusOr<std::vector<float>> OptionalFloats(const KernelContext& ctx, size_t index, const Shape& shape, float fill) {
  if (!ctx.has_input(index)) return std::vector<float>(static_cast<size_t>(ElementCount(shape)), fill);
  GLPOOL_ASSIGN_OR_RETURN(const Value* v, ctx.FloatInput(index));
  if (v->shape != shape) {
    return InvalidModelError(ctx.InputLabel(index) + " is " + ShapeToString(v->shape) + ", expected " +
                             ShapeToString(shape));
  }
  return v->floats;
}

StatusOr<std::vector<int64_t>> SequenceLengths(const KernelContext& ctx, const RecurrentShape& s) {
  if (!ctx.has_input(4)) return std::vector<int64_t>(static_cast<size_t>(s.batch), s.seq);
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> lengths, ctx.IntsInput(4));
  if (static_cast<int64_t>(lengths.size()) != s.batch) return InvalidModelError("sequence_lens needs one per batch");
  for (int64_t n : lengths) {
    if (n < 0 || n > s.seq) return InvalidModelError("sequence_lens entry " + std::to_string(n) + " out of range");
  }
  return lengths;
}

// out[g*hidden + j] = sum_k in[k] * m[(g*hidden + j) * cols + k] over `rows` rows.
void MatVec(const float* m, const float* in, int64_t rows, int64_t cols, float* out) {
  for (int64_t row = 0; row < rows; ++row) {
    float sum = 0.0f;
    for (int64_t k = 0; k < cols; ++k) sum += m[row * cols + k] * in[k];
    out[row] = sum;
  }
}

float Clip(float v, float clip) { return clip > 0.0f ? std::min(std::max(v, -clip), clip) : v; }

}  // namespace

Status RunLSTM(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_RETURN_IF_ERROR(CheckDefaultActivations(ctx.node, {"Sigmoid", "Tanh", "Tanh"}));
  GLPOOL_ASSIGN_OR_RETURN(RecurrentShape s, ReadShape(ctx, 4));
  const int64_t H = s.hidden, D = s.directions;
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> bias, OptionalFloats(ctx, 3, {D, 8 * H}, 0.0f));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> lengths, SequenceLengths(ctx, s));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> h0, OptionalFloats(ctx, 5, {D, s.batch, H}, 0.0f));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> c0, OptionalFloats(ctx, 6, {D, s.batch, H}, 0.0f));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> peep, OptionalFloats(ctx, 7, {D, 3 * H}, 0.0f));
  const float clip = ctx.node.GetFloat("clip", 0.0f);
  const bool input_forget = ctx.node.GetInt("input_forget", 0) != 0;
  const std::vector<float>& x = ctx.inputs[0]->floats;
  const std::vector<float>& w = ctx.inputs[1]->floats;
  const std::vector<float>& r = ctx.inputs[2]->floats;
  std::vector<float> y(static_cast<size_t>(s.seq * D * s.batch * H), 0.0f);
  std::vector<float> h = h0, c = c0, gx(static_cast<size_t>(4 * H)), gh(static_cast<size_t>(4 * H));
  for (int64_t d = 0; d < D; ++d) {
    const bool reverse = s.reverse_only || d == 1;
    const float* wd = w.data() + d * 4 * H * s.input;
    const float* rd = r.data() + d * 4 * H * H;
    const float* wb = bias.data() + d * 8 * H;
    const float* rb = wb + 4 * H;
    const float* pd = peep.data() + d * 3 * H;
    for (int64_t b = 0; b < s.batch; ++b) {
      float* hb = h.data() + (d * s.batch + b) * H;
      float* cb = c.data() + (d * s.batch + b) * H;
      const int64_t length = lengths[static_cast<size_t>(b)];
      for (int64_t step = 0; step < length; ++step) {
        const int64_t t = reverse ? length - 1 - step : step;
        MatVec(wd, x.data() + (t * s.batch + b) * s.input, 4 * H, s.input, gx.data());
        MatVec(rd, hb, 4 * H, H, gh.data());
        for (int64_t j = 0; j < H; ++j) {
          auto gate = [&](int64_t g) { return gx[g * H + j] + gh[g * H + j] + wb[g * H + j] + rb[g * H + j]; };
          const float i_gate = Sigmoid(Clip(gate(0) + pd[j] * cb[j], clip));
          const float f_gate = input_forget ? 1.0f - i_gate : Sigmoid(Clip(gate(2) + pd[2 * H + j] * cb[j], clip));
          const float candidate = std::tanh(Clip(gate(3), clip));
          cb[j] = f_gate * cb[j] + i_gate * candidate;
          const float o_gate = Sigmoid(Clip(gate(1) + pd[H + j] * cb[j], clip));
          hb[j] = o_gate * std::tanh(cb[j]);
        }
        std::copy_n(hb, H, y.data() + ((t * D + d) * s.batch + b) * H);
      }
    }
  }
  outputs[0] = MakeFloatValue({s.seq, D, s.batch, H}, std::move(y));
  if (outputs.size() > 1) outputs[1] = MakeFloatValue({D, s.batch, H}, std::move(h));
  if (outputs.size() > 2) outputs[2] = MakeFloatValue({D, s.batch, H}, std::move(c));
  return Status::Ok();
}

Status RunGRU(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_RETURN_IF_ERROR(CheckDefaultActivations(ctx.node, {"Sigmoid", "Tanh"}));
  GLPOOL_ASSIGN_OR_RETURN(RecurrentShape s, ReadShape(ctx, 3));
  const int64_t H = s.hidden, D = s.directions;
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> bias, OptionalFloats(ctx, 3, {D, 6 * H}, 0.0f));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> lengths, SequenceLengths(ctx, s));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> h, OptionalFloats(ctx, 5, {D, s.batch, H}, 0.0f));
  const float clip = ctx.node.GetFloat("clip", 0.0f);
  const bool linear_before_reset = ctx.node.GetInt("linear_before_reset", 0) != 0;
  const std::vector<float>& x = ctx.inputs[0]->floats;
  const std::vector<float>& w = ctx.inputs[1]->floats;
  const std::vector<float>& r = ctx.inputs[2]->floats;
  std::vector<float> y(static_cast<size_t>(s.seq * D * s.batch * H), 0.0f);
  std::vector<float> gx(static_cast<size_t>(3 * H)), gh(static_cast<size_t>(3 * H)), reset_h(static_cast<size_t>(H));
  for (int64_t d = 0; d < D; ++d) {
    const bool reverse = s.reverse_only || d == 1;
    const float* wd = w.data() + d * 3 * H * s.input;
    const float* rd = r.data() + d * 3 * H * H;
    const float* wb = bias.data() + d * 6 * H;
    const float* rb = wb + 3 * H;
    for (int64_t b = 0; b < s.batch; ++b) {
      float* hb = h.data() + (d * s.batch + b) * H;
      const int64_t length = lengths[static_cast<size_t>(b)];
      for (int64_t step = 0; step < length; ++step) {
        const int64_t t = reverse ? length - 1 - step : step;
        MatVec(wd, x.data() + (t * s.batch + b) * s.input, 3 * H, s.input, gx.data());
        MatVec(rd, hb, 2 * H, H, gh.data());  // z and r
        std::vector<float> z(static_cast<size_t>(H)), reset(static_cast<size_t>(H));
        for (int64_t j = 0; j < H; ++j) {
          z[j] = Sigmoid(Clip(gx[j] + gh[j] + wb[j] + rb[j], clip));
          reset[j] = Sigmoid(Clip(gx[H + j] + gh[H + j] + wb[H + j] + rb[H + j], clip));
        }
        std::vector<float> hidden_part(static_cast<size_t>(H));
        if (linear_before_reset) {
          MatVec(rd + 2 * H * H, hb, H, H, hidden_part.data());
          for (int64_t j = 0; j < H; ++j) hidden_part[j] = reset[j] * (hidden_part[j] + rb[2 * H + j]);
        } else {
          for (int64_t j = 0; j < H; ++j) reset_h[j] = reset[j] * hb[j];
          MatVec(rd + 2 * H * H, reset_h.data(), H, H, hidden_part.data());
          for (int64_t j = 0; j < H; ++j) hidden_part[j] += rb[2 * H + j];
        }
        for (int64_t j = 0; j < H; ++j) {
          const float candidate = std::tanh(Clip(gx[2 * H + j] + wb[2 * H + j] + hidden_part[j], clip));
          hb[j] = (1.0f - z[j]) * candidate + z[j] * hb[j];
        }
        std::copy_n(hb, H, y.data() + ((t * D + d) * s.batch + b) * H);
      }
    }
  }
  outputs[0] = MakeFloatValue({s.seq, D, s.batch, H}, std::move(y));
  if (outputs.size() > 1) outputs[1] = MakeFloatValue({D, s.batch, H}, std::move(h));
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
