#include "gpu_backend/compile/in_place_concat.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/phwc4_layout.h"

namespace glpool {
namespace {

bool IsFloat(DataType dtype) { return dtype == DataType::kFloat32 || dtype == DataType::kFloat16; }

bool IsAliasNode(const Node& node) { return node.GetInt(kAliasAttr, 0) != 0; }

int64_t Bytes(const Tensor& tensor) { return LayoutOf(tensor.shape).texels() * 16; }

// Who writes and reads each tensor, by node index (aliasing reshapes count
// as readers of their input).
struct Uses {
  std::map<std::string, size_t> producer;
  std::map<std::string, std::vector<size_t>> readers;
  std::set<std::string> graph_ends;  // graph inputs and outputs
};

Uses FindUses(const Graph& graph) {
  Uses uses;
  uses.producer = ProducerIndex(graph);
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    for (const std::string& in : graph.nodes[n].inputs) {
      if (!in.empty()) uses.readers[in].push_back(n);
    }
  }
  uses.graph_ends.insert(graph.inputs.begin(), graph.inputs.end());
  uses.graph_ends.insert(graph.outputs.begin(), graph.outputs.end());
  return uses;
}

// Live bytes per node index, the planner's peak in miniature: every
// intermediate from its producer to its last reader, an aliasing reshape's
// readers counted as its source's.
class LiveBytes {
 public:
  LiveBytes(const Graph& graph, const Uses& uses) : bytes_(graph.nodes.size() + 1, 0) {
    std::map<std::string, std::string> root;
    for (const Node& node : graph.nodes) {
      if (IsAliasNode(node) && !node.inputs.empty() && node.outputs.size() == 1) {
        auto it = root.find(node.inputs[0]);
        root[node.outputs[0]] = it == root.end() ? node.inputs[0] : it->second;
      }
    }
    std::map<std::string, std::pair<size_t, size_t>> span;  // by root: first, last node
    for (const auto& [name, tensor] : graph.tensors) {
      if (tensor.is_constant || uses.graph_ends.count(name)) continue;
      auto r = root.find(name);
      const std::string& owner = r == root.end() ? name : r->second;
      auto produced = uses.producer.find(owner);
      if (produced == uses.producer.end()) continue;
      auto entry = span.try_emplace(owner, produced->second, produced->second).first;
      auto read = uses.readers.find(name);
      if (read != uses.readers.end()) {
        for (size_t n : read->second) entry->second.second = std::max(entry->second.second, n);
      }
    }
    for (const auto& [name, s] : span) Add(s.first, s.second, Bytes(*graph.FindTensor(name)));
    spans_ = std::move(span);
  }

  // Tensor `name`'s first and last node (producer to last reader), where it
  // counts here (an intermediate that a node writes).
  std::optional<std::pair<size_t, size_t>> Span(const std::string& name) const {
    auto it = spans_.find(name);
    if (it == spans_.end()) return std::nullopt;
    return it->second;
  }
  void Move(const std::string& name, size_t first, size_t last, int64_t bytes) {
    auto it = spans_.find(name);
    if (it != spans_.end()) Add(it->second.first, it->second.second, -bytes);
    Add(first, last, bytes);
    spans_[name] = {first, last};
  }
  void Drop(const std::string& name, int64_t bytes) {
    auto it = spans_.find(name);
    if (it == spans_.end()) return;
    Add(it->second.first, it->second.second, -bytes);
    spans_.erase(it);
  }

  void Add(size_t first, size_t last, int64_t bytes) {
    for (size_t t = first; t <= last && t < bytes_.size(); ++t) bytes_[t] += bytes;
  }
  int64_t Peak() const { return *std::max_element(bytes_.begin(), bytes_.end()); }
  const std::vector<int64_t>& bytes() const { return bytes_; }

 private:
  std::vector<int64_t> bytes_;
  std::map<std::string, std::pair<size_t, size_t>> spans_;
};

struct Window {
  std::string name;
  size_t producer = 0;
  size_t last_reader = 0;
};

// The windows of Concat node `index` if it qualifies by shape, type and
// use (the header's first three rules), else empty.
std::vector<Window> Candidate(const Graph& graph, size_t index, const Uses& uses, const std::set<std::string>& claimed,
                              const std::function<bool(const Node&)>& runs_on_gpu) {
  const Node& concat = graph.nodes[index];
  if (concat.op_type != "Concat" || !concat.domain.empty() || concat.outputs.size() != 1 ||
      concat.inputs.size() < 2) {
    return {};
  }
  const Tensor* out = graph.FindTensor(concat.outputs[0]);
  if (out == nullptr || out->is_constant || !IsFloat(out->dtype) || out->shape.size() < 2 ||
      uses.graph_ends.count(out->name) || claimed.count(out->name)) {
    return {};
  }
  const int64_t rank = static_cast<int64_t>(out->shape.size());
  int64_t axis = concat.GetInt("axis", 1);
  if (axis < 0) axis += rank;
  if (axis != 1) return {};
  std::vector<Window> windows;
  std::set<std::string> seen;
  int64_t channels = 0;
  for (size_t i = 0; i < concat.inputs.size(); ++i) {
    const Tensor* x = graph.FindTensor(concat.inputs[i]);
    if (x == nullptr || x->is_constant || x->dtype != out->dtype || x->shape.size() != out->shape.size() ||
        uses.graph_ends.count(x->name) || claimed.count(x->name) || !seen.insert(x->name).second) {
      return {};
    }
    for (size_t d = 0; d < x->shape.size(); ++d) {
      if (d != 1 && x->shape[d] != out->shape[d]) return {};
    }
    if (i + 1 < concat.inputs.size() && x->shape[1] % 4 != 0) return {};
    channels += x->shape[1];
    auto produced = uses.producer.find(x->name);
    if (produced == uses.producer.end()) return {};
    const Node& producer = graph.nodes[produced->second];
    if (IsAliasNode(producer) || producer.GetInt(kInPlaceConcatAttr, 0) != 0 || !runs_on_gpu(producer)) return {};
    Window window{x->name, produced->second, index};
    for (size_t reader : uses.readers.at(x->name)) {
      if (reader == index) continue;
      if (IsAliasNode(graph.nodes[reader]) || !runs_on_gpu(graph.nodes[reader])) return {};
      window.last_reader = std::max(window.last_reader, reader);
    }
    windows.push_back(window);
  }
  if (channels != out->shape[1]) return {};
  return windows;
}

// Single-shader exclusivity: no node other than the Concat may write one of
// the tensors sharing the output's object and read or write another. Only
// the windows' producers and readers, and the output's readers, touch them.
bool BindsOneObjectOnce(const Graph& graph, size_t index, const std::vector<Window>& windows, const Uses& uses) {
  const std::string& out = graph.nodes[index].outputs[0];
  std::set<std::string> shared{out};
  std::set<size_t> touching;
  auto readers_of = [&](const std::string& name) {
    auto it = uses.readers.find(name);
    if (it != uses.readers.end()) touching.insert(it->second.begin(), it->second.end());
  };
  readers_of(out);
  for (const Window& w : windows) {
    shared.insert(w.name);
    touching.insert(w.producer);
    readers_of(w.name);
  }
  touching.erase(index);
  for (size_t n : touching) {
    std::set<std::string> reads, writes;
    for (const std::string& in : graph.nodes[n].inputs) {
      if (shared.count(in)) reads.insert(in);
    }
    for (const std::string& o : graph.nodes[n].outputs) {
      if (shared.count(o)) writes.insert(o);
    }
    if (!writes.empty() && (!reads.empty() || writes.size() > 1)) return false;
  }
  return true;
}

}  // namespace

int MarkInPlaceConcats(Graph& graph, const std::function<bool(const Node&)>& runs_on_gpu) {
  const Uses uses = FindUses(graph);
  LiveBytes live(graph, uses);
  std::set<std::string> claimed;  // windows and outputs of the Concats marked so far
  int marked = 0;
  for (size_t index = 0; index < graph.nodes.size(); ++index) {
    const std::vector<Window> windows = Candidate(graph, index, uses, claimed, runs_on_gpu);
    if (windows.empty() || !BindsOneObjectOnce(graph, index, windows, uses)) continue;
    // The output now lives from the first window's producer to the last
    // reader of it or any window, and the windows' own bytes go: live bytes
    // change over [first, last] only.
    const Tensor& out = *graph.FindTensor(graph.nodes[index].outputs[0]);
    const auto out_span = live.Span(out.name);
    size_t first = index, last = index;
    if (out_span) {
      first = std::min(first, out_span->first);
      last = std::max(last, out_span->second);
    }
    for (const Window& w : windows) {
      first = std::min(first, w.producer);
      last = std::max(last, w.last_reader);
    }
    std::vector<int64_t> change(last - first + 1, 0);
    auto add = [&](std::optional<std::pair<size_t, size_t>> span, int64_t bytes) {
      if (!span) return;
      for (size_t t = std::max(span->first, first); t <= std::min(span->second, last); ++t) {
        change[t - first] += bytes;
      }
    };
    add(out_span, -Bytes(out));
    for (const Window& w : windows) add(live.Span(w.name), -Bytes(*graph.FindTensor(w.name)));
    add(std::make_pair(first, last), Bytes(out));
    const int64_t peak = live.Peak();
    bool raises = false;
    for (size_t t = first; t <= last; ++t) raises = raises || live.bytes()[t] + change[t - first] > peak;
    if (raises) continue;
    for (const Window& w : windows) live.Drop(w.name, Bytes(*graph.FindTensor(w.name)));
    live.Move(out.name, first, last, Bytes(out));
    graph.nodes[index].attributes[kInPlaceConcatAttr] = int64_t{1};
    claimed.insert(out.name);
    for (const Window& w : windows) claimed.insert(w.name);
    ++marked;
  }
  return marked;
}

}  // namespace glpool
