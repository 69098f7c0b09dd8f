# A whole model on the GPU against the CPU reference, with timings:
# glpool_gpu_vs_reference MODEL.onnx [--random-weights] [--size N] [--objects K] [--precision P]
add_executable(glpool_gpu_vs_reference ${CMAKE_CURRENT_LIST_DIR}/gpu_vs_reference_main.cc)
target_include_directories(glpool_gpu_vs_reference PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(glpool_gpu_vs_reference PRIVATE glpool_gl_window glpool_runtime glpool_import glpool_graph_passes
                      glpool_cpu_reference)
glpool_warnings(glpool_gpu_vs_reference)
