#include "gpu_backend/import/tflite/tflite_import.h"

#include <sstream>

#include "gpu_backend/import/file_util.h"
#include "gpu_backend/import/import_state.h"
#include "gpu_backend/import/tflite/tflite_converter.h"

namespace glpool {
namespace {

// The IR's op forms are ONNX opset 14's (HardSwish needs 14) (Clip/Pad/Resize take inputs,
// ReduceMean its axes as an attribute).
constexpr int64_t kIrOpset = 14;

Status ConvertOperators(TfliteConverter* conv) {
  const TfliteFile& file = conv->file;
  for (int i = 0; i < file.operator_count(); ++i) {
    TfliteOpContext ctx{conv, i, &file.op(i), {}, {}, file.op_label(i)};
    if (ctx.op->inputs() != nullptr) ctx.inputs.assign(ctx.op->inputs()->begin(), ctx.op->inputs()->end());
    if (ctx.op->outputs() != nullptr) ctx.outputs.assign(ctx.op->outputs()->begin(), ctx.op->outputs()->end());
    if (ctx.outputs.empty()) return ctx.Fail(StatusCode::kInvalidModel, "has no outputs");
    // Operators are stored in execution order: each reads what is constant,
    // a graph input, or written by an earlier operator, and writes tensors
    // nothing else writes.
    for (int in : ctx.inputs) {
      if (in >= 0 && !conv->defined[in]) {
        return ctx.Fail(StatusCode::kInvalidModel, "reads tensor '" + file.tensor_name(in) +
                                                       "' before any operator writes it");
      }
    }
    for (int out : ctx.outputs) {
      if (conv->defined[out]) {
        return ctx.Fail(StatusCode::kInvalidModel, "writes tensor '" + file.tensor_name(out) +
                                                       "', which is a constant, an input or written before");
      }
      const tfl::Tensor& t = file.tensor(out);
      const DataType dtype = conv->graph.tensors[conv->names[out]].dtype;
      if (t.quantization() != nullptr && t.quantization()->scale() != nullptr &&
          t.quantization()->scale()->size() > 0 && IsIntegerOrBool(dtype)) {
        return ctx.Fail(StatusCode::kUnsupported,
                        "writes the quantized " + std::string(DataTypeName(dtype)) + " activation '" +
                            file.tensor_name(out) + "'; glpool runs float models on the GPU (quantized "
                            "activations need a CPU fallback this build does not have)");
      }
    }
    if (ctx.outputs.size() != 1) {
      return ctx.Fail(StatusCode::kUnsupported, "has " + std::to_string(ctx.outputs.size()) + " outputs");
    }
    GLPOOL_RETURN_IF_ERROR(ConvertTfliteOp(ctx));
    for (int out : ctx.outputs) conv->defined[out] = true;
  }
  return Status::Ok();
}

// Every tensor the file declares must come out of import with the shape
// the file states (permuted to NCHW for rank 4).
Status CheckShapes(const TfliteConverter& conv) {
  for (int i = 0; i < conv.file.tensor_count(); ++i) {
    if (!conv.defined[i]) continue;  // never written nor read
    const Tensor* t = conv.graph.FindTensor(conv.names[i]);
    if (t == nullptr || t->is_constant) continue;  // constants keep the file's layout
    const Shape want = IrShape(conv.tflite_shapes[i]);
    if (t->shape != want) {
      return InvalidModelError("tensor '" + conv.file.tensor_name(i) + "': the file states " +
                               ShapeToString(conv.tflite_shapes[i]) + " (IR " + ShapeToString(want) +
                               "), but its operator produces " + ShapeToString(t->shape));
    }
  }
  return Status::Ok();
}

Status ImportInto(const TfliteFile& file, ImportState* state) {
  TfliteConverter conv(file);
  GLPOOL_RETURN_IF_ERROR(ConvertTfliteTensors(&conv));
  for (const std::string& name : conv.graph.inputs) {
    auto it = state->options.input_shapes.find(name);
    if (it != state->options.input_shapes.end() && it->second != conv.graph.tensors[name].shape) {
      return UnsupportedError("input '" + name + "' has the fixed shape " +
                              ShapeToString(conv.graph.tensors[name].shape) + "; a .tflite model cannot be resized to " +
                              ShapeToString(it->second));
    }
  }
  GLPOOL_RETURN_IF_ERROR(ConvertOperators(&conv));
  const auto* outputs = file.subgraph().outputs();
  if (outputs == nullptr || outputs->size() == 0) return InvalidModelError("the subgraph has no outputs");
  for (int32_t index : *outputs) {
    if (!conv.defined[index]) return InvalidModelError("output '" + file.tensor_name(index) + "' is never written");
    conv.graph.outputs.push_back(conv.names[index]);
  }
  conv.graph.name = file.subgraph().name() ? file.subgraph().name()->str() : "tflite";
  conv.graph.opset = kIrOpset;
  // Shapes of every node output are inferred afresh by the ONNX importer's
  // rules; the ones the file states are only checked against them.
  std::vector<std::string> op_outputs;
  for (const Node& node : conv.graph.nodes) {
    for (const std::string& out : node.outputs) op_outputs.push_back(out);
  }
  for (const auto& [name, tensor] : conv.graph.tensors) {
    if (tensor.is_constant) state->resolved.insert(name);
  }
  for (const std::string& name : conv.graph.inputs) state->resolved.insert(name);
  for (const std::string& out : op_outputs) conv.graph.tensors[out].shape.clear();
  state->graph = std::move(conv.graph);
  GLPOOL_RETURN_IF_ERROR(ResolveShapes(state));
  conv.graph = std::move(state->graph);
  GLPOOL_RETURN_IF_ERROR(CheckShapes(conv));
  state->graph = std::move(conv.graph);
  return Status::Ok();
}

}  // namespace

bool IsTfliteBytes(const std::string& bytes) { return LooksLikeTflite(bytes); }

StatusOr<Graph> ImportTfliteModel(std::string bytes, const ImportOptions& options, const std::string& label) {
  GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<TfliteFile> file, TfliteFile::Open(std::move(bytes), label));
  ImportState state;
  state.label = label;
  state.options = options;
  Status status;
  try {
    status = ImportInto(*file, &state);
  } catch (const std::exception& e) {
    status = InternalError(std::string("unexpected exception: ") + e.what());
  }
  if (!status.ok()) return status.WithContext(label);
  return std::move(state.graph);
}

StatusOr<Graph> LoadTfliteModel(const std::string& path, const ImportOptions& options) {
  GLPOOL_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(path, "model"));
  return ImportTfliteModel(std::move(bytes), options, path);
}

StatusOr<std::string> DescribeTfliteModel(const std::string& bytes, const std::string& label) {
  GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<TfliteFile> file, TfliteFile::Open(bytes, label));
  std::ostringstream out;
  auto list = [&](const flatbuffers::Vector<int32_t>* indices) {
    std::string text;
    if (indices == nullptr) return text;
    for (int32_t index : *indices) {
      if (!text.empty()) text += ", ";
      if (index < 0) {
        text += "-";
        continue;
      }
      Shape shape;
      const tfl::Tensor& t = file->tensor(index);
      if (t.shape() != nullptr) shape.assign(t.shape()->begin(), t.shape()->end());
      const auto* data = file->buffer_data(t);
      text += file->tensor_name(index) + ":" + ShapeToString(shape) + (data && data->size() ? "(const)" : "");
    }
    return text;
  };
  for (int i = 0; i < file->operator_count(); ++i) {
    const tfl::Operator& op = file->op(i);
    out << i << " " << file->op_name(op) << " v" << file->op_version(op) << "  " << list(op.inputs()) << " -> "
        << list(op.outputs()) << "\n";
  }
  return out.str();
}

}  // namespace glpool
