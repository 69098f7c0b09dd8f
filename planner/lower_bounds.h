// Lower bounds: provable floors under any valid plan of a record set.
//
// Every report compares a plan with these, so they must be true floors, not
// estimates. Records with last_task < first_task are never live and are
// ignored here (the records reader rejects them before they get this far).
//
// Only the tasks at which some record starts need to be looked at: the set of
// records live at a task t is contained in the set live at s, the latest
// first_task among t's live records (each of them started at or before s and
// ends at or after t >= s). Every bound below is monotone under taking a
// larger live set, so maxima over those start tasks are maxima over all tasks.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/usage_record.h"

namespace glpool {

// Arena (offsets) lower bound, in bytes: max over tasks of the sum of the
// sizes of the records live at that task.
// Proof idea: at that task every live record needs its own bytes in the arena
// (live ranges overlap, so their byte ranges must be disjoint), hence the arena
// holds at least their sum.
uint64_t OffsetsLowerBound(const std::vector<ByteRecord>& records);

// Shared-objects lower bound, in bytes: sum over k >= 1 of L_k, where L_k is
// the max over tasks of the k-th largest size among the records live there
// (0 when fewer than k are live).
// Proof idea: at task t the records live there sit in pairwise distinct
// objects (overlapping live ranges never share one), so the objects holding
// the k largest of them are k distinct objects of size >= the k-th largest
// live size s_{t,k}. Hence in any plan, the k-th largest object o_k >=
// s_{t,k} for every t, so o_k >= L_k and sum_k o_k >= sum_k L_k.
uint64_t SharedObjectsLowerBound(const std::vector<ByteRecord>& records);

// The L_k above, largest first (the "positional maxima" of TFLite's
// description): element k-1 is L_k; its length is the most records ever live
// at once. Strategies use it to rank tensors by the object they would need.
std::vector<uint64_t> PositionalMaxima(const std::vector<ByteRecord>& records);

// The extent analogue, in texels: the same sum over k of L_k, where sizes are
// measured as texel counts (w*h for 2D, w*h*d for 3D). It bounds the total
// texel count sum over objects of Texels(object extent); multiply by the bytes
// per texel (e.g. 16 for RGBA32F) for bytes.
// Proof idea: an object covering a tensor in every dimension has at least that
// tensor's texel count (w_obj >= w, h_obj >= h, ... so the products compare
// too), so the byte argument above carries over with texel counts as sizes.
// It ignores the shape constraint (an object must cover the per-dimension
// max, not just the texel count), so it is a floor that may not be reachable.
// Texel counts are assumed to fit in 64 bits.
uint64_t SharedObjectsLowerBoundTexels(const std::vector<Extent2DRecord>& records);
uint64_t SharedObjectsLowerBoundTexels(const std::vector<Extent3DRecord>& records);

// Sizes as texel counts: one byte record per extent record, same live range.
// Lets byte-level tools (bounds, reports) run on extents.
std::vector<ByteRecord> TexelRecords(const std::vector<Extent2DRecord>& records);
std::vector<ByteRecord> TexelRecords(const std::vector<Extent3DRecord>& records);

// Sum of record sizes: the naive plan (one object per tensor).
uint64_t NaiveBytes(const std::vector<ByteRecord>& records);

}  // namespace glpool
