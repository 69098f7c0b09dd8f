// The memory planner on its own, as `glpool plan` shows it: the usage
// records of a model (or of a records JSON), planned with every strategy,
// each plan checked by the planner's independent verifier, against naive
// and the lower bounds — reported as the command prints it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "glpool/export.h"
#include "glpool/options.h"
#include "glpool/status.h"
#include "glpool/tensor.h"

namespace glpool {

struct PlanningOptions {
  // One strategy name (shared objects and/or offsets), or "all".
  std::string strategy = "all";
  // Seconds AUTO (shared objects and offsets) and EXACT may each spend
  // (>= 0); -1: each planner's default (AUTO 45 ms + 4.5 us per record,
  // EXACT 10 s).
  double budget_seconds = -1.0;
  uint64_t alignment = 1;        // arena offset alignment in bytes (>= 1)
  // > 0: when AUTO's shared-objects plan is not already proven optimal, a
  // certificate search of this many CPU seconds proves it optimal or states
  // its gap to a proven floor (shown in the AUTO row).
  double certify_seconds = 0.0;
  // Records files only: also write the records read to this .json or .csv.
  std::string save_records;
  // Models only.
  bool random_weights = false;
  std::map<std::string, Shape> input_shapes;
  Precision precision = Precision::kFp32;  // bytes per channel of buffer records
  // Models only: plan the nodes in a topological order with a lower peak of
  // live bytes when one is found (bounded search; the given order is kept
  // otherwise); the report shows the peak before and after.
  bool memory_order = false;
  // Models only: the memory options of SessionOptions that change the
  // records (graph inputs/outputs planned with the intermediates, kept
  // intermediates living to the end of the run).
  bool inputs_in_pool = false;
  bool outputs_in_pool = false;
  std::vector<std::string> keep;
  bool keep_all = false;
};

struct PlanningReport {
  std::string text;           // the tables, or one JSON object
  bool all_verified = false;  // every plan passed the verifier
};

// Whether `path` names a model (.onnx) rather than a records JSON.
GLPOOL_API bool IsModelFile(const std::string& path);

// Shared objects and the arena for `path`: a model (planned unfused and
// fused, "== unfused"/"== fused" sections) or, with `records_file`, a records
// file: JSON ({"model", "tasks", "records": [{"name", "size", "first",
// "last"}]}) or MiniMalloc's CSV (id,lower,upper,size; upper exclusive).
GLPOOL_API StatusOr<PlanningReport> PlanBuffers(const std::string& path, bool records_file,
                                                const PlanningOptions& options, bool json);

// 2D texture plans of a model (PHWC4 extents), every texture strategy,
// unfused and fused.
GLPOOL_API StatusOr<std::string> PlanTextures(const std::string& model_path, const PlanningOptions& options);

}  // namespace glpool
