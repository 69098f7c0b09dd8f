#include "samples/overlay/imgui_session.h"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "samples/gl_check.h"

namespace glpool::overlay {
namespace {

// Clears the GL errors the desktop-GL backend raises on GLES (see header).
void DrainBackendErrors() {
  for (int i = 0; i < 64 && glGetError() != GL_NO_ERROR; ++i) {
  }
}

Status CheckOurs(const char* before) { return samples::CheckGl(before, __FILE__, __LINE__); }

}  // namespace

ImGuiSession::~ImGuiSession() {
  if (context_ == nullptr) return;
  ImGui::SetCurrentContext(context_);
  if (renderer_ready_) ImGui_ImplOpenGL3_Shutdown();
  if (platform_ready_) ImGui_ImplGlfw_Shutdown();
  DrainBackendErrors();
  ImGui::DestroyContext(context_);
}

StatusOr<std::unique_ptr<ImGuiSession>> ImGuiSession::Create(GLFWwindow* window) {
  GLPOOL_RETURN_IF_ERROR(CheckOurs("(GL state before ImGui init)"));
  std::unique_ptr<ImGuiSession> session(new ImGuiSession());
  session->window_ = window;
  session->context_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(session->context_);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // never write imgui.ini into the user's folder
  ImGui::StyleColorsDark();
  if (window != nullptr) {
    if (!ImGui_ImplGlfw_InitForOpenGL(window, true)) return UnavailableError("ImGui GLFW backend failed to start");
    session->platform_ready_ = true;
  }
  // GLSL ES 3.00 shaders: the backend picks its "300 es" variant from this.
  const bool ok = ImGui_ImplOpenGL3_Init("#version 300 es");
  DrainBackendErrors();
  if (!ok) return UnavailableError("ImGui OpenGL3 backend failed to start (its loader needs libGL.so.1)");
  session->renderer_ready_ = true;
  return session;
}

Status ImGuiSession::NewFrame(int width, int height) {
  ImGui::SetCurrentContext(context_);
  GLPOOL_RETURN_IF_ERROR(CheckOurs("(GL state before ImGui frame)"));
  ImGui_ImplOpenGL3_NewFrame();
  DrainBackendErrors();
  if (window_ != nullptr) {
    ImGui_ImplGlfw_NewFrame();
  } else {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    io.DeltaTime = 1.0f / 60.0f;
  }
  ImGui::NewFrame();
  return Status();
}

Status ImGuiSession::Render() {
  ImGui::SetCurrentContext(context_);
  ImGui::Render();
  GLPOOL_RETURN_IF_ERROR(CheckOurs("(GL state before ImGui render)"));
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  DrainBackendErrors();
  return Status();
}

}  // namespace glpool::overlay
