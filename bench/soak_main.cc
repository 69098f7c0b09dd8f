// glpool_soak [--model FILE.onnx] [--runs N] [--sessions N] [--out FILE.md]
//
// A long life in one process, as an app lives it: one Session run --runs
// times, then --sessions Sessions created, run once and destroyed, one after
// another. Resident memory (VmRSS) and the GL objects glpool holds
// (glpool/diagnostics.h: created - deleted) are read at the start, at every
// tenth of each phase and at the end; flat is the goal. Progress goes to
// stderr; the report (markdown) to --out.
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "glpool/glpool.h"

namespace {

uint64_t ResidentKiB() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6));
  }
  return 0;
}

int64_t LiveGlObjects() {
  const glpool::RuntimeCounters c = glpool::GetRuntimeCounters();
  return static_cast<int64_t>(c.gl_objects_created) - static_cast<int64_t>(c.gl_objects_deleted);
}

struct Sample {
  std::string phase;
  int step = 0;
  uint64_t rss_kib = 0;
  int64_t gl_objects = 0;
  double seconds = 0;
};

int Fail(const glpool::Status& status) {
  std::fprintf(stderr, "glpool_soak: %s\n", status.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string model_path = "../shared/models/mobilenet_v3_small/model.onnx";
  std::string out_path;
  int runs = 10000, sessions = 1000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--model") model_path = value;
    else if (flag == "--runs") runs = std::stoi(value);
    else if (flag == "--sessions") sessions = std::stoi(value);
    else if (flag == "--out") out_path = value;
    else return std::fprintf(stderr, "glpool_soak: unknown flag %s\n", flag.c_str()), 2;
  }
  if (runs < 1 || sessions < 1) return std::fprintf(stderr, "glpool_soak: --runs and --sessions must be >= 1\n"), 2;
  auto context = glpool::Context::CreateHeadless();
  if (!context.ok()) return Fail(context.status());
  auto model = glpool::Model::Load(model_path);
  if (!model.ok()) return Fail(model.status());
  std::map<std::string, glpool::TensorData> inputs;
  for (const glpool::TensorInfo& input : model->inputs()) {
    inputs[input.name] = glpool::TensorData::FromFloats(
        input.shape(), std::vector<float>(static_cast<size_t>(glpool::ElementCount(input.shape())), 0.5f));
  }
  const auto start = std::chrono::steady_clock::now();
  std::vector<Sample> samples;
  auto sample = [&](const std::string& phase, int step) {
    samples.push_back({phase, step, ResidentKiB(), LiveGlObjects(),
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
    const Sample& s = samples.back();
    std::fprintf(stderr, "soak: %-8s %6d  RSS %7.1f MB  GL objects %4lld  %.0f s\n", phase.c_str(), step,
                 s.rss_kib / 1024.0, static_cast<long long>(s.gl_objects), s.seconds);
  };
  {
    auto session = glpool::Session::Create(*model, {});
    if (!session.ok()) return Fail(session.status());
    // The first run compiles and warms every cache; the soak starts after it.
    auto first = (*session)->Run(inputs);
    if (!first.ok()) return Fail(first.status());
    sample("runs", 0);
    for (int run = 1; run <= runs; ++run) {
      auto outputs = (*session)->Run(inputs);
      if (!outputs.ok()) return Fail(outputs.status().WithContext("run " + std::to_string(run)));
      if (run % std::max(1, runs / 10) == 0 || run == runs) sample("runs", run);
    }
  }
  sample("sessions", 0);
  for (int k = 1; k <= sessions; ++k) {
    {
      auto session = glpool::Session::Create(*model, {});
      if (!session.ok()) return Fail(session.status().WithContext("session " + std::to_string(k)));
      auto outputs = (*session)->Run(inputs);
      if (!outputs.ok()) return Fail(outputs.status().WithContext("session " + std::to_string(k)));
    }
    // Read once the session is gone: what it left behind.
    if (k % std::max(1, sessions / 10) == 0 || k == sessions) sample("sessions", k);
  }
  std::ostringstream report;
  report << "# Soak\n\nProduced by `build/bench/glpool_soak --model " << model_path << " --runs " << runs
         << " --sessions " << sessions << (out_path.empty() ? "" : " --out " + out_path)
         << "` (headless context, buffers, fp32, auto).\n\n"
         << "Phase `runs`: one Session run " << runs << " times after its first run. Phase `sessions`: "
         << sessions << " Sessions created, run once and destroyed in turn (read after each is destroyed). GL objects: what glpool holds "
            "(created - deleted), shared programs included while a session uses them.\n\n"
         << "| phase | step | RSS (MB) | GL objects | elapsed (s) |\n|---|---:|---:|---:|---:|\n";
  char line[400];
  for (const Sample& s : samples) {
    std::snprintf(line, sizeof line, "| %s | %d | %.1f | %lld | %.0f |\n", s.phase.c_str(), s.step,
                  s.rss_kib / 1024.0, static_cast<long long>(s.gl_objects), s.seconds);
    report << line;
  }
  const Sample& first_runs = samples.front();
  const Sample* end_runs = &samples.front();
  for (const Sample& s : samples) if (s.phase == "runs") end_runs = &s;
  const Sample& last = samples.back();
  const Sample* start_sessions = nullptr;
  const Sample* tenth_sessions = nullptr;  // after the first tenth: caches warmed
  for (const Sample& s : samples) {
    if (s.phase == "sessions" && s.step == 0) start_sessions = &s;
    if (s.phase == "sessions" && s.step > 0 && tenth_sessions == nullptr) tenth_sessions = &s;
  }
  std::snprintf(line, sizeof line,
                "\nRuns: RSS %+.1f MB, GL objects %+lld from first to last run. Sessions: RSS %+.1f MB, GL "
                "objects %+lld from before the first to after the last; RSS %+.1f MB from the first tenth on "
                "(the first sessions warm the driver's and the allocator's caches).\n",
                (static_cast<double>(end_runs->rss_kib) - first_runs.rss_kib) / 1024.0,
                static_cast<long long>(end_runs->gl_objects - first_runs.gl_objects),
                (static_cast<double>(last.rss_kib) - start_sessions->rss_kib) / 1024.0,
                static_cast<long long>(last.gl_objects - start_sessions->gl_objects),
                (static_cast<double>(last.rss_kib) - tenth_sessions->rss_kib) / 1024.0);
  report << line;
  if (out_path.empty()) {
    std::fputs(report.str().c_str(), stdout);
  } else {
    std::ofstream(out_path) << report.str();
    std::fprintf(stderr, "soak: wrote %s\n", out_path.c_str());
  }
  return 0;
}
