#include "gpu_backend/compile/memory_order.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpu_backend/compile/compile.h"
#include "planner/budget.h"
#include "planner/lower_bounds.h"

namespace glpool {
namespace {

// The graph reduced to what the order changes: per node the pooled roots it
// touches and the nodes that must run before it.
struct OrderModel {
  std::vector<uint64_t> root_bytes;
  std::vector<int32_t> root_uses;                 // nodes touching each root
  std::vector<std::vector<int32_t>> touches;      // per node, distinct roots
  std::vector<std::vector<int32_t>> successors;   // per node, distinct consumers
  std::vector<int32_t> predecessors;              // per node, distinct producers
};

OrderModel BuildModel(const Graph& graph, const CompiledGraph& compiled, Precision precision) {
  OrderModel model;
  std::map<std::string, int32_t> root_index;
  for (const PooledTensor& p : compiled.pooled) {
    root_index[p.name] = static_cast<int32_t>(model.root_bytes.size());
    model.root_bytes.push_back(Phwc4Bytes(p.layout, precision));
  }
  model.root_uses.assign(model.root_bytes.size(), 0);
  const size_t n = graph.nodes.size();
  model.touches.resize(n);
  model.successors.resize(n);
  model.predecessors.assign(n, 0);
  std::unordered_map<std::string, int32_t> producer;
  for (size_t k = 0; k < n; ++k) {
    for (const std::string& out : graph.nodes[k].outputs) {
      if (!out.empty()) producer[out] = static_cast<int32_t>(k);
    }
  }
  for (size_t k = 0; k < n; ++k) {
    const Node& node = graph.nodes[k];
    std::vector<int32_t>& roots = model.touches[k];
    std::vector<int32_t> preds;
    auto touch = [&](const std::string& name) {
      if (name.empty()) return;
      auto storage = compiled.storage.find(name);
      if (storage == compiled.storage.end() || storage->second.storage != StorageClass::kPooled) return;
      auto root = root_index.find(storage->second.root);
      if (root != root_index.end()) roots.push_back(root->second);
    };
    for (const std::string& in : node.inputs) {
      touch(in);
      auto p = producer.find(in);
      if (p != producer.end() && p->second != static_cast<int32_t>(k)) preds.push_back(p->second);
    }
    for (const std::string& out : node.outputs) touch(out);
    std::sort(roots.begin(), roots.end());
    roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
    for (int32_t r : roots) ++model.root_uses[r];
    std::sort(preds.begin(), preds.end());
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    model.predecessors[k] = static_cast<int32_t>(preds.size());
    for (int32_t p : preds) model.successors[p].push_back(static_cast<int32_t>(k));
  }
  return model;
}

uint64_t SplitMix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct State {
  std::vector<char> done;
  std::vector<int32_t> uses_left;  // per root
  std::vector<int32_t> waiting;    // per node, producers not yet run
  uint64_t live = 0;
  uint64_t peak = 0;
  uint64_t hash = 0;
  size_t history = 0;  // index of the last step in the history
};

struct Step {
  size_t parent;  // index into the history, or SIZE_MAX at the root
  int32_t node;
};

struct Child {
  uint64_t peak, live, hash;
  size_t parent;  // index into the beam
  int32_t node;
};

// The beam search; returns a topological order (node indices), or an empty
// vector if the graph has a cycle (CompileGraph already refuses those).
std::vector<int32_t> SearchOrder(const OrderModel& model, const MemoryOrderOptions& options,
                                 bool* cut_short) {
  const size_t n = model.touches.size();
  std::vector<uint64_t> key(n);
  for (size_t k = 0; k < n; ++k) key[k] = SplitMix(k + 1);
  const Deadline deadline(options.budget_seconds);
  uint64_t expansions = 0;
  std::vector<Step> history;
  std::vector<State> beam(1);
  beam[0].done.assign(n, 0);
  beam[0].uses_left = model.root_uses;
  beam[0].waiting = model.predecessors;
  beam[0].history = SIZE_MAX;
  std::vector<Child> children;
  for (size_t depth = 0; depth < n; ++depth) {
    const bool greedy = deadline.ExpiredNow() || expansions >= options.max_expansions;
    *cut_short = *cut_short || greedy;
    const size_t width = greedy ? 1 : std::max<size_t>(options.beam_width, 1);
    children.clear();
    for (size_t b = 0; b < beam.size(); ++b) {
      const State& s = beam[b];
      for (size_t k = 0; k < n; ++k) {
        if (s.done[k] || s.waiting[k] != 0) continue;
        ++expansions;
        uint64_t starts = 0, ends = 0;
        for (int32_t r : model.touches[k]) {
          if (s.uses_left[r] == model.root_uses[r]) starts += model.root_bytes[r];
          if (s.uses_left[r] == 1) ends += model.root_bytes[r];
        }
        const uint64_t step = s.live + starts;
        children.push_back({std::max(s.peak, step), step - ends, s.hash ^ key[k], b,
                            static_cast<int32_t>(k)});
      }
    }
    if (children.empty()) return {};
    // Best first; ties keep the better parent, then the given order.
    std::stable_sort(children.begin(), children.end(), [](const Child& a, const Child& b) {
      return a.peak != b.peak ? a.peak < b.peak : a.live < b.live;
    });
    std::vector<State> next;
    std::vector<uint64_t> seen;
    for (const Child& c : children) {
      if (next.size() >= width) break;
      // The same set of nodes run leaves the same roots live: keep the first
      // (lowest peak) of its orders only.
      if (std::find(seen.begin(), seen.end(), c.hash) != seen.end()) continue;
      seen.push_back(c.hash);
      State s = beam[c.parent];
      s.done[c.node] = 1;
      for (int32_t r : model.touches[c.node]) --s.uses_left[r];
      for (int32_t succ : model.successors[c.node]) --s.waiting[succ];
      s.live = c.live;
      s.peak = c.peak;
      s.hash = c.hash;
      history.push_back({s.history, c.node});
      s.history = history.size() - 1;
      next.push_back(std::move(s));
    }
    beam = std::move(next);
  }
  std::vector<int32_t> order;
  for (size_t h = beam.front().history; h != SIZE_MAX; h = history[h].parent) {
    order.push_back(history[h].node);
  }
  std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace

StatusOr<uint64_t> PeakLiveBytes(const Graph& graph, Precision precision) {
  GLPOOL_ASSIGN_OR_RETURN(CompiledGraph compiled, CompileGraph(graph));
  return OffsetsLowerBound(BufferRecords(compiled, precision));
}

StatusOr<MemoryOrderResult> OrderForMemory(const Graph& graph, const MemoryOrderOptions& options) {
  MemoryOrderResult result;
  result.graph = graph;
  GLPOOL_ASSIGN_OR_RETURN(CompiledGraph compiled, CompileGraph(graph));
  result.peak_given = OffsetsLowerBound(BufferRecords(compiled, options.precision));
  result.peak = result.peak_given;
  const OrderModel model = BuildModel(graph, compiled, options.precision);
  const std::vector<int32_t> order = SearchOrder(model, options, &result.cut_short);
  if (order.size() != graph.nodes.size()) return result;
  Graph reordered = graph;
  for (size_t k = 0; k < order.size(); ++k) reordered.nodes[k] = graph.nodes[order[k]];
  // The model mirrors compile's rules; the compiled records are the judge.
  StatusOr<uint64_t> peak = PeakLiveBytes(reordered, options.precision);
  if (!peak.ok() || *peak >= result.peak_given) return result;
  result.graph = std::move(reordered);
  result.peak = *peak;
  result.reordered = true;
  return result;
}

}  // namespace glpool
