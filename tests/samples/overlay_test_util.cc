#include "tests/samples/overlay_test_util.h"

#include <cstdlib>
#include <set>

#include "samples/model_input.h"
#include "samples/model_loading.h"
#include "samples/overlay/demo_graph.h"

namespace glpool::testing {

StatusOr<TestNetwork> DemoTestNetwork() {
  GLPOOL_ASSIGN_OR_RETURN(overlay::DemoNetwork demo, overlay::BuildDemoNetwork());
  return TestNetwork{"demo", std::move(demo.model), {}, std::move(demo.inputs)};
}

StatusOr<TestNetwork> U2netpTestNetwork() {
  const std::string path = std::string(GLPOOL_SHARED_DIR) + "/models/u2netp/model.onnx";
  GLPOOL_ASSIGN_OR_RETURN(Model model, LoadModelForRun(path, ModelLoadFlags{}));
  GLPOOL_ASSIGN_OR_RETURN(auto shapes, ResolvedInputShapes(model, ModelLoadFlags{}));
  TestNetwork network{"u2netp", std::move(model), shapes, {}};
  for (const TensorInfo& input : network.model.inputs()) {
    GLPOOL_ASSIGN_OR_RETURN(network.inputs[input.name], LoadModelInput("", {input.name, input.dtype, shapes.at(input.name)}));
  }
  return network;
}

size_t DistinctColors(const std::vector<uint8_t>& rgba) {
  std::set<uint32_t> colors;
  for (size_t i = 0; i + 3 < rgba.size(); i += 4) {
    colors.insert(uint32_t{rgba[i]} << 16 | uint32_t{rgba[i + 1]} << 8 | rgba[i + 2]);
  }
  return colors.size();
}

size_t PixelsUnlike(const std::vector<uint8_t>& rgba, int width, int x0, int y0, int x1, int y1,
                    const uint8_t background[3]) {
  size_t count = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      const uint8_t* p = &rgba[(static_cast<size_t>(y) * width + x) * 4];
      if (std::abs(p[0] - background[0]) + std::abs(p[1] - background[1]) + std::abs(p[2] - background[2]) > 12) {
        ++count;
      }
    }
  }
  return count;
}

}  // namespace glpool::testing
