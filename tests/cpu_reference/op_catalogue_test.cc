// The places an op is registered must agree (docs/adding-an-op.md): a GPU
// kernel needs a CPU reference (the oracle its tests and the fallback use),
// every op the CPU reference runs must get through import (a shape rule, or
// folding), and every activation the passes fuse must run on both.
#include <gtest/gtest.h>

#include "gpu_backend/cpu_reference/registry.h"
#include "gpu_backend/graph/fused_activation.h"
#include "gpu_backend/import/constant_folding.h"
#include "gpu_backend/import/shape_rules.h"
#include "gpu_backend/kernels/kernel.h"

namespace glpool {
namespace {

TEST(OpCatalogue, EveryGpuKernelHasACpuReference) {
  for (const KernelEntry& entry : KernelRegistry()) {
    EXPECT_TRUE(cpu_reference::IsSupportedOp(entry.op_type) || cpu_reference::IsInternalOp(entry.op_type))
        << entry.op_type << " has a GPU kernel but no CPU reference (gpu_backend/cpu_reference/registry.cc)";
  }
}

TEST(OpCatalogue, EveryCpuReferenceOpGetsThroughImport) {
  for (const std::string& op : cpu_reference::SupportedOps()) {
    // Constant nodes become initializers while the model is converted; an
    // If is inlined or typed from its branches (import/if_resolution.cc).
    const bool imported = op == "Constant" || op == "If" || HasShapeRule(op) || IsFoldableOp(op);
    EXPECT_TRUE(imported) << op << " has a CPU reference but import has no shape rule for it "
                          << "(gpu_backend/import/shape_rules_*.cc) and does not fold it";
  }
}

TEST(OpCatalogue, EveryFusableActivationRunsOnBothBackends) {
  const std::vector<std::string> ops = cpu_reference::SupportedOps();
  int fusable = 0;
  for (const std::string& op : ops) {
    if (!IsFusableActivation(op)) continue;
    ++fusable;
    EXPECT_NE(FindKernel(op), nullptr) << op << " is fusable but has no GPU kernel of its own";
  }
  // The fusion list (fused_activation.h) names eight activations; each must
  // have been found among the CPU reference's ops.
  EXPECT_EQ(fusable, 8);
}

}  // namespace
}  // namespace glpool
