// Usage records for the planner from a compiled graph: one record per
// pooled storage root (compile.h), in CompiledGraph::pooled order, for each
// kind of shared object.
//
// Sizes follow the PHWC4 layout (graph/phwc4_layout.h) with channels padded to a
// multiple of 4, at the chosen precision (4 or 2 bytes per channel, for
// every tensor whatever its ONNX dtype: the GPU holds all values as floats):
//   buffers/arena  bytes = N*H*W*slices*4*bytes_per_channel
//   2-D textures   {w = W, h = N*H*slices}  (slices stacked along height,
//                  as phwc4_layout.h orders texels: slice, row, column)
//   3-D textures   {w = W, h = N*H, d = slices}
#pragma once

#include <string>
#include <vector>

#include "glpool/options.h"
#include "gpu_backend/compile/compile.h"
#include "planner/usage_record.h"

namespace glpool {

// Precision and PrecisionName come from glpool/options.h.
// Bytes per channel value: 4 for fp32, 2 for fp16.
uint64_t BytesPerChannel(Precision precision);

uint64_t Phwc4Bytes(const Phwc4Layout& layout, Precision precision);
Extent2D Phwc4Extent2D(const Phwc4Layout& layout);
Extent3D Phwc4Extent3D(const Phwc4Layout& layout);

std::vector<ByteRecord> BufferRecords(const CompiledGraph& compiled, Precision precision);
std::vector<Extent2DRecord> Texture2DRecords(const CompiledGraph& compiled);
std::vector<Extent3DRecord> Texture3DRecords(const CompiledGraph& compiled);

// Buffer records with names, in the planner's RecordSet form.
RecordSet ToRecordSet(const CompiledGraph& compiled, Precision precision, const std::string& model);

}  // namespace glpool
