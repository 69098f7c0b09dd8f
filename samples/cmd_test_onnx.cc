// glpool test-onnx [--backend cpu|gpu] [--fuse] [--tolerance auto|onnx|model|R]
//                  [--strategy S] [--objects K] [--precision P] DIR...
//
// Runs ONNX backend-test cases (DIR/model.onnx + DIR/test_data_set_*/) and
// prints one line per case (failures on stderr), then "N passed, N failed,
// N unsupported". Exits 1 when a case failed or the cases cannot be run.
// After the first second, a terminal also sees "case K/N, S s: DIR" on
// stderr while a case runs.
#include <chrono>
#include <iostream>
#include <memory>

#include "glpool/context.h"
#include "glpool/onnx_cases.h"
#include "samples/commands.h"
#include "samples/run_reporting.h"

namespace glpool {
namespace {

struct TestOnnxFlags {
  std::vector<std::string> dirs;
  std::string backend = "cpu";
  std::string tolerance = "auto";
  bool fuse = false;
  std::string strategy = "auto";
  std::string objects = "buffers";
  std::string precision = "fp32";
};

int RunTestOnnx(const TestOnnxFlags& flags) {
  auto fail = [](const Status& status) {
    std::cerr << "glpool test-onnx: " << status.ToString() << "\n";
    return 1;
  };
  OnnxCaseOptions options;
  options.fuse = flags.fuse;
  options.tolerance = flags.tolerance;
  std::unique_ptr<Context> context;
  if (flags.backend == "cpu") {
    options.session.backend = Backend::kCpuReference;
  } else if (flags.backend == "gpu") {
    auto objects = ParseObjectKind(flags.objects);
    auto precision = ParsePrecision(flags.precision);
    if (!objects.ok()) return fail(objects.status());
    if (!precision.ok()) return fail(precision.status());
    auto made = Context::CreateHeadless();
    if (!made.ok()) return fail(made.status().WithContext("--backend gpu needs an OpenGL ES 3.1 context"));
    context = std::move(made).value();
    options.session.objects = *objects;
    options.session.precision = *precision;
    options.session.strategy = flags.strategy;
  } else {
    return fail(InvalidArgumentError("unknown backend '" + flags.backend + "' (expected cpu or gpu)"));
  }
  if (Status tolerance = CheckOnnxCaseTolerance(flags.tolerance); !tolerance.ok()) return fail(tolerance);
  StatusOr<std::vector<std::string>> cases = ExpandOnnxCaseDirs(flags.dirs);
  if (!cases.ok()) return fail(cases.status());
  int passed = 0, failed = 0, unsupported = 0;
  const auto start = std::chrono::steady_clock::now();
  for (size_t k = 0; k < cases->size(); ++k) {
    const std::string& dir = (*cases)[k];
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Only folders that take a while show where they are.
    if (elapsed >= 1.0) samples::ShowCaseProgress(k + 1, cases->size(), elapsed, dir);
    StatusOr<OnnxCaseResult> result = RunOnnxCase(dir, options);
    samples::ClearTerminalProgress();
    if (!result.ok()) return fail(result.status());
    ++(result->outcome == OnnxCaseOutcome::kPass   ? passed
       : result->outcome == OnnxCaseOutcome::kFail ? failed
                                                   : unsupported);
    // Failures go to stderr, so they stand out from the passes they follow.
    (result->outcome == OnnxCaseOutcome::kFail ? std::cerr : std::cout) << dir << ": " << result->summary << std::endl;
  }
  std::cout << passed << " passed, " << failed << " failed, " << unsupported << " unsupported\n";
  return failed > 0 ? 1 : 0;
}

}  // namespace

void AddTestOnnxCommand(CLI::App& app, int& exit_code) {
  CLI::App* command = app.add_subcommand("test-onnx", "Run ONNX backend-test case folders and compare outputs");
  auto flags = std::make_shared<TestOnnxFlags>();
  command->add_option("dirs", flags->dirs, "Case folders (model.onnx + test_data_set_*), or folders of them")
      ->required();
  command->add_option("--backend", flags->backend, "cpu (the CPU reference) or gpu")->capture_default_str();
  command->add_option("--tolerance", flags->tolerance,
                      "auto (test_* folders: ONNX's rtol 1e-3/atol 1e-7; others: 1e-4 x max |reference|, "
                      "on the GPU 1e-3, fp16 3e-2), onnx, model, or a number R: max error <= R x max |reference|")
      ->capture_default_str();
  command->add_flag("--fuse", flags->fuse,
                    "Run the default graph passes (BatchNorm folding, fusion) first; always on for --backend gpu");
  command->add_option("--strategy", flags->strategy, "GPU pool strategy (see `glpool plan`)")->capture_default_str();
  command->add_option("--objects", flags->objects, "GPU objects: textures, buffers or arena")->capture_default_str();
  command->add_option("--precision", flags->precision, "GPU storage precision: fp32 or fp16")->capture_default_str();
  command->callback([&exit_code, flags] { exit_code = RunTestOnnx(*flags); });
}

}  // namespace glpool
