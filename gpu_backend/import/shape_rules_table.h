// The rule table behind shape_rules.h, split across files by op family.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gpu_backend/import/node_view.h"
#include "gpu_backend/import/shape_rules.h"

namespace glpool {

using ShapeRule = StatusOr<std::vector<TensorType>> (*)(const NodeView& v);
using ShapeRuleTable = std::map<std::string, ShapeRule>;

void AddElementwiseRules(ShapeRuleTable* table);  // shape_rules_elementwise.cc
void AddLayoutRules(ShapeRuleTable* table);       // shape_rules_layout.cc
void AddSpatialRules(ShapeRuleTable* table);      // shape_rules_spatial.cc
void AddRecurrentRules(ShapeRuleTable* table);     // shape_rules_recurrent.cc
void AddQuantizedRules(ShapeRuleTable* table);     // shape_rules_quantized.cc

inline std::vector<TensorType> One(DataType dtype, Shape shape) { return {TensorType{dtype, std::move(shape)}}; }

}  // namespace glpool
