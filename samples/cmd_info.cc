// glpool info [--json] [--context headless|window|auto]
#include <iostream>
#include <nlohmann/json.hpp>

#include "glpool/gpu_info.h"
#include "samples/commands.h"
#include "samples/sample_context.h"

namespace glpool {
namespace {

nlohmann::json InfoToJson(const GlInfo& info) {
  return {
      {"vendor", info.vendor},
      {"renderer", info.renderer},
      {"gl_version", info.version},
      {"glsl_version", info.glsl_version},
      {"gles_major", info.major},
      {"gles_minor", info.minor},
      {"platform", info.platform},
      {"limits",
       {{"max_texture_size", info.max_texture_size},
        {"max_array_texture_layers", info.max_array_texture_layers},
        {"max_3d_texture_size", info.max_3d_texture_size},
        {"max_shader_storage_block_size", info.max_ssbo_size},
        {"shader_storage_buffer_offset_alignment", info.ssbo_offset_alignment},
        {"max_shader_storage_buffer_bindings", info.max_ssbo_bindings},
        {"max_compute_shader_storage_blocks", info.max_compute_ssbo_blocks},
        {"max_image_units", info.max_image_units},
        {"max_compute_image_uniforms", info.max_compute_image_uniforms},
        {"max_compute_texture_image_units", info.max_compute_texture_units},
        {"max_compute_work_group_count",
         {info.max_work_group_count[0], info.max_work_group_count[1], info.max_work_group_count[2]}},
        {"max_compute_work_group_size",
         {info.max_work_group_size[0], info.max_work_group_size[1], info.max_work_group_size[2]}},
        {"max_compute_work_group_invocations", info.max_work_group_invocations},
        {"max_compute_shared_memory_size", info.max_shared_memory_bytes}}},
      {"timer_queries", info.timer_queries},
      {"parallel_shader_compile", info.parallel_shader_compile},
  };
}

void PrintInfo(const GlInfo& info) {
  auto triple = [](const int64_t v[3]) {
    return std::to_string(v[0]) + " x " + std::to_string(v[1]) + " x " + std::to_string(v[2]);
  };
  std::cout << "renderer:        " << info.renderer << " (" << info.vendor << ")\n"
            << "version:         " << info.version << "\n"
            << "GLSL:            " << info.glsl_version << "\n"
            << "context:         " << info.platform << "\n"
            << "max texture:     " << info.max_texture_size << " texels per side, "
            << info.max_array_texture_layers << " array layers, 3D " << info.max_3d_texture_size << "\n"
            << "max SSBO:        " << info.max_ssbo_size << " bytes, offset alignment "
            << info.ssbo_offset_alignment << ", " << info.max_compute_ssbo_blocks << " per compute shader\n"
            << "image units:     " << info.max_image_units << " (" << info.max_compute_image_uniforms
            << " per compute shader), texture units " << info.max_compute_texture_units << "\n"
            << "work groups:     count " << triple(info.max_work_group_count) << ", size "
            << triple(info.max_work_group_size) << ", " << info.max_work_group_invocations << " invocations\n"
            << "shared memory:   " << info.max_shared_memory_bytes << " bytes\n"
            << "timer queries:   " << (info.timer_queries ? "yes" : "no") << "\n"
            << "shader threads:  " << (info.parallel_shader_compile ? "yes" : "no") << "\n";
}

int RunInfo(const std::string& context_name, bool json) {
  if (context_name != "headless" && context_name != "window" && context_name != "auto") {
    std::cerr << "glpool info: unknown context kind '" << context_name << "' (expected headless, window or auto)\n";
    return 2;
  }
  auto context = samples::MakeSampleContext(context_name);
  if (!context.ok()) {
    std::cerr << "glpool info: " << context.status().ToString() << "\n";
    return 1;
  }
  auto info = QueryCurrentGlInfo();
  if (!info.ok()) {
    std::cerr << "glpool info: " << info.status().ToString() << "\n";
    return 1;
  }
  info->platform = context->platform;
  if (json) {
    std::cout << InfoToJson(*info).dump(2) << "\n";
  } else {
    PrintInfo(*info);
  }
  return 0;
}

}  // namespace

void AddInfoCommand(CLI::App& app, int& exit_code) {
  CLI::App* command = app.add_subcommand("info", "Show the GL context, versions and the limits glpool depends on");
  auto context = std::make_shared<std::string>("auto");
  auto json = std::make_shared<bool>(false);
  command->add_option("--context", *context, "headless, window or auto")->capture_default_str();
  command->add_flag("--json", *json, "Print one JSON object");
  command->callback([&exit_code, context, json] { exit_code = RunInfo(*context, *json); });
}

}  // namespace glpool
