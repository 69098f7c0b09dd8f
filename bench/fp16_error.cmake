# Per-tensor fp16 error against the CPU reference: glpool_fp16_error MODEL INPUT.pb
add_executable(glpool_fp16_error ${CMAKE_CURRENT_LIST_DIR}/fp16_error_main.cc)
target_include_directories(glpool_fp16_error PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(glpool_fp16_error PRIVATE glpool_gl_window glpool_runtime glpool_import glpool_import_tflite glpool_graph_passes
                      glpool_cpu_reference)
glpool_warnings(glpool_fp16_error)
