// Lowers a warp reduction to PTX through the installed C++ libraries and
// prints the number of shfl.sync instructions.
#include "WarpDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

static const char *kProgram = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sum(%in: memref<32xf32>, %out: memref<32xf32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<32xf32>
      %s = warp.reduce <add> %x : f32
      memref.store %s, %out[%t] : memref<32xf32>
      gpu.return
    }
  }
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  mlir::warp::registerWarpDialectsAndExtensions(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kProgram, &context);
  if (!module)
    return 1;
  mlir::warp::WarpPipelineOptions options;
  options.format = mlir::gpu::CompilationTarget::Assembly;
  mlir::PassManager pm(&context);
  mlir::warp::buildWarpLowerToPTXPipeline(pm, options);
  if (mlir::failed(pm.run(*module)))
    return 1;
  unsigned shuffles = 0;
  module->walk([&](mlir::gpu::BinaryOp binary) {
    for (mlir::Attribute attr : binary.getObjects()) {
      llvm::StringRef ptx =
          llvm::cast<mlir::gpu::ObjectAttr>(attr).getObject().getValue();
      for (size_t at = ptx.find("shfl.sync"); at != llvm::StringRef::npos;
           at = ptx.find("shfl.sync", at + 1))
        ++shuffles;
    }
  });
  llvm::outs() << "consumer-cpp: " << shuffles << " shfl.sync\n";
  return 0;
}
