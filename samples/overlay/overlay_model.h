// The overlay model: everything the overlay shows, as plain data built from
// a Session. The renderer only draws it and tests check it, so what a user
// sees and what CI asserts come from one place.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "glpool/session.h"

namespace glpool::overlay {

// One shared object of the pool (or the arena): one table row.
struct PoolRow {
  size_t id = 0;
  std::string pool;    // its planning unit: "default, buffers", "convs, rgba16f textures"
  bool first_of_pool = false;  // the first row of its unit (a band boundary on the map)
  std::string kind;    // "texture 2D", "texture 2D array", "buffer", "arena"
  std::string extent;  // "WxH", "WxHxD" or "N bytes"
  std::string format;  // "rgba16f", "rgba32f", "fp32", "fp16 packed"
  uint64_t bytes = 0;
  std::vector<std::string> tensors;  // names of the tensors it hosts
  // Its band on the memory map, in bytes from the top: rows stack, each as
  // tall as its bytes (an arena's tensors sit at their offsets inside).
  double y0 = 0, y1 = 0;
};

// One pooled tensor on the memory map: x = its task range (inclusive),
// y = its object's band [y0, y1) (bytes, rows stacked) or, for the arena,
// its byte range.
struct MapBox {
  size_t tensor = 0;  // index into Session::tensors()
  int64_t first_task = 0, last_task = 0;
  double y0 = 0, y1 = 0;
  uint32_t color = 0;  // ImGui packed ABGR
  std::string label;   // shown on hover
};

struct Totals {
  std::string objects, precision, strategy, chosen, memory_mode;
  uint64_t peak_live_bytes = 0;  // the most GL bytes of intermediates live at once
  size_t pools = 1;              // planning units
  uint64_t naive_bytes = 0, pool_bytes = 0, lower_bound_bytes = 0, gl_pool_bytes = 0;
  double percent_saved = 0;  // 100 * (1 - pool / naive)
  size_t pool_objects = 0, tensors = 0;
};

struct TaskTime {
  std::string label;  // "node (op)"
  double ms = 0;
};

struct OverlayModel {
  std::vector<PoolRow> rows;
  std::vector<MapBox> boxes;  // exactly one per pooled tensor
  bool arena = false;         // y is arena offsets, not stacked object bands
  double y_extent = 0;        // bytes: the pool's objects stacked, or the arena
  int64_t task_count = 0;
  Totals totals;
  std::vector<TaskTime> task_times;
  std::string task_time_source;  // how task_times were measured
  double gpu_run_ms = -1;        // the run's tasks on the GPU (timer queries); < 0 when none
  // Dynamic memory mode: live bytes after each task (the curve on the map).
  std::vector<uint64_t> live_bytes;
};

// Where the per-task and whole-run times came from.
struct Timings {
  std::vector<double> task_ms;   // Session::task_ms() of the last run
  bool task_ms_from_gpu = false;  // Session::task_ms_from_gpu()
  double gpu_run_ms = -1;        // summed Session::task_gpu_ms(), if any
};

OverlayModel BuildOverlayModel(const Session& session, const Timings& timings);

std::string FormatBytes(uint64_t bytes);  // "1.23 MB", "512 B"

}  // namespace glpool::overlay
