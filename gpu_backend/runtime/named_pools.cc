#include "gpu_backend/runtime/named_pools.h"

#include <algorithm>
#include <set>

#include "gpu_backend/runtime/pool_plan.h"

namespace glpool {

Status CheckNamedPools(const std::vector<NamedPool>& pools) {
  std::set<std::string> names;
  for (const NamedPool& pool : pools) {
    if (pool.name.empty()) return InvalidArgumentError("a named pool has no name");
    if (pool.name == "default") {
      return InvalidArgumentError("pool 'default': the name is taken by the pool of tensors no named pool matches");
    }
    if (!names.insert(pool.name).second) return InvalidArgumentError("pool '" + pool.name + "' is named twice");
    const std::vector<std::string> strategies = StrategyNamesFor(ObjectKindName(pool.objects));
    if (std::find(strategies.begin(), strategies.end(), pool.strategy) == strategies.end()) {
      std::string known;
      for (const std::string& s : strategies) known += (known.empty() ? "" : ", ") + s;
      return InvalidArgumentError("pool '" + pool.name + "': unknown strategy '" + pool.strategy + "' for " +
                                  ObjectKindName(pool.objects) + " (expected one of " + known + ")");
    }
  }
  return Status::Ok();
}

bool GlobMatch(const std::string& pattern, const std::string& text) {
  // Iterative matching with one backtrack point: linear in practice, never
  // exponential on patterns with many stars.
  size_t p = 0, t = 0, star = std::string::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::map<std::string, size_t> AssignNamedPools(const Graph& graph, const CompiledGraph& compiled,
                                               const std::vector<NamedPool>& pools) {
  std::map<std::string, std::string> writer_op;
  for (const Node& node : graph.nodes) {
    for (const std::string& out : node.outputs) writer_op[out] = node.op_type;
  }
  std::map<std::string, size_t> pool_of;
  for (const PooledTensor& tensor : compiled.pooled) {
    const Tensor* t = graph.FindTensor(tensor.name);
    const std::string op = writer_op.count(tensor.name) ? writer_op.at(tensor.name) : "";
    size_t chosen = 0;
    for (size_t i = 0; i < pools.size() && chosen == 0; ++i) {
      const NamedPool& pool = pools[i];
      const bool by_name = std::any_of(pool.tensors.begin(), pool.tensors.end(),
                                       [&](const std::string& pattern) { return GlobMatch(pattern, tensor.name); });
      const bool by_op = !op.empty() && std::find(pool.op_types.begin(), pool.op_types.end(), op) != pool.op_types.end();
      const bool by_dtype =
          t != nullptr && std::find(pool.dtypes.begin(), pool.dtypes.end(), t->dtype) != pool.dtypes.end();
      if (by_name || by_op || by_dtype) chosen = i + 1;
    }
    pool_of[tensor.name] = chosen;
  }
  return pool_of;
}

}  // namespace glpool
