#include "samples/run_reporting.h"

#include <unistd.h>

#include <cstdio>
#include <iomanip>
#include <ostream>

namespace glpool::samples {
namespace {

bool g_progress_shown = false;

}  // namespace

std::function<void(const RunProgress&)> TerminalProgress(bool enabled, const int* run, int runs) {
  if (!enabled || isatty(STDERR_FILENO) == 0) return nullptr;
  return [run, runs](const RunProgress& progress) {
    const double percent = progress.tasks_total ? 100.0 * progress.tasks_done / progress.tasks_total : 100.0;
    std::fprintf(stderr, "\r\033[Krun %d/%d: task %llu/%llu (%.0f%%), %.1f s", *run, runs,
                 static_cast<unsigned long long>(progress.tasks_done),
                 static_cast<unsigned long long>(progress.tasks_total), percent, progress.elapsed_ms / 1000.0);
    std::fflush(stderr);
    g_progress_shown = true;
  };
}

void ShowCaseProgress(size_t case_number, size_t cases, double elapsed_s, const std::string& name) {
  if (isatty(STDERR_FILENO) == 0) return;
  std::fprintf(stderr, "\r\033[Kcase %zu/%zu, %.1f s: %s", case_number, cases, elapsed_s, name.c_str());
  std::fflush(stderr);
  g_progress_shown = true;
}

void ClearTerminalProgress() {
  if (!g_progress_shown) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  g_progress_shown = false;
}

nlohmann::json StartupJson(const StartupReport& s, double load_ms) {
  return {{"load_ms", load_ms},
          {"import_ms", s.import_ms},
          {"order_ms", s.order_ms},
          {"calibration_ms", s.calibration_ms},
          {"calibration_runs", s.calibration_runs},
          {"fp16_half_error", s.fp16_half_error},
          {"fp16_error", s.fp16_error},
          {"tasks_ms", s.tasks_ms},
          {"plan_ms", s.plan_ms},
          {"objects_ms", s.objects_ms},
          {"upload_ms", s.upload_ms},
          {"programs_ms", s.programs_ms},
          {"warm_ms", s.warm_ms},
          {"shaders_compiled", s.shaders_compiled},
          {"programs_loaded", s.programs_loaded},
          {"cpu_spin", s.cpu_spin}};
}

void PrintStartup(const nlohmann::json& s, std::ostream& out) {
  const std::pair<const char*, const char*> steps[] = {
      {"load_ms", "read the model file"},          {"import_ms", "import at this shape, graph passes"},
      {"order_ms", "memory node order search"},    {"calibration_ms", "fp16 calibration"},
      {"tasks_ms", "kernel plans per node"},       {"plan_ms", "pool plan (verified)"},
      {"objects_ms", "pool and external GL objects"}, {"upload_ms", "constants and weights uploaded"},
      {"programs_ms", "shaders"},                  {"warm_ms", "programs warmed (one work group each)"}};
  double total = 0;
  for (const auto& [key, what] : steps) total += s[key].get<double>();
  out << "startup:  " << std::fixed << std::setprecision(0) << total << " ms before the first run\n";
  for (const auto& [key, what] : steps) {
    const double ms = s[key].get<double>();
    if (ms < 0.5) continue;
    out << "          " << std::setw(6) << ms << " ms  " << what;
    if (std::string(key) == "programs_ms") {
      out << " (" << s["shaders_compiled"].get<uint64_t>() << " compiled, " << s["programs_loaded"].get<uint64_t>()
          << " loaded from the program cache)";
    }
    if (std::string(key) == "calibration_ms") {
      out << " (an fp32 run and " << s["calibration_runs"].get<uint64_t>() << " fp16 probe runs)";
    }
    out << "\n";
  }
}

}  // namespace glpool::samples
