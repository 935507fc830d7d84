# SPDX-License-Identifier: GPL-3.0-or-later
# gpumem_core_library(<folder> <sources>...) declares the static library of one
# core/ folder: gpumem_<folder> with its alias gpumem::<folder>, core/ as the
# include root its dependants see ("data/Table.h"), and the project's warnings.
# Each folder's CMakeLists.txt then names only its sources and dependencies.
function(gpumem_core_library folder)
  add_library(gpumem_${folder} STATIC ${ARGN})
  add_library(gpumem::${folder} ALIAS gpumem_${folder})
  target_include_directories(gpumem_${folder} PUBLIC ${PROJECT_SOURCE_DIR}/core)
  target_link_libraries(gpumem_${folder} PRIVATE gpumem::compiler_settings)
endfunction()

# gpumem_reuse_torch_header(<target>) gives the target's sources that include
# LibTorch, directly or through core/'s own headers, the precompiled
# <torch/torch.h> of gpumem_runtime. The others skip it: loading the 570 MB
# precompiled header costs a file that does not need it about 11 s on a 2-core
# machine, more than compiling the file itself.
function(gpumem_reuse_torch_header target)
  target_precompile_headers(${target} REUSE_FROM gpumem_runtime)
  get_target_property(sources ${target} SOURCES)
  get_target_property(folder ${target} SOURCE_DIR)
  foreach(source IN LISTS sources)
    if(source MATCHES "\\.cpp$")
      _gpumem_includes_torch("${folder}/${source}" uses_torch)
      if(NOT uses_torch)
        set_property(SOURCE ${source} TARGET_DIRECTORY ${target} PROPERTY SKIP_PRECOMPILE_HEADERS ON)
      endif()
    endif()
  endforeach()
endfunction()

# Sets result to ON when file includes a LibTorch header (<torch/…>, <ATen/…>,
# <c10/…>) or a header of core/ (or of file's own folder) that does, at any depth.
# Each file is scanned once per configure (a file that comes to include LibTorch
# later still compiles, only without the precompiled header until the next
# configure); a file is taken as torch-free while it is being scanned, which ends
# include cycles.
function(_gpumem_includes_torch file result)
  get_property(known GLOBAL PROPERTY "GPUMEM_INCLUDES_TORCH_${file}" SET)
  if(known)
    get_property(value GLOBAL PROPERTY "GPUMEM_INCLUDES_TORCH_${file}")
    set(${result} ${value} PARENT_SCOPE)
    return()
  endif()
  set_property(GLOBAL PROPERTY "GPUMEM_INCLUDES_TORCH_${file}" OFF)
  file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include")
  get_filename_component(own_folder "${file}" DIRECTORY)
  set(value OFF)
  foreach(line IN LISTS includes)
    if(line MATCHES "<(torch|ATen|c10)/")
      set(value ON)
      break()
    endif()
    if(line MATCHES "\"([^\"]+)\"")
      foreach(candidate "${PROJECT_SOURCE_DIR}/core/${CMAKE_MATCH_1}" "${own_folder}/${CMAKE_MATCH_1}")
        if(EXISTS "${candidate}")
          _gpumem_includes_torch("${candidate}" nested)
          if(nested)
            set(value ON)
          endif()
          break()
        endif()
      endforeach()
      if(value)
        break()
      endif()
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY "GPUMEM_INCLUDES_TORCH_${file}" ${value})
  set(${result} ${value} PARENT_SCOPE)
endfunction()
