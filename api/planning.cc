#include <set>

#include "glpool/planning.h"

#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "api/plan_model.h"
#include "api/plan_textures.h"
#include "planner/plan_report.h"
#include "planner/plan_report_format.h"
#include "planner/records_csv.h"

namespace glpool {
namespace {

struct Planned {
  std::string label;  // "" for a records file; "unfused"/"fused" for a model
  PlanReport report;
  bool memory_order = false;  // a model planned in a memory-aware node order
  uint64_t peak_given = 0;    // peak live bytes (offsets lower bound) in the given order
  uint64_t peak = 0;          // the same in the order planned
};

PlanModelFlags ModelFlags(const PlanningOptions& options) {
  PlanModelFlags flags;
  flags.random_weights = options.random_weights;
  flags.input_shapes = options.input_shapes;
  flags.precision = PrecisionName(options.precision);
  flags.memory_order = options.memory_order;
  flags.compile.inputs_in_pool = options.inputs_in_pool;
  flags.compile.outputs_in_pool = options.outputs_in_pool;
  flags.compile.keep = std::set<std::string>(options.keep.begin(), options.keep.end());
  flags.compile.keep_all = options.keep_all;
  return flags;
}

StatusOr<std::vector<Planned>> PlanAll(const std::string& path, bool records_file, const PlanningOptions& planning) {
  PlanReportOptions options;
  GLPOOL_RETURN_IF_ERROR(SelectStrategies(planning.strategy, &options));
  if (planning.budget_seconds != -1.0) {
    if (!(planning.budget_seconds >= 0.0) || !std::isfinite(planning.budget_seconds)) {
      return InvalidArgumentError("--budget must be a number of seconds >= 0");
    }
    options.objects.budget_seconds = planning.budget_seconds;
    options.offsets.budget_seconds = planning.budget_seconds;
  }
  if (!(planning.certify_seconds >= 0.0) || !std::isfinite(planning.certify_seconds)) {
    return InvalidArgumentError("--certify must be a number of seconds >= 0");
  }
  options.certify_seconds = planning.certify_seconds;
  if (planning.alignment == 0) return InvalidArgumentError("--alignment must be at least 1");
  options.offsets.alignment = planning.alignment;
  if (path.empty()) return InvalidArgumentError("nothing to plan: give --records FILE.json");
  std::vector<Planned> planned;
  if (!records_file && IsModelPath(path)) {
    GLPOOL_ASSIGN_OR_RETURN(std::vector<PlanModelVariant> variants, LoadPlanModelVariants(path, ModelFlags(planning)));
    for (const PlanModelVariant& v : variants) {
      StatusOr<PlanReport> report = BuildPlanReport(v.records.buffers, options);
      if (!report.ok()) return report.status().WithContext(path + " (" + v.label + ")");
      planned.push_back({v.label, std::move(report).value(), planning.memory_order, v.records.peak_given,
                         v.records.peak});
    }
    return planned;
  }
  GLPOOL_ASSIGN_OR_RETURN(RecordSet set, ReadRecordsFile(path));
  if (!planning.save_records.empty()) GLPOOL_RETURN_IF_ERROR(WriteRecordsFile(set, planning.save_records));
  StatusOr<PlanReport> report = BuildPlanReport(set, options);
  if (!report.ok()) return report.status().WithContext(path);
  planned.push_back({"", std::move(report).value(), false, 0, 0});
  return planned;
}

}  // namespace

bool IsModelFile(const std::string& path) { return IsModelPath(path); }

StatusOr<PlanningReport> PlanBuffers(const std::string& path, bool records_file, const PlanningOptions& options,
                                     bool json) {
  GLPOOL_ASSIGN_OR_RETURN(std::vector<Planned> planned, PlanAll(path, records_file, options));
  PlanningReport result;
  result.all_verified = true;
  for (const Planned& p : planned) result.all_verified &= p.report.AllVerified();
  std::ostringstream out;
  if (json) {
    if (planned.size() == 1 && planned.front().label.empty()) {
      out << PlanReportJson(planned.front().report) << "\n";
    } else {
      // A model: {"model": str, "variants": [{"label": str, "plan": {...}}]}.
      auto quote = [](const std::string& s) {
        return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      };
      out << "{\"model\": " << quote(planned.front().report.model) << ", \"variants\": [";
      for (size_t k = 0; k < planned.size(); ++k) {
        const Planned& p = planned[k];
        out << (k ? ", " : "") << "{\"label\": " << quote(p.label);
        if (p.memory_order) {
          out << ", \"order\": {\"name\": \"memory\", \"peak_given_bytes\": " << p.peak_given
              << ", \"peak_bytes\": " << p.peak << "}";
        }
        out << ", \"plan\": " << PlanReportJson(p.report) << "}";
      }
      out << "]}\n";
    }
  } else {
    for (const Planned& p : planned) {
      if (!p.label.empty()) out << "== " << p.label << "\n";
      if (p.memory_order) {
        out << std::fixed << std::setprecision(2) << "order memory: peak live " << static_cast<double>(p.peak) / 1e6
            << " MB (given order " << static_cast<double>(p.peak_given) / 1e6 << " MB"
            << (p.peak < p.peak_given ? ", reordered" : ", kept") << ")\n\n";
        out.unsetf(std::ios::floatfield);
      }
      out << PlanReportTable(p.report) << "\n";
    }
  }
  result.text = out.str();
  return result;
}

StatusOr<std::string> PlanTextures(const std::string& model_path, const PlanningOptions& options) {
  if (!IsModelPath(model_path)) {
    return InvalidArgumentError("--objects textures plans a MODEL.onnx (record files hold bytes only)");
  }
  GLPOOL_ASSIGN_OR_RETURN(std::vector<PlanModelVariant> variants, LoadPlanModelVariants(model_path, ModelFlags(options)));
  const uint64_t bytes_per_texel = options.precision == Precision::kFp16 ? 8 : 16;
  std::ostringstream out;
  for (const PlanModelVariant& v : variants) {
    StatusOr<TexturePlanTable> table = PlanTextures(v.label, v.records.textures_2d);
    if (!table.ok()) return table.status().WithContext(model_path + " (" + v.label + ")");
    PrintTexturePlanTable(*table, bytes_per_texel, out);
    out << "\n";
  }
  return out.str();
}

}  // namespace glpool
