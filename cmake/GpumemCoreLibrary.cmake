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
