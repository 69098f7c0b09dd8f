#include "samples/ocr_pipeline.h"

#include <algorithm>
#include <chrono>
#include <ostream>

namespace glpool {
namespace {

double MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

StatusOr<std::unique_ptr<Model>> LoadOne(const std::string& path) {
  GLPOOL_ASSIGN_OR_RETURN(Model model, Model::Load(path));
  if (model.inputs().size() != 1 || model.outputs().empty()) {
    return InvalidModelError(path + ": expected one input and an output, as PP-OCR's networks have (" +
                             std::to_string(model.inputs().size()) + " inputs, " +
                             std::to_string(model.outputs().size()) + " outputs)");
  }
  return std::make_unique<Model>(std::move(model));
}

}  // namespace

StatusOr<std::unique_ptr<OcrPipeline>> OcrPipeline::Create(const OcrModelFiles& files, const OcrOptions& options) {
  auto pipeline = std::unique_ptr<OcrPipeline>(new OcrPipeline());
  pipeline->options_ = options;
  for (auto [network, path] : {std::pair{&pipeline->det_, files.det}, std::pair{&pipeline->cls_, files.cls},
                               std::pair{&pipeline->rec_, files.rec}}) {
    network->path = path;
    GLPOOL_ASSIGN_OR_RETURN(network->model, LoadOne(path));
  }
  GLPOOL_ASSIGN_OR_RETURN(pipeline->classes_, ReadOcrDictionary(files.dictionary));
  // rec's output is batch x steps x classes; its class count is fixed.
  const TensorInfo& rec_out = pipeline->rec_.model->outputs()[0];
  if (rec_out.dims.size() != 3 || !rec_out.dims[2].fixed()) {
    return InvalidModelError(files.rec + ": output '" + rec_out.name +
                             "' is not batch x steps x classes with a fixed class count");
  }
  const int64_t classes = rec_out.dims[2].value;
  if (classes != static_cast<int64_t>(pipeline->classes_.size())) {
    return InvalidArgumentError(files.dictionary + " gives " + std::to_string(pipeline->classes_.size()) +
                                " classes (blank, " + std::to_string(pipeline->classes_.size() - 2) +
                                " characters, space) but " + files.rec + " outputs " + std::to_string(classes) +
                                ": the dictionary is not this recogniser's");
  }
  return pipeline;
}

StatusOr<TensorData> OcrPipeline::RunNetwork(Network& network, const TensorData& input) {
  const std::string& name = network.model->inputs()[0].name;
  if (network.session == nullptr) {
    SessionOptions session_options;
    session_options.objects = options_.objects;
    session_options.precision = options_.precision;
    session_options.input_shapes = {{name, input.shape}};
    if (options_.precision == Precision::kFp16) session_options.calibration_inputs = {{name, input}};
    auto made = Session::Create(*network.model, session_options);
    if (!made.ok()) return made.status().WithContext(network.path);
    network.session = std::move(made).value();
  } else {
    Status reshaped = network.session->Reshape({{name, input.shape}});
    if (!reshaped.ok()) return reshaped.WithContext(network.path);
  }
  auto outputs = network.session->Run({{name, input}});
  if (!outputs.ok()) return outputs.status().WithContext(network.path);
  return outputs->at(network.model->outputs()[0].name);
}

StatusOr<OcrResult> OcrPipeline::Read(const RgbImage& image, std::ostream& progress) {
  OcrResult result;
  const auto start = std::chrono::steady_clock::now();
  const TensorData det_input = DetInput(image, options_.limit_side);
  result.det_shape = det_input.shape;
  progress << "ocr: det on " << ShapeToString(det_input.shape) << " (" << image.width << "x" << image.height
           << " image)\n";
  GLPOOL_ASSIGN_OR_RETURN(const TensorData probability, RunNetwork(det_, det_input));
  if (probability.shape.size() != 4 || probability.shape[2] != det_input.shape[2] ||
      probability.shape[3] != det_input.shape[3]) {
    return InvalidModelError(det_.path + ": output " + ShapeToString(probability.shape) +
                             " is not a probability map of the input's size " + ShapeToString(det_input.shape));
  }
  const std::vector<TextBox> boxes =
      BoxesFromProbabilityMap(probability.ToFloats(), probability.shape[3], probability.shape[2], image.width,
                              image.height, options_.det);
  result.det_ms = MsSince(start);
  progress << "ocr: " << boxes.size() << " boxes\n";
  std::vector<RgbImage> crops;
  for (const TextBox& box : boxes) crops.push_back(CropBox(image, box));
  // Batches as PaddleOCR makes them: lines of similar aspect ratio together,
  // so the padding each batch's widest line forces on the others is small.
  std::vector<size_t> order(crops.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return crops[a].width * crops[b].height < crops[b].width * crops[a].height;
  });
  std::vector<Direction> directions(crops.size());
  std::vector<DecodedText> texts(crops.size());
  for (size_t first = 0; first < order.size(); first += options_.batch) {
    const size_t last = std::min(order.size(), first + options_.batch);
    std::vector<const RgbImage*> batch;
    for (size_t k = first; k < last; ++k) batch.push_back(&crops[order[k]]);
    if (options_.use_cls) {
      const auto cls_start = std::chrono::steady_clock::now();
      const TensorData cls_input = LinesInput(batch, 48, 192);
      progress << "ocr: cls on " << ShapeToString(cls_input.shape) << "\n";
      GLPOOL_ASSIGN_OR_RETURN(const TensorData softmax, RunNetwork(cls_, cls_input));
      if (softmax.shape.size() != 2 || softmax.shape[0] != static_cast<int64_t>(batch.size()) || softmax.shape[1] != 2) {
        return InvalidModelError(cls_.path + ": output " + ShapeToString(softmax.shape) + " is not " +
                                 std::to_string(batch.size()) + " x 2 (0 and 180 degrees)");
      }
      const std::vector<float> values = softmax.ToFloats();
      for (size_t k = first; k < last; ++k) {
        directions[order[k]] = ReadDirection(values.data() + 2 * (k - first));
        if (directions[order[k]].upside_down) crops[order[k]] = Rotate180(crops[order[k]]);
      }
      result.cls_ms += MsSince(cls_start);
    }
    const auto rec_start = std::chrono::steady_clock::now();
    const TensorData rec_input = LinesInput(batch, 48, RecInputWidth(batch));
    progress << "ocr: rec on " << ShapeToString(rec_input.shape) << " (boxes " << first + 1 << "-" << last << " of "
             << boxes.size() << ")\n";
    GLPOOL_ASSIGN_OR_RETURN(const TensorData scores, RunNetwork(rec_, rec_input));
    const int64_t classes = static_cast<int64_t>(classes_.size());
    if (scores.shape.size() != 3 || scores.shape[0] != static_cast<int64_t>(batch.size()) ||
        scores.shape[2] != classes) {
      return InvalidModelError(rec_.path + ": output " + ShapeToString(scores.shape) + " is not " +
                               std::to_string(batch.size()) + " x steps x " + std::to_string(classes));
    }
    const std::vector<float> values = scores.ToFloats();
    const int64_t steps = scores.shape[1];
    for (size_t k = first; k < last; ++k) {
      texts[order[k]] = CtcGreedyDecode(values.data() + static_cast<int64_t>(k - first) * steps * classes, steps, classes_);
    }
    result.rec_ms += MsSince(rec_start);
  }
  for (size_t i = 0; i < boxes.size(); ++i) {
    if (texts[i].score < options_.drop_score) {
      ++result.dropped;
      continue;
    }
    result.lines.push_back({boxes[i], directions[i], texts[i]});
  }
  result.total_ms = MsSince(start);
  return result;
}

}  // namespace glpool
