# cmake -P script run by the warp-python-wheel target (python/CMakeLists.txt):
# builds the platform wheel of the assembled package PACKAGE_DIR into
# DIST_DIR with PYTHON (which needs pip, setuptools and wheel; no network).
# The platform tag is manylinux_2_<N>_<ARCH>, N the newest glibc symbol
# version LIBRARY needs (the self-contained library needs nothing else but
# the kernel's libc, libm and, at run time, the NVIDIA driver).
file(STRINGS "${LIBRARY}" glibc_versions REGEX "^GLIBC_2\\.[0-9]+$")
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
