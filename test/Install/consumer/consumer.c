/* Uses the installed C API: the version and a warp module parsed and
   verified through MLIR's C API with the warp dialects registered. */
#include "WarpDialect-c/Warp.h"

#include <stdio.h>

int main(void) {
  MlirStringRef version = warpGetVersion();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  warpRegisterDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  MlirModule module = mlirModuleCreateParse(
      context, mlirStringRefCreateFromCString(
                   "func.func @f(%x: f32) -> f32 {\n"
                   "  %r = warp.reduce <add> %x : f32\n"
                   "  return %r : f32\n}\n"));
  int ok = !mlirModuleIsNull(module) &&
           mlirOperationVerify(mlirModuleGetOperation(module));
  printf("consumer-c: warp %.*s, module %s\n", (int)version.length,
         version.data, ok ? "verified" : "FAILED");
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return ok ? 0 : 1;
}
