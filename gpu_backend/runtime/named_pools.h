// Named pools (SessionOptions::pools): checking the pools a caller gives
// and sending each pooled tensor to the first pool that matches it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/compile/compile.h"
#include "gpu_backend/graph/graph.h"
#include "glpool/options.h"

namespace glpool {

// Names unique, not empty, not "default"; each strategy one its object kind
// accepts. Errors name the pool.
Status CheckNamedPools(const std::vector<NamedPool>& pools);

// Whether `text` matches `pattern`, where * matches any run of characters
// and ? any one character.
bool GlobMatch(const std::string& pattern, const std::string& text);

// For each pooled root of `compiled`: 0 for the default pool, i + 1 for
// pools[i], the first pool matching it (by name or glob, by the op type of
// the node that writes it, or by dtype).
std::map<std::string, size_t> AssignNamedPools(const Graph& graph, const CompiledGraph& compiled,
                                               const std::vector<NamedPool>& pools);

}  // namespace glpool
