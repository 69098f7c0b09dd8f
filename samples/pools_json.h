// `glpool run --pools FILE.json`: named pools (SessionOptions::pools) from
// a small JSON file:
//   {"pools": [{"name": "activations", "tensors": ["conv*", "out"],
//               "op_types": ["Conv"], "dtypes": ["float32"],
//               "objects": "textures", "precision": "fp16", "strategy": "auto"}]}
// Only "name" is required; lists default to empty, objects to buffers,
// precision to fp32, strategy to auto. Unknown keys are errors (a typo
// would otherwise match nothing, silently).
#pragma once

#include <string>
#include <vector>

#include "glpool/options.h"

namespace glpool::samples {

StatusOr<std::vector<NamedPool>> LoadNamedPoolsFile(const std::string& path);
StatusOr<std::vector<NamedPool>> ParseNamedPools(const std::string& text, const std::string& label);

}  // namespace glpool::samples
