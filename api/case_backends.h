// The two backends the ONNX case runner (onnx_test_case.h) drives: the CPU
// reference and the GPU executor, each with what it needs around the run —
// which ops it may meet, which inputs it needs bound as constants, the graph
// passes, and its tolerance. `glpool test-onnx` and the conformance tests
// build their runs from here, so both check the same thing.
#pragma once

#include <string>

#include "gpu_backend/cpu_reference/onnx_test_case.h"
#include "gpu_backend/runtime/executor.h"

namespace glpool {

// The CPU reference; `fuse` runs the default graph passes first.
CaseOptions CpuCaseOptions(bool fuse);

// The GPU executor with `options` (a current GLES 3.1 context is needed
// while cases run). Always runs the default passes; in fp16 each case
// calibrates on its inputs (FindHalfUnsafeTensors). Parameter inputs
// (kernels/parameter_inputs.h) are bound from the data set.
CaseOptions GpuCaseOptions(const ExecutorOptions& options);

// The GPU's bounds: ONNX's per-element rule (fp32) or a half-precision one
// for ONNX's cases; 1e-3 (fp32) or 3e-2 (fp16) of max |reference| for
// whole networks, whose thousands of accumulations round differently.
Tolerance GpuTolerance(const std::string& dir, bool fp16);

}  // namespace glpool
