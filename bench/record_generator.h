// Seeded generators of large usage-record sets for the planner's scale
// report (bench/planner_scale.cc) and for checks on sets that are not in
// ../shared. Same seed and size, same records, on every machine.
//  - Transformer-like: a stack of pre-norm blocks, 13 tensors each
//    (layer norm, q, k, v, scores, softmax, attention, projection, residual,
//    layer norm, MLP up, activation, MLP down + residual), fp32; the
//    residual stream outlives each block's inner tensors. Hidden size,
//    sequence length and heads are drawn once per set from the seed.
//  - Random-interval: tasks = tensors; each tensor starts at a uniform task,
//    lives a short time (1-8 tasks, 85%) or long (up to a tenth of the
//    tasks and at most 1,000, 15%: the width stays bounded as n grows), and has a log-uniform size from 1 KiB to 4 MiB in
//    multiples of 256 bytes.
#pragma once

#include <cstdint>
#include <string>

#include "planner/usage_record.h"

namespace glpool {
namespace bench {

enum class RecordShape { kTransformer, kRandomIntervals };

const char* RecordShapeName(RecordShape shape);  // "transformer", "random"

// About `tensors` records (the transformer rounds to whole blocks).
RecordSet GenerateRecords(RecordShape shape, size_t tensors, uint64_t seed);

}  // namespace bench
}  // namespace glpool
