// Writes a graph-only ONNX model (weights marked external in a file that
// does not exist, as in ../shared/zoo) with the weights glpool fills under
// --random-weights stored inline, so that another runtime can run exactly
// the network glpool runs. Used by the peer bench (vs_onnxruntime.sh).
//
//   glpool_fill_random_weights IN.onnx OUT.onnx
//
// The values come from glpool's own importer (LoadOnnxModel with
// random_weights), including its adjustments for normalisation parameters;
// an initializer that import folded away is filled the importer's way too.
#include <onnx/onnx_pb.h>

#include <fstream>
#include <iostream>
#include <string>

#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/import/random_weights.h"
#include "gpu_backend/import/tensor_proto.h"

namespace {

int Fail(const std::string& message) {
  std::cerr << "glpool_fill_random_weights: " << message << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return Fail("usage: glpool_fill_random_weights IN.onnx OUT.onnx");
  const std::string in_path = argv[1];
  const std::string out_path = argv[2];
  onnx::ModelProto model;
  {
    std::ifstream in(in_path, std::ios::binary);
    if (!in) return Fail("cannot open '" + in_path + "'");
    if (!model.ParseFromIstream(&in)) return Fail("'" + in_path + "' is not an ONNX model");
  }
  glpool::ImportOptions options;
  options.random_weights = true;
  auto graph = glpool::LoadOnnxModel(in_path, options);
  if (!graph.ok()) return Fail(graph.status().ToString());
  int filled = 0;
  for (onnx::TensorProto& proto : *model.mutable_graph()->mutable_initializer()) {
    if (!glpool::HasExternalData(proto)) continue;
    const glpool::Tensor* tensor = graph->FindTensor(proto.name());
    glpool::TensorData data;
    if (tensor != nullptr && !tensor->data.bytes.empty()) {
      data = tensor->data;
    } else {
      glpool::Shape shape(proto.dims().begin(), proto.dims().end());
      data = glpool::RandomTensorData(proto.name(), glpool::DataTypeFromOnnx(proto.data_type()), shape);
    }
    const std::string name = proto.name();
    proto.Clear();
    glpool::TensorDataToProto(data, name, &proto);
    ++filled;
  }
  std::ofstream out(out_path, std::ios::binary);
  if (!out || !model.SerializeToOstream(&out)) return Fail("cannot write '" + out_path + "'");
  std::cerr << "filled " << filled << " initializers of " << in_path << " into " << out_path << "\n";
  return 0;
}
