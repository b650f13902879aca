# Self-contained (static) builds for GPU hosts without LLVM/MLIR
# (README.md, "GPU suite (H200)"): Debian's static archives are position
# independent, and lld resolves them in any order. The imported CMake targets
# cannot be used (they pull the shared LLVM/MLIR libraries in), so the
# archive files are linked directly, with static libstdc++/libgcc, zlib and
# zstd. The result needs only glibc and, at run time, the NVIDIA driver.

file(GLOB WARP_STATIC_MLIR_ARCHIVES ${LLVM_LIBRARY_DIR}/libMLIR*.a)
file(GLOB WARP_STATIC_LLVM_ARCHIVES ${LLVM_LIBRARY_DIR}/libLLVM*.a)
find_library(WARP_STATIC_ZLIB NAMES libz.a REQUIRED)
find_library(WARP_STATIC_ZSTD NAMES libzstd.a REQUIRED)

list(TRANSFORM WARP_LIBRARIES PREPEND obj. OUTPUT_VARIABLE WARP_OBJECT_LIBRARIES)

# warp_add_self_contained_executable(name source...)
function(warp_add_self_contained_executable name)
  set(objects)
  foreach(lib ${WARP_OBJECT_LIBRARIES})
    list(APPEND objects $<TARGET_OBJECTS:${lib}>)
  endforeach()
  add_executable(${name} ${ARGN} ${objects})
  add_dependencies(${name} ${WARP_OBJECT_LIBRARIES})
  # LLVM's flags, as the objects have (and the precompiled header needs).
  llvm_update_compile_flags(${name})
  target_compile_options(${name} PRIVATE -fPIC -ffunction-sections -fdata-sections)
  target_link_options(${name} PRIVATE -fuse-ld=lld -static-libstdc++ -static-libgcc
                      -Wl,--gc-sections -Wl,-s)
  target_link_libraries(${name} PRIVATE
    ${WARP_STATIC_MLIR_ARCHIVES} ${WARP_STATIC_LLVM_ARCHIVES}
    ${WARP_STATIC_ZSTD} ${WARP_STATIC_ZLIB} -lpthread -ldl -lm -lrt)
endfunction()

# warp_add_self_contained_c_library(name version-script source...): a shared
# library exporting only the C API (the version script), with LLVM/MLIR
# linked in and hidden, so it coexists with another LLVM in the process.
function(warp_add_self_contained_c_library name version_script)
  set(objects)
  foreach(lib ${WARP_OBJECT_LIBRARIES})
    list(APPEND objects $<TARGET_OBJECTS:${lib}>)
  endforeach()
  add_library(${name} SHARED ${ARGN} ${objects})
  add_dependencies(${name} ${WARP_OBJECT_LIBRARIES})
  llvm_update_compile_flags(${name})
  target_compile_options(${name} PRIVATE -fPIC -ffunction-sections -fdata-sections)
  target_link_options(${name} PRIVATE -fuse-ld=lld -static-libstdc++ -static-libgcc
                      -Wl,--gc-sections -Wl,-s
                      -Wl,--version-script=${version_script})
  set(archives ${WARP_STATIC_MLIR_ARCHIVES})
  list(REMOVE_ITEM archives ${LLVM_LIBRARY_DIR}/libMLIRCAPIIR.a)
  target_link_libraries(${name} PRIVATE
    "$<LINK_LIBRARY:WHOLE_ARCHIVE,${LLVM_LIBRARY_DIR}/libMLIRCAPIIR.a>"
    ${archives} ${WARP_STATIC_LLVM_ARCHIVES}
    ${WARP_STATIC_ZSTD} ${WARP_STATIC_ZLIB} -lpthread -ldl -lm -lrt)
endfunction()
