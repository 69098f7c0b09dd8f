// Inference time and pool memory per model x object kind x strategy, each
// pooled run compared with naive as a ratio measured in the same process,
// interleaved so that drift in machine load hits both alike. Writes a
// markdown report: one row per model x kind x strategy, then one summary
// row per model (geometric mean of its time ratios, auto's memory ratio).
//   glpool_inference_report --models DIR --out FILE.md [--repeat N] [--precision fp32|fp16]
//                           [--strategies S1,S2,...] [--names M1,M2,...]
// --names takes only those model folders of DIR (all with a model.onnx
// otherwise), so a report names the shared folder it ran on.
// --strategies limits the pooled strategies timed (naive is always the
// baseline), for networks that take seconds per run on a software GPU.
// fp16 runs calibrate once per model (FindHalfUnsafeTensors) on its input.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "gpu_backend/gl/gl_context.h"
#include "gpu_backend/gl/gl_info.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/runtime/executor.h"
#include "gpu_backend/runtime/fp16_calibration.h"
#include "gpu_backend/runtime/pool_plan.h"

namespace glpool {
namespace {

namespace fs = std::filesystem;

struct Flags {
  std::string models_dir, out_path, precision = "fp32", strategies, names;
  int repeat = 5;
};

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

std::set<std::string> SplitCommas(const std::string& text) {
  std::set<std::string> items;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');) {
    if (!item.empty()) items.insert(item);
  }
  return items;
}

StatusOr<double> TimeRun(Executor& executor, const std::map<std::string, TensorData>& inputs) {
  const auto start = std::chrono::steady_clock::now();
  GLPOOL_RETURN_IF_ERROR(executor.Run(inputs).status());
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Per model: the time ratios of every row, and auto's memory ratio per kind.
struct ModelSummary {
  std::vector<double> time_ratios;
  std::map<std::string, double> auto_memory;
  size_t kept_fp32 = 0;
};

Status ReportModel(const fs::path& dir, const Flags& flags, Precision precision, std::ostream& md,
                   ModelSummary* summary) {
  GLPOOL_ASSIGN_OR_RETURN(Graph graph, LoadOnnxModel((dir / "model.onnx").string()));
  GLPOOL_RETURN_IF_ERROR(RunDefaultPasses(graph));
  GLPOOL_ASSIGN_OR_RETURN(TensorData input, LoadTensorProtoFile((dir / "test_data_set_0" / "input_0.pb").string()));
  const std::map<std::string, TensorData> inputs = {{graph.inputs.at(0), input}};
  const std::set<std::string> only = SplitCommas(flags.strategies);
  auto programs = std::make_shared<ProgramCache>();
  std::set<std::string> fp32_tensors;
  if (precision == Precision::kFp16) {
    GLPOOL_ASSIGN_OR_RETURN(fp32_tensors, CalibratedFp32Tensors(graph, inputs, programs));
  }
  summary->kept_fp32 = fp32_tensors.size();
  for (ObjectKind kind : {ObjectKind::kTextures, ObjectKind::kBuffers, ObjectKind::kArena}) {
    ExecutorOptions options;
    options.objects = kind;
    options.precision = precision;
    options.programs = programs;
    options.fp32_tensors = fp32_tensors;
    options.strategy = "naive";
    GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<Executor> naive, Executor::Create(graph, options));
    for (const std::string& strategy : StrategyNamesFor(ObjectKindName(kind))) {
      if (strategy == "naive" || (!only.empty() && !only.count(strategy))) continue;
      options.strategy = strategy;
      GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<Executor> pooled, Executor::Create(graph, options));
      std::vector<double> pooled_ms, naive_ms;
      // One warm-up run each, then interleaved timed runs.
      GLPOOL_RETURN_IF_ERROR(TimeRun(*pooled, inputs).status());
      GLPOOL_RETURN_IF_ERROR(TimeRun(*naive, inputs).status());
      for (int r = 0; r < flags.repeat; ++r) {
        GLPOOL_ASSIGN_OR_RETURN(double a, TimeRun(*pooled, inputs));
        GLPOOL_ASSIGN_OR_RETURN(double b, TimeRun(*naive, inputs));
        pooled_ms.push_back(a);
        naive_ms.push_back(b);
      }
      const MemoryReport& m = pooled->memory();
      const double memory_ratio = double(m.pool_bytes) / double(m.naive_bytes);
      const double time_ratio = Median(pooled_ms) / Median(naive_ms);
      summary->time_ratios.push_back(time_ratio);
      if (strategy == "auto") summary->auto_memory[ObjectKindName(kind)] = memory_ratio;
      char row[512];
      snprintf(row, sizeof row, "| %s | %s | %s | %s | %.2f | %.2f | %.3f | %.1f | %.1f | %.3f |\n",
               dir.filename().c_str(), ObjectKindName(kind), strategy.c_str(), m.chosen.c_str(), m.pool_bytes / 1e6,
               m.naive_bytes / 1e6, memory_ratio, Median(pooled_ms), Median(naive_ms), time_ratio);
      md << row;
      std::cout << row << std::flush;
    }
  }
  return Status::Ok();
}

double GeometricMean(const std::vector<double>& values) {
  double log_sum = 0;
  for (double v : values) log_sum += std::log(v);
  return values.empty() ? 0.0 : std::exp(log_sum / static_cast<double>(values.size()));
}

int Main(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--models") flags.models_dir = argv[i + 1];
    else if (flag == "--out") flags.out_path = argv[i + 1];
    else if (flag == "--repeat") flags.repeat = std::max(1, std::atoi(argv[i + 1]));
    else if (flag == "--precision") flags.precision = argv[i + 1];
    else if (flag == "--strategies") flags.strategies = argv[i + 1];
    else if (flag == "--names") flags.names = argv[i + 1];
  }
  if (flags.models_dir.empty() || flags.out_path.empty()) {
    std::cerr << "usage: glpool_inference_report --models DIR --out FILE.md [--repeat N] [--precision fp32|fp16] "
                 "[--strategies S1,S2,...] [--names M1,M2,...]\n";
    return 2;
  }
  auto precision = ParsePrecision(flags.precision);
  auto context = gl::CreateContext(gl::ContextKind::kHeadless);
  if (!precision.ok() || !context.ok()) {
    std::cerr << "glpool_inference_report: "
              << (precision.ok() ? context.status() : precision.status()).ToString() << "\n";
    return 1;
  }
  auto info = gl::QueryGlInfo();
  std::ostringstream md, rows;
  md << "# Inference: pooled vs naive\n\n"
     << "Generated by `glpool_inference_report --models " << flags.models_dir << " --out " << flags.out_path
     << " --repeat " << flags.repeat << " --precision " << flags.precision
     << (flags.strategies.empty() ? "" : " --strategies " + flags.strategies)
     << (flags.names.empty() ? "" : " --names " + flags.names) << "` on "
     << (info.ok() ? info->renderer : "?") << " (" << (info.ok() ? info->version : "?") << ").\n\n"
     << "Each row times `repeat` runs of the pooled executor and of naive, interleaved, in one process; "
     << "ratios are pooled / naive (time: medians; memory: pool bytes).\n\n";
  rows << "| model | objects | strategy | chosen | pool MB | naive MB | memory ratio | ms (pooled) | ms (naive) | time ratio |\n"
       << "|---|---|---|---|---:|---:|---:|---:|---:|---:|\n";
  std::vector<fs::path> dirs;
  const std::string names = "," + flags.names + ",";
  for (const auto& entry : fs::directory_iterator(flags.models_dir)) {
    const std::string name = "," + entry.path().filename().string() + ",";
    const bool named = flags.names.empty() || names.find(name) != std::string::npos;
    if (named && fs::exists(entry.path() / "model.onnx")) dirs.push_back(entry.path());
  }
  if (dirs.empty()) {
    std::cerr << "glpool_inference_report: no model folder (with a model.onnx) in " << flags.models_dir
              << (flags.names.empty() ? "" : " named " + flags.names) << "\n";
    return 1;
  }
  std::sort(dirs.begin(), dirs.end());
  md << "## Per model\n\n"
     << "| model | rows | time ratio (geomean) | min | max | auto memory ratio textures / buffers / arena |"
     << (*precision == Precision::kFp16 ? " tensors kept fp32 |\n|---|---:|---:|---:|---:|---|---:|\n"
                                         : "\n|---|---:|---:|---:|---:|---|\n");
  for (const fs::path& dir : dirs) {
    ModelSummary summary;
    Status status = ReportModel(dir, flags, *precision, rows, &summary);
    if (!status.ok()) {
      std::cerr << dir.filename() << ": " << status.ToString() << "\n";
      return 1;
    }
    const auto& t = summary.time_ratios;
    char line[512];
    auto memory = [&](const char* kind) {
      auto it = summary.auto_memory.find(kind);
      return it == summary.auto_memory.end() ? std::string("-") : std::to_string(it->second).substr(0, 5);
    };
    snprintf(line, sizeof line, "| %s | %zu | %.3f | %.3f | %.3f | %s / %s / %s |", dir.filename().c_str(), t.size(),
             GeometricMean(t), t.empty() ? 0.0 : *std::min_element(t.begin(), t.end()),
             t.empty() ? 0.0 : *std::max_element(t.begin(), t.end()), memory("textures").c_str(),
             memory("buffers").c_str(), memory("arena").c_str());
    md << line;
    if (*precision == Precision::kFp16) md << " " << summary.kept_fp32 << " |";
    md << "\n";
  }
  md << "\n## Every row\n\n" << rows.str();
  std::ofstream out(flags.out_path);
  out << md.str();
  if (!out) {
    std::cerr << "cannot write " << flags.out_path << "\n";
    return 1;
  }
  std::cout << "wrote " << flags.out_path << "\n";
  return 0;
}

}  // namespace
}  // namespace glpool

int main(int argc, char** argv) { return glpool::Main(argc, argv); }
