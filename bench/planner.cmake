# Planner benchmarks and the published memory report.
#   planner_bench: Google Benchmark of planning time, every zoo records file
#     x every shared-objects and offsets strategy.
#   planner_report: plans every zoo records file every way (each plan
#     verified) and writes the markdown memory table.
#   cmake --build <build> --target planner_memory_report
#     regenerates bench/reports/planner_memory.md in the source tree.
set(GLPOOL_ZOO_RECORDS_DIR ${PROJECT_SOURCE_DIR}/../shared/zoo/records)

add_executable(planner_bench ${CMAKE_CURRENT_LIST_DIR}/planner_bench.cc)
target_include_directories(planner_bench PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(planner_bench PRIVATE glpool_planner benchmark::benchmark)
target_compile_definitions(planner_bench PRIVATE GLPOOL_ZOO_RECORDS_DIR="${GLPOOL_ZOO_RECORDS_DIR}")
glpool_warnings(planner_bench)

add_executable(planner_report ${CMAKE_CURRENT_LIST_DIR}/planner_report.cc)
target_include_directories(planner_report PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(planner_report PRIVATE glpool_planner)
glpool_warnings(planner_report)

add_custom_target(planner_memory_report
  COMMAND planner_report --records-dir ${GLPOOL_ZOO_RECORDS_DIR}
          --out ${CMAKE_CURRENT_LIST_DIR}/reports/planner_memory.md
  DEPENDS planner_report
  COMMENT "Writing bench/reports/planner_memory.md"
  VERBATIM)

# The scale report: every strategy on seeded generated record sets of 1k to
# 100k tensors.
#   cmake --build <build> --target planner_scale_report
#     regenerates bench/reports/planner_scale.md in the source tree.
add_executable(planner_scale ${CMAKE_CURRENT_LIST_DIR}/planner_scale.cc
               ${CMAKE_CURRENT_LIST_DIR}/record_generator.cc)
target_include_directories(planner_scale PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(planner_scale PRIVATE glpool_planner)
glpool_warnings(planner_scale)

# Run from the repository root with a relative --challenging, so the report
# names the instances' directory as the repository sees it, not where this
# checkout happens to live.
add_custom_target(planner_scale_report
  COMMAND planner_scale --out ${CMAKE_CURRENT_LIST_DIR}/reports/planner_scale.md
          --challenging ../shared/zoo/challenging
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  DEPENDS planner_scale
  COMMENT "Writing bench/reports/planner_scale.md"
  VERBATIM)
