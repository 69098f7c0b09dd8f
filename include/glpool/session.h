// Session: one Model planned and ready to run on the GL context that was
// current on the thread that created it.
//
// Threading and context: every call must come from a thread where that same
// context is current. glpool loads the GL entry points from it (EGL's
// eglGetProcAddress), changes only the bindings it uses (SSBO bindings,
// image units, the program) and leaves them changed; the app re-binds what
// it draws with. glpool never makes a context current itself.
//
// Shapes: a Session runs one input shape at a time. Create() plans the shape
// from SessionOptions::input_shapes (symbolic dims must be given there);
// Reshape() moves to another. Each shape seen is kept — its import, plan,
// GL pool and compiled programs — so returning to it plans and compiles
// nothing (GetRuntimeCounters() shows it). Each kept shape holds its own
// pool and a copy of the weights; ForgetOtherShapes() frees them.
//
// GPU bindings: BindInput / BindOutput attach an app-owned GL object to a
// graph input or output. Run() then reads that input from the object and
// writes that output into it on the GPU — nothing is read back to the CPU.
// The app keeps ownership: the object must stay alive while bound, and its
// size must fit the current shape at each Run (checked; kBadShape names the
// tensor). Accepted layouts (logical shape N x C x H x W, see layout.h for
// ranks other than 4):
//   kPhwc4Buffer   SSBO in glpool's own PHWC4 layout: vec4 texels of float32
//                  (fp16 sessions: packed half pairs, packHalf2x16 order).
//                  Zero-copy with ObjectKind kBuffers/kArena: the app's
//                  buffer is the tensor's object. With kTextures it is copied
//                  through the conversion kernel.
//   kNchwBuffer    SSBO of float32, row-major logical order (NCHW).
//   kNhwcBuffer    SSBO of float32, channels last (NHWC).
//   kRgba8Texture / kRgba16fTexture / kRgba32fTexture
//                  a 2D texture with immutable storage (glTexStorage2D) of
//                  exactly W x H texels for a tensor of shape 1 x C x H x W,
//                  C <= 4, channel c in component c (R, G, B, A), texel row
//                  y holding image row h = y. RGBA8 reads as [0, 1] and
//                  writes clamp to [0, 1].
// All but zero-copy PHWC4 go through one conversion compute kernel on the
// GPU. Run() issues the memory barriers its own work needs and a final
// glMemoryBarrier(GL_ALL_BARRIER_BITS), so the app's next GL command on this
// context sees the outputs; no glFinish is needed.
//
// Errors (no exceptions cross the API): kInvalidArgument (unknown tensor
// name, a binding of the wrong kind), kBadShape (shape or object size does
// not fit), kBadType (dtype mismatch), kUnsupported (an op or dtype with no
// GPU kernel, naming the node), kGlError (a GL call failed, naming it),
// kInvalidModel (import failed), kRemoved (ReadTensor of a tensor not kept).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "glpool/export.h"
#include "glpool/model.h"
#include "glpool/options.h"
#include "glpool/report.h"
#include "glpool/status.h"
#include "glpool/tensor.h"

namespace glpool {

enum class GpuLayout { kPhwc4Buffer, kNchwBuffer, kNhwcBuffer, kRgba8Texture, kRgba16fTexture, kRgba32fTexture };
GLPOOL_API const char* GpuLayoutName(GpuLayout layout);

// An app-owned GL object: a buffer name for *Buffer layouts, a texture name
// for *Texture layouts.
struct GpuObject {
  uint32_t gl_name = 0;
  GpuLayout layout = GpuLayout::kNchwBuffer;
};

class GLPOOL_API Session {
 public:
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Imports, plans and compiles `model` at options.input_shapes on the
  // current context (Backend::kGpu) or for the CPU reference.
  static StatusOr<std::unique_ptr<Session>> Create(const Model& model, const SessionOptions& options = {});

  // The graph's inputs and outputs at the current shape (all dims fixed).
  std::vector<TensorInfo> inputs() const;
  std::vector<TensorInfo> outputs() const;

  // Moves to new input shapes (inputs not named keep theirs). A shape seen
  // before is reused as it was; a new one is imported, planned and compiled
  // (programs already compiled for another shape are shared). On failure the
  // session stays at its previous shape.
  Status Reshape(const std::map<std::string, Shape>& input_shapes);
  // Frees every kept shape except the current one.
  void ForgetOtherShapes();

  // Attaches an app-owned object (see the header comment). Binding a name
  // again replaces the earlier binding. GPU backend only.
  Status BindInput(const std::string& name, GpuObject object);
  Status BindOutput(const std::string& name, GpuObject object);
  void UnbindAll();

  // Runs once. `inputs` holds a tensor for every graph input that is not
  // bound (logical layout, the model's dtype and current shape); the result
  // holds every graph output that is not bound.
  StatusOr<std::map<std::string, TensorData>> Run(const std::map<std::string, TensorData>& inputs = {});

  // A tensor's values after the last Run: graph inputs and outputs,
  // constants, and intermediates kept with SessionOptions::keep / keep_all.
  // Any other intermediate's memory was reused after its last reader: that
  // is kRemoved, never stale data; a name not in the graph as it runs (some
  // are fused away) is kNotFound. With inputs_in_pool, an input not kept is
  // removed too. Copies the values to the CPU.
  StatusOr<TensorData> ReadTensor(const std::string& name) const;

  // The pool at the current shape (GPU backend; empty for the CPU reference).
  const MemoryReport& memory() const;
  const std::vector<PoolObject>& objects() const;
  const std::vector<PlacedTensor>& tensors() const;
  const std::vector<TaskInfo>& tasks() const;
  // Which tasks run on the CPU reference (SessionOptions::cpu_fallback) and
  // what each Run moves between GPU and CPU for them.
  const PartitionReport& partition() const;
  // Where the time went while the current shape was prepared (Create or
  // Reshape's first visit): import, planning, uploads, shader compiles.
  const StartupReport& startup() const;
  // Per-task milliseconds of the last Run when SessionOptions::time_tasks
  // (or set_time_tasks) is on, else empty. Where the context's timestamp
  // queries see compute work and an earlier timed run has shown it, GPU
  // time per task (task_ms_from_gpu(); tasks on the CPU reference keep wall
  // time). Otherwise wall time around each task with a glFinish after it,
  // which includes waiting for the driver and, on a real GPU, clocks that
  // drop while it idles between tasks.
  const std::vector<double>& task_ms() const;
  bool task_ms_from_gpu() const;
  // The last timed run's GPU time per task from timer queries (-1 for a
  // task on the CPU reference); empty where the context lacks
  // GL_EXT_disjoint_timer_query with timestamps, its timestamps do not see
  // compute work, or the GPU reported a disjoint event.
  const std::vector<double>& task_gpu_ms() const;
  void set_time_tasks(bool on);

  const SessionOptions& options() const;

 private:
  struct Impl;
  explicit Session(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace glpool
