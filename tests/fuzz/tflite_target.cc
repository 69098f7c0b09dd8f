// Fuzz target: a .tflite file, as Model::Load, `glpool plan|run|inspect`
// read it (ImportTfliteModel, DescribeTfliteModel; tflite_import.h), then
// the default graph passes. An imported graph must be whole: every node
// input and output names a tensor with a known dtype.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/tflite/tflite_import.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace glpool;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  StatusOr<std::string> listing = DescribeTfliteModel(bytes, "<fuzz>.tflite");
  if (!listing.ok()) fuzz::CheckCleanError(listing.status());
  StatusOr<Graph> graph = ImportTfliteModel(bytes, {}, "<fuzz>.tflite");
  if (!graph.ok()) {
    fuzz::CheckCleanError(graph.status());
    return 0;
  }
  FUZZ_CHECK(listing.ok(), "import succeeded where the listing failed");
  for (const Node& node : graph->nodes) {
    for (const std::string& name : node.inputs) {
      if (name.empty()) continue;
      const Tensor* t = graph->FindTensor(name);
      FUZZ_CHECK(t != nullptr && t->dtype != DataType::kUndefined, "node " + node.name + " reads unknown " + name);
    }
    for (const std::string& name : node.outputs) {
      FUZZ_CHECK(graph->FindTensor(name) != nullptr, "node " + node.name + " writes unknown " + name);
    }
  }
  Status passes = RunDefaultPasses(*graph);
  if (!passes.ok()) fuzz::CheckCleanError(passes);
  return 0;
}
