// ONNX TensorProto -> TensorData, for initializers, Constant nodes, tensor
// attributes and the serialized .pb inputs/outputs of ONNX test cases.
//
// Every storage form ONNX allows is read: raw_data, the typed repeated
// fields (float_data, int32_data, int64_data, double_data, uint64_data) and
// external data (a file next to the model, with optional offset/length).
// Sizes are checked against dims, so a truncated or inconsistent tensor is
// an error naming the tensor rather than a short buffer downstream.
#pragma once

#include <onnx/onnx_pb.h>

#include <string>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

// Maps an ONNX TensorProto::DataType to ours; kUndefined for types glpool
// does not represent (uint16/32/64, bfloat16, complex).
DataType DataTypeFromOnnx(int32_t onnx_type);
// The reverse, for building TensorProtos from our tensors.
int32_t OnnxFromDataType(DataType dtype);
// Serializes `data` into `proto` (raw_data form), named `name`.
void TensorDataToProto(const TensorData& data, const std::string& name, onnx::TensorProto* proto);
// The ONNX name of an ONNX data type number, for messages ("BFLOAT16").
std::string OnnxDataTypeName(int32_t onnx_type);

// Decodes `proto`. External data is looked up relative to `model_dir` and
// must lie inside `external_data_root` (empty: model_dir itself) once every
// symlink is followed: an absolute location, a `..` that leaves the root or
// a symlink pointing out of it is kInvalidModel naming the tensor.
// Errors: kUnsupported for dtypes/segments glpool does not represent,
// kInvalidModel for sizes that disagree with dims, kNotFound (and only
// then) when the external data file does not exist, so callers can choose
// to fill missing weights instead.
StatusOr<TensorData> TensorDataFromProto(const onnx::TensorProto& proto, const std::string& model_dir,
                                         const std::string& external_data_root = "");

// Whether `proto` keeps its payload in an external file.
bool HasExternalData(const onnx::TensorProto& proto);

// Decodes a serialized TensorProto held in memory; `label` names it in
// errors (a path), external data is looked up relative to `model_dir`, and
// `name` (when given) receives the tensor's stored name. The file readers
// below and the input fuzz target both come through here.
StatusOr<TensorData> ParseTensorProtoBytes(const std::string& bytes, const std::string& label,
                                           const std::string& model_dir, std::string* name = nullptr);

// Reads a serialized TensorProto file (ONNX test_data_set_*/input_0.pb).
StatusOr<TensorData> LoadTensorProtoFile(const std::string& path);

// Same, also returning the tensor's name as stored in the file ("" if none).
StatusOr<TensorData> LoadTensorProtoFile(const std::string& path, std::string* name);

}  // namespace glpool
