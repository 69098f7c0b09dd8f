#include "planner/objects_min_cost_flow.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>

#include "planner/objects_common.h"

namespace glpool {
namespace {

constexpr size_t kNone = SIZE_MAX;
constexpr size_t kExactUpTo = 600;
constexpr size_t kCandidates = 64;
constexpr int64_t kInf = std::numeric_limits<int64_t>::max() / 4;

struct Edge {
  size_t col;
  int64_t cost;  // >= 0
};

// Min-cost assignment of every row to a distinct column (each row has a
// column of its own, so one exists), by the primal-dual method: each phase
// runs one Dijkstra from all unmatched rows on reduced costs, raises the
// duals so that shortest augmenting paths have zero reduced cost, then
// augments along a maximal set of disjoint zero-cost paths. Costs take few
// distinct values (one per tensor size), so phases are few.
class PrimalDual {
 public:
  PrimalDual(const std::vector<std::vector<Edge>>& edges, size_t cols)
      : edges_(edges), rows_(edges.size()), cols_(cols) {}

  // Returns column -> row (kNone when unused).
  std::vector<size_t> Solve() {
    y_.assign(rows_, 0);
    z_.assign(cols_, 0);
    row_col_.assign(rows_, kNone);
    col_row_.assign(cols_, kNone);
    // Row reduction: each row's cheapest edge starts tight, so the first
    // augmentation already matches most rows. (Columns keep z = 0: a column
    // may stay unused, which needs z <= 0.)
    for (size_t r = 0; r < rows_; ++r) {
      int64_t lowest = kInf;
      for (const Edge& e : edges_[r]) lowest = std::min(lowest, e.cost);
      y_[r] = lowest;
    }
    size_t matched = AugmentAll();
    while (matched < rows_) {
      const int64_t delta = ShortestPaths();
      if (delta >= kInf) break;  // cannot happen: every row has its own column
      RaiseDuals(delta);
      const size_t augmented = AugmentAll();
      if (augmented == 0) break;  // cannot happen: a shortest path is now tight
      matched += augmented;
    }
    return col_row_;
  }

 private:
  int64_t Reduced(size_t row, const Edge& e) const { return e.cost - y_[row] - z_[e.col]; }

  // Dijkstra from every unmatched row; returns the distance to the nearest
  // unmatched column.
  int64_t ShortestPaths() {
    row_dist_.assign(rows_, kInf);
    col_dist_.assign(cols_, kInf);
    using Item = std::pair<int64_t, size_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    for (size_t r = 0; r < rows_; ++r) {
      if (row_col_[r] == kNone) {
        row_dist_[r] = 0;
        heap.push({0, r});
      }
    }
    int64_t best = kInf;
    while (!heap.empty()) {
      const auto [d, r] = heap.top();
      heap.pop();
      if (d != row_dist_[r]) continue;
      if (d >= best) break;
      for (const Edge& e : edges_[r]) {
        if (e.col == row_col_[r]) continue;
        const int64_t nd = d + Reduced(r, e);
        if (nd >= col_dist_[e.col]) continue;
        col_dist_[e.col] = nd;
        const size_t next = col_row_[e.col];
        if (next == kNone) {
          best = std::min(best, nd);
        } else if (nd < row_dist_[next]) {
          row_dist_[next] = nd;  // a matched edge has zero reduced cost
          heap.push({nd, next});
        }
      }
    }
    return best;
  }

  void RaiseDuals(int64_t delta) {
    for (size_t r = 0; r < rows_; ++r) {
      if (row_dist_[r] < delta) y_[r] += delta - row_dist_[r];
    }
    for (size_t c = 0; c < cols_; ++c) {
      if (col_dist_[c] < delta) z_[c] -= delta - col_dist_[c];
    }
  }

  // Disjoint augmenting paths over zero-reduced-cost edges (iterative DFS,
  // each column entered at most once per phase).
  size_t AugmentAll() {
    visited_.assign(cols_, 0);
    next_edge_.assign(rows_, 0);
    size_t count = 0;
    std::vector<size_t> path_rows, path_cols;
    for (size_t start = 0; start < rows_; ++start) {
      if (row_col_[start] != kNone) continue;
      path_rows.assign(1, start);
      path_cols.clear();
      while (!path_rows.empty()) {
        const size_t r = path_rows.back();
        bool advanced = false;
        while (next_edge_[r] < edges_[r].size()) {
          const Edge& e = edges_[r][next_edge_[r]++];
          if (visited_[e.col] || e.col == row_col_[r] || Reduced(r, e) != 0) continue;
          visited_[e.col] = 1;
          path_cols.push_back(e.col);
          if (col_row_[e.col] == kNone) {
            for (size_t k = 0; k < path_rows.size(); ++k) {
              row_col_[path_rows[k]] = path_cols[k];
              col_row_[path_cols[k]] = path_rows[k];
            }
            ++count;
            path_rows.clear();
          } else {
            path_rows.push_back(col_row_[e.col]);
          }
          advanced = true;
          break;
        }
        if (!advanced) {
          path_rows.pop_back();
          if (!path_cols.empty()) path_cols.pop_back();
        }
      }
    }
    return count;
  }

  const std::vector<std::vector<Edge>>& edges_;
  const size_t rows_, cols_;
  std::vector<int64_t> y_, z_, row_dist_, col_dist_;
  std::vector<size_t> row_col_, col_row_, next_edge_;
  std::vector<char> visited_;
};

}  // namespace

ObjectsAssignment<uint64_t> PlanMinCostFlowObjects(const std::vector<ByteRecord>& records) {
  const size_t n = records.size();
  // Keep costs and duals (sums of at most ~2n costs) far inside int64:
  // scale sizes down first when they are huge.
  unsigned shift = 0;
  uint64_t max_size = 0;
  for (const ByteRecord& r : records) max_size = std::max(max_size, r.size);
  while ((max_size >> shift) > (uint64_t{1} << 40) / (n + 1)) ++shift;
  const int64_t top = static_cast<int64_t>(max_size >> shift);
  // Row i: tensor i looking for a predecessor. Column j < n: take over
  // tensor j's object (j ends before i starts) at cost top - min(s_i, s_j),
  // which is the growth max(0, s_i - s_j) plus s_i's constant (top - s_i);
  // column n + i: a new object, cost top (s_i plus the same constant).
  // Above kExactUpTo tensors, each row keeps only its kCandidates cheapest
  // reuse edges (ties: the predecessor that ended last), so the network
  // stays O(n) edges instead of O(n^2).
  std::vector<std::vector<Edge>> edges(n);
  std::vector<std::pair<Edge, TaskId>> candidates;
  for (size_t i = 0; i < n; ++i) {
    candidates.clear();
    for (size_t j = 0; j < n; ++j) {
      const int64_t saving =
          static_cast<int64_t>(std::min(records[i].size, records[j].size) >> shift);
      if (records[j].last_task < records[i].first_task && saving > 0) {
        candidates.push_back({{j, top - saving}, records[j].last_task});
      }
    }
    if (n > kExactUpTo && candidates.size() > kCandidates) {
      std::nth_element(candidates.begin(), candidates.begin() + kCandidates, candidates.end(),
                       [](const auto& a, const auto& b) {
                         if (a.first.cost != b.first.cost) return a.first.cost < b.first.cost;
                         if (a.second != b.second) return a.second > b.second;
                         return a.first.col < b.first.col;
                       });
      candidates.resize(kCandidates);
    }
    for (const auto& c : candidates) edges[i].push_back(c.first);
    edges[i].push_back({n + i, top});
  }
  const std::vector<size_t> col_row = PrimalDual(edges, 2 * n).Solve();
  std::vector<size_t> successor(n, kNone);
  std::vector<char> has_predecessor(n, 0);
  for (size_t j = 0; j < n; ++j) {
    const size_t i = col_row[j];
    if (i != kNone) {
      successor[j] = i;
      has_predecessor[i] = 1;
    }
  }
  std::vector<size_t> ids(n, kNone);
  size_t next_id = 0;
  for (size_t head = 0; head < n; ++head) {
    if (has_predecessor[head]) continue;
    for (size_t t = head; t != kNone; t = successor[t]) ids[t] = next_id;
    ++next_id;
  }
  return AssignmentFromIds(records, ids);
}

}  // namespace glpool
