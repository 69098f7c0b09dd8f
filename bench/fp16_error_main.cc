// Where fp16 loses a model's answers: every float tensor the GPU computes in
// fp16 (buffers or textures, glpool's calibration applied) beside the CPU
// reference's fp32 value of the same tensor, task by task.
//
//   glpool_fp16_error MODEL.onnx INPUT.pb [--objects buffers|textures|arena] [--top N]
//                     [--threshold T] [--fp32-from TASK]
//
// Prints, per tensor in task order (or the N worst), the producing op, the
// storage precision, max |reference| and the relative error max|gpu - ref| /
// max|ref|; then the graph outputs' errors and, with --threshold, how many
// output elements fall on the other side of T than in the reference (a
// detector's mask). --fp32-from keeps every tensor from that task on in
// fp32, to see where precision must stay. Intermediates are made graph
// outputs so they can be read back: they leave the pool, and every
// Sigmoid/Softmax then counts as a head whose logits stay fp32
// (precision_sensitive.h), a few more fp32 tensors than a real run has.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/gl/gl_context.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/import/tflite/tflite_import.h"
#include "gpu_backend/import/tensor_proto.h"
#include "gpu_backend/runtime/executor.h"

namespace glpool {
namespace {

struct Row {
  size_t task = 0;
  std::string tensor, op;
  bool half = false;
  double max_ref = 0, relative = 0;
};

int Fail(const Status& status) {
  std::fprintf(stderr, "glpool_fp16_error: %s\n", status.ToString().c_str());
  return 1;
}

int Main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: glpool_fp16_error MODEL.onnx INPUT.pb [--objects K] [--top N]\n");
    return 2;
  }
  ExecutorOptions options;
  options.precision = Precision::kFp16;
  size_t top = 0;
  double threshold = -1;
  long fp32_from = -1, fp32_until = -1;
  std::string fp32_ops;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--objects")) {
      StatusOr<ObjectKind> kind = ParseObjectKind(argv[i + 1]);
      if (!kind.ok()) return Fail(kind.status());
      options.objects = *kind;
    } else if (!std::strcmp(argv[i], "--top")) {
      top = static_cast<size_t>(std::atoi(argv[i + 1]));
    } else if (!std::strcmp(argv[i], "--threshold")) {
      threshold = std::atof(argv[i + 1]);
    } else if (!std::strcmp(argv[i], "--fp32-from")) {
      fp32_from = std::atol(argv[i + 1]);
    } else if (!std::strcmp(argv[i], "--fp32-until")) {
      fp32_until = std::atol(argv[i + 1]);
    } else if (!std::strcmp(argv[i], "--fp32-ops")) {
      fp32_ops = argv[i + 1];
    }
  }
  std::string input_name;
  StatusOr<TensorData> input = LoadTensorProtoFile(argv[2], &input_name);
  if (!input.ok()) return Fail(input.status());
  const std::string path = argv[1];
  const bool tflite = path.size() > 7 && path.compare(path.size() - 7, 7, ".tflite") == 0;
  StatusOr<Graph> probe = tflite ? LoadTfliteModel(path) : LoadOnnxModel(path);
  ImportOptions import;
  if (!probe.ok() || probe->inputs.size() != 1) {
    // Symbolic dims: take them from the data (one input).
    import.input_shapes[input_name.empty() ? "x" : input_name] = input->shape;
  }
  StatusOr<Graph> loaded = probe.ok() ? std::move(probe) : LoadOnnxModel(path, import);
  if (!loaded.ok()) return Fail(loaded.status());
  Graph graph = std::move(loaded).value();
  if (Status s = RunDefaultPasses(graph); !s.ok()) return Fail(s);
  const std::map<std::string, TensorData> inputs = {{graph.inputs.at(0), *input}};
  const std::vector<std::string> real_outputs = graph.outputs;
  auto context = gl::CreateHeadlessContext();
  if (!context.ok()) return Fail(context.status());
  // Calibrated on the graph as it is, before its intermediates become outputs.
  StatusOr<std::set<std::string>> unsafe = FindHalfUnsafeTensors(graph, inputs, nullptr);
  if (!unsafe.ok()) return Fail(unsafe.status());
  // Every float intermediate becomes an output, in task order.
  std::map<std::string, std::pair<size_t, std::string>> producer;
  for (size_t t = 0; t < graph.nodes.size(); ++t) {
    for (const std::string& out : graph.nodes[t].outputs) {
      if (out.empty() || graph.tensors.at(out).dtype != DataType::kFloat32) continue;
      producer[out] = {t, graph.nodes[t].op_type};
      if (std::find(graph.outputs.begin(), graph.outputs.end(), out) == graph.outputs.end()) {
        graph.outputs.push_back(out);
      }
    }
  }
  options.fp32_tensors = *unsafe;
  for (const auto& [name, where] : producer) {
    if (fp32_from >= 0 && where.first >= static_cast<size_t>(fp32_from)) options.fp32_tensors.insert(name);
    if (fp32_until >= 0 && where.first < static_cast<size_t>(fp32_until)) options.fp32_tensors.insert(name);
    if (!fp32_ops.empty() && ("," + fp32_ops + ",").find("," + where.second + ",") != std::string::npos) {
      options.fp32_tensors.insert(name);
    }
  }
  if (fp32_from == 0 || fp32_until > 0 || std::getenv("FP32_INPUTS")) options.fp32_tensors.insert(graph.inputs.begin(), graph.inputs.end());
  if (std::getenv("FP32_CONSTANTS")) {
    for (const auto& [name, tensor] : graph.tensors) {
      if (tensor.is_constant) options.fp32_tensors.insert(name);
    }
  }
  StatusOr<std::unique_ptr<Executor>> executor = Executor::Create(graph, options);
  if (!executor.ok()) return Fail(executor.status());
  StatusOr<std::map<std::string, TensorData>> gpu = (*executor)->Run(inputs);
  if (!gpu.ok()) return Fail(gpu.status());
  StatusOr<std::map<std::string, TensorData>> cpu = cpu_reference::RunGraph(graph, inputs);
  if (!cpu.ok()) return Fail(cpu.status());
  std::vector<Row> rows;
  for (const auto& [name, where] : producer) {
    const std::vector<float> g = gpu->at(name).ToFloats(), r = cpu->at(name).ToFloats();
    Row row{where.first, name, where.second, !options.fp32_tensors.count(name), 0, 0};
    double max_diff = 0;
    for (size_t i = 0; i < r.size(); ++i) {
      row.max_ref = std::max(row.max_ref, std::fabs(static_cast<double>(r[i])));
      max_diff = std::max(max_diff, std::fabs(static_cast<double>(g[i]) - r[i]));
    }
    row.relative = row.max_ref > 0 ? max_diff / row.max_ref : max_diff;
    rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.task < b.task; });
  std::vector<Row> shown = rows;
  if (top > 0) {
    std::sort(shown.begin(), shown.end(), [](const Row& a, const Row& b) { return a.relative > b.relative; });
    shown.resize(std::min(top, shown.size()));
  }
  std::printf("%s, fp16 %s: %zu float tensors, %zu kept fp32 by calibration\n", argv[1],
              ObjectKindName(options.objects), rows.size(), options.fp32_tensors.size());
  std::printf("%6s  %-22s %-5s %12s %12s  %s\n", "task", "op", "store", "max|ref|", "rel error", "tensor");
  for (const Row& row : shown) {
    std::printf("%6zu  %-22s %-5s %12.4g %12.3g  %s\n", row.task, row.op.c_str(), row.half ? "half" : "fp32",
                row.max_ref, row.relative, row.tensor.c_str());
  }
  for (const std::string& out : real_outputs) {
    for (const Row& row : rows) {
      if (row.tensor == out) std::printf("output %s: rel error %.3g (max |ref| %.4g)\n", out.c_str(), row.relative, row.max_ref);
    }
    if (threshold >= 0) {
      const std::vector<float> g = gpu->at(out).ToFloats(), r = cpu->at(out).ToFloats();
      size_t above = 0, flipped = 0;
      for (size_t i = 0; i < r.size(); ++i) {
        above += r[i] > threshold;
        flipped += (r[i] > threshold) != (g[i] > threshold);
      }
      std::printf("output %s: %zu of %zu elements above %g in the reference, %zu on the other side in fp16 (%.3f%% of those above)\n",
                  out.c_str(), above, r.size(), threshold, flipped, above ? 100.0 * flipped / above : 0.0);
    }
  }
  return 0;
}

}  // namespace
}  // namespace glpool

int main(int argc, char** argv) { return glpool::Main(argc, argv); }
