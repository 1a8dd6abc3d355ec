# Fails if any C++ source of the project is not formatted per the committed .clang-format.
find_program(CLANG_FORMAT NAMES clang-format-14 clang-format REQUIRED)
file(GLOB_RECURSE sources
  ${SOURCE_DIR}/models/*.cpp ${SOURCE_DIR}/models/*.hpp
  ${SOURCE_DIR}/scenarios/*.cpp ${SOURCE_DIR}/scenarios/*.hpp
  ${SOURCE_DIR}/sim/*.cpp ${SOURCE_DIR}/sim/*.hpp
  ${SOURCE_DIR}/analysis/*.cpp ${SOURCE_DIR}/analysis/*.hpp
  ${SOURCE_DIR}/ui/*.cpp ${SOURCE_DIR}/ui/*.hpp
  ${SOURCE_DIR}/tests/*.cpp ${SOURCE_DIR}/tests/*.hpp)
execute_process(COMMAND ${CLANG_FORMAT} --dry-run -Werror ${sources}
                RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "not formatted per .clang-format (run: clang-format -i <file>):\n${errors}")
endif()
list(LENGTH sources count)
message(STATUS "format check: ${count} files formatted")
