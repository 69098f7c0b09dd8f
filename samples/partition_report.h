// The GPU/CPU partition of a session (Session::partition()) as `glpool run`
// reports it: JSON for --json, and the human-readable lines.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "glpool/report.h"

namespace glpool {

nlohmann::json PartitionJson(const PartitionReport& partition);
// Prints "cpu:      ..." lines when any task runs on the CPU; nothing otherwise.
void PrintPartition(const nlohmann::json& partition, std::ostream& out);

}  // namespace glpool
