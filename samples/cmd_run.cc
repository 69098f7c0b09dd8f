// glpool run MODEL [--input FILE.pb|IMAGE [--resize M] [--mean R,G,B] [--std R,G,B] [--channels rgb|bgr]]
//                  [--labels FILE] [--strategy S] [--objects K]
//                  [--precision P [--fp16-tolerance F]] [--order given|memory] [--repeat N] [--json] [--backend gpu|cpu]
//                  [--overlay [--frames N]] [--overlay-png FILE] [--profile N]
//                  [--memory-mode pooled|naive|reuse|dynamic] [--inputs-in-pool] [--outputs-in-pool]
//                  [--keep NAME]... [--keep-all] [--dump NAME=FILE.pb]... [--cpu-spin auto|on|off] [--winograd on|off]
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <nlohmann/json.hpp>

#include "glpool/gpu_info.h"
#include "glpool/session.h"
#include "samples/commands.h"
#include "samples/image_flags.h"
#include "samples/mask_png.h"
#include "samples/model_input.h"
#include "samples/model_loading.h"
#include "samples/overlay/overlay_command.h"
#include "samples/partition_report.h"
#include "samples/pools_json.h"
#include "samples/process_memory.h"
#include "samples/record_flags.h"
#include "samples/run_reporting.h"
#include "samples/overlay/overlay_session.h"
#include "samples/sample_context.h"

namespace glpool {
namespace {

struct RunFlags {
  std::string model;
  std::string input;
  std::string strategy = "auto";
  std::string objects = "buffers";
  std::string precision = "fp32";
  double fp16_tolerance = kDefaultFp16Tolerance;
  std::string order = "given";  // node order on the GPU: given | memory
  std::string backend = "gpu";
  std::string context = "headless";
  int repeat = 1;
  uint64_t memory_budget = 0;  // bytes for the pool of intermediates; 0: none
  bool json = false;
  ModelLoadFlags load;
  std::string mask_png;      // write a mask-shaped output as a grayscale PNG
  bool overlay = false;      // show the overlay in a window
  std::string overlay_png;   // render the overlay off-screen to this PNG
  int frames = 0;            // --overlay: close after N frames (0: when closed)
  int profile = 0;           // list the N slowest tasks of the last run
  bool no_cpu_fallback = false;
  ImageFlags image;          // how an --input image becomes the tensor
  std::string labels;        // one class name per line, for classifier outputs
  std::string memory_mode = "pooled";
  std::string cpu_spin = "off";
  std::string winograd = "on";
  samples::RecordShapeFlags record_shape;  // inputs/outputs in the pool, kept intermediates
  std::vector<std::string> dump;  // NAME=FILE.pb: write a tensor after the last run
  bool list_tensors = false;      // name every pooled tensor (what --keep takes)
  std::string pools;              // named pools, JSON (samples/pools_json.h)
  std::string program_cache;      // directory for linked program binaries
};

// --dump NAME=FILE.pb: each tensor read after the last run and saved.
Status DumpTensors(const Session& session, const std::vector<std::string>& dumps, nlohmann::json* report) {
  for (const std::string& dump : dumps) {
    const size_t equals = dump.rfind('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == dump.size()) {
      return InvalidArgumentError("--dump '" + dump + "': expected NAME=FILE.pb");
    }
    const std::string name = dump.substr(0, equals), path = dump.substr(equals + 1);
    GLPOOL_ASSIGN_OR_RETURN(TensorData data, session.ReadTensor(name));
    GLPOOL_TRY_CONTEXT(SaveTensorFile(data, name, path), "--dump");
    (*report)["dumped"].push_back({{"tensor", name}, {"file", path}, {"shape", ShapeToString(data.shape)}});
  }
  return Status::Ok();
}

// The `count` slowest tasks of the session's last timed run, slowest first,
// with their share of the run's summed task time.
nlohmann::json SlowestTasks(const Session& session, int count) {
  const std::vector<double>& ms = session.task_ms();
  const std::vector<double>& gpu_ms = session.task_gpu_ms();
  double total = 0;
  for (double t : ms) total += t;
  std::vector<size_t> order(ms.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ms[a] > ms[b]; });
  nlohmann::json rows = nlohmann::json::array();
  for (size_t k = 0; k < order.size() && k < static_cast<size_t>(count); ++k) {
    const TaskInfo& task = session.tasks()[order[k]];
    rows.push_back({{"task", order[k]}, {"node", task.node}, {"op", task.op_type}, {"shader", task.shader},
                    {"ms", ms[order[k]]}, {"percent", total > 0 ? 100.0 * ms[order[k]] / total : 0.0}});
    if (order[k] < gpu_ms.size() && gpu_ms[order[k]] >= 0) rows.back()["gpu_ms"] = gpu_ms[order[k]];
  }
  return rows;
}

nlohmann::json OutputSummary(const std::string& name, const TensorData& data,
                             const std::vector<std::string>& labels) {
  const std::vector<float> values = data.ToFloats();
  nlohmann::json summary = {{"name", name}, {"shape", ShapeToString(data.shape)}};
  if (values.empty()) return summary;
  double sum = 0;
  for (float v : values) sum += v;
  summary["min"] = *std::min_element(values.begin(), values.end());
  summary["max"] = *std::max_element(values.begin(), values.end());
  summary["mean"] = sum / static_cast<double>(values.size());
  // Classifier-shaped outputs (1 x K) get their top 5.
  if (data.shape.size() == 2 && data.shape[0] == 1 && data.shape[1] > 5) {
    std::vector<size_t> order(values.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::partial_sort(order.begin(), order.begin() + 5, order.end(),
                      [&](size_t a, size_t b) { return values[a] > values[b]; });
    for (size_t k = 0; k < 5; ++k) {
      summary["top5"].push_back({{"index", order[k]}, {"score", values[order[k]]}});
      if (order[k] < labels.size()) summary["top5"].back()["label"] = labels[order[k]];
    }
    // A labels file one line off (ImageNet's 1001 with "background" for a
    // 1000-class model) names every class wrongly without a sign: say so.
    if (!labels.empty() && labels.size() != values.size()) {
      summary["labels_warning"] = "the labels file has " + std::to_string(labels.size()) + " lines for " +
                                  std::to_string(values.size()) + " classes: names may be shifted";
    }
  }
  return summary;
}

// A fraction as a percentage with two decimals: 0.0123 -> "1.23%".
std::string Percent(double fraction) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(2) << 100.0 * fraction << "%";
  return text.str();
}

void PrintHuman(const nlohmann::json& report) {
  std::cout << "model:    " << report["model"].get<std::string>() << " (" << report["backend"].get<std::string>()
            << ")\n";
  for (const auto& output : report["outputs"]) {
    std::cout << "output:   " << output["name"].get<std::string>() << " " << output["shape"].get<std::string>();
    if (output.contains("min")) {
      std::cout << "  min " << output["min"].get<float>() << "  max " << output["max"].get<float>() << "  mean "
                << output["mean"].get<double>();
    }
    std::cout << "\n";
    if (output.contains("labels_warning")) {
      std::cerr << "glpool run: output " << output["name"].get<std::string>() << ": "
                << output["labels_warning"].get<std::string>() << "\n";
    }
    if (output.contains("top5")) {
      for (const auto& entry : output["top5"]) {
        std::cout << "          class " << entry["index"].get<size_t>();
        if (entry.contains("label")) std::cout << " (" << entry["label"].get<std::string>() << ")";
        std::cout << "  score " << entry["score"].get<float>() << "\n";
      }
    }
  }
  if (report.contains("memory")) {
    const auto& m = report["memory"];
    const double naive = m["naive_bytes"].get<double>(), pool = m["pool_bytes"].get<double>();
    const double bound = m["lower_bound_bytes"].get<double>();
    std::cout << std::fixed << std::setprecision(2) << "memory:   " << m["objects"].get<std::string>() << ", "
              << m["precision"].get<std::string>() << ", strategy " << m["strategy"].get<std::string>() << " -> "
              << m["chosen"].get<std::string>() << ", " << m["order"].get<std::string>() << " node order\n"
              << "          " << m["tensors"].get<size_t>() << " pooled tensors in " << m["pool_objects"].get<size_t>()
              << " objects" << (m["buffer_fallbacks"].get<size_t>() ? " (" + std::to_string(m["buffer_fallbacks"].get<size_t>()) + " too large for a texture, in buffers)" : "")
              << "\n          naive " << naive / 1e6 << " MB, pool " << pool / 1e6 << " MB ("
              << (naive > 0 ? 100.0 * pool / naive : 0.0) << "% of naive), lower bound " << bound / 1e6 << " MB ("
              << (bound > 0 ? pool / bound : 1.0) << "x)\n"
              << "          GL bytes allocated for the pool: " << m["gl_pool_bytes"].get<uint64_t>()
              << ", external (inputs, outputs, weights): " << m["external_bytes"].get<uint64_t>() / 1e6 << " MB\n";
    if (m.contains("pools") && m["pools"].size() > 1) {
      for (const auto& p : m["pools"]) {
        std::cout << "          pool " << p["name"].get<std::string>() << " (" << p["storage"].get<std::string>()
                  << ", " << p["strategy"].get<std::string>() << " -> " << p["chosen"].get<std::string>()
                  << "): " << p["tensors"].get<size_t>() << " tensors in " << p["objects"].get<size_t>()
                  << " objects, " << p["pool_bytes"].get<uint64_t>() / 1e6 << " MB (naive "
                  << p["naive_bytes"].get<uint64_t>() / 1e6 << " MB, lower bound "
                  << p["lower_bound_bytes"].get<uint64_t>() / 1e6 << " MB)\n";
      }
    }
    std::cout << "          memory mode " << m["memory_mode"].get<std::string>() << ": GL bytes of the pool live at "
              << "once, at most " << m["peak_live_bytes"].get<uint64_t>() / 1e6 << " MB";
    if (m["memory_mode"] == "dynamic") {
      std::cout << " (" << m["objects_made_per_run"].get<uint64_t>() << " objects made and deleted per run)";
    }
    std::cout << "\n";
    if (m["pooled_inputs"].get<size_t>() + m["pooled_outputs"].get<size_t>() + m["kept_tensors"].get<size_t>() > 0) {
      std::cout << "          in the pool: " << m["pooled_inputs"].get<size_t>() << " graph inputs, "
                << m["pooled_outputs"].get<size_t>() << " graph outputs; " << m["kept_tensors"].get<size_t>()
                << " intermediates kept\n";
    }
    std::cout << "          process resident memory " << m["rss_bytes"].get<uint64_t>() / 1e6 << " MB (peak "
              << m["peak_rss_bytes"].get<uint64_t>() / 1e6 << " MB)";
    if (m.contains("device_free_kib")) {
      std::cout << ", device free " << m["device_free_kib"].get<int64_t>() / 1024.0 << " MiB ("
                << m["device_memory_source"].get<std::string>() << ")";
    }
    std::cout << "\n";
    const size_t integers = m["fp32_integer_tensors"].get<size_t>(), ranged = m["fp32_range_tensors"].get<size_t>();
    const size_t logits = m["fp32_logit_tensors"].get<size_t>();
    const size_t accuracy = m["fp32_accuracy_tensors"].get<size_t>();
    if (integers + ranged + logits + accuracy > 0) {
      std::cout << "          kept in fp32: " << integers << " integer/bool tensors, " << ranged
                << " float tensors whose calibrated range half cannot hold, " << logits << " logits of heads, "
                << accuracy << " tensors of the first nodes for the outputs' accuracy\n";
    }
    if (report.contains("fp16_calibration")) {
      const auto& c = report["fp16_calibration"];
      std::cout << "          fp16 outputs vs fp32 on the calibration inputs: "
                << Percent(c["half_error"].get<double>()) << " of max |output| all half, "
                << Percent(c["error"].get<double>()) << " as stored (tolerance "
                << Percent(c["tolerance"].get<double>()) << ")\n";
    }
  }
  if (report.contains("pooled_tensors")) {
    std::cout << "tensors:  (pooled, in order of first task: name, N x C x H x W, bytes, tasks, object)\n";
    for (const auto& t : report["pooled_tensors"]) {
      std::cout << "          " << t["name"].get<std::string>() << "  " << t["nchw"].get<std::string>() << "  "
                << t["bytes"].get<uint64_t>() << " B  tasks " << t["first_task"].get<int64_t>() << ".."
                << t["last_task"].get<int64_t>() << "  object " << t["object"].get<size_t>() << "\n";
    }
  }
  if (report.contains("partition")) PrintPartition(report["partition"], std::cout);
  if (report.contains("slowest_tasks") && report.contains("startup")) samples::PrintStartup(report["startup"], std::cout);
  if (report.contains("slowest_tasks")) {
    std::cout << "slowest:  (" << report["task_time_source"].get<std::string>() << ")\n";
    for (const auto& row : report["slowest_tasks"]) {
      std::cout << "          " << std::fixed << std::setprecision(2) << row["ms"].get<double>() << " ms (" << std::setprecision(1)
                << row["percent"].get<double>() << "%)";
      if (row.contains("gpu_ms") && !report["task_ms_from_gpu"].get<bool>()) {
        std::cout << std::setprecision(2) << ", GPU " << row["gpu_ms"].get<double>() << " ms";
      }
      std::cout << "  task " << row["task"].get<size_t>() << " "
                << row["node"].get<std::string>() << " (" << row["op"].get<std::string>() << ", "
                << row["shader"].get<std::string>() << ")\n";
    }
  }
  if (report.contains("mask_png")) std::cout << "mask:     " << report["mask_png"].get<std::string>() << "\n";
  if (report.contains("dumped")) {
    for (const auto& d : report["dumped"]) {
      std::cout << "dumped:   " << d["tensor"].get<std::string>() << " " << d["shape"].get<std::string>() << " -> "
                << d["file"].get<std::string>() << "\n";
    }
  }
  std::cout << std::fixed << std::setprecision(2) << "time:     " << report["median_ms"].get<double>() << " ms per run (median of "
            << report["runs"].get<int>() << ", first " << report["first_ms"].get<double>() << " ms)\n";
}

// --overlay / --overlay-png: the same network, shown by the overlay instead
// of printed. The PNG is rendered on the headless context, the window on a
// GLFW one.
int RunOverlay(const RunFlags& flags, const Model& model, const std::map<std::string, Shape>& shapes,
               const std::map<std::string, TensorData>& inputs) {
  auto fail = [&](const Status& status) {
    std::cerr << "glpool run: " << status.ToString() << "\n";
    return 1;
  };
  auto objects = ParseObjectKind(flags.objects);
  auto precision = ParsePrecision(flags.precision);
  if (!objects.ok()) return fail(objects.status());
  if (!precision.ok()) return fail(precision.status());
  auto mode = ParseMemoryMode(flags.memory_mode);
  if (!mode.ok()) return fail(mode.status().WithContext("--memory-mode"));
  overlay::Selection selection{*objects, *precision, flags.strategy, *mode, {}};
  if (!flags.pools.empty()) {
    auto pools = samples::LoadNamedPoolsFile(flags.pools);
    if (!pools.ok()) return fail(pools.status());
    selection.pools = std::move(pools).value();
  }
  return overlay::ShowOverlay({"run", flags.model, flags.overlay, flags.overlay_png, flags.frames}, model, shapes,
                              inputs, selection);
}

int RunModel(const RunFlags& flags) {
  auto fail = [&](const Status& status) {
    std::cerr << "glpool run: " << status.ToString() << "\n";
    return 1;
  };
  const auto load_start = std::chrono::steady_clock::now();
  auto model = LoadModelForRun(flags.model, flags.load);
  const double load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - load_start).count();
  if (!model.ok()) return fail(model.status());
  if (model->inputs().size() != 1 && !flags.input.empty()) {
    return fail(InvalidArgumentError("--input gives one tensor, the model has " +
                                     std::to_string(model->inputs().size()) + " inputs"));
  }
  // Symbolic dims (batch, height, width) come from the input file when the
  // flags leave them open.
  std::map<std::string, Shape> from_data;
  if (!flags.input.empty() && model->inputs().size() == 1 && !model->inputs()[0].is_static()) {
    auto shape = ShapeFromInputFile(flags.input, model->inputs()[0]);
    if (!shape.ok()) return fail(shape.status());
    from_data[model->inputs()[0].name] = *shape;
  }
  auto shapes = ResolvedInputShapes(*model, flags.load, from_data);
  if (!shapes.ok()) return fail(shapes.status().WithContext(flags.model));
  auto preprocess = ImagePreprocessFromFlags(flags.image);
  if (!preprocess.ok()) return fail(preprocess.status());
  std::vector<std::string> labels;
  if (!flags.labels.empty()) {
    auto read = ReadLabels(flags.labels);
    if (!read.ok()) return fail(read.status());
    labels = std::move(read).value();
  }
  std::map<std::string, TensorData> inputs;
  for (const TensorInfo& input : model->inputs()) {
    auto data = LoadModelInput(flags.input, {input.name, input.dtype, shapes->at(input.name)}, *preprocess);
    if (!data.ok()) return fail(data.status());
    inputs[input.name] = std::move(data).value();
  }
  if (flags.overlay || !flags.overlay_png.empty()) return RunOverlay(flags, *model, *shapes, inputs);
  nlohmann::json report = {{"model", flags.model}, {"backend", flags.backend}};
  SessionOptions options;
  options.input_shapes = *shapes;
  options.strategy = flags.strategy;
  // --profile times each task of the last run (a glFinish after each one).
  options.time_tasks = flags.profile > 0;
  options.cpu_fallback = !flags.no_cpu_fallback;
  std::optional<samples::SampleContext> context;
  if (flags.backend == "gpu") {
    auto objects = ParseObjectKind(flags.objects);
    auto precision = ParsePrecision(flags.precision);
    auto order = ParseNodeOrder(flags.order);
    if (!objects.ok()) return fail(objects.status());
    if (!precision.ok()) return fail(precision.status());
    if (!order.ok()) return fail(order.status());
    options.node_order = *order;
    options.memory_budget_bytes = flags.memory_budget;
    auto mode = ParseMemoryMode(flags.memory_mode);
    if (!mode.ok()) return fail(mode.status().WithContext("--memory-mode"));
    options.memory_mode = *mode;
    auto spin = ParseCpuSpin(flags.cpu_spin);
    if (!spin.ok()) return fail(spin.status().WithContext("--cpu-spin"));
    options.cpu_spin = *spin;
    if (flags.winograd != "on" && flags.winograd != "off") {
      return fail(InvalidArgumentError("--winograd: '" + flags.winograd + "' is neither on nor off"));
    }
    options.winograd = flags.winograd == "on";
    auto made = samples::MakeSampleContext(flags.context);
    if (!made.ok()) {
      return fail(made.status().WithContext("no OpenGL ES 3.1 context (use --backend cpu to run on the CPU reference)"));
    }
    context = std::move(made).value();
    options.objects = *objects;
    options.precision = *precision;
    // fp16 keeps tensors whose range half cannot hold in fp32, judged on this input.
    if (options.precision == Precision::kFp16) options.calibration_inputs = inputs;
    options.fp16_tolerance = flags.fp16_tolerance;
  } else if (flags.backend == "cpu") {
    options.backend = Backend::kCpuReference;
  } else {
    return fail(InvalidArgumentError("unknown backend '" + flags.backend + "' (expected gpu or cpu)"));
  }
  if (!flags.pools.empty()) {
    auto pools = samples::LoadNamedPoolsFile(flags.pools);
    if (!pools.ok()) return fail(pools.status());
    options.pools = std::move(pools).value();
  }
  options.inputs_in_pool = flags.record_shape.inputs_in_pool;
  options.outputs_in_pool = flags.record_shape.outputs_in_pool;
  options.keep = flags.record_shape.keep;
  options.keep_all = flags.record_shape.keep_all;
  options.program_cache_dir = flags.program_cache;
  // Progress on a terminal (never in --json output): tasks the GPU finished.
  int current_run = 0;
  options.progress = samples::TerminalProgress(!flags.json, &current_run, flags.repeat);
  auto session = Session::Create(*model, options);
  if (!session.ok()) return fail(session.status());
  std::vector<double> ms;
  std::map<std::string, TensorData> outputs;
  for (int run = 0; run < flags.repeat; ++run) {
    current_run = run + 1;
    const auto start = std::chrono::steady_clock::now();
    auto result = (*session)->Run(inputs);
    samples::ClearTerminalProgress();
    if (!result.ok()) return fail(result.status().WithContext(flags.model));
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    outputs = std::move(result).value();
  }
  for (const auto& [name, data] : outputs) report["outputs"].push_back(OutputSummary(name, data, labels));
  if (!flags.mask_png.empty()) {
    Status written = WriteMaskPng(outputs.begin()->second, flags.mask_png);
    if (!written.ok()) return fail(written.WithContext("--mask-png"));
    report["mask_png"] = flags.mask_png;
  }
  if (Status dumped = DumpTensors(**session, flags.dump, &report); !dumped.ok()) return fail(dumped);
  if (options.backend == Backend::kGpu) {
    const MemoryReport& m = (*session)->memory();
    report["memory"] = {{"objects", m.objects},           {"precision", m.precision},
                        {"strategy", m.strategy},         {"chosen", m.chosen},
                        {"tensors", m.tensors},           {"pool_objects", m.pool_objects},
                        {"buffer_fallbacks", m.buffer_fallbacks}, {"naive_bytes", m.naive_bytes},
                        {"pool_bytes", m.pool_bytes},     {"lower_bound_bytes", m.lower_bound_bytes},
                        {"gl_pool_bytes", m.gl_pool_bytes}, {"external_bytes", m.external_bytes},
                        {"fp32_integer_tensors", m.fp32_integer_tensors},
                        {"fp32_range_tensors", m.fp32_range_tensors},
                        {"fp32_accuracy_tensors", m.fp32_accuracy_tensors},
                        {"fp32_logit_tensors", m.fp32_logit_tensors},
                        {"order", NodeOrderName(options.node_order)},
                        {"memory_mode", m.memory_mode},   {"peak_live_bytes", m.peak_live_bytes},
                        {"objects_made_per_run", m.objects_made_per_run},
                        {"pooled_inputs", m.pooled_inputs}, {"pooled_outputs", m.pooled_outputs},
                        {"kept_tensors", m.kept_tensors}};
    const samples::ProcessMemory process = samples::ReadProcessMemory();
    report["memory"]["rss_bytes"] = process.rss_bytes;
    report["memory"]["peak_rss_bytes"] = process.peak_rss_bytes;
    auto device = QueryDeviceMemory();
    if (device.ok() && device->available) {
      report["memory"]["device_free_kib"] = device->free_kib;
      report["memory"]["device_total_kib"] = device->total_kib;
      report["memory"]["device_memory_source"] = device->source;
    }
    for (const PoolSummary& pool : m.pools) {
      report["memory"]["pools"].push_back({{"name", pool.name},         {"storage", pool.storage},
                                           {"strategy", pool.strategy}, {"chosen", pool.chosen},
                                           {"tensors", pool.tensors},   {"objects", pool.objects},
                                           {"naive_bytes", pool.naive_bytes}, {"pool_bytes", pool.pool_bytes},
                                           {"lower_bound_bytes", pool.lower_bound_bytes}});
    }
    if (flags.list_tensors) {
      for (const PlacedTensor& t : (*session)->tensors()) {
        report["pooled_tensors"].push_back(
            {{"name", t.name},
             {"nchw", std::to_string(t.layout.n) + "x" + std::to_string(t.layout.c) + "x" + std::to_string(t.layout.h) +
                          "x" + std::to_string(t.layout.w)},
             {"bytes", t.bytes}, {"first_task", t.first_task}, {"last_task", t.last_task}, {"object", t.object}});
      }
    }
    const StartupReport& startup = (*session)->startup();
    if (options.precision == Precision::kFp16 && startup.calibration_ms > 0) {
      report["fp16_calibration"] = {{"half_error", startup.fp16_half_error},
                                    {"error", startup.fp16_error},
                                    {"tolerance", options.fp16_tolerance},
                                    {"probe_runs", startup.calibration_runs}};
    }
    report["tasks"] = (*session)->tasks().size();
    report["partition"] = PartitionJson((*session)->partition());
    if (flags.profile > 0) {
      report["slowest_tasks"] = SlowestTasks(**session, flags.profile);
      report["task_ms_from_gpu"] = (*session)->task_ms_from_gpu();
      report["task_time_source"] =
          (*session)->task_ms_from_gpu()
              ? "GPU time per task from timer queries"
              : (*session)->task_gpu_ms().empty()
                    ? "wall time per task with a glFinish after it"
                    : "wall time per task with a glFinish after it (GPU: timer queries; later runs drop the waits)";
      // The GPU's own time for the whole last run, where timer queries see it:
      // what remains of the run's wall time is transfers, waits and the driver.
      double gpu_total = 0;
      for (double ms : (*session)->task_gpu_ms()) gpu_total += ms > 0 ? ms : 0;
      if (!(*session)->task_gpu_ms().empty()) report["gpu_tasks_ms"] = gpu_total;
    }
    report["startup"] = samples::StartupJson((*session)->startup(), load_ms);
  }
  report["first_ms"] = ms.front();
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  report["median_ms"] = sorted[sorted.size() / 2];
  report["runs"] = static_cast<int>(ms.size());
  report["runs_ms"] = ms;
  if (flags.json) {
    std::cout << report.dump(2) << "\n";
  } else {
    PrintHuman(report);
  }
  return 0;
}

}  // namespace

void AddRunCommand(CLI::App& app, int& exit_code) {
  CLI::App* command = app.add_subcommand("run", "Run a model on the GPU with its intermediates in a planned pool");
  auto flags = std::make_shared<RunFlags>();
  command->add_option("model", flags->model, "Model file (.onnx)")->required();
  command->add_option("--input", flags->input, "Input tensor (.pb) or image; default: a fixed-seed fill");
  AddImageFlags(*command, flags->image);
  command->add_option("--labels", flags->labels, "Class names, one per line, for classifier outputs' top 5");
  command->add_option("--strategy", flags->strategy, "Pool strategy (see `glpool plan`)")->capture_default_str();
  command->add_option("--objects", flags->objects, "textures, buffers or arena")->capture_default_str();
  command->add_option("--precision", flags->precision, "fp32 or fp16")->capture_default_str();
  command->add_option("--fp16-tolerance", flags->fp16_tolerance,
                      "fp16: the outputs' accepted error against fp32 on the input, as a fraction of max |output|; "
                      "calibration keeps the first nodes' outputs in fp32 until it holds (0: range calibration only)")
      ->capture_default_str();
  command->add_option("--memory-budget", flags->memory_budget,
                      "Most bytes the GPU pool of intermediates may take: a strategy over it gives way to auto; "
                      "if no plan fits, the run fails before allocating anything (0: no limit)");
  command->add_option("--order", flags->order,
                      "GPU node order: given (the model's), or memory (a topological order searched for a lower "
                      "peak of live pool bytes, within 1 s)")
      ->capture_default_str();
  command->add_option("--repeat", flags->repeat, "Runs to time (1 to 100000)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  command->add_option("--backend", flags->backend, "gpu, or cpu for the CPU reference")->capture_default_str();
  command->add_option("--context", flags->context, "headless, window or auto")->capture_default_str();
  command->add_flag("--json", flags->json, "Print one JSON object");
  command->add_flag("--no-cpu-fallback", flags->no_cpu_fallback,
                    "Fail on a node with no GPU kernel instead of running it on the CPU reference");
  command->add_option("--profile", flags->profile, "List the N slowest tasks of the last run (GPU): wall time with a glFinish after each task, or, once a run has shown the driver's timestamp queries see compute work (use --repeat 2 or more), GPU time without the waits")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--mask-png", flags->mask_png,
                      "Write the (first) output, if shaped Nx1xHxW with values in [0, 1], as a grayscale PNG");
  command->add_flag("--overlay", flags->overlay, "Show the pool overlay in a window until it is closed");
  command->add_option("--overlay-png", flags->overlay_png, "Render the pool overlay off-screen to this PNG");
  command->add_option("--frames", flags->frames, "With --overlay: close after this many frames")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command->add_option("--memory-mode", flags->memory_mode,
                      "pooled (the planned pool of --strategy), naive (one object per tensor), reuse (equal sizes "
                      "share), or dynamic (each tensor's object made before its first task and deleted after its "
                      "last, every run)")
      ->capture_default_str();
  command->add_option("--cpu-spin", flags->cpu_spin,
                      "off, on or auto: while a run is in flight, keep the CPUs busy with idle-priority spinning "
                      "threads, so a software renderer's worker threads wake at once (auto: on for llvmpipe; off "
                      "by default, as it slowed two-thread llvmpipe runs on this project's VM)")
      ->capture_default_str();
  command->add_option("--winograd", flags->winograd,
                      "on or off: 3x3 stride-1 convolutions as Winograd's F(4x4, 3x3) in fp32 buffers (faster, a "
                      "larger pool; SessionOptions::winograd)")
      ->capture_default_str();
  samples::AddRecordShapeFlags(*command, flags->record_shape);
  command->add_option("--pools", flags->pools,
                      "Named pools, JSON: {\"pools\": [{\"name\", \"tensors\" (names or globs), \"op_types\", "
                      "\"dtypes\", \"objects\", \"precision\", \"strategy\"}]}; each planned on its own");
  command->add_option("--program-cache", flags->program_cache,
                      "Directory for linked program binaries: later runs load them instead of compiling");
  command->add_flag("--list-tensors", flags->list_tensors,
                    "List every pooled tensor by name (the names --keep and --dump take), its size and lifetime");
  command->add_option("--dump", flags->dump,
                      "NAME=FILE.pb: write tensor NAME after the last run (an intermediate must be kept; "
                      "repeatable)")
      ->allow_extra_args(false);
  AddModelLoadFlags(*command, flags->load);
  command->callback([&exit_code, flags] { exit_code = RunModel(*flags); });
}

}  // namespace glpool
