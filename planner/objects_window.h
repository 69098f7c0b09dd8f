// Window re-optimization for shared-objects plans of byte sizes: a large
// neighbourhood search whose neighbourhoods are solved exactly.
//  - Tensors are ordered by first task. A window is a run of consecutive
//    tensors in that order; every other tensor keeps its object.
//  - The window's tensors are re-placed by depth-first branch and bound in
//    start order: into any object free for their range (around the fixed
//    tensors and the window tensors already placed), or a new object. The
//    total only grows along a branch, so a branch is cut as soon as it
//    reaches the best known total. States (object sizes and busy-until
//    tasks) already proven to fail are remembered.
//  - Windows slide over the whole order with half-window steps; sweeps
//    repeat while they improve. Node budgets (per window and overall) bound
//    the work, so the result is deterministic unless the deadline cuts it
//    short.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/budget.h"
#include "planner/usage_record.h"

namespace glpool {

struct WindowOptions {
  size_t window = 24;  // tensors per window
  uint64_t nodes_per_window = 4000;
  uint64_t total_nodes = 400000;
  int max_sweeps = 4;
  int bands = 0;
  const Deadline* deadline = nullptr;  // stops the sweeps when it expires
};

// `ids` maps tensor -> object (valid plan); rewritten in place when a better
// plan is found. Returns the (possibly) new total.
uint64_t ImproveByWindows(const std::vector<ByteRecord>& records, std::vector<size_t>* ids,
                          const WindowOptions& options);

}  // namespace glpool
