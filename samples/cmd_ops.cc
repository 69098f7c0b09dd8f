// glpool ops [--json]: every ONNX op glpool supports, from its registries
// (glpool/ops.h): opset range, GPU kernel or CPU-only (the fallback runs
// it), fusion, folding at import, and what the GPU kernel leaves to the CPU.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "glpool/ops.h"
#include "samples/commands.h"

namespace glpool {
namespace {

std::string Join(const std::vector<int>& values) {
  std::string text;
  for (int v : values) text += (text.empty() ? "" : ",") + std::to_string(v);
  return text;
}

std::string OpsetRange(const OnnxOpInfo& op) {
  return std::to_string(op.since_opset) + "-" + std::to_string(op.until_opset);
}

nlohmann::json OpsJson(const std::vector<OnnxOpInfo>& ops) {
  nlohmann::json report = {{"opsets", {MinOnnxOpset(), MaxOnnxOpset()}},
                           {"fusable_activations", FusableActivations()},
                           {"ops", nlohmann::json::array()}};
  for (const OnnxOpInfo& op : ops) {
    report["ops"].push_back({{"name", op.name},
                             {"since_opset", op.since_opset},
                             {"until_opset", op.until_opset},
                             {"gpu_kernel", op.gpu_kernel},
                             {"gpu_limits", op.gpu_limits},
                             {"gpu_lowering", op.gpu_lowering},
                             {"compile_time_inputs", op.compile_time_inputs},
                             {"takes_fused_activation", op.takes_fused_activation},
                             {"fusable_activation", op.fusable_activation},
                             {"folded_at_import", op.folded_at_import},
                             {"wide_float_inputs", op.wide_float_inputs}});
  }
  return report;
}

void PrintTable(const std::vector<OnnxOpInfo>& ops) {
  size_t gpu = 0;
  for (const OnnxOpInfo& op : ops) gpu += op.gpu_kernel ? 1 : 0;
  std::cout << ops.size() << " ONNX ops (default domain, model opsets " << MinOnnxOpset() << " to " << MaxOnnxOpset()
            << "): " << gpu << " with a GPU kernel, " << ops.size() - gpu
            << " CPU-only (run by the per-node CPU fallback in GPU sessions)\n";
  std::cout << "fusable activations (into ops marked +act): ";
  const std::vector<std::string> activations = FusableActivations();
  for (size_t i = 0; i < activations.size(); ++i) std::cout << (i ? ", " : "") << activations[i];
  std::cout << "; also written out: HardSwish as x*HardSigmoid(x) or x*Clip(x+3,0,6)/6, Swish (SiLU) as "
               "x*Sigmoid(x)\n\n";
  std::cout << std::left << std::setw(24) << "op" << std::setw(8) << "opsets" << std::setw(5) << "run"
            << "notes\n";
  for (const OnnxOpInfo& op : ops) {
    std::string notes;
    auto add = [&](const std::string& note) { notes += (notes.empty() ? "" : "; ") + note; };
    if (op.takes_fused_activation) add("+act");
    if (op.fusable_activation) add("fusable");
    if (op.folded_at_import) add("folds at import");
    if (!op.compile_time_inputs.empty()) add((op.compile_time_inputs.size() == 1 ? "input " : "inputs ") + Join(op.compile_time_inputs) + " known at compile time");
    if (op.wide_float_inputs) add("fp16/fp64 inputs");
    if (!op.gpu_limits.empty()) add("GPU: " + op.gpu_limits);
    if (!op.gpu_lowering.empty()) add("GPU: " + op.gpu_lowering);
    std::cout << std::setw(24) << op.name << std::setw(8) << OpsetRange(op) << std::setw(5)
              << (op.gpu_kernel ? "gpu" : "cpu") << notes << "\n";
  }
}

}  // namespace

void AddOpsCommand(CLI::App& app, int& exit_code) {
  CLI::App* command = app.add_subcommand("ops", "List every supported ONNX op: opsets, GPU or CPU-only, fusion, limits");
  auto json = std::make_shared<bool>(false);
  command->add_flag("--json", *json, "Print the list as JSON");
  command->callback([json, &exit_code] {
    const std::vector<OnnxOpInfo> ops = SupportedOnnxOps();
    if (*json) {
      std::cout << OpsJson(ops).dump(2) << "\n";
    } else {
      PrintTable(ops);
    }
    exit_code = 0;
  });
}

}  // namespace glpool
