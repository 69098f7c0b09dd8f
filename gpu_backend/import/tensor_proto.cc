#include "gpu_backend/import/tensor_proto.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <fstream>
#include <limits>

#include "gpu_backend/import/file_util.h"

namespace glpool {
namespace {

using onnx::TensorProto;

// A constant larger than this is refused rather than allocated: no GPU
// model needs it, and a corrupt dims field must not exhaust host memory.
constexpr int64_t kMaxConstantBytes = int64_t{1} << 32;

std::string TensorLabel(const TensorProto& proto) {
  return "tensor '" + (proto.name().empty() ? std::string("<unnamed>") : proto.name()) + "'";
}

template <typename T, typename Field>
std::vector<uint8_t> PackField(const Field& field) {
  std::vector<uint8_t> bytes(static_cast<size_t>(field.size()) * sizeof(T));
  for (int i = 0; i < field.size(); ++i) {
    const T value = static_cast<T>(field.Get(i));
    std::memcpy(bytes.data() + static_cast<size_t>(i) * sizeof(T), &value, sizeof(T));
  }
  return bytes;
}

// Typed-field storage: which repeated field ONNX uses for each dtype.
StatusOr<std::vector<uint8_t>> BytesFromTypedField(const TensorProto& proto, DataType dtype) {
  switch (proto.data_type()) {
    case TensorProto::FLOAT: return PackField<float>(proto.float_data());
    case TensorProto::DOUBLE: return PackField<double>(proto.double_data());
    case TensorProto::INT64: return PackField<int64_t>(proto.int64_data());
    case TensorProto::INT32: return PackField<int32_t>(proto.int32_data());
    case TensorProto::INT16: return PackField<int16_t>(proto.int32_data());
    case TensorProto::INT8: return PackField<int8_t>(proto.int32_data());
    case TensorProto::UINT8: return PackField<uint8_t>(proto.int32_data());
    case TensorProto::BOOL: return PackField<uint8_t>(proto.int32_data());
    case TensorProto::FLOAT16: return PackField<uint16_t>(proto.int32_data());
    default: break;
  }
  return UnsupportedError(TensorLabel(proto) + ": data type " + DataTypeName(dtype) +
                          " in typed fields is not supported");
}

int TypedFieldCount(const TensorProto& proto) {
  return proto.float_data_size() + proto.double_data_size() + proto.int64_data_size() +
         proto.int32_data_size() + proto.uint64_data_size() + proto.string_data_size();
}

// Where external data may come from: `location` is relative to `dir` and,
// with every symlink followed, must stay inside `root` (ONNX Runtime's rule;
// a downloaded model must not read /etc/passwd or ~/.ssh as its weights).
StatusOr<std::string> ContainedExternalPath(const TensorProto& proto, const std::string& location,
                                            const std::string& dir, const std::string& root) {
  namespace fs = std::filesystem;
  const std::string where = TensorLabel(proto) + ": external data location '" + location + "'";
  if (location.find('\0') != std::string::npos) return InvalidModelError(where + " contains a NUL byte");
  if (fs::path(location).is_absolute()) {
    return InvalidModelError(where + " is an absolute path; external data is read only from inside the "
                             "model's folder");
  }
  std::error_code error;
  const fs::path canonical_root = fs::weakly_canonical(fs::absolute(root.empty() ? "." : root, error), error);
  if (error) return NotFoundError(TensorLabel(proto) + ": external data folder '" + root + "' cannot be resolved");
  const fs::path candidate = fs::absolute(fs::path(dir.empty() ? "." : dir) / location, error);
  const fs::path resolved = error ? fs::path() : fs::weakly_canonical(candidate, error);
  if (error) return InvalidModelError(where + " cannot be resolved (" + error.message() + ")");
  // Component-wise prefix test: "/models/a" must not accept "/models/ab/x".
  auto root_part = canonical_root.begin();
  auto file_part = resolved.begin();
  for (; root_part != canonical_root.end(); ++root_part, ++file_part) {
    if (root_part->empty()) continue;  // a trailing separator
    if (file_part == resolved.end() || *root_part != *file_part) {
      return InvalidModelError(where + " resolves to '" + resolved.string() + "', outside the folder '" +
                               canonical_root.string() +
                               "'; external data is read only from inside the model's folder "
                               "(ModelOptions::external_data_root names another)");
    }
  }
  return resolved.string();
}

StatusOr<std::vector<uint8_t>> ReadExternal(const TensorProto& proto, const std::string& model_dir,
                                            const std::string& root, size_t expected_bytes) {
  std::string location;
  int64_t offset = 0;
  int64_t length = -1;
  for (const auto& entry : proto.external_data()) {
    if (entry.key() == "location") {
      location = entry.value();
    } else if (entry.key() == "offset" || entry.key() == "length") {
      char* end = nullptr;
      errno = 0;
      const long long value = std::strtoll(entry.value().c_str(), &end, 10);
      if (entry.value().empty() || *end != '\0' || value < 0 || errno == ERANGE) {
        return InvalidModelError(TensorLabel(proto) + ": bad external data " + entry.key() + " '" +
                                 entry.value() + "'");
      }
      (entry.key() == "offset" ? offset : length) = value;
    }
  }
  if (location.empty()) {
    return InvalidModelError(TensorLabel(proto) + ": external data without a location");
  }
  GLPOOL_ASSIGN_OR_RETURN(const std::string path,
                          ContainedExternalPath(proto, location, model_dir, root.empty() ? model_dir : root));
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    if (std::filesystem::exists(path, error)) {
      return InvalidModelError(TensorLabel(proto) + ": external data '" + path + "' is not a regular file");
    }
    return NotFoundError(TensorLabel(proto) + ": external data file '" + path + "' not found");
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return NotFoundError(TensorLabel(proto) + ": external data file '" + path + "' cannot be opened");
  }
  file.seekg(0, std::ios::end);
  const int64_t file_size = static_cast<int64_t>(file.tellg());
  if (offset > file_size) {
    return InvalidModelError(TensorLabel(proto) + ": external data offset " + std::to_string(offset) +
                             " lies past the end of '" + path + "' (" + std::to_string(file_size) + " bytes)");
  }
  if (length < 0) length = file_size - offset;
  if (static_cast<uint64_t>(length) != expected_bytes) {
    return InvalidModelError(TensorLabel(proto) + ": external data length " + std::to_string(length) +
                             " bytes, dims need " + std::to_string(expected_bytes));
  }
  // offset <= file_size here, so the subtraction cannot wrap.
  if (length > file_size - offset) {
    return InvalidModelError(TensorLabel(proto) + ": external data file '" + path + "' has " +
                             std::to_string(file_size) + " bytes, needs " + std::to_string(offset) + " + " +
                             std::to_string(length) + " (truncated?)");
  }
  std::vector<uint8_t> bytes(expected_bytes);
  file.seekg(offset);
  file.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(expected_bytes));
  if (!file) {
    return InvalidModelError(TensorLabel(proto) + ": reading external data file '" + path + "' failed");
  }
  return bytes;
}

}  // namespace

DataType DataTypeFromOnnx(int32_t onnx_type) {
  switch (onnx_type) {
    case TensorProto::FLOAT: return DataType::kFloat32;
    case TensorProto::FLOAT16: return DataType::kFloat16;
    case TensorProto::DOUBLE: return DataType::kFloat64;
    case TensorProto::INT8: return DataType::kInt8;
    case TensorProto::UINT8: return DataType::kUint8;
    case TensorProto::INT16: return DataType::kInt16;
    case TensorProto::INT32: return DataType::kInt32;
    case TensorProto::INT64: return DataType::kInt64;
    case TensorProto::BOOL: return DataType::kBool;
    case TensorProto::STRING: return DataType::kString;
    default: return DataType::kUndefined;
  }
}

int32_t OnnxFromDataType(DataType dtype) {
  switch (dtype) {
    case DataType::kFloat32: return TensorProto::FLOAT;
    case DataType::kFloat16: return TensorProto::FLOAT16;
    case DataType::kFloat64: return TensorProto::DOUBLE;
    case DataType::kInt8: return TensorProto::INT8;
    case DataType::kUint8: return TensorProto::UINT8;
    case DataType::kInt16: return TensorProto::INT16;
    case DataType::kInt32: return TensorProto::INT32;
    case DataType::kInt64: return TensorProto::INT64;
    case DataType::kBool: return TensorProto::BOOL;
    case DataType::kString: return TensorProto::STRING;
    case DataType::kUndefined: break;
  }
  return TensorProto::UNDEFINED;
}

void TensorDataToProto(const TensorData& data, const std::string& name, TensorProto* proto) {
  proto->Clear();
  proto->set_name(name);
  proto->set_data_type(OnnxFromDataType(data.dtype));
  for (int64_t d : data.shape) proto->add_dims(d);
  proto->set_raw_data(std::string(data.bytes.begin(), data.bytes.end()));
}

std::string OnnxDataTypeName(int32_t onnx_type) {
  if (TensorProto::DataType_IsValid(onnx_type)) {
    return TensorProto::DataType_Name(static_cast<TensorProto::DataType>(onnx_type));
  }
  return std::to_string(onnx_type) + " (not an ONNX data type)";
}

bool HasExternalData(const TensorProto& proto) {
  return proto.has_data_location() && proto.data_location() == TensorProto::EXTERNAL;
}

StatusOr<TensorData> TensorDataFromProto(const TensorProto& proto, const std::string& model_dir,
                                         const std::string& external_data_root) {
  const DataType dtype = DataTypeFromOnnx(proto.data_type());
  if (dtype == DataType::kUndefined || dtype == DataType::kString) {
    return UnsupportedError(TensorLabel(proto) + ": data type " + OnnxDataTypeName(proto.data_type()) +
                            " is not supported");
  }
  if (proto.has_segment()) {
    return UnsupportedError(TensorLabel(proto) + ": segmented tensors are not supported");
  }
  TensorData data;
  data.dtype = dtype;
  int64_t count = 1;
  int64_t spread = 1;  // the product without zero dims: an empty tensor's layout still multiplies the rest
  for (int64_t dim : proto.dims()) {
    if (dim < 0) return InvalidModelError(TensorLabel(proto) + ": negative dimension " + std::to_string(dim));
    data.shape.push_back(dim);
    if (dim != 0 && spread > kMaxConstantBytes / dim) {
      return InvalidModelError(TensorLabel(proto) + ": dims " + ShapeToString(data.shape) + "... are too large");
    }
    spread *= std::max<int64_t>(dim, 1);
    count *= dim;
  }
  if (count > kMaxConstantBytes / static_cast<int64_t>(DataTypeSize(dtype))) {
    return UnsupportedError(TensorLabel(proto) + ": " + ShapeToString(data.shape) + " " + DataTypeName(dtype) +
                            " is larger than 4 GiB");
  }
  const size_t expected_bytes = static_cast<size_t>(count) * DataTypeSize(dtype);

  if (HasExternalData(proto)) {
    GLPOOL_ASSIGN_OR_RETURN(data.bytes, ReadExternal(proto, model_dir, external_data_root, expected_bytes));
    return data;
  }
  if (proto.has_raw_data()) {
    if (proto.raw_data().size() != expected_bytes) {
      return InvalidModelError(TensorLabel(proto) + ": raw_data has " + std::to_string(proto.raw_data().size()) +
                               " bytes, dims " + ShapeToString(data.shape) + " need " +
                               std::to_string(expected_bytes));
    }
    data.bytes.assign(proto.raw_data().begin(), proto.raw_data().end());
    return data;
  }
  if (TypedFieldCount(proto) != count) {
    return InvalidModelError(TensorLabel(proto) + ": holds " + std::to_string(TypedFieldCount(proto)) +
                             " values, dims " + ShapeToString(data.shape) + " need " + std::to_string(count));
  }
  GLPOOL_ASSIGN_OR_RETURN(data.bytes, BytesFromTypedField(proto, dtype));
  if (data.bytes.size() != expected_bytes) {
    return InvalidModelError(TensorLabel(proto) + ": values stored in the wrong field for " +
                             OnnxDataTypeName(proto.data_type()));
  }
  return data;
}

StatusOr<TensorData> ParseTensorProtoBytes(const std::string& bytes, const std::string& label,
                                           const std::string& model_dir, std::string* name) {
  TensorProto proto;
  if (!ParseProto(bytes, &proto)) {
    return InvalidModelError(label + ": not a valid serialized ONNX TensorProto");
  }
  if (name) *name = proto.name();
  StatusOr<TensorData> data = TensorDataFromProto(proto, model_dir);
  if (!data.ok()) return data.status().WithContext(label);
  return data;
}

StatusOr<TensorData> LoadTensorProtoFile(const std::string& path, std::string* name) {
  GLPOOL_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(path, "tensor"));
  return ParseTensorProtoBytes(bytes, path, DirName(path), name);
}

StatusOr<TensorData> LoadTensorProtoFile(const std::string& path) {
  return LoadTensorProtoFile(path, nullptr);
}

}  // namespace glpool
