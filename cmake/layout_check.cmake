# Fails unless sim/ keeps its rooms: no source directly in sim/ but main.cpp, and every include of
# a room from another is of a room below it -- support < input, cli < run < inspect, campaign
# (inspect and campaign do not include each other; cli includes support only); gbesim-charts
# (ui/charts_cli) includes sim/cli and sim/support only; nothing below sim/ includes it.
set(rank_support 0)
set(rank_input 1)
set(rank_cli 1)
set(rank_run 2)
set(rank_inspect 3)
set(rank_campaign 3)
set(problems "")

file(GLOB flat ${SOURCE_DIR}/sim/*.cpp ${SOURCE_DIR}/sim/*.hpp)
foreach(file ${flat})
  get_filename_component(name ${file} NAME)
  if(NOT name STREQUAL "main.cpp")
    string(APPEND problems "sim/${name}: a source directly in sim/ (it belongs in a room)\n")
  endif()
endforeach()

function(check_includes file from_label allowed_pattern)
  file(STRINGS ${file} includes REGEX "^#include \"sim/")
  foreach(line ${includes})
    string(REGEX REPLACE "^#include \"sim/([a-z_]+)/.*" "\\1" to ${line})
    if(NOT to MATCHES "${allowed_pattern}")
      file(RELATIVE_PATH rel ${SOURCE_DIR} ${file})
      set(problems "${problems}${rel}: ${from_label} includes sim/${to}/\n" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

foreach(room support input cli run inspect campaign)
  set(allowed "^(${room}")
  foreach(other support input cli run inspect campaign)
    if(${rank_${other}} LESS ${rank_${room}})
      # cli is not below run, inspect or campaign's own rooms beyond support: it is options
      # only, and nothing but main.cpp and gbesim-charts uses it.
      if(NOT other STREQUAL "cli")
        string(APPEND allowed "|${other}")
      endif()
    endif()
  endforeach()
  string(APPEND allowed ")$")
  file(GLOB sources ${SOURCE_DIR}/sim/${room}/*.cpp ${SOURCE_DIR}/sim/${room}/*.hpp)
  foreach(file ${sources})
    check_includes(${file} "room ${room}" "${allowed}")
  endforeach()
endforeach()

file(GLOB charts ${SOURCE_DIR}/ui/charts_cli/*.cpp ${SOURCE_DIR}/ui/charts_cli/*.hpp)
foreach(file ${charts})
  check_includes(${file} "gbesim-charts" "^(cli|support)$")
endforeach()
file(GLOB_RECURSE below ${SOURCE_DIR}/models/*.cpp ${SOURCE_DIR}/models/*.hpp
     ${SOURCE_DIR}/analysis/*.cpp ${SOURCE_DIR}/analysis/*.hpp
     ${SOURCE_DIR}/scenarios/*.cpp ${SOURCE_DIR}/scenarios/*.hpp)
foreach(file ${below})
  check_includes(${file} "a layer below sim/" "^$")
endforeach()

if(NOT problems STREQUAL "")
  message(FATAL_ERROR "sim/ is out of its rooms:\n${problems}")
endif()
message(STATUS "layout check: sim/ in rooms, every include downwards")
