// glpool_startup_report [--models DIR] [--out FILE.md] [--repeat N]
//
// Start-up time (Model::Load + Session::Create + the first Run, on a fresh
// process each time) for every DIR/*/model.onnx, three ways, in one run:
//   cold    nothing cached: a fresh, empty Mesa shader cache and glpool
//           program-cache directory (glpool compiles and stores binaries)
//   warm    the same directories again: glpool restores program binaries
//   driver  the driver's shader cache warm but no glpool directory: what the
//           driver's own cache gives without glpool's
// Each measurement is a child process (this program with --child), so no
// in-memory state carries over; the median of --repeat rounds is reported.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <unistd.h>
#include <fstream>
#include <string>
#include <vector>

#include "glpool/glpool.h"

namespace fs = std::filesystem;

namespace {

int Child(const std::string& model_path, const std::string& cache_dir) {
  auto context = glpool::Context::CreateHeadless();
  if (!context.ok()) return std::fprintf(stderr, "%s\n", context.status().ToString().c_str()), 1;
  const auto context_ready = std::chrono::steady_clock::now();
  auto model = glpool::Model::Load(model_path);
  if (!model.ok()) return std::fprintf(stderr, "%s\n", model.status().ToString().c_str()), 1;
  glpool::SessionOptions options;
  options.program_cache_dir = cache_dir;
  auto session = glpool::Session::Create(*model, options);
  if (!session.ok()) return std::fprintf(stderr, "%s\n", session.status().ToString().c_str()), 1;
  std::map<std::string, glpool::TensorData> inputs;
  for (const glpool::TensorInfo& input : (*session)->inputs()) {
    inputs[input.name] = glpool::TensorData::FromFloats(
        input.shape(), std::vector<float>(static_cast<size_t>(glpool::ElementCount(input.shape())), 0.5f));
  }
  auto outputs = (*session)->Run(inputs);
  if (!outputs.ok()) return std::fprintf(stderr, "%s\n", outputs.status().ToString().c_str()), 1;
  const auto done = std::chrono::steady_clock::now();
  const glpool::RuntimeCounters counters = glpool::GetRuntimeCounters();
  // The context is the same cost every way; start-up is counted from it.
  std::printf("ms %.3f compiles %llu loads %llu\n",
              std::chrono::duration<double, std::milli>(done - context_ready).count(),
              static_cast<unsigned long long>(counters.shader_compiles),
              static_cast<unsigned long long>(counters.program_binary_loads));
  return 0;
}

struct Measurement {
  bool ok = false;
  double ms = 0;
  unsigned long long compiles = 0, loads = 0;
};

Measurement RunChild(const std::string& self, const std::string& model, const std::string& mesa_dir,
                     const std::string& cache_dir) {
  const std::string command = "MESA_SHADER_CACHE_DIR='" + mesa_dir + "' '" + self + "' --child '" + model + "' '" +
                              cache_dir + "'";
  Measurement m;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return m;
  m.ok = std::fscanf(pipe, "ms %lf compiles %llu loads %llu", &m.ms, &m.compiles, &m.loads) == 3;
  m.ok = pclose(pipe) == 0 && m.ok;
  return m;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--child") return Child(argv[2], argv[3]);
  std::string models_dir = "../shared/models", out_path;
  int repeat = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--models") models_dir = argv[i + 1];
    else if (flag == "--out") out_path = argv[i + 1];
    else if (flag == "--repeat") repeat = std::max(1, std::atoi(argv[i + 1]));
    else return std::fprintf(stderr, "unknown flag %s\n", flag.c_str()), 2;
  }
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  std::vector<fs::path> models;
  for (const auto& entry : fs::directory_iterator(models_dir)) {
    if (fs::exists(entry.path() / "model.onnx")) models.push_back(entry.path() / "model.onnx");
  }
  std::sort(models.begin(), models.end());
  if (models.empty()) return std::fprintf(stderr, "no DIR/*/model.onnx under %s\n", models_dir.c_str()), 1;

  std::string table =
      "| model | cold ms | warm ms | cold / warm | driver cache only ms | shaders compiled cold / warm | binaries loaded warm |\n"
      "|---|---:|---:|---:|---:|---:|---:|\n";
  for (const fs::path& model : models) {
    std::vector<double> cold, warm, driver;
    Measurement last_cold, last_warm;
    for (int round = 0; round < repeat; ++round) {
      const fs::path work = fs::temp_directory_path() / ("glpool_startup_" + std::to_string(getpid()));
      fs::remove_all(work);
      const std::string mesa = (work / "mesa").string(), programs = (work / "programs").string();
      fs::create_directories(mesa);  // Mesa disables its cache (and program binaries) for a missing folder
      last_cold = RunChild(self, model.string(), mesa, programs);
      last_warm = RunChild(self, model.string(), mesa, programs);
      const Measurement only_driver = RunChild(self, model.string(), mesa, "");
      fs::remove_all(work);
      if (!last_cold.ok || !last_warm.ok || !only_driver.ok) {
        return std::fprintf(stderr, "a child run failed for %s\n", model.c_str()), 1;
      }
      cold.push_back(last_cold.ms);
      warm.push_back(last_warm.ms);
      driver.push_back(only_driver.ms);
    }
    char row[512];
    std::snprintf(row, sizeof row, "| %s | %.1f | %.1f | %.2fx | %.1f | %llu / %llu | %llu |\n",
                  model.parent_path().filename().c_str(), Median(cold), Median(warm), Median(cold) / Median(warm),
                  Median(driver), last_cold.compiles, last_warm.compiles, last_warm.loads);
    table += row;
    std::fputs(row, stdout);
    std::fflush(stdout);
  }
  if (!out_path.empty()) {
    std::ofstream out(out_path);
    out << "# Start-up time: cold vs warm program cache\n\n"
        << "Time from a current context to the first result (Model::Load, Session::Create, first Run), each in a\n"
        << "fresh process, median of " << repeat << " rounds. *cold*: empty Mesa shader cache and empty glpool\n"
        << "program-cache directory; *warm*: the same directories again (glpool restores program binaries with\n"
        << "glProgramBinary); *driver cache only*: Mesa's cache warm, no glpool directory. Buffers, fp32, strategy\n"
        << "auto. Made by:\n\n"
        << "    build/bench/glpool_startup_report --models ../shared/models --out bench/reports/startup.md\n\n"
        << table;
    if (!out) return std::fprintf(stderr, "cannot write %s\n", out_path.c_str()), 1;
  }
  return 0;
}
