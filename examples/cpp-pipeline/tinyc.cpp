//===- tinyc.cpp - a tiny DSL compiler that lowers through warp ----------===//
//
// The C++ half of docs/Tutorial.md: a compiler for a toy language whose
// kernels are warp reductions and scans. It builds warp ops with the C++
// builders (each op located at its source line), runs its own pass manager
// with warp's pipeline in it, and writes the PTX.
//
//   tinyc FILE.tiny [-o OUT.ptx] [--chip=sm_90] [--emit=mlir|ptx]
//         [--passes=PASS,PASS,...]
//
// A line of FILE.tiny is `kernel NAME reduce|scan KIND TYPE [cluster N]`;
// `#` starts a comment. Each kernel reads in[i] and writes the combined
// value to out[i], i being the global thread index.
//
// Built against an installed warp by test/Install/install.test.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/WarpDialect.h"
#include "WarpDialect/Pipelines/Pipelines.h"
#include "WarpDialect/Toolchain/FatalErrors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace mlir;

namespace {

/// One kernel of the source: what a real DSL's front end would hand over.
struct KernelDecl {
  std::string name;
  bool scan = false;
  warp::CombineKind kind = warp::CombineKind::Add;
  Type element;
  unsigned cluster = 32;
  Location loc;
};

std::optional<Type> parseElementType(StringRef word, MLIRContext &context) {
  Builder b(&context);
  if (word == "i32")
    return b.getI32Type();
  if (word == "i64")
    return b.getI64Type();
  if (word == "f32")
    return b.getF32Type();
  if (word == "f64")
    return b.getF64Type();
  return std::nullopt;
}

/// Parses the source; reports errors as MLIR diagnostics at FILE:LINE:COL.
FailureOr<SmallVector<KernelDecl>> parseSource(llvm::SourceMgr &sources,
                                               MLIRContext &context) {
  const llvm::MemoryBuffer *buffer = sources.getMemoryBuffer(1);
  StringRef file = buffer->getBufferIdentifier();
  SmallVector<StringRef> lines;
  buffer->getBuffer().split(lines, '\n');
  SmallVector<KernelDecl> kernels;
  for (unsigned number = 1; number <= lines.size(); ++number) {
    StringRef line = lines[number - 1];
    StringRef code = line.split('#').first;
    SmallVector<StringRef> words;
    llvm::SplitString(code, words);
    if (words.empty())
      continue;
    auto at = [&](StringRef word) {
      return FileLineColLoc::get(&context, file, number,
                                 word.data() - line.data() + 1);
    };
    if (words[0] != "kernel" || words.size() < 5 ||
        (words[2] != "reduce" && words[2] != "scan")) {
      emitError(at(words[0]))
          << "expected `kernel NAME reduce|scan KIND TYPE [cluster N]`";
      return failure();
    }
    KernelDecl kernel{
        words[1].str(), words[2] == "scan", warp::CombineKind::Add, Type(), 32,
        at(words[2])};
    std::optional<warp::CombineKind> kind =
        warp::symbolizeCombineKind(words[3]);
    if (!kind) {
      emitError(at(words[3])) << "unknown combine kind '" << words[3] << "'";
      return failure();
    }
    kernel.kind = *kind;
    std::optional<Type> type = parseElementType(words[4], context);
    if (!type) {
      emitError(at(words[4])) << "unknown type '" << words[4] << "'";
      return failure();
    }
    kernel.element = *type;
    // `cluster N`: the warp verifier checks N (a power of two up to 32).
    bool cluster = words.size() == 7 && words[5] == "cluster" && !kernel.scan &&
                   !words[6].getAsInteger(10, kernel.cluster);
    if (words.size() != 5 && !cluster) {
      emitError(at(words[5])) << "expected `cluster N` (reduce only)";
      return failure();
    }
    kernels.push_back(kernel);
  }
  return kernels;
}

/// gpu.func @NAME(%in, %out: memref<?xT>) kernel { out[i] = collective(in[i]) }
void buildKernel(OpBuilder &b, const KernelDecl &kernel) {
  Location loc = kernel.loc;
  auto buffer = MemRefType::get({ShapedType::kDynamic}, kernel.element);
  auto func = gpu::GPUFuncOp::create(b, loc, kernel.name,
                                     b.getFunctionType({buffer, buffer}, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&func.getBody().front());
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value size = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value index = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, block, size), thread);
  Value x = memref::LoadOp::create(b, loc, func.getArgument(0), index);
  Value combined;
  if (kernel.scan) {
    combined = warp::ScanOp::create(b, loc, kernel.kind, x).getResult()[0];
  } else {
    auto kind = warp::CombineKindAttr::get(b.getContext(), kernel.kind);
    combined = warp::ReduceOp::create(
                   b, loc, TypeRange{kernel.element}, kind, ValueRange{x},
                   /*valid_lanes=*/Value(), /*mask=*/Value(), /*heads=*/Value(),
                   /*tails=*/Value(), kernel.cluster, /*cluster_stride=*/1,
                   warp::ResultLanes::All, /*strategy=*/nullptr)
                   .getResult()[0];
  }
  memref::StoreOp::create(b, loc, combined, func.getArgument(1), index);
  gpu::ReturnOp::create(b, loc);
}

struct Flags {
  std::string input, output = "-", chip = "sm_90", emit = "ptx", pipeline;
};

std::optional<Flags> parseFlags(int argc, char **argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "-o" && i + 1 < argc)
      flags.output = argv[++i];
    else if (arg.consume_front("--chip="))
      flags.chip = arg.str();
    else if (arg.consume_front("--emit=") && (arg == "mlir" || arg == "ptx"))
      flags.emit = arg.str();
    else if (arg.consume_front("--passes="))
      flags.pipeline = arg.str();
    else if (!arg.starts_with("-") && flags.input.empty())
      flags.input = arg.str();
    else
      return std::nullopt;
  }
  if (flags.input.empty())
    return std::nullopt;
  return flags;
}

} // namespace

int main(int argc, char **argv) {
  std::optional<Flags> flags = parseFlags(argc, argv);
  if (!flags) {
    llvm::errs() << "usage: tinyc FILE.tiny [-o OUT] [--chip=sm_90] "
                    "[--emit=mlir|ptx] [--passes=PASS,PASS,...]\n";
    return 2;
  }

  // 1. A context with warp and the upstream dialects its lowering needs.
  DialectRegistry registry;
  warp::registerWarpDialectsAndExtensions(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false); // the source line says enough

  // Every diagnostic, ours and warp's, prints as FILE:LINE:COL: error: ...
  // with the source line under it.
  llvm::SourceMgr sources;
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(flags->input, &error);
  if (!file) {
    llvm::errs() << "tinyc: " << error << "\n";
    return 1;
  }
  sources.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sources, &context);

  // 2. The front end: source -> warp ops inside a gpu.module.
  FailureOr<SmallVector<KernelDecl>> kernels = parseSource(sources, context);
  if (failed(kernels))
    return 1;
  OpBuilder b(&context);
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(FileLineColLoc::get(&context, flags->input, 1, 1));
  (*module)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                     b.getUnitAttr());
  b.setInsertionPointToEnd(module->getBody());
  auto device = gpu::GPUModuleOp::create(b, module->getLoc(), "tiny");
  b.setInsertionPointToStart(device.getBody());
  for (const KernelDecl &kernel : *kernels)
    buildKernel(b, kernel);
  if (failed(verify(*module)))
    return 1; // the warp verifier's messages point at the source lines
  if (flags->emit == "mlir") {
    module->print(llvm::outs());
    return 0;
  }

  // 3. The compiler's own pass manager: its passes, then warp's pipeline.
  PassManager pm(&context);
  warp::reportFatalErrorsAsDiagnostics(pm);
  if (flags->pipeline.empty()) {
    pm.addPass(createCanonicalizerPass()); // the DSL's own clean-up
    warp::WarpPipelineOptions options;
    options.chip = flags->chip;
    options.format = gpu::CompilationTarget::Assembly;
    if (std::optional<std::string> problem =
            warp::checkWarpPipelineOptions(options)) {
      llvm::errs() << "tinyc: " << *problem << "\n";
      return 1;
    }
    warp::buildWarpLowerToPTXPipeline(pm, options);
  } else {
    // Passes by name, as inside warp-opt's
    // --pass-pipeline='builtin.module(...)', e.g.
    //   canonicalize,warp-lower-to-ptx{chip=sm_80 format=isa}
    registerTransformsPasses();
    warp::registerWarpPasses();
    warp::registerWarpPipelines();
    if (failed(parsePassPipeline(flags->pipeline, pm, llvm::errs())))
      return 1;
  }
  if (failed(pm.run(*module)))
    return 1;

  // 4. The PTX: one gpu.binary per gpu.module, its object holds the text.
  auto output = mlir::openOutputFile(flags->output, &error);
  if (!output) {
    llvm::errs() << "tinyc: " << error << "\n";
    return 1;
  }
  module->walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects())
      output->os() << cast<gpu::ObjectAttr>(object).getObject().getValue();
  });
  output->keep();
  return 0;
}
