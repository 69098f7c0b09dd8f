// Helpers for kernels that map between logical (ONNX) indices and PHWC4.
//
// A PHWC4 tensor's texel lane (n, c, h, w) is logical element number
// ((n * C + c) * H + h) * W + w for every rank (phwc4_layout.h folds the
// middle dims into H in row-major order), so a kernel that cannot use vec4
// loads maps output lane -> logical flat index -> input flat index -> the
// input's (n, c, h, w). These helpers prepare the constants such kernels
// receive as defines, and read the constant inputs (axes, pads, scales...)
// descriptors need at build time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/channel_map.h"  // RowMajorStrides
#include "gpu_backend/graph/graph.h"

namespace glpool {

// Most logical dims a coordinate-mapping kernel handles (GLSL arrays are
// sized for it).
inline constexpr size_t kMaxMappedRank = 8;

// The PHWC4 axis (0 n, 1 c, 2 h, 3 w) that logical dim `d` of a rank-`rank`
// shape folds into (phwc4_layout.h).
int Phwc4AxisOf(size_t d, size_t rank);

// "int[8](a, b, ..., fill, fill)": a GLSL array constructor of exactly
// `length` elements. Values must fit an int.
std::string GlslIntArray(const std::vector<int64_t>& values, size_t length = kMaxMappedRank, int64_t fill = 0);
// A GLSL float literal ("1.5", "-2.0", "1e-05"); infinities are clamped to
// the largest finite float since GLSL has no infinity literal.
std::string GlslFloat(double value);

// An axis attribute or input value made non-negative, or InvalidModel.
StatusOr<int64_t> NormalizeAxis(int64_t axis, size_t rank);

// The values of input `index` of `node`, which must be a constant tensor
// (kernels bake shapes and parameters into their shader). An omitted
// optional input (index past the end or "") yields `absent`.
StatusOr<std::vector<int64_t>> ConstantInts(const Graph& graph, const Node& node, size_t index,
                                            std::vector<int64_t> absent = {});
StatusOr<std::vector<float>> ConstantFloats(const Graph& graph, const Node& node, size_t index,
                                            std::vector<float> absent = {});
// Whether input `index` is present (not omitted).
bool HasInput(const Node& node, size_t index);

// Unsupported unless the GPU can hold the tensor's values exactly: float32
// and float16, and integers and bools, which live in float32 storage as
// whole numbers (exact up to 2^24; the executor checks values at the graph
// boundary and converts results back to the declared type). float64 has
// no GPU storage; only Cast's descriptor accepts it at the graph's edge.
Status RequireGpuStorable(const Tensor& tensor);

// Checks that the element count fits GLSL's 32-bit int arithmetic.
Status CheckIndexable(const Shape& shape);

}  // namespace glpool
