// Conv and ConvTranspose kernel cases for any number of spatial dims,
// shared by the convolution tests (conv, conv_transpose, conv_nd).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpu_backend/kernels/kernel_ops.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {

struct ConvSpec {
  Shape x;  // N x C x spatial... (W, H x W, D x H x W)
  int64_t out_channels = 4;
  std::vector<int64_t> kernel{3, 3};
  std::vector<int64_t> strides{1, 1};
  std::vector<int64_t> dilations{1, 1};
  std::vector<int64_t> pads{0, 0, 0, 0};  // begins, then ends
  int64_t group = 1;
  bool bias = true;
  std::string auto_pad;         // empty: explicit pads
  bool runtime_weights = false;  // W and B as graph inputs instead of constants
};

// One output spatial size of a forward Conv.
inline int64_t ConvOutSize(int64_t in, int64_t k, int64_t s, int64_t d, int64_t pad_begin, int64_t pad_end,
                           const std::string& auto_pad) {
  const int64_t extent = (k - 1) * d + 1;
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") return (in + s - 1) / s;
  if (auto_pad == "VALID") return (in - extent) / s + 1;
  return (in + pad_begin + pad_end - extent) / s + 1;
}

inline KernelCase Conv(const ConvSpec& spec, uint32_t seed = 1) {
  const size_t r = spec.kernel.size();
  KernelCase c;
  c.node.name = "conv";
  c.node.op_type = "Conv";
  c.node.inputs = {"x", "w"};
  c.node.outputs = {"y"};
  c.node.attributes["kernel_shape"] = spec.kernel;
  c.node.attributes["strides"] = spec.strides;
  c.node.attributes["dilations"] = spec.dilations;
  c.node.attributes["group"] = spec.group;
  if (spec.auto_pad.empty()) {
    c.node.attributes["pads"] = spec.pads;
  } else {
    c.node.attributes["auto_pad"] = spec.auto_pad;
  }
  auto& parameters = spec.runtime_weights ? c.inputs : c.constants;
  c.inputs["x"] = RandomTensor(spec.x, seed);
  Shape w = {spec.out_channels, spec.x[1] / spec.group};
  w.insert(w.end(), spec.kernel.begin(), spec.kernel.end());
  parameters["w"] = RandomTensor(w, seed + 1);
  if (spec.bias) {
    c.node.inputs.push_back("b");
    parameters["b"] = RandomTensor({spec.out_channels}, seed + 2);
  }
  Shape y = {spec.x[0], spec.out_channels};
  for (size_t i = 0; i < r; ++i) {
    const int64_t pad_begin = spec.auto_pad.empty() ? spec.pads[i] : 0;
    const int64_t pad_end = spec.auto_pad.empty() ? spec.pads[i + r] : 0;
    y.push_back(ConvOutSize(spec.x[2 + i], spec.kernel[i], spec.strides[i], spec.dilations[i], pad_begin, pad_end,
                            spec.auto_pad));
  }
  c.outputs["y"] = y;
  return c;
}

struct TransposeSpec {
  Shape x;  // N x C x spatial...
  int64_t out_per_group = 4;
  std::vector<int64_t> kernel{3, 3};
  std::vector<int64_t> strides{2, 2};
  std::vector<int64_t> dilations{1, 1};
  std::vector<int64_t> pads{1, 1, 1, 1};
  std::vector<int64_t> output_padding{0, 0};
  int64_t group = 1;
  bool bias = true;
  bool runtime_weights = false;  // W and B as graph inputs instead of constants
};

// The output shape follows from explicit pads; cases using output_shape or
// auto_pad set the node attribute and c.outputs themselves.
inline KernelCase ConvTranspose(const TransposeSpec& spec, uint32_t seed = 3) {
  const size_t r = spec.kernel.size();
  KernelCase c;
  c.node.name = "deconv";
  c.node.op_type = "ConvTranspose";
  c.node.inputs = {"x", "w"};
  c.node.outputs = {"y"};
  c.node.attributes["kernel_shape"] = spec.kernel;
  c.node.attributes["strides"] = spec.strides;
  c.node.attributes["dilations"] = spec.dilations;
  c.node.attributes["pads"] = spec.pads;
  c.node.attributes["output_padding"] = spec.output_padding;
  c.node.attributes["group"] = spec.group;
  auto& parameters = spec.runtime_weights ? c.inputs : c.constants;
  c.inputs["x"] = RandomTensor(spec.x, seed);
  Shape w = {spec.x[1], spec.out_per_group};
  w.insert(w.end(), spec.kernel.begin(), spec.kernel.end());
  parameters["w"] = RandomTensor(w, seed + 1);
  const int64_t out_channels = spec.out_per_group * spec.group;
  if (spec.bias) {
    c.node.inputs.push_back("b");
    parameters["b"] = RandomTensor({out_channels}, seed + 2);
  }
  Shape y = {spec.x[0], out_channels};
  for (size_t i = 0; i < r; ++i) {
    y.push_back(spec.strides[i] * (spec.x[2 + i] - 1) + spec.output_padding[i] +
                (spec.kernel[i] - 1) * spec.dilations[i] + 1 - spec.pads[i] - spec.pads[i + r]);
  }
  c.outputs["y"] = y;
  return c;
}

// The Conv descriptor keeps each work group within the device's invocation
// limit, from the GLES minimum of 1 (degenerate) up to typical desktop sizes.
inline void ExpectConvWorkGroupsWithinLimits(const KernelCase& c) {
  const Graph graph = GraphOf(c);
  for (uint32_t limit : {1u, 7u, 128u, 1024u}) {
    KernelLimits limits;
    limits.max_invocations = limit;
    auto plan = BuildConv(graph, graph.nodes[0], limits);
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    EXPECT_LE(plan->local_size[0] * plan->local_size[1] * plan->local_size[2], limit);
  }
}

// The plan BuildConv makes for a case's node within the default limits
// (empty, after a failed expectation, where it makes none).
inline KernelPlan ConvPlanOf(const KernelCase& c) {
  const Graph graph = GraphOf(c);
  auto plan = BuildConv(graph, graph.nodes[0], KernelLimits{});
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  return plan.ok() ? *plan : KernelPlan{};
}

// A depthwise conv over x ([N, C, H, W]) with a square k x k kernel, the
// given stride and dilation, padded to keep the size at stride 1.
inline ConvSpec DepthwiseSpec(const Shape& x, int64_t k, int64_t stride, int64_t dilation) {
  ConvSpec spec;
  spec.x = x;
  spec.out_channels = x[1];
  spec.group = x[1];
  spec.kernel = {k, k};
  spec.strides = {stride, stride};
  spec.dilations = {dilation, dilation};
  const int64_t pad = dilation * (k / 2);
  spec.pads = {pad, pad, pad, pad};
  return spec;
}

// A dense conv over x with the given window.
inline ConvSpec WindowSpec(const Shape& x, int64_t out_channels, const std::vector<int64_t>& kernel,
                    const std::vector<int64_t>& strides, const std::vector<int64_t>& dilations,
                    const std::vector<int64_t>& pads) {
  ConvSpec spec;
  spec.x = x;
  spec.out_channels = out_channels;
  spec.kernel = kernel;
  spec.strides = strides;
  spec.dilations = dilations;
  spec.pads = pads;
  return spec;
}

// A dense conv over x with a k x k kernel, stride 1, padded to keep the size.
inline ConvSpec SameSizeSpec(const Shape& x, int64_t out_channels, int64_t k) {
  return WindowSpec(x, out_channels, {k, k}, {1, 1}, {1, 1}, {k / 2, k / 2, k / 2, k / 2});
}

}  // namespace glpool::testing
