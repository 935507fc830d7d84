# SPDX-License-Identifier: GPL-3.0-or-later
# Warnings, sanitizers and compiler caching shared by every target of the project.

find_program(GPUMEM_CCACHE ccache)
if(GPUMEM_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${GPUMEM_CCACHE}")
endif()

set(GPUMEM_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address,undefined")

add_library(gpumem_compiler_settings INTERFACE)
add_library(gpumem::compiler_settings ALIAS gpumem_compiler_settings)
target_compile_options(gpumem_compiler_settings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Woverloaded-virtual
  $<$<BOOL:${GPUMEM_WARNINGS_AS_ERRORS}>:-Werror>)
if(GPUMEM_SANITIZE)
  target_compile_options(gpumem_compiler_settings INTERFACE
    -fsanitize=${GPUMEM_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(gpumem_compiler_settings INTERFACE -fsanitize=${GPUMEM_SANITIZE})
endif()
