// One model on the GPU (every node on its kernels, no CPU fallback) against
// the CPU reference on the same fixed-seed input: the relative error of each
// output and both times. For networks too slow for the test suite at their
// own size (DenseNet-121 at 224x224 on llvmpipe).
//
//   glpool_gpu_vs_reference MODEL.onnx [--random-weights] [--size N]
//                           [--objects buffers|textures|arena] [--precision fp32|fp16]
//
// --size N sets a 4-D input's height and width to N (the model's own by
// default). Exits 1 when an output's max |gpu - ref| exceeds 1e-3 (fp32) or
// 3e-2 (fp16) of its max |ref|.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include <onnx/onnx_pb.h>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/gl/gl_context.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/file_util.h"
#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/runtime/executor.h"

namespace glpool {
namespace {

int Fail(const Status& status) {
  std::fprintf(stderr, "glpool_gpu_vs_reference: %s\n", status.ToString().c_str());
  return 1;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

StatusOr<Graph> Load(const std::string& path, bool random_weights, int64_t size) {
  GLPOOL_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(path, "model"));
  onnx::ModelProto model;
  if (!ParseProto(bytes, &model)) return InvalidModelError(path + ": not a valid ONNX model");
  if (size > 0) {
    if (model.graph().input_size() < 1) return InvalidModelError(path + ": no graph input");
    auto* dims = model.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
    if (dims->dim_size() != 4) return InvalidArgumentError("--size needs a 4-D first input");
    dims->mutable_dim(2)->set_dim_value(size);
    dims->mutable_dim(3)->set_dim_value(size);
  }
  ImportOptions options;
  options.random_weights = random_weights;
  const std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
  return ImportOnnxModel(model, dir, options, path);
}

int Main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: glpool_gpu_vs_reference MODEL.onnx [--random-weights] [--size N] "
                         "[--objects K] [--precision P]\n");
    return 2;
  }
  const std::string path = argv[1];
  bool random_weights = false;
  int64_t size = 0;
  ExecutorOptions options;
  for (int i = 2; i < argc; ++i) {
    const std::string flag = argv[i];
    const bool has_value = i + 1 < argc;
    if (flag == "--random-weights") {
      random_weights = true;
    } else if (flag == "--size" && has_value) {
      size = std::strtoll(argv[++i], nullptr, 10);
      if (size < 1 || size > 4096) return Fail(InvalidArgumentError("--size must be 1 to 4096"));
    } else if (flag == "--objects" && has_value) {
      StatusOr<ObjectKind> kind = ParseObjectKind(argv[++i]);
      if (!kind.ok()) return Fail(kind.status());
      options.objects = *kind;
    } else if (flag == "--precision" && has_value) {
      StatusOr<Precision> precision = ParsePrecision(argv[++i]);
      if (!precision.ok()) return Fail(precision.status());
      options.precision = *precision;
    } else {
      return Fail(InvalidArgumentError("unknown or incomplete flag '" + flag + "'"));
    }
  }
  auto context = gl::CreateHeadlessContext();
  if (!context.ok()) return Fail(context.status());
  StatusOr<Graph> graph = Load(path, random_weights, size);
  if (!graph.ok()) return Fail(graph.status());
  if (Status s = RunDefaultPasses(*graph); !s.ok()) return Fail(s);

  std::map<std::string, TensorData> inputs;
  std::mt19937 rng(121);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (const std::string& name : graph->inputs) {
    const Tensor& tensor = *graph->FindTensor(name);
    if (tensor.dtype != DataType::kFloat32) return Fail(UnsupportedError("input '" + name + "' is not float32"));
    std::vector<float> values(static_cast<size_t>(ElementCount(tensor.shape)));
    for (float& v : values) v = uniform(rng);
    inputs[name] = TensorData::FromFloats(tensor.shape, values);
  }
  auto start = std::chrono::steady_clock::now();
  auto reference = cpu_reference::RunGraph(*graph, inputs);
  const double cpu_seconds = Seconds(start);
  if (!reference.ok()) return Fail(reference.status().WithContext("CPU reference"));

  start = std::chrono::steady_clock::now();
  auto executor = Executor::Create(*graph, options);
  const double create_seconds = Seconds(start);
  if (!executor.ok()) return Fail(executor.status());
  start = std::chrono::steady_clock::now();
  auto outputs = (*executor)->Run(inputs);
  const double gpu_seconds = Seconds(start);
  if (!outputs.ok()) return Fail(outputs.status());

  size_t widest = 0;
  for (const Node& node : graph->nodes) {
    if (node.op_type == "Concat" || node.op_type == "Sum" || node.op_type == "Mean" || node.op_type == "Max" ||
        node.op_type == "Min") {
      widest = std::max(widest, node.inputs.size());
    }
  }
  std::printf("%s: %zu tasks on the GPU (%s, %s), widest variadic after passes %zu inputs\n", path.c_str(),
              (*executor)->tasks().size(), ObjectKindName(options.objects), PrecisionName(options.precision), widest);
  std::printf("CPU reference %.2f s; GPU create %.2f s, run %.2f s\n", cpu_seconds, create_seconds, gpu_seconds);
  const double tolerance = options.precision == Precision::kFp16 ? 3e-2 : 1e-3;
  bool ok = true;
  for (const auto& [name, want_data] : *reference) {
    const std::vector<float> want = want_data.ToFloats();
    const std::vector<float> got = outputs->at(name).ToFloats();
    if (got.size() != want.size()) return Fail(InternalError("output '" + name + "' sizes differ"));
    double largest = 0, error = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      largest = std::max(largest, std::fabs(static_cast<double>(want[i])));
      error = std::max(error, std::fabs(static_cast<double>(got[i]) - want[i]));
    }
    const double relative = largest > 0 ? error / largest : error;
    std::printf("output %s: max |ref| %.4g, max |gpu - ref| %.4g (%.3g of max |ref|, tolerance %.0e)\n",
                name.c_str(), largest, error, relative, tolerance);
    ok = ok && relative <= tolerance;
  }
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace glpool

int main(int argc, char** argv) { return glpool::Main(argc, argv); }
