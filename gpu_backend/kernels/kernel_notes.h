// What GPU kernels hand to the CPU fallback, one phrase per note, read by
// `glpool ops` (glpool/ops.h). Kept beside the registry so a descriptor's
// kUnsupported refusals and its note change together; the op catalogue
// test checks every note belongs to a registered kernel.
#pragma once

#include <string>
#include <vector>

#include "gpu_backend/kernels/kernel.h"

namespace glpool {

struct GpuKernelNote {
  KernelBuilder builder;          // the descriptor whose refusals the note sums up
  std::vector<const char*> ops;   // the ops it concerns; empty: every op built by `builder`
  const char* text;
};

const std::vector<GpuKernelNote>& GpuKernelNotes();

// The notes for `op_type` (registered with `builder`), joined with "; ";
// "" when none.
std::string GpuKernelNotesFor(const std::string& op_type, KernelBuilder builder);

}  // namespace glpool
