// glpool demo [--overlay-png FILE] [--precision fp32|fp16]
//
// The first thing to run: no model file needed. A small network built in
// code through the graph API runs on the GPU with every object kind and
// every strategy; a table shows each pool against naive and the lower
// bound, every pooled run is checked bit-identical to naive, and the pool
// overlay is written to a PNG.
#include <cstdio>
#include <cstring>
#include <iostream>

#include "glpool/context.h"
#include "glpool/gpu_info.h"
#include "glpool/session.h"
#include "samples/commands.h"
#include "samples/gl_check.h"
#include "samples/overlay/demo_graph.h"
#include "samples/overlay/overlay_png.h"
#include "samples/overlay/overlay_session.h"

namespace glpool {
namespace {

struct DemoFlags {
  std::string overlay_png = "glpool_demo_overlay.png";
  std::string precision = "fp32";
};

int RunDemo(const DemoFlags& flags) {
  auto fail = [](const Status& status) {
    std::cerr << "glpool demo: " << status.ToString() << "\n";
    return 1;
  };
  auto precision = ParsePrecision(flags.precision);
  if (!precision.ok()) return fail(precision.status());
  auto context = Context::CreateHeadless();
  if (!context.ok()) return fail(context.status());
  Status loaded = samples::LoadGl();  // the overlay's own GL calls
  if (!loaded.ok()) return fail(loaded);
  auto info = QueryCurrentGlInfo();
  if (!info.ok()) return fail(info.status());
  auto built = overlay::BuildDemoNetwork();
  if (!built.ok()) return fail(built.status());
  overlay::DemoNetwork& demo = *built;
  std::cout << "glpool demo on " << info->renderer << " (" << info->version << ")\n"
            << "network: " << demo.nodes << " nodes built in code, precision " << flags.precision
            << "\n\n";
  std::printf("%-9s %-20s %-22s %10s %10s %9s %11s %8s %s\n", "objects", "strategy", "chosen", "pool B",
              "naive B", "% naive", "lower B", "objects", "output");
  bool all_identical = true;
  for (ObjectKind kind : {ObjectKind::kTextures, ObjectKind::kBuffers, ObjectKind::kArena}) {
    SessionOptions options;
    options.objects = kind;
    options.precision = *precision;
    std::vector<float> naive_output;
    for (const std::string& strategy : StrategyNames(kind)) {
      options.strategy = strategy;
      auto executor = Session::Create(demo.model, options);
      if (!executor.ok()) return fail(executor.status().WithContext(std::string(ObjectKindName(kind)) + "/" + strategy));
      auto outputs = (*executor)->Run(demo.inputs);
      if (!outputs.ok()) return fail(outputs.status());
      std::vector<float> values;
      for (const auto& [name, data] : *outputs) {
        std::vector<float> part = data.ToFloats();
        values.insert(values.end(), part.begin(), part.end());
      }
      if (strategy == "naive") naive_output = values;
      const bool identical = values.size() == naive_output.size() &&
                             std::memcmp(values.data(), naive_output.data(), values.size() * sizeof(float)) == 0;
      all_identical = all_identical && identical;
      const MemoryReport& m = (*executor)->memory();
      std::printf("%-9s %-20s %-22s %10llu %10llu %8.1f%% %11llu %8zu %s\n", ObjectKindName(kind), strategy.c_str(),
                  m.chosen.c_str(), static_cast<unsigned long long>(m.pool_bytes),
                  static_cast<unsigned long long>(m.naive_bytes), 100.0 * m.pool_bytes / m.naive_bytes,
                  static_cast<unsigned long long>(m.lower_bound_bytes), m.pool_objects,
                  identical ? "= naive" : "DIFFERS from naive");
    }
  }
  auto session = overlay::OverlaySession::Create("glpool demo", demo.model, {}, demo.inputs,
                                                 overlay::Selection{ObjectKind::kBuffers, *precision, "auto"});
  if (!session.ok()) return fail(session.status());
  auto png = overlay::RenderOverlayPng(**session, flags.overlay_png);
  if (!png.ok()) return fail(png.status());
  std::cout << "\noverlay PNG: " << png->path << " (" << png->width << "x" << png->height << ", "
            << png->frame.boxes_drawn << " tensors on the memory map)\n";
  if (!all_identical) return fail(InternalError("a pooled plan changed the network's output"));
  return 0;
}

}  // namespace

void AddDemoCommand(CLI::App& app, int& exit_code) {
  CLI::App* command = app.add_subcommand("demo", "Run a network built in code with every strategy (no model file)");
  auto flags = std::make_shared<DemoFlags>();
  command->add_option("--overlay-png", flags->overlay_png, "Where to write the overlay PNG")->capture_default_str();
  command->add_option("--precision", flags->precision, "fp32 or fp16")->capture_default_str();
  command->callback([&exit_code, flags] { exit_code = RunDemo(*flags); });
}

}  // namespace glpool
