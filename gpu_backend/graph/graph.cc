#include "gpu_backend/graph/graph.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <type_traits>

#include "gpu_backend/graph/float16.h"

namespace glpool {

const char* DataTypeName(DataType type) {
  switch (type) {
    case DataType::kUndefined: return "undefined";
    case DataType::kFloat32: return "float32";
    case DataType::kFloat16: return "float16";
    case DataType::kFloat64: return "float64";
    case DataType::kInt8: return "int8";
    case DataType::kUint8: return "uint8";
    case DataType::kInt16: return "int16";
    case DataType::kInt32: return "int32";
    case DataType::kInt64: return "int64";
    case DataType::kBool: return "bool";
    case DataType::kString: return "string";
  }
  return "unknown";
}

bool IsIntegerOrBool(DataType type) {
  switch (type) {
    case DataType::kInt8:
    case DataType::kUint8:
    case DataType::kInt16:
    case DataType::kInt32:
    case DataType::kInt64:
    case DataType::kBool: return true;
    default: return false;
  }
}

size_t DataTypeSize(DataType type) {
  switch (type) {
    case DataType::kFloat32: return 4;
    case DataType::kFloat16: return 2;
    case DataType::kFloat64: return 8;
    case DataType::kInt8: return 1;
    case DataType::kUint8: return 1;
    case DataType::kInt16: return 2;
    case DataType::kInt32: return 4;
    case DataType::kInt64: return 8;
    case DataType::kBool: return 1;
    case DataType::kUndefined:
    case DataType::kString: return 0;
  }
  return 0;
}

int64_t ElementCount(const Shape& shape) {
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  return count;
}

std::string ShapeToString(const Shape& shape) {
  if (shape.empty()) return "scalar";
  std::string text;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) text += 'x';
    text += shape[i] < 0 ? std::string("?") : std::to_string(shape[i]);
  }
  return text;
}

Status CheckTensorSize(const std::string& what, const Shape& shape, DataType dtype) {
  // Zero dims are skipped in this product: an empty tensor of 0 x 2^62 x 3
  // holds nothing, but its layout (rows, texels) multiplies the others.
  int64_t spread = 1;
  int64_t elements = 1;
  for (int64_t d : shape) {
    const int64_t factor = std::max<int64_t>(d, 1);
    if (spread > kMaxShapeElements / factor) {
      return UnsupportedError(what + " of shape " + ShapeToString(shape) + " spans more than " +
                              std::to_string(kMaxShapeElements) + " elements");
    }
    spread *= factor;
    elements *= std::max<int64_t>(d, 0);
  }
  const int64_t element_bytes = static_cast<int64_t>(std::max<size_t>(DataTypeSize(dtype), 1));
  if (elements > kMaxTensorBytes / element_bytes) {
    return UnsupportedError(what + " of shape " + ShapeToString(shape) + " " + DataTypeName(dtype) + " needs " +
                            std::to_string(elements * element_bytes) + " bytes, more than the " +
                            std::to_string(kMaxTensorBytes) + " a tensor may hold");
  }
  return Status::Ok();
}

void CopyFusedEpilogue(const Node& from, Node& to) {
  for (const char* key : {kFusedActivationAttr, kFusedActivationParamsAttr, kFusedOutputScaleAttr,
                          kFusedOutputShiftAttr}) {
    if (from.HasAttribute(key)) to.attributes[key] = from.attributes.at(key);
  }
}

bool IsChannelGateShape(const Shape& gate, const Shape& x) {
  return x.size() == 4 && gate.size() == 4 && (gate[0] == 1 || gate[0] == x[0]) && gate[1] == x[1] &&
         gate[2] == 1 && gate[3] == 1;
}

StatusOr<NearestUpsample> ReadNearestUpsample(const Node& node, const std::vector<Shape>& input_shapes) {
  const std::vector<int64_t> a = node.GetInts(kNearestUpsampledInputAttr);
  if (a.size() != 3 || a[0] < 0 || static_cast<size_t>(a[0]) >= input_shapes.size() || a[1] < 1 || a[2] < 1) {
    return InvalidModelError(std::string(kNearestUpsampledInputAttr) +
                             " must be {input, fy, fx} with an input of the node and factors of at least 1");
  }
  NearestUpsample up;
  up.input = static_cast<size_t>(a[0]);
  up.fy = a[1];
  up.fx = a[2];
  const Shape& in = input_shapes[up.input];
  if (in.size() != 4) {
    return InvalidModelError("input " + std::to_string(up.input) + " " + ShapeToString(in) +
                             " is nearest-upsampled but not 4-D");
  }
  up.upsampled = in;
  // Each factor and the element count stay within kMaxShapeElements, so
  // no product below overflows.
  if (in[2] > kMaxShapeElements / up.fy || in[3] > kMaxShapeElements / up.fx) {
    return InvalidModelError("input " + std::to_string(up.input) + " upsampled is too large");
  }
  up.upsampled[2] = in[2] * up.fy;
  up.upsampled[3] = in[3] * up.fx;
  int64_t elements = 1;
  for (int64_t d : up.upsampled) {
    if (d < 0 || (d > 0 && elements > kMaxShapeElements / d)) {
      return InvalidModelError("input " + std::to_string(up.input) + " upsampled is too large");
    }
    elements *= d;
  }
  return up;
}

StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      return InvalidModelError("shapes " + ShapeToString(a) + " and " + ShapeToString(b) + " do not broadcast");
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

namespace {

template <typename T>
T LoadAt(const std::vector<uint8_t>& bytes, size_t index) {
  T value;
  std::memcpy(&value, bytes.data() + index * sizeof(T), sizeof(T));
  return value;
}

// Reads element `index` of `data` as Out, whatever the stored dtype.
template <typename Out>
Out ElementAs(const TensorData& data, size_t index) {
  switch (data.dtype) {
    case DataType::kFloat32: return static_cast<Out>(LoadAt<float>(data.bytes, index));
    case DataType::kFloat16: return static_cast<Out>(HalfToFloat(LoadAt<uint16_t>(data.bytes, index)));
    case DataType::kFloat64: return static_cast<Out>(LoadAt<double>(data.bytes, index));
    case DataType::kInt8: return static_cast<Out>(LoadAt<int8_t>(data.bytes, index));
    case DataType::kUint8: return static_cast<Out>(LoadAt<uint8_t>(data.bytes, index));
    case DataType::kInt16: return static_cast<Out>(LoadAt<int16_t>(data.bytes, index));
    case DataType::kInt32: return static_cast<Out>(LoadAt<int32_t>(data.bytes, index));
    case DataType::kInt64: return static_cast<Out>(LoadAt<int64_t>(data.bytes, index));
    case DataType::kBool: return static_cast<Out>(LoadAt<uint8_t>(data.bytes, index) != 0);
    case DataType::kUndefined:
    case DataType::kString: break;
  }
  return Out{};
}

template <typename Out>
std::vector<Out> ConvertAll(const TensorData& data) {
  const size_t size = DataTypeSize(data.dtype);
  if (size == 0) return {};
  const size_t count = data.bytes.size() / size;
  std::vector<Out> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = ElementAs<Out>(data, i);
  return values;
}

template <typename T>
TensorData Pack(DataType dtype, Shape shape, const std::vector<T>& values) {
  TensorData data;
  data.dtype = dtype;
  data.shape = std::move(shape);
  data.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(data.bytes.data(), values.data(), data.bytes.size());
  return data;
}

}  // namespace

std::vector<float> TensorData::ToFloats() const {
  if (dtype != DataType::kFloat32) return ConvertAll<float>(*this);
  // Every Run's inputs and outputs come this way: one copy, not a switch
  // per element.
  std::vector<float> values(bytes.size() / sizeof(float));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}
std::vector<int64_t> TensorData::ToInt64s() const {
  if (dtype == DataType::kFloat32 || dtype == DataType::kFloat16 || dtype == DataType::kFloat64) {
    // Casting an out-of-range float to an integer is undefined; clamp first.
    std::vector<double> values = ConvertAll<double>(*this);
    std::vector<int64_t> result(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      double v = values[i];
      if (!(v == v)) v = 0;
      if (v > 9.2e18) v = 9.2e18;
      if (v < -9.2e18) v = -9.2e18;
      result[i] = static_cast<int64_t>(v);
    }
    return result;
  }
  return ConvertAll<int64_t>(*this);
}

TensorData TensorData::FromFloats(Shape shape, const std::vector<float>& values) {
  return Pack(DataType::kFloat32, std::move(shape), values);
}

TensorData TensorData::FromInt64s(Shape shape, const std::vector<int64_t>& values) {
  return Pack(DataType::kInt64, std::move(shape), values);
}

StatusOr<TensorData> FloatsAsTensor(DataType dtype, Shape shape, const std::vector<float>& values) {
  switch (dtype) {
    case DataType::kFloat32: return TensorData::FromFloats(std::move(shape), values);
    case DataType::kFloat64: return Pack(dtype, std::move(shape), std::vector<double>(values.begin(), values.end()));
    case DataType::kFloat16: {
      std::vector<uint16_t> halves(values.size());
      for (size_t i = 0; i < values.size(); ++i) halves[i] = FloatToHalf(values[i]);
      return Pack(dtype, std::move(shape), halves);
    }
    default: break;
  }
  return InvalidArgumentError(std::string("cannot hold float values as ") + DataTypeName(dtype));
}

namespace {

template <typename T>
T GetAttribute(const std::map<std::string, AttributeValue>& attributes, const std::string& key,
               T fallback) {
  auto it = attributes.find(key);
  if (it == attributes.end()) return fallback;
  if (const T* value = std::get_if<T>(&it->second)) return *value;
  return fallback;
}

}  // namespace

int64_t Node::GetInt(const std::string& key, int64_t fallback) const {
  return GetAttribute<int64_t>(attributes, key, fallback);
}
float Node::GetFloat(const std::string& key, float fallback) const {
  return GetAttribute<float>(attributes, key, fallback);
}
std::string Node::GetString(const std::string& key, const std::string& fallback) const {
  return GetAttribute<std::string>(attributes, key, fallback);
}
std::vector<int64_t> Node::GetInts(const std::string& key, std::vector<int64_t> fallback) const {
  return GetAttribute<std::vector<int64_t>>(attributes, key, std::move(fallback));
}
std::vector<float> Node::GetFloats(const std::string& key, std::vector<float> fallback) const {
  return GetAttribute<std::vector<float>>(attributes, key, std::move(fallback));
}

const Tensor* Graph::FindTensor(const std::string& name) const {
  auto it = tensors.find(name);
  return it == tensors.end() ? nullptr : &it->second;
}

Tensor* Graph::FindTensor(const std::string& name) {
  auto it = tensors.find(name);
  return it == tensors.end() ? nullptr : &it->second;
}

namespace {

template <typename T>
void PrintList(std::ostream& out, const std::vector<T>& values) {
  out << '[';
  for (size_t i = 0; i < values.size(); ++i) out << (i ? "," : "") << values[i];
  out << ']';
}

void PrintAttribute(std::ostream& out, const AttributeValue& value) {
  std::visit(
      [&out](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, TensorData>) {
          out << "tensor<" << DataTypeName(v.dtype) << ' ' << ShapeToString(v.shape) << '>';
        } else if constexpr (std::is_same_v<V, std::string>) {
          out << '"' << v << '"';
        } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
          PrintList(out, v);
        } else if constexpr (std::is_same_v<V, std::vector<int64_t>> ||
                             std::is_same_v<V, std::vector<float>>) {
          PrintList(out, v);
        } else {
          out << v;
        }
      },
      value);
}

void PrintTensorRef(std::ostream& out, const Graph& graph, const std::string& name) {
  if (name.empty()) {
    out << "<none>";
    return;
  }
  out << name;
  const Tensor* tensor = graph.FindTensor(name);
  if (!tensor) {
    out << "<undefined>";
    return;
  }
  out << '<' << DataTypeName(tensor->dtype) << ' ' << ShapeToString(tensor->shape)
      << (tensor->is_constant ? " const" : "") << '>';
}

}  // namespace

void PrintGraph(const Graph& graph, std::ostream& out) {
  out << "graph " << (graph.name.empty() ? "<unnamed>" : graph.name) << " opset " << graph.opset
      << ", " << graph.tensors.size() << " tensors, " << graph.nodes.size() << " nodes\n";
  for (const std::string& name : graph.inputs) {
    out << "  input ";
    PrintTensorRef(out, graph, name);
    out << '\n';
  }
  for (const Node& node : graph.nodes) {
    out << "  " << node.name << ": " << (node.domain.empty() ? "" : node.domain + ".")
        << node.op_type << '(';
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      if (i) out << ", ";
      PrintTensorRef(out, graph, node.inputs[i]);
    }
    out << ") -> ";
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      if (i) out << ", ";
      PrintTensorRef(out, graph, node.outputs[i]);
    }
    if (!node.attributes.empty()) {
      out << " {";
      bool first = true;
      for (const auto& [key, value] : node.attributes) {
        out << (first ? "" : ", ") << key << '=';
        PrintAttribute(out, value);
        first = false;
      }
      out << '}';
    }
    out << '\n';
  }
  for (const std::string& name : graph.outputs) {
    out << "  output ";
    PrintTensorRef(out, graph, name);
    out << '\n';
  }
}

}  // namespace glpool
