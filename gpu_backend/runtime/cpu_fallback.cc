#include "gpu_backend/runtime/cpu_fallback.h"

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/cpu_reference/registry.h"
#include "gpu_backend/runtime/gpu_values.h"

namespace glpool {

Status CheckCpuFallback(const Graph& graph, const Node& node, const Status& gpu_refusal) {
  if (gpu_refusal.code() != StatusCode::kUnsupported) return gpu_refusal;
  if (cpu_reference::FindKernel(node.op_type, graph.opset) == nullptr) {
    return UnsupportedError(gpu_refusal.message() + "; no CPU fallback either: " +
                            cpu_reference::UnsupportedReason(node.op_type, graph.opset));
  }
  return Status::Ok();
}

Status RunCpuFallbackNode(const Graph& graph, const Node& node, const FallbackTransfers& io) {
  const std::string where = "CPU fallback for node " + node.name + " (" + node.op_type + ")";
  std::vector<TensorData> read(node.inputs.size());
  std::vector<const TensorData*> inputs(node.inputs.size(), nullptr);
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    const std::string& name = node.inputs[i];
    if (name.empty()) continue;
    const Tensor* tensor = graph.FindTensor(name);
    if (tensor == nullptr) return InternalError(where + ": input '" + name + "' is undefined");
    if (tensor->is_constant) {
      inputs[i] = &tensor->data;
      continue;
    }
    StatusOr<std::vector<float>> values = io.read(name);
    if (!values.ok()) return values.status().WithContext(where + ": reading input '" + name + "'");
    StatusOr<TensorData> data = FromGpuValues(tensor->dtype, tensor->shape, *values, name);
    if (!data.ok()) return data.status().WithContext(where);
    read[i] = std::move(data).value();
    inputs[i] = &read[i];
  }
  std::vector<DataType> output_dtypes;
  for (const std::string& name : node.outputs) {
    const Tensor* tensor = name.empty() ? nullptr : graph.FindTensor(name);
    output_dtypes.push_back(tensor ? tensor->dtype : DataType::kUndefined);
  }
  StatusOr<std::vector<TensorData>> outputs = cpu_reference::RunNode(node, graph.opset, inputs, output_dtypes);
  if (!outputs.ok()) return outputs.status().WithContext("CPU fallback");
  for (size_t i = 0; i < node.outputs.size() && i < outputs->size(); ++i) {
    const std::string& name = node.outputs[i];
    if (name.empty()) continue;
    const Tensor* tensor = graph.FindTensor(name);
    const TensorData& result = (*outputs)[i];
    if (tensor == nullptr) return InternalError(where + ": output '" + name + "' is undefined");
    // The pool was planned for the recorded shape: a result of another
    // shape or type would not fit its object.
    if (result.dtype != tensor->dtype || result.shape != tensor->shape) {
      return InternalError(where + ": output '" + name + "' is " + DataTypeName(result.dtype) + " " +
                           ShapeToString(result.shape) + " but the graph planned " + DataTypeName(tensor->dtype) +
                           " " + ShapeToString(tensor->shape));
    }
    StatusOr<std::vector<float>> values = ToGpuValues(result, name);
    if (!values.ok()) return values.status().WithContext(where);
    Status written = io.write(name, *values);
    if (!written.ok()) return written.WithContext(where + ": uploading output '" + name + "'");
  }
  return Status::Ok();
}

}  // namespace glpool
