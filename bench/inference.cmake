# Inference time and memory, pooled vs naive: bench/reports/inference_<precision>.md
add_executable(glpool_inference_report ${CMAKE_CURRENT_LIST_DIR}/inference_report_main.cc)
target_include_directories(glpool_inference_report PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(glpool_inference_report PRIVATE glpool_gl_window glpool_runtime glpool_import glpool_graph_passes)
glpool_warnings(glpool_inference_report)
