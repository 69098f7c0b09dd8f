#include <cstdio>

#include "gpu_backend/runtime/pool_plan.h"
#include "api/plan_textures.h"

namespace glpool {

StatusOr<TexturePlanTable> PlanTextures(const std::string& label, const std::vector<Extent2DRecord>& records) {
  TexturePlanTable table;
  table.label = label;
  for (const Extent2DRecord& r : records) table.naive_texels += r.size.w * r.size.h;
  for (const std::string& strategy : StrategyNamesFor("textures")) {
    // PlanTexturePool verifies every plan it returns.
    GLPOOL_ASSIGN_OR_RETURN(ObjectPoolPlan plan, PlanTexturePool(records, strategy));
    TexturePlanRow row{strategy, plan.chosen, plan.object_extents.size(), 0};
    for (const Extent2D& e : plan.object_extents) row.texels += e.w * e.h;
    table.lower_bound_texels = plan.lower_bound;
    table.rows.push_back(row);
  }
  return table;
}

void PrintTexturePlanTable(const TexturePlanTable& table, uint64_t bytes_per_texel, std::ostream& out) {
  char line[256];
  out << "== " << table.label << " (2D textures, " << bytes_per_texel << " bytes per texel)\n";
  snprintf(line, sizeof line, "naive %.2f MB, lower bound %.2f MB\n", table.naive_texels * bytes_per_texel / 1e6,
           table.lower_bound_texels * bytes_per_texel / 1e6);
  out << line;
  snprintf(line, sizeof line, "%-16s %-16s %8s %10s %9s %9s\n", "strategy", "chosen", "objects", "MB", "of naive",
           "of bound");
  out << line;
  for (const TexturePlanRow& row : table.rows) {
    const double naive = static_cast<double>(table.naive_texels), bound = static_cast<double>(table.lower_bound_texels);
    snprintf(line, sizeof line, "%-16s %-16s %8zu %10.2f %8.1f%% %8.3fx\n", row.strategy.c_str(), row.chosen.c_str(),
             row.objects, row.texels * bytes_per_texel / 1e6, naive > 0 ? 100.0 * row.texels / naive : 0.0,
             bound > 0 ? row.texels / bound : 1.0);
    out << line;
  }
}

}  // namespace glpool
