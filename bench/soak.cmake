# Soak: one Session run many times, then many Sessions in turn; RSS and GL
# objects at the start and the end: bench/reports/soak.md
#   build/bench/glpool_soak --model ../shared/models/mobilenet_v3_small/model.onnx \
#     --runs 10000 --sessions 1000 --out bench/reports/soak.md
add_executable(glpool_soak ${CMAKE_CURRENT_LIST_DIR}/soak_main.cc)
target_link_libraries(glpool_soak PRIVATE glpool_api)
glpool_warnings(glpool_soak)
