#include "gpu_backend/kernels/parameter_inputs.h"

#include <map>
#include <set>

namespace glpool {

bool IsParameterInput(const std::string& op_type, size_t index) {
  static const std::set<std::string> reductions = {
      "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
      "ReduceL2", "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"};
  if (reductions.count(op_type)) return index == 1;  // axes
  // Slots by op, as ONNX numbers them.
  static const std::map<std::string, std::set<size_t>> slots = {
      {"Resize", {1, 2, 3}},          // roi, scales, sizes
      {"Upsample", {1}},              // scales
      {"Slice", {1, 2, 3, 4}},        // starts, ends, axes, steps
      {"Pad", {1, 2, 3}},             // pads, constant_value, axes
      {"Dropout", {1, 2}},            // ratio, training_mode
      {"Reshape", {1}},               // shape
      {"Expand", {1}},                // shape
      {"Tile", {1}},                  // repeats
      {"Squeeze", {1}},               // axes
      {"Unsqueeze", {1}},             // axes
      {"Split", {1}},                 // split
      {"ConstantOfShape", {0}},       // shape
      {"Range", {0, 1, 2}},           // start, limit, delta: the output's length
  };
  auto it = slots.find(op_type);
  return it != slots.end() && it->second.count(index) != 0;
}

}  // namespace glpool
