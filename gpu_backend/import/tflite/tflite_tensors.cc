// Tensors of a .tflite file -> IR tensors (see tflite_converter.h).
#include <cstring>

#include "gpu_backend/graph/float16.h"
#include "gpu_backend/import/tflite/tflite_converter.h"

namespace glpool {
namespace {

StatusOr<DataType> IrType(tfl::TensorType type) {
  switch (type) {
    case tfl::TensorType::FLOAT32: return DataType::kFloat32;
    case tfl::TensorType::FLOAT16: return DataType::kFloat16;
    case tfl::TensorType::FLOAT64: return DataType::kFloat64;
    case tfl::TensorType::INT32: return DataType::kInt32;
    case tfl::TensorType::INT64: return DataType::kInt64;
    case tfl::TensorType::INT16: return DataType::kInt16;
    case tfl::TensorType::INT8: return DataType::kInt8;
    case tfl::TensorType::UINT8: return DataType::kUint8;
    case tfl::TensorType::BOOL: return DataType::kBool;
    default: return UnsupportedError("tensor type " + std::to_string(static_cast<int>(type)) + " is not supported");
  }
}

bool IsQuantized(const tfl::Tensor& t) {
  return t.quantization() != nullptr && t.quantization()->scale() != nullptr && t.quantization()->scale()->size() > 0;
}

// Quantized integer weights -> float32: value = scale * (q - zero_point),
// per tensor or per channel along quantized_dimension.
StatusOr<TensorData> Dequantize(const TensorData& raw, const tfl::QuantizationParameters& q) {
  const auto* scales = q.scale();
  const auto* zeros = q.zero_point();
  const size_t count = scales->size();
  if (zeros != nullptr && zeros->size() != 0 && zeros->size() != count) {
    return InvalidModelError("has " + std::to_string(count) + " scales but " + std::to_string(zeros->size()) +
                             " zero points");
  }
  if (q.details_type() != 0) return UnsupportedError("uses custom quantization");
  int64_t channel_dim = 0, inner = 1;
  if (count > 1) {
    const int dim = q.quantized_dimension();
    if (dim < 0 || dim >= static_cast<int>(raw.shape.size()) || raw.shape[dim] != static_cast<int64_t>(count)) {
      return InvalidModelError("has " + std::to_string(count) + " per-channel scales along dimension " +
                               std::to_string(dim) + " of shape " + ShapeToString(raw.shape));
    }
    channel_dim = raw.shape[dim];
    for (size_t d = dim + 1; d < raw.shape.size(); ++d) inner *= raw.shape[d];
  }
  const std::vector<float> values = raw.ToFloats();
  std::vector<float> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const size_t c = count > 1 ? static_cast<size_t>((static_cast<int64_t>(i) / inner) % channel_dim) : 0;
    const float zero = zeros != nullptr && zeros->size() == count ? static_cast<float>(zeros->Get(c)) : 0.0f;
    out[i] = scales->Get(c) * (values[i] - zero);
  }
  return TensorData::FromFloats(raw.shape, out);
}

}  // namespace

Shape IrShape(const Shape& s) {
  if (s.size() != 4) return s;
  return {s[0], s[3], s[1], s[2]};
}

int64_t IrAxis(int64_t axis, int rank) {
  if (rank != 4) return axis;
  static constexpr int64_t kMap[4] = {0, 2, 3, 1};
  return kMap[axis];
}

TensorData NhwcToNchw(const TensorData& data) {
  if (data.shape.size() != 4) return data;
  const int64_t n = data.shape[0], h = data.shape[1], w = data.shape[2], c = data.shape[3];
  const size_t size = DataTypeSize(data.dtype);
  TensorData out;
  out.dtype = data.dtype;
  out.shape = IrShape(data.shape);
  out.bytes.resize(data.bytes.size());
  for (int64_t in = 0; in < n; ++in)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x)
        for (int64_t ch = 0; ch < c; ++ch) {
          const int64_t src = ((in * h + y) * w + x) * c + ch;
          const int64_t dst = ((in * c + ch) * h + y) * w + x;
          std::memcpy(&out.bytes[dst * size], &data.bytes[src * size], size);
        }
  return out;
}

std::string TfliteConverter::NewName(const std::string& base) {
  std::string name = base;
  for (int i = 1; used_names.count(name) || graph.tensors.count(name); ++i) name = base + "_" + std::to_string(i);
  used_names.insert(name);
  return name;
}

std::string TfliteConverter::AddConstant(const std::string& base, TensorData data) {
  const std::string name = NewName(base);
  Tensor& t = graph.tensors[name];
  t.name = name;
  t.dtype = data.dtype;
  t.shape = data.shape;
  t.is_constant = true;
  t.data = std::move(data);
  return name;
}

std::string TfliteConverter::AddInt64Constant(const std::string& base, const std::vector<int64_t>& values) {
  return AddConstant(base, TensorData::FromInt64s({static_cast<int64_t>(values.size())}, values));
}

std::string TfliteConverter::AddFloatConstant(const std::string& base, Shape shape, const std::vector<float>& values) {
  return AddConstant(base, TensorData::FromFloats(std::move(shape), values));
}

Node& TfliteConverter::AddNode(const std::string& op_type, std::vector<std::string> inputs,
                               std::vector<std::string> outputs) {
  Node node;
  node.name = op_type + "_" + std::to_string(graph.nodes.size());
  node.op_type = op_type;
  node.inputs = std::move(inputs);
  node.outputs = std::move(outputs);
  for (const std::string& out : node.outputs) {
    if (!graph.tensors.count(out)) graph.tensors[out].name = out;
  }
  graph.nodes.push_back(std::move(node));
  return graph.nodes.back();
}

const Tensor* TfliteConverter::Constant(int index) const {
  const Tensor* t = graph.FindTensor(names[index]);
  return t != nullptr && t->is_constant ? t : nullptr;
}

Status ConvertTfliteTensors(TfliteConverter* conv) {
  const TfliteFile& file = conv->file;
  const int count = file.tensor_count();
  conv->names.resize(count);
  conv->tflite_shapes.resize(count);
  conv->defined.assign(count, false);
  for (int i = 0; i < count; ++i) {
    const tfl::Tensor& t = file.tensor(i);
    const std::string label = "tensor '" + file.tensor_name(i) + "'";
    Shape shape;
    if (t.shape() != nullptr) {
      for (int32_t d : *t.shape()) {
        if (d < 0) return InvalidModelError(label + " has a negative dimension " + std::to_string(d));
        shape.push_back(d);
      }
    }
    conv->tflite_shapes[i] = shape;
    if (t.sparsity() != nullptr) return UnsupportedError(label + " is stored sparse (densify it when converting)");
    StatusOr<DataType> dtype = IrType(t.type());
    if (!dtype.ok()) return dtype.status().WithContext(label);
    GLPOOL_RETURN_IF_ERROR(CheckTensorSize(label, shape, *dtype));
    // Names must be unique in the IR; a file may repeat or omit them.
    const std::string base = t.name() != nullptr && t.name()->size() > 0 ? t.name()->str() : "tensor_" + std::to_string(i);
    conv->names[i] = conv->NewName(base);
    Tensor& tensor = conv->graph.tensors[conv->names[i]];
    tensor.name = conv->names[i];
    tensor.dtype = *dtype;
    tensor.shape = IrShape(shape);
    const auto* data = file.buffer_data(t);
    if (data == nullptr || data->size() == 0) continue;
    const uint64_t want = static_cast<uint64_t>(ElementCount(shape)) * DataTypeSize(*dtype);
    if (data->size() != want) {
      return InvalidModelError(label + " (" + ShapeToString(shape) + ", " + DataTypeName(*dtype) + ") needs " +
                               std::to_string(want) + " bytes but its buffer " + std::to_string(t.buffer()) +
                               " holds " + std::to_string(data->size()));
    }
    TensorData raw;
    raw.dtype = *dtype;
    raw.shape = shape;
    raw.bytes.assign(data->begin(), data->end());
    if (*dtype == DataType::kFloat16) {
      // float16 weights (behind DEQUANTIZE) are expanded here, once.
      std::vector<float> values(ElementCount(shape));
      for (size_t k = 0; k < values.size(); ++k) {
        uint16_t half;
        std::memcpy(&half, &raw.bytes[k * 2], 2);
        values[k] = HalfToFloat(half);
      }
      raw = TensorData::FromFloats(shape, values);
    } else if (IsQuantized(t) && (*dtype == DataType::kInt8 || *dtype == DataType::kUint8 ||
                                  *dtype == DataType::kInt16 || *dtype == DataType::kInt32)) {
      StatusOr<TensorData> floats = Dequantize(raw, *t.quantization());
      if (!floats.ok()) return floats.status().WithContext(label);
      raw = std::move(floats).value();
    }
    // Constants keep the file's element order (NHWC); the op that uses one
    // permutes it for its own meaning (weights, per-channel operands).
    tensor.dtype = raw.dtype;
    tensor.shape = raw.shape;
    tensor.is_constant = true;
    tensor.data = std::move(raw);
    conv->defined[i] = true;
  }
  const auto* inputs = file.subgraph().inputs();
  if (inputs != nullptr) {
    for (int32_t index : *inputs) {
      if (conv->defined[index]) continue;  // a constant listed as input
      const tfl::Tensor& t = file.tensor(index);
      const DataType dtype = conv->graph.tensors[conv->names[index]].dtype;
      if (IsQuantized(t) && IsIntegerOrBool(dtype)) {
        return UnsupportedError("input '" + file.tensor_name(index) + "' is a quantized " + DataTypeName(dtype) +
                                " activation; glpool runs float models on the GPU (quantized activations need a "
                                "CPU fallback this build does not have)");
      }
      conv->graph.inputs.push_back(conv->names[index]);
      conv->defined[index] = true;
    }
  }
  return Status::Ok();
}

}  // namespace glpool
