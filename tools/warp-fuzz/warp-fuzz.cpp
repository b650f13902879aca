//===- warp-fuzz.cpp - libFuzzer harness for the warp pipeline ------------===//
//
// Feeds arbitrary bytes through what `warp-opt --warp-lower-to-ptx` does:
//
//   parse (MLIR source) -> verify -> warp-lower-to-ptx{format=isa}
//   (outlining, placement check, gpu-to-warp, warp expansion, warp-to-nvvm,
//    the device and host passes of upstream's NVVM lowering, NVPTX backend ->
//    PTX text in gpu.binary)
//
// Input layout: byte 0 picks the options, the rest is MLIR source.
//   bits 0-1: chip      0 sm_70, 1 sm_80, 2 sm_90, 3 sm_100a
//   bits 2-3: strategy  0 auto, 1 butterfly, 2 tree, 3 redux
//   bit  6  : NVPTX opt-level 3 when clear, 0 when set
// so the digits '0'..'3' (0x30..0x33) mean `auto`, -O3 on sm_70..sm_100a,
// '4'..'7' butterfly, '8'..';' tree, '<'..'?' redux; '@'..'O' the same at -O0.
//
// Diagnostics are swallowed: rejecting an input (parse error, verifier
// error, a pass reporting failure) is the expected outcome for most inputs.
// Anything else - a crash, an assertion, an LLVM fatal error (report_fatal_
// error aborts, which libFuzzer records), a sanitizer report - is a finding.
// So is a pass that succeeds but leaves IR that does not verify (the pass
// manager would report it as an error): the harness verifies after every
// successful pass itself and aborts with the pass name and the verifier
// message. Set WARP_FUZZ_VERIFY_EACH=0 to let the pass manager treat that as
// a plain failure instead.
//
// Inputs nested deeper than kMaxNesting brackets are skipped: the parser and
// the region walkers recurse, and a stack overflow on 4000 `{` is a known
// property of MLIR, not a warp bug.
//
// Reproduce a finding with the same options through warp-opt:
//   tail -c +2 crash-XXX > crash.mlir
//   warp-opt crash.mlir --warp-lower-to-ptx="chip=... strategy=... format=isa"
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

using namespace mlir;

namespace {

constexpr size_t kMaxInput = 4096;
constexpr int kMaxNesting = 64;

const char *const kChips[] = {"sm_70", "sm_80", "sm_90", "sm_100a"};
const warp::StrategyPreference kStrategies[] = {
    warp::StrategyPreference::Auto, warp::StrategyPreference::Butterfly,
    warp::StrategyPreference::Tree, warp::StrategyPreference::Redux};

/// Built once: every input gets a fresh context with these dialects.
DialectRegistry *registry;
bool verifyEach = true;

/// Error messages of the current input, kept only to explain a finding.
struct DiagnosticLog {
  bool capture = false;
  std::string text;
};

/// A pass that succeeds must leave valid IR: verify after each one and abort
/// (a finding) when it does not.
struct VerifyAfterEachPass : public PassInstrumentation {
  explicit VerifyAfterEachPass(DiagnosticLog &log) : log(log) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    log.capture = true;
    log.text.clear();
    bool invalid = failed(verify(op));
    log.capture = false;
    if (!invalid)
      return;
    std::fprintf(stderr,
                 "warp-fuzz: pass '%s' succeeded on '%s' but left invalid "
                 "IR:\n%s\n",
                 (pass->getArgument().empty() ? pass->getName()
                                              : pass->getArgument())
                     .str()
                     .c_str(),
                 op->getName().getStringRef().str().c_str(), log.text.c_str());
    std::abort();
  }
  DiagnosticLog &log;
};

/// Deepest bracket nesting of the input; `->` is not a closing bracket.
int maxNesting(llvm::StringRef text) {
  int depth = 0, deepest = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    switch (text[i]) {
    case '{':
    case '(':
    case '[':
    case '<':
      deepest = std::max(deepest, ++depth);
      break;
    case '>':
      if (i > 0 && text[i - 1] == '-')
        break;
      [[fallthrough]];
    case '}':
    case ')':
    case ']':
      depth = std::max(0, depth - 1);
      break;
    default:
      break;
    }
  }
  return deepest;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (const char *env = std::getenv("WARP_FUZZ_VERIFY_EACH"))
    verifyEach = std::strcmp(env, "0") != 0;
  registry = new DialectRegistry();
  warp::registerWarpDialectsAndExtensions(*registry);
  // Fills the pass registry as warp-opt does (pipelines parse their
  // options through it).
  warp::registerWarpPasses();
  warp::registerWarpPipelines();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2 || size > kMaxInput)
    return 0;
  const uint8_t selector = data[0];
  llvm::StringRef source(reinterpret_cast<const char *>(data + 1), size - 1);
  if (maxNesting(source) > kMaxNesting)
    return 0;

  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);
  DiagnosticLog log;
  ScopedDiagnosticHandler silence(&context, [&log](Diagnostic &diag) {
    if (log.capture && diag.getSeverity() == DiagnosticSeverity::Error)
      log.text += diag.str() + "\n";
    return success();
  });

  // A null-terminated copy: the lexer may read one past the last byte.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "fuzz-input"),
      llvm::SMLoc());
  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module)
    return 0;
  if (failed(verify(*module)))
    return 0;

  warp::WarpPipelineOptions options;
  options.chip = kChips[selector & 3];
  options.strategy = kStrategies[(selector >> 2) & 3];
  options.format = warp::BinaryFormat::Isa;
  options.optLevel = (selector & 0x40) ? 0 : 3;

  PassManager pm(&context, module.get()->getName().getStringRef());
  warp::buildWarpLowerToPTXPipeline(pm, options);
  if (verifyEach) {
    pm.enableVerifier(false);
    pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>(log));
  }
  // A failing pass is a rejected input, not a finding: the result is
  // ignored.
  (void)pm.run(*module);
  return 0;
}
