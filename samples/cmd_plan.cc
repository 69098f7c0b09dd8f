// glpool plan: plan a record set (or a model's records) every way we know,
// verify every plan, and print the tables or one JSON object.
#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "planner/plan_report.h"
#include "planner/plan_report_format.h"
#include "planner/records_csv.h"
#include "samples/commands.h"
#include "samples/plan_model.h"
#include "samples/plan_textures.h"

namespace glpool {
namespace {

struct PlanFlags {
  std::string records;
  std::string save_records;  // also write the records read, as .json or .csv
  std::string input;  // positional: MODEL.onnx or records .json
  std::string strategy = "all";
  double budget_seconds = -1.0;  // unset: each planner's default (planner/budget.h)
  uint64_t alignment = 1;
  bool json = false;
  bool verify = false;
  std::string objects = "buffers";  // buffers (shared objects + arena) or textures (models only)
  PlanModelFlags model;
};

struct Planned {
  std::string label;  // "" for a records file; "unfused"/"fused" for a model
  PlanReport report;
  std::string order;  // a model's node order: "given" or "memory"
  uint64_t peak_given = 0;  // peak live bytes (offsets lower bound) in the given order
  uint64_t peak = 0;        // the same in the order planned
};

StatusOr<std::vector<Planned>> PlanAll(const PlanFlags& flags) {
  PlanReportOptions options;
  GLPOOL_RETURN_IF_ERROR(SelectStrategies(flags.strategy, &options));
  if (flags.budget_seconds != -1.0) {
    if (!(flags.budget_seconds >= 0.0) || !std::isfinite(flags.budget_seconds)) {
      return InvalidArgumentError("--budget must be a number of seconds >= 0");
    }
    options.objects.budget_seconds = flags.budget_seconds;
    options.offsets.budget_seconds = flags.budget_seconds;
  }
  if (flags.alignment == 0) return InvalidArgumentError("--alignment must be at least 1");
  options.offsets.alignment = flags.alignment;

  if (!flags.records.empty() && !flags.input.empty()) {
    return InvalidArgumentError("give either --records FILE.json or a MODEL.onnx, not both");
  }
  const std::string path = flags.records.empty() ? flags.input : flags.records;
  if (path.empty()) return InvalidArgumentError("nothing to plan: give --records FILE.json");
  std::vector<Planned> planned;
  if (flags.records.empty() && IsModelPath(path)) {
    GLPOOL_ASSIGN_OR_RETURN(std::vector<PlanModelVariant> variants,
                            LoadPlanModelVariants(path, flags.model));
    for (const PlanModelVariant& v : variants) {
      StatusOr<PlanReport> report = BuildPlanReport(v.records.buffers, options);
      if (!report.ok()) return report.status().WithContext(path + " (" + v.label + ")");
      planned.push_back({v.label, std::move(report).value(), flags.model.order, v.records.peak_given,
                         v.records.peak});
    }
    return planned;
  }
  GLPOOL_ASSIGN_OR_RETURN(RecordSet set, ReadRecordsFile(path));
  if (!flags.save_records.empty()) GLPOOL_RETURN_IF_ERROR(WriteRecordsFile(set, flags.save_records));
  StatusOr<PlanReport> report = BuildPlanReport(set, options);
  if (!report.ok()) return report.status().WithContext(path);
  planned.push_back({"", std::move(report).value(), "given", 0, 0});
  return planned;
}

// --objects textures: 2D texture plans of a model, unfused and fused.
int RunTexturePlans(const PlanFlags& flags) {
  auto fail = [](const Status& status) {
    std::cerr << "glpool plan: " << status.ToString() << "\n";
    return 1;
  };
  if (!IsModelPath(flags.input)) {
    return fail(InvalidArgumentError("--objects textures plans a MODEL.onnx (record files hold bytes only)"));
  }
  StatusOr<std::vector<PlanModelVariant>> variants = LoadPlanModelVariants(flags.input, flags.model);
  if (!variants.ok()) return fail(variants.status());
  const uint64_t bytes_per_texel = flags.model.precision == "fp16" ? 8 : 16;
  for (const PlanModelVariant& v : *variants) {
    StatusOr<TexturePlanTable> table = PlanTextures(v.label, v.records.textures_2d);
    if (!table.ok()) return fail(table.status().WithContext(flags.input + " (" + v.label + ")"));
    PrintTexturePlanTable(*table, bytes_per_texel, std::cout);
    std::cout << "\n";
  }
  return 0;
}

int RunPlan(const PlanFlags& flags) {
  if (flags.objects == "textures") return RunTexturePlans(flags);
  StatusOr<std::vector<Planned>> planned = PlanAll(flags);
  if (!planned.ok()) {
    std::cerr << "glpool plan: " << planned.status().ToString() << "\n";
    return 1;
  }
  bool verified = true;
  for (const Planned& p : *planned) verified &= p.report.AllVerified();
  if (flags.json) {
    if (planned->size() == 1 && planned->front().label.empty()) {
      std::cout << PlanReportJson(planned->front().report) << "\n";
    } else {
      // A model: {"model": str, "variants": [{"label": str, "plan": {...}}]}.
      auto quote = [](const std::string& s) {
        return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      };
      std::cout << "{\"model\": " << quote(planned->front().report.model) << ", \"variants\": [";
      for (size_t k = 0; k < planned->size(); ++k) {
        const Planned& p = (*planned)[k];
        std::cout << (k ? ", " : "") << "{\"label\": " << quote(p.label);
        if (p.order == "memory") {
          std::cout << ", \"order\": {\"name\": \"memory\", \"peak_given_bytes\": " << p.peak_given
                    << ", \"peak_bytes\": " << p.peak << "}";
        }
        std::cout << ", \"plan\": " << PlanReportJson(p.report) << "}";
      }
      std::cout << "]}\n";
    }
  } else {
    for (const Planned& p : *planned) {
      if (!p.label.empty()) std::cout << "== " << p.label << "\n";
      if (p.order == "memory") {
        std::cout << "order memory: peak live " << static_cast<double>(p.peak) / 1e6 << " MB (given order "
                  << static_cast<double>(p.peak_given) / 1e6 << " MB"
                  << (p.peak < p.peak_given ? ", reordered" : ", kept") << ")\n\n";
      }
      std::cout << PlanReportTable(p.report) << "\n";
    }
  }
  if (!verified) {
    std::cerr << "glpool plan: some plans failed verification (see the tables)\n";
    if (flags.verify) return 1;
  }
  return 0;
}

}  // namespace

void AddPlanCommand(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<PlanFlags>();
  CLI::App* cmd = app.add_subcommand(
      "plan",
      "plan intermediate-tensor memory: shared objects and one arena, every strategy, "
      "each plan verified, against naive and the lower bounds");
  cmd->add_option("--records", flags->records,
                  "usage records, JSON ({\"model\", \"tasks\", \"records\": [{\"name\", \"size\", "
                  "\"first\", \"last\"}]})");
  cmd->add_option("input", flags->input,
                  "a MODEL.onnx, a records .json, or MiniMalloc's .csv (id,lower,upper,size; "
                  "upper exclusive)");
  cmd->add_option("--save-records", flags->save_records,
                  "also write the records file read to FILE.json or FILE.csv (by extension)");
  cmd->add_option("--strategy", flags->strategy,
                  "one strategy name (shared objects and/or offsets), or all")
      ->capture_default_str();
  cmd->add_option("--budget", flags->budget_seconds,
                  "seconds AUTO (shared objects and offsets) and EXACT may spend each, 0 to 3600 "
                  "(default: AUTO 50 ms + 5 us per record, EXACT 10 s)")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--alignment", flags->alignment, "offset alignment in bytes for the arena (1 to 65536)")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->add_flag("--json", flags->json, "print one JSON object instead of the tables");
  cmd->add_option("--objects", flags->objects,
                  "buffers (shared objects and the arena) or textures (2D extents; models only)")
      ->check(CLI::IsMember({"buffers", "textures"}))
      ->capture_default_str();
  cmd->add_flag("--verify", flags->verify,
                "exit with status 1 if any plan fails verification (every plan is verified "
                "and the result shown either way)");
  AddPlanModelFlags(*cmd, flags->model);
  cmd->callback([flags, &exit_code] { exit_code = RunPlan(*flags); });
}

}  // namespace glpool
