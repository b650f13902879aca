# cmake -P script run by the warp-python-wheel target (python/CMakeLists.txt):
# builds the platform wheel of the assembled package PACKAGE_DIR into
# DIST_DIR with PYTHON (which needs pip, setuptools and wheel; no network).
# The platform tag is manylinux_2_<N>_<ARCH>, N the newest glibc symbol
# version any of LIBRARIES (comma-separated: the C API and simulator libraries)
# needs; they need nothing else but libc, libm and, at run time, the NVIDIA
# driver.
set(glibc_versions)
string(REPLACE "," ";" libraries "${LIBRARIES}")
foreach(library ${libraries})
  file(STRINGS "${library}" versions REGEX "^GLIBC_2\\.[0-9]+$")
  list(APPEND glibc_versions ${versions})
endforeach()
set(newest 17)
foreach(version ${glibc_versions})
  string(REGEX REPLACE "^GLIBC_2\\." "" minor "${version}")
  if(minor GREATER newest)
    set(newest ${minor})
  endif()
endforeach()
set(ENV{WARP_WHEEL_PLATFORM} "manylinux_2_${newest}_${ARCH}")
file(GLOB old_wheels "${DIST_DIR}/warp_mlir-*.whl")
if(old_wheels)
  file(REMOVE ${old_wheels})
endif()
execute_process(
  COMMAND "${PYTHON}" -m pip wheel --no-build-isolation --no-deps --no-index
          --wheel-dir "${DIST_DIR}" "${PACKAGE_DIR}"
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pip wheel failed (it needs pip, setuptools and wheel "
                      "for ${PYTHON}: scripts/install-packages.sh installs them)")
endif()
file(GLOB wheel "${DIST_DIR}/warp_mlir-*.whl")
message(STATUS "Built ${wheel}")
