#include "gpu_backend/cpu_reference/onnx_test_case.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <optional>

#include "gpu_backend/import/file_util.h"
#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/import/tensor_proto.h"

namespace glpool {
namespace {

namespace fs = std::filesystem;

// ONNX TensorProto.DataType numbers.
constexpr int32_t kOnnxFloat = 1, kOnnxInt32 = 6, kOnnxInt64 = 7, kOnnxBool = 9;
constexpr int32_t kOnnxString = 8, kOnnxFloat16 = 10, kOnnxDouble = 11, kOnnxBfloat16 = 16;

bool IsDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

std::string FormatNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g", v);
  return text;
}

struct DataSet {
  std::string dir;
  std::vector<std::string> input_files;
  std::vector<std::string> output_files;
};

std::vector<std::string> NumberedFiles(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> files;
  for (int i = 0;; ++i) {
    const std::string path = dir + "/" + prefix + std::to_string(i) + ".pb";
    if (!fs::exists(path)) break;
    files.push_back(path);
  }
  return files;
}

std::vector<DataSet> FindDataSets(const std::string& dir) {
  std::vector<DataSet> sets;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name.rfind("test_data_set_", 0) != 0) continue;
    sets.push_back({entry.path().string(), NumberedFiles(entry.path().string(), "input_"),
                    NumberedFiles(entry.path().string(), "output_")});
  }
  std::sort(sets.begin(), sets.end(), [](const DataSet& a, const DataSet& b) { return a.dir < b.dir; });
  return sets;
}

// Graph inputs that are not initializers, in model order.
std::vector<const onnx::ValueInfoProto*> RuntimeInputs(const onnx::GraphProto& graph) {
  std::set<std::string> initializers;
  for (const onnx::TensorProto& t : graph.initializer()) initializers.insert(t.name());
  std::vector<const onnx::ValueInfoProto*> inputs;
  for (const onnx::ValueInfoProto& v : graph.input()) {
    if (!initializers.count(v.name())) inputs.push_back(&v);
  }
  return inputs;
}

int32_t ElemType(const onnx::ValueInfoProto& v) {
  return v.type().has_tensor_type() ? v.type().tensor_type().elem_type() : -1;
}

// Integer and bool tensors: the operands shape arithmetic reads.
bool IsIntegerTensor(const onnx::ValueInfoProto& v) {
  const int32_t type = ElemType(v);
  return type > 0 && type != kOnnxFloat && type != kOnnxFloat16 && type != kOnnxDouble &&
         type != kOnnxBfloat16 && type != kOnnxString;
}

void DescribeModel(const onnx::ModelProto& model, CaseResult* result) {
  const onnx::GraphProto& graph = model.graph();
  for (const onnx::NodeProto& node : graph.node()) {
    result->model_ops.insert(IsDefaultDomain(node.domain()) ? node.op_type()
                                                            : node.domain() + "." + node.op_type());
  }
  bool all_ok = true, any_float = false;
  auto visit = [&](const onnx::ValueInfoProto& v) {
    const int32_t type = ElemType(v);
    any_float = any_float || type == kOnnxFloat;
    all_ok = all_ok && (type == kOnnxFloat || type == kOnnxInt32 || type == kOnnxInt64 || type == kOnnxBool);
    if (v.type().has_tensor_type() && v.type().tensor_type().has_shape()) {
      result->max_rank = std::max(result->max_rank, v.type().tensor_type().shape().dim_size());
    }
  };
  for (const onnx::ValueInfoProto* v : RuntimeInputs(graph)) visit(*v);
  for (const onnx::ValueInfoProto& v : graph.output()) visit(v);
  result->float_case = all_ok && any_float;
}

// Whether `v` declares a shape whose every dim is a number.
bool HasStaticShape(const onnx::ValueInfoProto& v) {
  if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) return false;
  for (const auto& dim : v.type().tensor_type().shape().dim()) {
    if (!dim.has_dim_value()) return false;
  }
  return true;
}

// Symbolic or unknown input dims taken from the data set's input tensors,
// as exported models (batch, height, width) need: the importer then fixes
// them and checks the static ones against the model.
StatusOr<ImportOptions> ShapesFromData(const onnx::ModelProto& model, const DataSet& set) {
  ImportOptions options;
  const std::vector<const onnx::ValueInfoProto*> inputs = RuntimeInputs(model.graph());
  for (size_t i = 0; i < inputs.size() && i < set.input_files.size(); ++i) {
    // Sequences and optionals hold no TensorProto: the import refuses them.
    if (HasStaticShape(*inputs[i]) || !inputs[i]->type().has_tensor_type()) continue;
    GLPOOL_ASSIGN_OR_RETURN(TensorData data, LoadTensorProtoFile(set.input_files[i]));
    options.input_shapes[inputs[i]->name()] = data.shape;
  }
  return options;
}

// Runtime inputs that every consumer reads at a parameter slot.
std::set<std::string> ParameterInputs(const onnx::ModelProto& model, const CaseOptions& options) {
  std::set<std::string> found;
  if (!options.is_parameter_input) return found;
  std::map<std::string, bool> only_parameters;  // input -> every use so far is a parameter
  for (const onnx::ValueInfoProto* v : RuntimeInputs(model.graph())) only_parameters[v->name()] = true;
  for (const onnx::NodeProto& node : model.graph().node()) {
    for (int i = 0; i < node.input_size(); ++i) {
      auto it = only_parameters.find(node.input(i));
      if (it == only_parameters.end()) continue;
      it->second = it->second && options.is_parameter_input(node.op_type(), static_cast<size_t>(i));
      if (it->second) found.insert(it->first);
    }
  }
  for (const auto& [name, parameter] : only_parameters) {
    if (!parameter) found.erase(name);
  }
  return found;
}

// A copy of `model` whose runtime inputs chosen by `bind` are initializers
// holding the data set's values.
StatusOr<onnx::ModelProto> BindInputs(const onnx::ModelProto& model, const DataSet& set,
                                      const std::function<bool(const onnx::ValueInfoProto&)>& bind) {
  onnx::ModelProto bound = model;
  onnx::GraphProto* graph = bound.mutable_graph();
  const std::vector<const onnx::ValueInfoProto*> inputs = RuntimeInputs(model.graph());
  std::set<std::string> bound_names;
  for (size_t i = 0; i < inputs.size() && i < set.input_files.size(); ++i) {
    if (!bind(*inputs[i])) continue;
    GLPOOL_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(set.input_files[i]));
    onnx::TensorProto* tensor = graph->add_initializer();
    if (!ParseProto(bytes, tensor)) return InvalidModelError("cannot parse " + set.input_files[i]);
    tensor->set_name(inputs[i]->name());
    bound_names.insert(inputs[i]->name());
  }
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept;
  for (const onnx::ValueInfoProto& v : graph->input()) {
    if (!bound_names.count(v.name())) *kept.Add() = v;
  }
  graph->mutable_input()->Swap(&kept);
  return bound;
}

struct Comparison {
  bool ok = true;
  double max_abs_error = 0.0;
  double tolerance = 0.0;  // at the worst element
  double worst_ratio = -1.0;
  std::string problem;     // a dtype/shape mismatch
};

bool IsFloat(DataType t) {
  return t == DataType::kFloat32 || t == DataType::kFloat16 || t == DataType::kFloat64;
}

void Compare(const std::string& name, const TensorData& actual, const TensorData& expected,
             const Tolerance& tol, Comparison* c) {
  if (actual.dtype != expected.dtype || actual.shape != expected.shape) {
    c->ok = false;
    c->problem = "output '" + name + "' is " + DataTypeName(actual.dtype) + " " +
                 ShapeToString(actual.shape) + ", expected " + DataTypeName(expected.dtype) + " " +
                 ShapeToString(expected.shape);
    return;
  }
  const bool exact = !IsFloat(expected.dtype);
  const std::vector<float> a = actual.ToFloats(), e = expected.ToFloats();
  const std::vector<int64_t> ai = exact ? actual.ToInt64s() : std::vector<int64_t>();
  const std::vector<int64_t> ei = exact ? expected.ToInt64s() : std::vector<int64_t>();
  double max_ref = 0.0;
  for (float v : e) {
    if (std::isfinite(v)) max_ref = std::max(max_ref, static_cast<double>(std::fabs(v)));
  }
  for (size_t i = 0; i < e.size(); ++i) {
    double error, bound;
    if (exact) {
      error = static_cast<double>(std::llabs(ai[i] - ei[i]));
      bound = 0.0;
    } else {
      const double x = a[i], r = e[i];
      if (std::isnan(r) || std::isinf(r)) {
        // NaN matches NaN and an infinity matches itself (numpy's allclose).
        const bool same = std::isnan(r) ? std::isnan(x) : x == r;
        error = same ? 0.0 : std::numeric_limits<double>::infinity();
      } else {
        error = std::isnan(x) ? std::numeric_limits<double>::infinity() : std::fabs(x - r);
      }
      bound = tol.kind == Tolerance::Kind::kElementwise ? tol.atol + tol.rtol * std::fabs(r)
                                                        : tol.relative * max_ref;
    }
    c->max_abs_error = std::max(c->max_abs_error, error);
    const double ratio = error == 0.0 ? 0.0 : (bound > 0.0 ? error / bound : std::numeric_limits<double>::infinity());
    if (ratio > c->worst_ratio) {
      c->worst_ratio = ratio;
      c->tolerance = bound;
    }
    if (error > bound) c->ok = false;
  }
}

CaseResult Unsupported(CaseResult result, const std::string& reason) {
  result.outcome = CaseOutcome::kUnsupported;
  result.reason = reason;
  return result;
}

CaseResult Failed(CaseResult result, const std::string& reason) {
  result.outcome = CaseOutcome::kFail;
  result.reason = reason;
  return result;
}

// kUnsupported statuses make the case unsupported; anything else fails it.
CaseResult FromStatus(CaseResult result, const Status& status) {
  if (status.code() == StatusCode::kUnsupported) return Unsupported(std::move(result), status.message());
  return Failed(std::move(result), status.ToString());
}

}  // namespace

Tolerance OnnxBackendTolerance() { return Tolerance{}; }

Tolerance ModelTolerance() {
  Tolerance t;
  t.kind = Tolerance::Kind::kRelativeToMax;
  return t;
}

Tolerance ToleranceForCaseDir(const std::string& dir) {
  std::string name = fs::path(dir).filename().string();
  if (name.empty()) name = fs::path(dir).parent_path().filename().string();
  return name.rfind("test_", 0) == 0 ? OnnxBackendTolerance() : ModelTolerance();
}

std::string CaseResult::Summary() const {
  switch (outcome) {
    case CaseOutcome::kPass: return graph_nodes == 0 ? "pass (folded at import)" : "pass";
    case CaseOutcome::kUnsupported: return "unsupported (" + reason + ")";
    case CaseOutcome::kFail:
      if (!reason.empty()) return "fail (" + reason + ")";
      return "fail (max abs error " + FormatNumber(max_abs_error) + ", tolerance " +
             FormatNumber(tolerance) + ")";
  }
  return "fail";
}

void CaseTally::Add(const CaseResult& result) {
  switch (result.outcome) {
    case CaseOutcome::kPass: ++passed; break;
    case CaseOutcome::kFail: ++failed; break;
    case CaseOutcome::kUnsupported: ++unsupported; break;
  }
}

std::string CaseTally::Line() const {
  return std::to_string(passed) + " passed, " + std::to_string(failed) + " failed, " +
         std::to_string(unsupported) + " unsupported";
}

StatusOr<std::vector<std::string>> ExpandCaseDirs(const std::vector<std::string>& dirs) {
  std::vector<std::string> cases;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (fs::exists(fs::path(dir) / "model.onnx", ec)) {
      cases.push_back(dir);
      continue;
    }
    if (!fs::is_directory(dir, ec)) return NotFoundError("'" + dir + "' is not a directory");
    std::vector<std::string> found;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
      if (entry.is_directory() && fs::exists(entry.path() / "model.onnx")) {
        found.push_back(entry.path().string());
      }
    }
    if (found.empty()) {
      return NotFoundError("'" + dir + "' holds neither model.onnx nor case folders with one");
    }
    std::sort(found.begin(), found.end());
    cases.insert(cases.end(), found.begin(), found.end());
  }
  return cases;
}

CaseResult RunOnnxTestCase(const std::string& dir, const CaseOptions& options) {
  CaseResult result;
  result.dir = dir;
  const std::string model_path = dir + "/model.onnx";
  StatusOr<std::string> bytes = ReadFileBytes(model_path);
  if (!bytes.ok()) return Failed(result, bytes.status().ToString());
  onnx::ModelProto model;
  if (!ParseProto(*bytes, &model)) {
    // Let the importer phrase the error.
    StatusOr<Graph> graph = LoadOnnxModel(model_path);
    return Failed(result, graph.ok() ? "cannot parse " + model_path : graph.status().ToString());
  }
  DescribeModel(model, &result);
  for (const onnx::NodeProto& node : model.graph().node()) {
    if (!IsDefaultDomain(node.domain())) {
      return Unsupported(result, "op " + node.domain() + "." + node.op_type() + " is outside the default domain");
    }
    if (options.is_supported_op && node.op_type() != "Constant" && !options.is_supported_op(node.op_type())) {
      return Unsupported(result, "op " + node.op_type() + " is not supported");
    }
  }
  const std::vector<DataSet> sets = FindDataSets(dir);
  if (sets.empty()) return Failed(result, "no test_data_set_* folder in " + dir);
  const Tolerance tolerance = options.tolerance ? options.tolerance(dir) : ToleranceForCaseDir(dir);

  const std::vector<const onnx::ValueInfoProto*> runtime_inputs = RuntimeInputs(model.graph());
  bool has_integer_inputs = false;
  for (const onnx::ValueInfoProto* v : runtime_inputs) has_integer_inputs |= IsIntegerTensor(*v);
  // Parameter inputs are bound per data set; without any, one import serves all.
  const std::set<std::string> parameters = ParameterInputs(model, options);
  auto is_parameter = [&](const onnx::ValueInfoProto& v) { return parameters.count(v.name()) != 0; };
  auto is_parameter_or_integer = [&](const onnx::ValueInfoProto& v) { return is_parameter(v) || IsIntegerTensor(v); };
  // One import serves every data set unless inputs are bound per set or
  // take their shapes from each set's data.
  bool all_static = true;
  for (const onnx::ValueInfoProto* v : runtime_inputs) all_static = all_static && HasStaticShape(*v);
  std::optional<StatusOr<Graph>> plain;
  if (parameters.empty() && all_static) plain = ImportOnnxModel(model, dir, {}, model_path);
  Comparison total;
  for (const DataSet& set : sets) {
    StatusOr<ImportOptions> import = ShapesFromData(model, set);
    if (!import.ok()) return FromStatus(result, import.status());
    // Inputs bound as constants are no longer graph inputs to give shapes for.
    auto import_for = [&](const std::function<bool(const onnx::ValueInfoProto&)>& bound_if) {
      ImportOptions options = *import;
      for (const onnx::ValueInfoProto* v : runtime_inputs) {
        if (bound_if(*v)) options.input_shapes.erase(v->name());
      }
      return options;
    };
    StatusOr<Graph> graph = UnsupportedError("not imported");
    if (plain) {
      graph = *plain;
    } else {
      StatusOr<onnx::ModelProto> bound = BindInputs(model, set, is_parameter);
      if (!bound.ok()) return FromStatus(result, bound.status());
      graph = ImportOnnxModel(*bound, dir, import_for(is_parameter), model_path);
      result.inputs_bound = !parameters.empty();
    }
    if (!graph.ok() && has_integer_inputs && graph.status().code() != StatusCode::kNotFound) {
      StatusOr<onnx::ModelProto> bound = BindInputs(model, set, is_parameter_or_integer);
      if (!bound.ok()) return FromStatus(result, bound.status());
      StatusOr<Graph> retry = ImportOnnxModel(*bound, dir, import_for(is_parameter_or_integer), model_path);
      if (retry.ok()) {
        graph = std::move(retry);
        result.inputs_bound = true;
      }
    }
    if (!graph.ok()) return FromStatus(result, graph.status());
    if (options.transform) {
      Status status = options.transform(*graph);
      if (!status.ok()) return FromStatus(result, status.WithContext("graph passes"));
    }
    // Inputs by model order; the files follow it.
    std::map<std::string, TensorData> inputs;
    const std::set<std::string> wanted(graph->inputs.begin(), graph->inputs.end());
    for (size_t i = 0; i < set.input_files.size() && i < runtime_inputs.size(); ++i) {
      if (!wanted.count(runtime_inputs[i]->name())) continue;  // bound as a constant
      StatusOr<TensorData> data = LoadTensorProtoFile(set.input_files[i]);
      if (!data.ok()) return FromStatus(result, data.status());
      inputs[runtime_inputs[i]->name()] = std::move(data).value();
    }
    result.graph_nodes = static_cast<int>(graph->nodes.size());
    StatusOr<std::map<std::string, TensorData>> outputs = options.runner(*graph, inputs);
    if (!outputs.ok()) return FromStatus(result, outputs.status());
    if (set.output_files.size() != static_cast<size_t>(model.graph().output_size())) {
      return Failed(result, std::to_string(set.output_files.size()) + " reference outputs for " +
                                std::to_string(model.graph().output_size()) + " model outputs");
    }
    for (size_t i = 0; i < set.output_files.size(); ++i) {
      const std::string& name = model.graph().output(static_cast<int>(i)).name();
      StatusOr<TensorData> expected = LoadTensorProtoFile(set.output_files[i]);
      if (!expected.ok()) return FromStatus(result, expected.status());
      auto it = outputs->find(name);
      if (it == outputs->end()) return Failed(result, "the backend returned no output '" + name + "'");
      Compare(name, it->second, *expected, tolerance, &total);
      if (!total.problem.empty()) return Failed(result, total.problem);
    }
  }
  result.max_abs_error = total.max_abs_error;
  result.tolerance = total.tolerance;
  result.outcome = total.ok ? CaseOutcome::kPass : CaseOutcome::kFail;
  return result;
}

}  // namespace glpool
