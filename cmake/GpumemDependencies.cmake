# SPDX-License-Identifier: GPL-3.0-or-later
# Finds the third-party libraries. Everything comes from Debian 12 packages
# (packaging/install-deps.sh), or from the official LibTorch on a CUDA machine.

find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(fmt 9 REQUIRED)
find_package(Boost 1.74 REQUIRED)
# Header-only; Debian's libcli11-dev installs CLI11Config.cmake under /usr/share/cmake.
find_package(CLI11 2.1 REQUIRED)

if(GPUMEM_WITH_TORCH)
  # Debian's TorchConfig appends flags to CMAKE_CXX_FLAGS; they are harmless.
  find_package(Torch REQUIRED)
endif()

if(GPUMEM_WITH_XGBOOST)
  # Debian's xgboost-config.cmake checks for /usr/bin/xgboost: install the
  # `xgboost` package as well as `libxgboost-dev`.
  find_package(xgboost REQUIRED)
endif()

set(GPUMEM_QT_COMPONENTS Core Test)
if(GPUMEM_BUILD_GUI)
  list(APPEND GPUMEM_QT_COMPONENTS Gui Widgets Charts Svg PrintSupport Concurrent)
endif()
if(GPUMEM_BUILD_GUI)
  find_package(Qt6 6.2 REQUIRED COMPONENTS ${GPUMEM_QT_COMPONENTS})
elseif(BUILD_TESTING)
  # A CUDA machine with only the official LibTorch has no Qt: core and the
  # command line still build there, the Qt Test suite is skipped.
  find_package(Qt6 6.2 QUIET COMPONENTS ${GPUMEM_QT_COMPONENTS})
endif()
if(GPUMEM_BUILD_GUI)
  find_package(QCustomPlotQt6 REQUIRED)
endif()
