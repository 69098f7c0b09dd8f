// Moving tensors between CPU and GPU: uploads of inputs, constants and
// weights, read-backs of outputs, the CPU fallback's transfers, and the
// fp16 calibration run that reads every tensor.
#include <algorithm>
#include <cmath>

#include "gpu_backend/gl/gl_call.h"
#include "gpu_backend/gl/texture_transfer.h"
#include "gpu_backend/runtime/cpu_fallback.h"
#include "gpu_backend/runtime/executor_state.h"
#include "gpu_backend/runtime/gpu_values.h"
#include "gpu_backend/runtime/layout_convert.h"

namespace glpool {

using gl::GlBuffer;
using gl::GlTexture;

namespace {

float MaxMagnitude(const std::vector<float>& values) {
  float largest = 0.0f;
  for (float v : values) {
    if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
  }
  return largest;
}

}  // namespace

Status Executor::State::WriteTensor(const std::string& root, const std::vector<float>& logical,
                                    const std::string& as) {
  if (!as.empty() && SliceOffset(as) != 0) {
    // In-place Concats take GPU producers only (in_place_concat.h).
    return InternalError("tensor " + as + " is a window of " + root + ": only a GPU task writes it");
  }
  const Location& location = locations.at(root);
  const Phwc4Layout layout = LayoutOfTensor(as.empty() ? root : as);
  if (layout.texels() == 0) return Status::Ok();
  std::vector<float> texels = ToPhwc4(logical, layout);
  if (location.storage != StorageKind::kBuffer) {
    // A pooled texture may be larger than its tensor.
    return gl::UploadTextureRows(textures[location.gl_object], texels, layout.w,
                                 static_cast<uint64_t>(layout.rows() * layout.slices()), Transfers());
  }
  const GlBuffer& buffer = buffers[location.gl_object];
  if (StoresHalf(root)) {
    std::vector<uint32_t> packed = PackHalves(texels);
    return buffer.Write(location.offset, packed.data(), packed.size() * sizeof(uint32_t));
  }
  return buffer.Write(location.offset, texels.data(), texels.size() * sizeof(float));
}

StatusOr<std::vector<float>> Executor::State::ReadTensor(const std::string& root, const std::string& as) const {
  const Location& location = locations.at(root);
  const std::string& tensor = as.empty() ? root : as;
  const Phwc4Layout layout = LayoutOfTensor(tensor);
  if (layout.texels() == 0) return std::vector<float>();
  // A window (an in-place Concat's input) starts that many slices into its
  // root's storage, whose rows and columns it shares.
  const int64_t first_row = SliceOffset(tensor) * layout.rows();
  const uint64_t first_texel = static_cast<uint64_t>(first_row * layout.w);
  std::vector<float> texels;
  if (location.storage != StorageKind::kBuffer) {
    GLPOOL_ASSIGN_OR_RETURN(std::vector<float> all, gl::DownloadTexture(textures[location.gl_object], Transfers()));
    // The root occupies the first W columns of the first rows*slices rows.
    const GlTexture& texture = textures[location.gl_object];
    const int64_t rows = layout.rows() * layout.slices();
    if (static_cast<uint64_t>((first_row + rows) * texture.width() * 4) > all.size()) {
      return InternalError("tensor " + tensor + " lies outside the texture of " + root);
    }
    texels.resize(static_cast<size_t>(layout.texels()) * 4);
    for (int64_t row = 0; row < rows; ++row) {
      std::copy_n(all.begin() + static_cast<std::ptrdiff_t>((first_row + row) * texture.width() * 4), layout.w * 4,
                  texels.begin() + static_cast<std::ptrdiff_t>(row * layout.w * 4));
    }
  } else if (StoresHalf(root)) {
    std::vector<uint32_t> packed(static_cast<size_t>(layout.texels()) * 2);
    GLPOOL_RETURN_IF_ERROR(buffers[location.gl_object].Read(location.offset + first_texel * TexelBytes(true),
                                                            packed.data(), packed.size() * 4));
    texels = UnpackHalves(packed);
  } else {
    texels.resize(static_cast<size_t>(layout.texels()) * 4);
    GLPOOL_RETURN_IF_ERROR(buffers[location.gl_object].Read(location.offset + first_texel * TexelBytes(false),
                                                            texels.data(), texels.size() * 4));
  }
  return FromPhwc4(texels, layout);
}

Status Executor::State::UploadConstantsAndWeights() {
  for (const auto& [root, location] : locations) {
    const Tensor& tensor = TensorNamed(root);
    if (!tensor.is_constant) continue;
    GLPOOL_ASSIGN_OR_RETURN(std::vector<float> values, ToGpuValues(tensor.data, root));
    GLPOOL_TRY_CONTEXT(WriteTensor(root, values), "uploading constant " + root);
  }
  for (TaskRuntime& task : tasks) {
    uint32_t uniform_blocks = 0, texture_units = 0;
    for (const KernelWeights& weights : task.plan.weights) {
      if (weights.values.empty() || weights.values.size() % 4 != 0) {
        return InternalError("kernel " + task.plan.shader + ": weights '" + weights.name +
                             "' must be a non-empty multiple of 4 floats");
      }
      GLPOOL_ASSIGN_OR_RETURN(WeightObject object, UploadWeights(weights.values, &uniform_blocks, &texture_units));
      task.weights.push_back(object);
    }
  }
  return Status::Ok();
}

StatusOr<WeightObject> Executor::State::UploadWeights(const std::vector<float>& values, uint32_t* uniform_blocks,
                                                     uint32_t* texture_units) {
  WeightObject object;
  object.vec4s = static_cast<uint32_t>(values.size() / 4);
  const uint64_t bytes = values.size() * sizeof(float);
  const uint64_t rows = (values.size() / 4 + kWeightTextureWidth - 1) / kWeightTextureWidth;
  const bool texture_unit_free = *texture_units < static_cast<uint32_t>(info.max_compute_texture_units);
  const bool fits_uniform_block =
      bytes <= uniform_weights.max_block_bytes && *uniform_blocks < uniform_weights.max_blocks;
  const bool fits_texture_buffer = weights_in_textures && !weights_in_2d_textures &&
                                   !texture_buffer_directive.empty() &&
                                   object.vec4s <= info.max_texture_buffer_texels && texture_unit_free;
  if (fits_uniform_block && (weights_in_uniform_blocks || !fits_texture_buffer)) {
    object.home = WeightHome::kUniformBlock;
    ++*uniform_blocks;
  } else if (fits_texture_buffer) {
    object.home = WeightHome::kTextureBuffer;
    ++*texture_units;
  } else if (weights_in_textures && rows <= static_cast<uint64_t>(info.max_texture_size) && texture_unit_free) {
    object.home = WeightHome::kTexture;
    ++*texture_units;
  }
  if (object.home == WeightHome::kTextureBuffer) {
    GLPOOL_ASSIGN_OR_RETURN(gl::GlBufferTexture texture, gl::GlBufferTexture::Create(values));
    memory.external_bytes += texture.bytes();
    object.index = buffer_textures.size();
    buffer_textures.push_back(std::move(texture));
    return object;
  }
  if (object.home == WeightHome::kTexture) {
    const uint32_t width = static_cast<uint32_t>(std::min<uint64_t>(values.size() / 4, kWeightTextureWidth));
    GLPOOL_ASSIGN_OR_RETURN(GlTexture texture,
                            GlTexture::Create2D(width, static_cast<uint32_t>(rows), gl::TextureFormat::kRgba32F));
    std::vector<float> texels(static_cast<size_t>(uint64_t{width} * rows * 4), 0.0f);
    std::copy(values.begin(), values.end(), texels.begin());
    GLPOOL_RETURN_IF_ERROR(gl::UploadTexture(texture, texels, Transfers()));
    memory.external_bytes += texture.bytes();
    object.index = textures.size();
    textures.push_back(std::move(texture));
    return object;
  }
  // A uniform block and a storage buffer are both one GL buffer; BindTask
  // binds it the way its home says.
  GLPOOL_ASSIGN_OR_RETURN(GlBuffer buffer, GlBuffer::CreateWithData(values.data(), bytes));
  memory.external_bytes += buffer.bytes();
  object.index = buffers.size();
  buffers.push_back(std::move(buffer));
  return object;
}

Status Executor::State::RunCpuTask(const TaskRuntime& task) {
  FallbackTransfers io;
  io.read = [this](const std::string& name) { return ReadTensor(Root(name), name); };
  io.write = [this](const std::string& name, const std::vector<float>& values) {
    return WriteTensor(Root(name), values, name);
  };
  return RunCpuFallbackNode(graph, *task.cpu_node, io);
}

ExecutorOptions CalibrationRunOptions(Precision precision, std::shared_ptr<ProgramCache> programs) {
  ExecutorOptions options;
  options.objects = ObjectKind::kBuffers;
  options.precision = precision;
  options.strategy = "naive";
  options.programs = std::move(programs);
  options.cpu_fallback = true;
  return options;
}

StatusOr<std::set<std::string>> FindHalfUnsafeTensors(const Graph& graph,
                                                      const std::map<std::string, TensorData>& inputs,
                                                      std::shared_ptr<ProgramCache> programs,
                                                      std::map<std::string, TensorData>* fp32_outputs) {
  const ExecutorOptions options = CalibrationRunOptions(Precision::kFp32, std::move(programs));
  GLPOOL_ASSIGN_OR_RETURN(std::unique_ptr<Executor> probe, Executor::Create(graph, options));
  StatusOr<std::map<std::string, TensorData>> outputs = probe->Run(inputs);
  GLPOOL_TRY_CONTEXT(outputs.status(), "fp16 calibration run");
  if (fp32_outputs) *fp32_outputs = std::move(outputs).value();
  const Executor::State& run = *probe->state_;
  std::set<std::string> unsafe;
  for (const auto& [root, location] : run.locations) {
    const Tensor& tensor = run.TensorNamed(root);
    if (tensor.is_constant || IsIntegerOrBool(tensor.dtype)) continue;
    GLPOOL_ASSIGN_OR_RETURN(std::vector<float> values, run.ReadTensor(root));
    const float largest = MaxMagnitude(values);
    if (largest != 0.0f && (largest < kHalfSafeMin || largest > kHalfSafeMax)) unsafe.insert(root);
  }
  return unsafe;
}


}  // namespace glpool
