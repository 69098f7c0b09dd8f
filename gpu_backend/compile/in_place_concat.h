// In-place Concat: the producers of a Concat's inputs write straight into
// slices of its output, so the Concat costs no task and its inputs no
// storage of their own. Along C, PHWC4 keeps each input's channel slices
// contiguous inside the output (phwc4_layout.h: slice-major), so input i is
// a *window* of the output: the output's storage seen from slice
// `slice_offset` on (compile.h TensorStorage). Shaders add the offset in
// their accessors (shader_assembly.h TensorBinding::slice_base).
//
// A Concat qualifies when:
// - it joins float tensors of rank >= 2 along axis 1 (C), every input but
//   the last a whole number of slices (C % 4 == 0), and its output is a
//   pooled intermediate (no graph input or output, not constant);
// - every input is a distinct intermediate written by one GPU task
//   (`runs_on_gpu`), read only by GPU tasks and no aliasing reshape, and
//   neither another in-place Concat's output nor one of its inputs;
// - no task both writes one of its windows and reads or writes another of
//   them (single-shader exclusivity: one object bound once per task);
// - it does not raise the peak of live bytes: the output now lives from
//   its first input's producer on, which for a long skip connection (a
//   U-Net's encoder feature) may cost more than the copy saved, so the
//   Concat stays a copy there.
#pragma once

#include <functional>

#include "gpu_backend/graph/graph.h"

namespace glpool {

// Marks every qualifying Concat with kInPlaceConcatAttr (graph.h); returns
// how many. `runs_on_gpu(node)`: whether a GPU kernel runs the node (a CPU
// fallback reads and writes whole objects, not windows).
int MarkInPlaceConcats(Graph& graph, const std::function<bool(const Node&)>& runs_on_gpu);

}  // namespace glpool
