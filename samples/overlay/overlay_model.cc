#include "samples/overlay/overlay_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>


namespace glpool::overlay {
namespace {

// Neighbouring tensors get well-separated hues (golden-ratio steps), so
// adjacent boxes in the map stay distinguishable without a legend.
uint32_t TensorColor(size_t index) {
  const float hue = std::fmod(0.07f + 0.618034f * static_cast<float>(index), 1.0f);
  const float s = 0.65f, v = 0.92f;
  const int sector = static_cast<int>(hue * 6.0f);
  const float f = hue * 6.0f - sector;
  const float p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  float r = v, g = t, b = p;
  switch (sector % 6) {
    case 1: r = q; g = v; b = p; break;
    case 2: r = p; g = v; b = t; break;
    case 3: r = p; g = q; b = v; break;
    case 4: r = t; g = p; b = v; break;
    case 5: r = v; g = p; b = q; break;
    default: break;
  }
  auto byte = [](float c) { return static_cast<uint32_t>(std::lround(c * 255.0f)); };
  return (0xFFu << 24) | (byte(b) << 16) | (byte(g) << 8) | byte(r);
}

std::string KindName(const PoolObject& object, bool arena) {
  if (arena) return "arena";
  switch (object.storage) {
    case StorageKind::kTexture2D: return "texture 2D";
    case StorageKind::kTexture2DArray: return "texture 2D array";
    case StorageKind::kBuffer: return "buffer";
  }
  return "?";
}

}  // namespace

std::string FormatBytes(uint64_t bytes) {
  char text[32];
  if (bytes >= 1000000) {
    std::snprintf(text, sizeof(text), "%.2f MB", bytes / 1e6);
  } else if (bytes >= 1000) {
    std::snprintf(text, sizeof(text), "%.1f KB", bytes / 1e3);
  } else {
    std::snprintf(text, sizeof(text), "%llu B", static_cast<unsigned long long>(bytes));
  }
  return text;
}

OverlayModel BuildOverlayModel(const Session& executor, const Timings& timings) {
  OverlayModel model;
  const MemoryReport& memory = executor.memory();
  const auto& objects = executor.objects();
  const auto& tensors = executor.tensors();
  // y is arena offsets when the whole pool is one arena; otherwise objects
  // stack as bands (an arena among them holds its tensors at their offsets).
  model.arena = !objects.empty() && std::all_of(objects.begin(), objects.end(),
                                                 [](const PoolObject& o) { return o.arena; });
  model.task_count = static_cast<int64_t>(executor.tasks().size());

  for (size_t i = 0; i < objects.size(); ++i) {
    const PoolObject& object = objects[i];
    PoolRow row;
    row.id = i;
    row.kind = KindName(object, object.arena);
    if (object.pool < memory.pools.size()) {
      row.pool = memory.pools[object.pool].name + ", " + memory.pools[object.pool].storage;
    }
    row.first_of_pool = i == 0 || objects[i - 1].pool != object.pool;
    row.bytes = object.bytes;
    const bool texture = object.storage != StorageKind::kBuffer;
    if (texture) {
      row.format = object.half ? "rgba16f" : "rgba32f";
      // PoolObject keeps W and H; the layer count follows from the bytes.
      const uint64_t layer_bytes = object.width * object.height * (object.half ? 8 : 16);
      const uint64_t layers = layer_bytes ? object.bytes / layer_bytes : 0;
      row.extent = std::to_string(object.width) + "x" + std::to_string(object.height);
      if (object.storage == StorageKind::kTexture2DArray) row.extent += "x" + std::to_string(layers);
    } else {
      // In fp16 mode a buffer may hold half tensors and, at other times,
      // tensors kept in fp32 (integers, or out of half's range).
      size_t halves = 0;
      for (size_t t : object.tensors) halves += tensors[t].half ? 1 : 0;
      row.format = halves == object.tensors.size() && halves > 0 ? "fp16 packed"
                   : halves == 0                                 ? "fp32"
                                                                 : "fp16 packed / fp32";
      row.extent = std::to_string(object.bytes) + " bytes";
    }
    for (size_t t : object.tensors) row.tensors.push_back(tensors[t].name);
    model.rows.push_back(std::move(row));
  }

  // Shared objects stack down the map, each row as tall as its bytes, so
  // the pool's sizes are seen at a glance; the arena's y is its offsets.
  std::vector<double> row_top(objects.size() + 1, 0.0);
  for (size_t i = 0; i < objects.size(); ++i) row_top[i + 1] = row_top[i] + static_cast<double>(objects[i].bytes);
  for (size_t i = 0; i < objects.size(); ++i) {
    model.rows[i].y0 = row_top[i];
    model.rows[i].y1 = row_top[i + 1];
  }

  for (size_t i = 0; i < tensors.size(); ++i) {
    const PlacedTensor& tensor = tensors[i];
    MapBox box;
    box.tensor = i;
    box.first_task = tensor.first_task;
    box.last_task = tensor.last_task;
    if (objects[tensor.object].arena) {
      box.y0 = row_top[tensor.object] + static_cast<double>(tensor.offset);
      box.y1 = box.y0 + static_cast<double>(tensor.bytes);
    } else {
      box.y0 = row_top[tensor.object];
      box.y1 = row_top[tensor.object + 1];
    }
    box.color = TensorColor(i);
    box.label = tensor.name + "\n" + std::to_string(tensor.layout.n) + "x" + std::to_string(tensor.layout.c) + "x" +
                std::to_string(tensor.layout.h) + "x" + std::to_string(tensor.layout.w) + " (NCHW), " +
                FormatBytes(tensor.bytes) + "\ntasks " + std::to_string(tensor.first_task) + ".." +
                std::to_string(tensor.last_task) + ", object " + std::to_string(tensor.object) +
                (objects[tensor.object].arena ? ", offset " + std::to_string(tensor.offset) : std::string());
    model.boxes.push_back(std::move(box));
  }
  if (model.arena) {
    for (const auto& box : model.boxes) model.y_extent = std::max(model.y_extent, box.y1);
    model.y_extent = std::max(model.y_extent, static_cast<double>(memory.pool_bytes));
  } else {
    model.y_extent = row_top.back();
  }

  Totals& totals = model.totals;
  totals.objects = memory.objects;
  totals.precision = memory.precision;
  totals.strategy = memory.strategy;
  totals.chosen = memory.chosen;
  totals.naive_bytes = memory.naive_bytes;
  totals.pool_bytes = memory.pool_bytes;
  totals.lower_bound_bytes = memory.lower_bound_bytes;
  totals.gl_pool_bytes = memory.gl_pool_bytes;
  totals.pool_objects = memory.pool_objects;
  totals.tensors = memory.tensors;
  totals.memory_mode = memory.memory_mode;
  totals.peak_live_bytes = memory.peak_live_bytes;
  totals.pools = std::max<size_t>(memory.pools.size(), 1);
  model.live_bytes = memory.live_bytes_after_task;
  totals.percent_saved =
      memory.naive_bytes ? 100.0 * (1.0 - static_cast<double>(memory.pool_bytes) / memory.naive_bytes) : 0.0;

  const auto& tasks = executor.tasks();
  for (size_t i = 0; i < timings.task_ms.size() && i < tasks.size(); ++i) {
    // CPU-fallback tasks are marked: their time includes moving tensors.
    model.task_times.push_back(
        {tasks[i].node + " (" + tasks[i].op_type + (tasks[i].on_cpu ? ", on the CPU" : "") + ")", timings.task_ms[i]});
  }
  model.task_time_source = timings.task_ms_from_gpu ? "GPU timestamps between dispatches"
                                                    : "CPU-side: wall time around each dispatch, glFinish after it";
  model.gpu_run_ms = timings.gpu_run_ms;
  return model;
}

}  // namespace glpool::overlay
