// Shared by the overlay tests: the networks they show and pixel checks.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "glpool/model.h"

namespace glpool::testing {

struct TestNetwork {
  std::string title;
  Model model;
  std::map<std::string, Shape> input_shapes;
  std::map<std::string, TensorData> inputs;
};

StatusOr<TestNetwork> DemoTestNetwork();
// u2netp from the shared data folder with a fixed-seed input.
StatusOr<TestNetwork> U2netpTestNetwork();

// Distinct RGB colours in an RGBA8 image.
size_t DistinctColors(const std::vector<uint8_t>& rgba);
// Pixels inside [x0, x1) x [y0, y1) whose RGB differs from `background`.
size_t PixelsUnlike(const std::vector<uint8_t>& rgba, int width, int x0, int y0, int x1, int y1,
                    const uint8_t background[3]);

}  // namespace glpool::testing
