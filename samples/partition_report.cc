#include "samples/partition_report.h"

#include <iomanip>

namespace glpool {

nlohmann::json PartitionJson(const PartitionReport& partition) {
  return {{"gpu_tasks", partition.gpu_tasks},
          {"cpu_tasks", partition.cpu_tasks},
          {"cpu_nodes", partition.cpu_nodes},
          {"transfers_to_cpu", partition.transfers_to_cpu},
          {"transfers_to_gpu", partition.transfers_to_gpu},
          {"bytes_to_cpu", partition.bytes_to_cpu},
          {"bytes_to_gpu", partition.bytes_to_gpu}};
}

void PrintPartition(const nlohmann::json& partition, std::ostream& out) {
  const uint64_t cpu = partition["cpu_tasks"].get<uint64_t>();
  if (cpu == 0) return;
  const uint64_t total = cpu + partition["gpu_tasks"].get<uint64_t>();
  out << "cpu:      " << cpu << " of " << total << " tasks on the CPU reference:";
  for (const auto& node : partition["cpu_nodes"]) out << " " << node.get<std::string>();
  out << "\n          per run " << partition["transfers_to_cpu"].get<uint64_t>() << " transfers to the CPU ("
      << partition["bytes_to_cpu"].get<uint64_t>() << " bytes), " << partition["transfers_to_gpu"].get<uint64_t>()
      << " to the GPU (" << partition["bytes_to_gpu"].get<uint64_t>() << " bytes)\n";
}

}  // namespace glpool
