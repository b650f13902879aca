//===- PrintISA.cpp - write the PTX held by gpu.binary ops ----------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPPRINTISAPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {
struct WarpPrintISAPass
    : public warp::impl::WarpPrintISAPassBase<WarpPrintISAPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<std::string, std::string>> modules; // name, PTX
    WalkResult walk = getOperation().walk([&](gpu::BinaryOp binary) {
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<gpu::ObjectAttr>(attr);
        if (object.getFormat() != gpu::CompilationTarget::Assembly) {
          binary.emitError("warp-print-isa needs PTX objects: lower with "
                           "format=isa");
          return WalkResult::interrupt();
        }
        modules.emplace_back(binary.getSymName().str(),
                             object.getObject().getValue().str());
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    // A directory: one file per module, as ptxas takes them.
    if (StringRef(output).ends_with("/")) {
      for (auto &[name, ptx] : modules)
        if (failed(write(output + fileNameOf(name) + ".ptx", ptx)))
          return signalPassFailure();
      return;
    }
    // One file holds one module (ptxas rejects a second .version); stdout
    // may show several, each after a header comment.
    if (output != "-" && modules.size() > 1) {
      getOperation().emitError()
          << "ptx-output='" << output << "' can hold one gpu.module, there are "
          << modules.size()
          << " (ptxas accepts one .version per file): use a directory "
             "(ptx-output=DIR/, one NAME.ptx each) or '-'";
      return signalPassFailure();
    }
    std::string text;
    for (auto &[name, ptx] : modules)
      text += (output == "-" ? "// gpu.binary @" + fileNameOf(name) + "\n"
                             : std::string()) +
              ptx;
    if (failed(write(output, text)))
      signalPassFailure();
  }

  /// `name` with every character outside [A-Za-z0-9_.$-] as `_xx` (hex), so
  /// file names and the header comment stay ASCII, as ptxas requires.
  static std::string fileNameOf(StringRef name) {
    std::string result;
    for (unsigned char c : name) {
      if (llvm::isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '-')
        result += char(c);
      else
        result += "_" + llvm::utohexstr(c, /*LowerCase=*/true, /*Width=*/2);
    }
    return result;
  }

  LogicalResult write(StringRef path, StringRef text) {
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
    if (!file)
      return getOperation().emitError("cannot open PTX output '")
             << path << "': " << error;
    file->os() << text;
    file->keep();
    return success();
  }
};
} // namespace
