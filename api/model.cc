#include <fstream>
#include <iterator>
#include <set>

#include "api/model_impl.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/file_util.h"
#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/import/tensor_proto.h"
#include "gpu_backend/import/tflite/tflite_import.h"

namespace glpool {
namespace {

TensorInfo InfoOf(const onnx::ValueInfoProto& value) {
  TensorInfo info;
  info.name = value.name();
  if (value.type().has_tensor_type()) {
    const auto& type = value.type().tensor_type();
    info.dtype = DataTypeFromOnnx(type.elem_type());
    for (const auto& dim : type.shape().dim()) {
      Dim d;
      if (dim.has_dim_value() && dim.dim_value() >= 0) {
        d.value = dim.dim_value();
      } else if (dim.has_dim_param()) {
        d.symbol = dim.dim_param();
      }
      info.dims.push_back(d);
    }
  }
  return info;
}

TensorInfo InfoOf(const Tensor& tensor) {
  TensorInfo info;
  info.name = tensor.name;
  info.dtype = tensor.dtype;
  for (int64_t d : tensor.shape) info.dims.push_back(Dim{d, ""});
  return info;
}

// A .tflite file: imported here once (its shapes are fixed).
StatusOr<Model::Impl> ParseTfliteModel(const std::string& bytes, const ModelOptions& options, const std::string& dir,
                                       const std::string& label) {
  Model::Impl impl;
  GLPOOL_ASSIGN_OR_RETURN(Graph graph, ImportTfliteModel(bytes, ImportOptions{}, label));
  for (const std::string& name : graph.inputs) impl.inputs.push_back(InfoOf(*graph.FindTensor(name)));
  for (const std::string& name : graph.outputs) impl.outputs.push_back(InfoOf(*graph.FindTensor(name)));
  impl.tflite_graph = std::make_shared<const Graph>(std::move(graph));
  impl.model_dir = dir;
  impl.label = label;
  impl.options = options;
  return impl;
}

StatusOr<Model::Impl> ParseModel(const std::string& bytes, const ModelOptions& options, const std::string& dir,
                                 const std::string& label) {
  if (IsTfliteBytes(bytes)) return ParseTfliteModel(bytes, options, dir, label);
  Model::Impl impl;
  if (!ParseProto(bytes, &impl.proto)) {
    return InvalidModelError(label + ": not a valid ONNX model (the protobuf does not parse; corrupt or truncated?)");
  }
  impl.model_dir = dir;
  impl.label = label;
  impl.options = options;
  std::set<std::string> weights;
  for (const auto& initializer : impl.proto.graph().initializer()) weights.insert(initializer.name());
  for (const auto& input : impl.proto.graph().input()) {
    if (weights.count(input.name())) continue;
    impl.inputs.push_back(InfoOf(input));
    // A static input too large to hold is refused here, before an app (or
    // the CLI) allocates data for it.
    if (impl.inputs.back().is_static()) {
      GLPOOL_RETURN_IF_ERROR(CheckTensorSize(label + ": graph input '" + input.name() + "'",
                                             impl.inputs.back().shape(), impl.inputs.back().dtype));
    }
  }
  for (const auto& output : impl.proto.graph().output()) impl.outputs.push_back(InfoOf(output));
  return impl;
}

}  // namespace

bool TensorInfo::is_static() const {
  for (const Dim& d : dims) {
    if (!d.fixed()) return false;
  }
  return true;
}

Shape TensorInfo::shape() const {
  Shape shape;
  for (const Dim& d : dims) shape.push_back(d.value);
  return shape;
}

StatusOr<Model> Model::Load(const std::string& path, const ModelOptions& options) {
  GLPOOL_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(path));
  GLPOOL_ASSIGN_OR_RETURN(Impl impl, ParseModel(bytes, options, DirName(path), path));
  return Model(std::make_shared<const Impl>(std::move(impl)));
}

StatusOr<Model> Model::FromMemory(const void* data, size_t size, const ModelOptions& options,
                                  const std::string& model_dir, const std::string& label) {
  if (data == nullptr && size > 0) return InvalidArgumentError(label + ": null model data");
  const std::string bytes(static_cast<const char*>(data), size);
  GLPOOL_ASSIGN_OR_RETURN(Impl impl, ParseModel(bytes, options, model_dir, label));
  return Model(std::make_shared<const Impl>(std::move(impl)));
}

const std::string& Model::label() const { return impl_->label; }
const std::vector<TensorInfo>& Model::inputs() const { return impl_->inputs; }
const std::vector<TensorInfo>& Model::outputs() const { return impl_->outputs; }
const ModelOptions& Model::options() const { return impl_->options; }

StatusOr<std::map<std::string, Shape>> ResolveInputShapes(const Model& model,
                                                          const std::map<std::string, Shape>& requested) {
  std::string names;
  for (const TensorInfo& input : model.inputs()) names += (names.empty() ? "" : ", ") + input.name;
  for (const auto& [name, shape] : requested) {
    bool known = false;
    for (const TensorInfo& input : model.inputs()) known = known || input.name == name;
    if (!known) return InvalidArgumentError("the model has no input named '" + name + "' (inputs: " + names + ")");
  }
  std::map<std::string, Shape> shapes;
  for (const TensorInfo& input : model.inputs()) {
    auto it = requested.find(input.name);
    if (it == requested.end()) {
      std::string open;  // "'height' (dim 2), 'width' (dim 3)"
      for (size_t i = 0; i < input.dims.size(); ++i) {
        if (input.dims[i].fixed()) continue;
        const std::string& symbol = input.dims[i].symbol;
        open += (open.empty() ? "" : ", ") + (symbol.empty() ? std::string("unnamed") : "'" + symbol + "'") +
                " (dim " + std::to_string(i) + ")";
      }
      if (!open.empty()) {
        return BadShapeError("input '" + input.name + "' has symbolic dims " + open + ": give its shape, " +
                             InputShapeTemplate(input) +
                             " with numbers for the names (SessionOptions::input_shapes, Session::Reshape, "
                             "or InputShapesOf a tensor)");
      }
      shapes[input.name] = input.shape();
      continue;
    }
    const Shape& shape = it->second;
    bool fits = input.dims.empty() || shape.size() == input.dims.size();
    for (size_t i = 0; fits && i < input.dims.size(); ++i) {
      fits = shape[i] >= 0 && (!input.dims[i].fixed() || input.dims[i].value == shape[i]);
    }
    if (!fits) {
      std::string declared;
      for (const Dim& d : input.dims) {
        declared += (declared.empty() ? "" : "x") + (d.fixed() ? std::to_string(d.value) : d.symbol.empty() ? "?" : d.symbol);
      }
      return BadShapeError("input '" + input.name + "': shape " + ShapeToString(shape) + " does not fit the model's " +
                           (declared.empty() ? "scalar" : declared));
    }
    shapes[input.name] = shape;
  }
  return shapes;
}

std::string InputShapeTemplate(const TensorInfo& input) {
  std::string dims;
  for (const Dim& d : input.dims) {
    dims += (dims.empty() ? "" : "x") + (d.fixed() ? std::to_string(d.value) : d.symbol.empty() ? "?" : d.symbol);
  }
  return input.name + "=" + dims;
}

StatusOr<std::map<std::string, Shape>> InputShapesOf(const Model& model,
                                                     const std::map<std::string, TensorData>& inputs) {
  std::map<std::string, Shape> shapes;
  for (const auto& [name, data] : inputs) shapes[name] = data.shape;
  return ResolveInputShapes(model, shapes);
}

StatusOr<Graph> ImportAtShapes(const Model& model, const std::map<std::string, Shape>& shapes) {
  const Model::Impl& impl = model.impl();
  ImportOptions options;
  options.random_weights = impl.options.random_weights;
  options.external_data_root = impl.options.external_data_root;
  // Only inputs with open dims are fixed through the importer; the others
  // already have exactly these shapes.
  for (const TensorInfo& input : impl.inputs) {
    if (!input.is_static() && shapes.count(input.name)) options.input_shapes[input.name] = shapes.at(input.name);
  }
  Graph graph;
  if (impl.tflite_graph) {
    graph = *impl.tflite_graph;  // static shapes: ResolveInputShapes checked them
  } else {
    GLPOOL_ASSIGN_OR_RETURN(graph, ImportOnnxModel(impl.proto, impl.model_dir, options, impl.label));
  }
  if (impl.options.run_graph_passes) GLPOOL_TRY_CONTEXT(RunDefaultPasses(graph), impl.label);
  return graph;
}

}  // namespace glpool
