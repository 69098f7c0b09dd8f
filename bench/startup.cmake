# Start-up time, cold vs warm program cache: bench/reports/startup.md
#   build/bench/glpool_startup_report --models ../shared/models --out bench/reports/startup.md
add_executable(glpool_startup_report ${CMAKE_CURRENT_LIST_DIR}/startup_main.cc)
target_link_libraries(glpool_startup_report PRIVATE glpool_api)
glpool_warnings(glpool_startup_report)
