// glpool plan: plan a record set (or a model's records) every way we know,
// verify every plan, and print the tables or one JSON object.
#include <iostream>
#include <memory>

#include "glpool/planning.h"
#include "samples/commands.h"
#include "samples/record_flags.h"
#include "samples/model_loading.h"

namespace glpool {
namespace {

struct PlanFlags {
  std::string records;
  std::string save_records;  // also write the records read, as .json or .csv
  std::string input;  // positional: MODEL.onnx or records .json
  std::string strategy = "all";
  double budget_seconds = -1.0;  // unset: each planner's default (planner/budget.h)
  double certify_seconds = 0.0;  // 0: no certificate search
  uint64_t alignment = 1;
  bool json = false;
  bool verify = false;
  std::string objects = "buffers";  // buffers (shared objects + arena) or textures (models only)
  bool random_weights = false;
  std::vector<std::string> input_shapes;  // NAME=1x3x640x640
  std::string precision = "fp32";
  std::string order = "given";  // given | memory
  samples::RecordShapeFlags record_shape;  // models: inputs/outputs in the pool, kept intermediates
};

int RunPlan(const PlanFlags& flags) {
  auto fail = [](const Status& status) {
    std::cerr << "glpool plan: " << status.ToString() << "\n";
    return 1;
  };
  PlanningOptions options;
  options.strategy = flags.strategy;
  options.budget_seconds = flags.budget_seconds;
  options.certify_seconds = flags.certify_seconds;
  options.alignment = flags.alignment;
  options.save_records = flags.save_records;
  options.random_weights = flags.random_weights;
  options.precision = flags.precision == "fp16" ? Precision::kFp16 : Precision::kFp32;
  options.memory_order = flags.order == "memory";
  options.inputs_in_pool = flags.record_shape.inputs_in_pool;
  options.outputs_in_pool = flags.record_shape.outputs_in_pool;
  options.keep = flags.record_shape.keep;
  options.keep_all = flags.record_shape.keep_all;
  ModelLoadFlags shape_flags;
  shape_flags.input_shapes = flags.input_shapes;
  auto shapes = InputShapesFromFlags(shape_flags);
  if (!shapes.ok()) return fail(shapes.status());
  options.input_shapes = *shapes;
  if (flags.objects == "textures") {
    StatusOr<std::string> tables = PlanTextures(flags.input, options);
    if (!tables.ok()) return fail(tables.status());
    std::cout << *tables;
    return 0;
  }
  if (!flags.records.empty() && !flags.input.empty()) {
    return fail(InvalidArgumentError("give either --records FILE.json or a MODEL.onnx, not both"));
  }
  const bool records_file = !flags.records.empty();
  StatusOr<PlanningReport> report = PlanBuffers(records_file ? flags.records : flags.input, records_file, options,
                                                flags.json);
  if (!report.ok()) return fail(report.status());
  std::cout << report->text;
  if (!report->all_verified) {
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
                  "CPU seconds AUTO (shared objects and offsets), PEAK_FIRST and EXACT may spend "
                  "each, 0 to 3600 (default: AUTO and PEAK_FIRST 45 ms + 4.5 us per record, "
                  "EXACT 10 s)")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--certify", flags->certify_seconds,
                  "CPU seconds, 0 to 3600, for a search that proves AUTO's shared-objects plan "
                  "optimal or states its gap to a proven floor (when AUTO has not proven it)")
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
  cmd->add_flag("--random-weights", flags->random_weights,
                "fill weights whose external data file is missing (graph-only models) deterministically");
  cmd->add_option("--input-shape", flags->input_shapes, "fix a dynamic input shape: NAME=1x3x640x640 (repeatable)");
  cmd->add_option("--order", flags->order,
                  "node order of a model: given (the model's), or memory (a topological order with a lower "
                  "peak of live bytes when one is found)")
      ->check(CLI::IsMember({"given", "memory"}))
      ->capture_default_str();
  samples::AddRecordShapeFlags(*cmd, flags->record_shape);  // models only
  cmd->add_option("--precision", flags->precision, "bytes per channel of buffer/arena records")
      ->check(CLI::IsMember({"fp32", "fp16"}));
  cmd->callback([flags, &exit_code] { exit_code = RunPlan(*flags); });
}

}  // namespace glpool
