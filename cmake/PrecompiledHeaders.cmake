# One precompiled header of LLVM/MLIR headers (lib/UpstreamHeaders.h) for
# every warp library, the C API library and the tools: built once per build
# directory, it takes about two thirds off each source file's compile
# (docs/results/test-loop.md). Included by the top-level CMakeLists.txt once
# every target exists; all of them compile with the same flags.
option(WARP_PRECOMPILED_HEADERS
  "Compile warp's C++ with a precompiled header of LLVM/MLIR headers" ON)
if(NOT WARP_PRECOMPILED_HEADERS)
  return()
endif()

list(TRANSFORM WARP_LIBRARIES PREPEND obj. OUTPUT_VARIABLE pch_users)
# The tools and C API libraries, the self-contained ones (cmake/SelfContained
# .cmake) and the fuzz harness (tools/warp-fuzz) included where they exist.
foreach(target obj.WarpCAPI WarpCAPI warp-opt warp-cuda-runner
               WarpCAPIStatic warp-opt-dylib warp-cuda-runner-static warp-fuzz)
  if(TARGET ${target})
    list(APPEND pch_users ${target})
  endif()
endforeach()

list(POP_FRONT pch_users pch_owner)
target_precompile_headers(${pch_owner} PRIVATE
  $<$<COMPILE_LANGUAGE:CXX>:${WARP_SOURCE_DIR}/lib/UpstreamHeaders.h>)
foreach(target ${pch_owner} ${pch_users})
  if(NOT target STREQUAL pch_owner)
    target_precompile_headers(${target} REUSE_FROM ${pch_owner})
  endif()
  # No time stamp in the header: ccache can cache it and what uses it (with
  # the sloppiness scripts/setup.sh gives ccache).
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    target_compile_options(${target} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
  endif()
endforeach()
