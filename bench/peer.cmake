# Peer bench against ONNX Runtime on the same CPU: bench/reports/vs_onnxruntime.md
#   bash bench/vs_onnxruntime.sh
# This target writes zoo models with glpool's random weights inline, so
# ONNX Runtime runs the same network.
add_executable(glpool_fill_random_weights ${CMAKE_CURRENT_LIST_DIR}/peer/fill_random_weights.cc)
target_include_directories(glpool_fill_random_weights PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(glpool_fill_random_weights PRIVATE glpool_import)
glpool_warnings(glpool_fill_random_weights)
