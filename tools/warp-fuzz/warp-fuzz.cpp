//===- warp-fuzz.cpp - libFuzzer harness for the warp pipeline ------------===//
//
// Feeds arbitrary bytes through what `warp-opt --warp-lower-to-ptx` does:
//
//   parse (MLIR source) -> verify -> warp-lower-to-ptx{format=isa}
//   (outlining, lowerability check, gpu-to-warp, warp expansion,
//    warp-lower-to-nvvm, the device and host passes of upstream's NVVM
//    lowering, NVPTX backend -> PTX text in gpu.binary)
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
// Structure-aware mutations (LLVMFuzzerCustomMutator): byte flips rarely
// change the structure of MLIR text, so about half of the mutations are
// structural edits of the source (see `Mutator` below): empty or duplicate a
// region body, swap a payload type, wrap ops in scf.if/scf.for, turn a warp
// op into its block form and back, change a collective's tuple width, sweep
// integers, enum spellings, address spaces and the option byte. The rest,
// and every edit that finds nothing to change, use libFuzzer's own
// mutations. WARP_FUZZ_MUTATOR=0 turns the structural edits off;
// WARP_FUZZ_CLASSES=1 prints at exit how many inputs had the shapes of
// earlier crash classes (an empty combine region, a block_scan of 7 values,
// an atomic_rmw on private memory); WARP_FUZZ_DUMP=DIR writes the first
// 1000 structural mutants there, to read what the edits make.
//
// Inputs with a dense array of `index` (`array<index: ...>`) are skipped too:
// upstream MLIR's parser crashes on them.
//
// Reproduce a finding with the same options through warp-opt:
//   tail -c +2 crash-XXX > crash.mlir
//   warp-opt crash.mlir --warp-lower-to-ptx="chip=... strategy=... format=isa"
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Pipelines/Pipelines.h"
#include "WarpDialect/Toolchain/FatalErrors.h"

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

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

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

//===----------------------------------------------------------------------===//
// Structure-aware mutations
//===----------------------------------------------------------------------===//

/// Textual edits of MLIR source that keep it parseable more often than byte
/// mutations do. Each returns false when the input has nothing it applies to.
/// New SSA names start with `%fz` and a number drawn from the generator, so
/// repeated edits rarely collide with each other or with the input's names.
class Mutator {
public:
  explicit Mutator(unsigned seed) : rng(seed) {}

  /// Applies one randomly chosen structural edit (trying a few) to `text`.
  bool mutate(std::string &text) {
    using Edit = bool (Mutator::*)(std::string &);
    static const Edit edits[] = {
        &Mutator::emptyRegion,    &Mutator::duplicateRegion,
        &Mutator::swapType,       &Mutator::wrapInControlFlow,
        &Mutator::toggleBlockOp,  &Mutator::changeTupleWidth,
        &Mutator::sweepInteger,   &Mutator::sweepEnum,
        &Mutator::sweepAddressSpace};
    constexpr size_t numEdits = sizeof(edits) / sizeof(edits[0]);
    for (int attempt = 0; attempt < 4; ++attempt)
      if ((this->*edits[pick(numEdits)])(text))
        return true;
    return false;
  }

  /// Picks another option byte (chip, strategy, opt level) for the input.
  uint8_t sweepOptions() {
    return static_cast<uint8_t>(0x30 + pick(16)) | (pick(2) ? 0x40 : 0);
  }

  size_t pick(size_t n) { return n ? rng() % n : 0; }

private:
  std::minstd_rand rng;

  std::string freshName(const char *stem) {
    return "%fz" + std::string(stem) + std::to_string(rng() % 100000);
  }

  static bool isIdent(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           c == '$' || c == '.';
  }

  /// Every `{` with its matching `}`.
  static std::vector<std::pair<size_t, size_t>>
  bracePairs(const std::string &s) {
    std::vector<std::pair<size_t, size_t>> pairs;
    std::vector<size_t> open;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '{') {
        open.push_back(i);
      } else if (s[i] == '}' && !open.empty()) {
        pairs.emplace_back(open.back(), i);
        open.pop_back();
      }
    }
    return pairs;
  }

  /// The `{...}` that hold a region: the `{` ends its line (attribute
  /// dictionaries and dense literals stay on theirs).
  static std::vector<std::pair<size_t, size_t>>
  regionPairs(const std::string &s) {
    std::vector<std::pair<size_t, size_t>> regions;
    for (auto [open, close] : bracePairs(s)) {
      size_t next = s.find_first_not_of(" \t", open + 1);
      if (next != std::string::npos && s[next] == '\n')
        regions.emplace_back(open, close);
    }
    return regions;
  }

  /// The `>` that closes the `<` at `open`, or npos.
  static size_t closeAngle(const std::string &s, size_t open) {
    int depth = 0;
    for (size_t i = open; i < s.size(); ++i) {
      if (s[i] == '<')
        ++depth;
      else if (s[i] == '>' && !(i && s[i - 1] == '-') && --depth == 0)
        return i;
    }
    return std::string::npos;
  }

  static void replaceAll(std::string &s, const std::string &from,
                         const std::string &to, size_t begin = 0,
                         size_t end = std::string::npos) {
    if (from.empty())
      return;
    end = std::min(end, s.size());
    for (size_t at = s.find(from, begin);
         at != std::string::npos && at + from.size() <= end;
         at = s.find(from, at + to.size())) {
      s.replace(at, from.size(), to);
      end = end + to.size() - from.size();
    }
  }

  /// Replaces the SSA name `from` (a whole token) by `to` in [begin, end).
  static void renameValue(std::string &s, const std::string &from,
                          const std::string &to, size_t begin, size_t end) {
    end = std::min(end, s.size());
    for (size_t at = s.find(from, begin);
         at != std::string::npos && at + from.size() <= end;) {
      size_t after = at + from.size();
      if (after < s.size() && (isIdent(s[after]) || s[after] == '#' ||
                               s[after] == ':')) {
        at = s.find(from, after);
        continue;
      }
      s.replace(at, from.size(), to);
      end = end + to.size() - from.size();
      at = s.find(from, at + to.size());
    }
  }

  /// Lines: [start, end) offsets, without the newline.
  static std::vector<std::pair<size_t, size_t>> lines(const std::string &s) {
    std::vector<std::pair<size_t, size_t>> out;
    size_t start = 0;
    while (start <= s.size()) {
      size_t nl = s.find('\n', start);
      size_t end = nl == std::string::npos ? s.size() : nl;
      out.emplace_back(start, end);
      if (nl == std::string::npos)
        break;
      start = nl + 1;
    }
    return out;
  }

  /// The op name of a line (`%a, %b = dialect.op ...` or `dialect.op ...`),
  /// or "" when the line does not start an operation.
  static std::string opName(const std::string &line) {
    size_t at = line.find_first_not_of(" \t");
    if (at == std::string::npos)
      return "";
    if (line[at] == '%') {
      size_t eq = line.find(" = ", at);
      if (eq == std::string::npos)
        return "";
      at = eq + 3;
    }
    size_t end = at;
    while (end < line.size() && isIdent(line[end]))
      ++end;
    std::string name = line.substr(at, end - at);
    return name.find('.') == std::string::npos ? "" : name;
  }

  static bool isTerminator(const std::string &op) {
    return op == "warp.yield" || op == "scf.yield" || op == "func.return" ||
           op == "gpu.return" || op == "gpu.yield" || op == "cf.br" ||
           op == "cf.cond_br" || op == "gpu.terminator" || op == "return";
  }

  /// Empties a `{...}`: the whole body, or all but a leading block label
  /// (a block without a terminator, as in an empty combine region).
  bool emptyRegion(std::string &s) {
    auto pairs = regionPairs(s);
    if (pairs.empty())
      return false;
    auto [open, close] = pairs[pick(pairs.size())];
    size_t keep = open + 1;
    size_t label = s.find_first_not_of(" \t\n", keep);
    if (label < close && s[label] == '^' && pick(2)) {
      size_t nl = s.find('\n', label);
      keep = nl == std::string::npos || nl > close ? close : nl + 1;
    }
    s.replace(keep, close - keep, pick(2) ? "\n" : "");
    return true;
  }

  /// Doubles the ops of a `{...}`: a copy (its values renamed, its
  /// terminator dropped) goes before the original body.
  bool duplicateRegion(std::string &s) {
    auto pairs = regionPairs(s);
    if (pairs.empty())
      return false;
    auto [open, close] = pairs[pick(pairs.size())];
    std::string body = s.substr(open + 1, close - open - 1);
    if (body.find('^') != std::string::npos && pick(2))
      return false; // blocks with labels would be duplicated too
    std::string copy, suffix = "_d" + std::to_string(pick(1000));
    for (auto [b, e] : lines(body)) {
      std::string line = body.substr(b, e - b);
      if (isTerminator(opName(line)))
        continue;
      copy += line + "\n";
    }
    // Rename what the copy defines (each `%name` left of ` = `).
    for (auto [b, e] : lines(copy)) {
      std::string line = copy.substr(b, e - b);
      size_t eq = line.find(" = ");
      if (eq == std::string::npos)
        continue;
      for (size_t at = line.find('%'); at != std::string::npos && at < eq;
           at = line.find('%', at + 1)) {
        size_t end = at + 1;
        while (end < line.size() && isIdent(line[end]))
          ++end;
        std::string name = line.substr(at, end - at);
        renameValue(copy, name, name + suffix, 0, std::string::npos);
      }
    }
    s.insert(open + 1, "\n" + copy);
    return true;
  }

  static const std::vector<std::string> &scalarTypes() {
    static const std::vector<std::string> types = {
        "i1", "i8", "i16", "i32", "i64", "index", "f16", "bf16", "f32", "f64"};
    return types;
  }

  std::string randomType() {
    const auto &scalars = scalarTypes();
    std::string t = scalars[pick(scalars.size())];
    if (pick(3))
      return t;
    static const int lanes[] = {1, 2, 3, 4, 8};
    return "vector<" + std::to_string(lanes[pick(5)]) + "x" + t + ">";
  }

  /// Replaces one payload type, or every occurrence of it, by another of
  /// the types the dialect's ODS constraints name.
  bool swapType(std::string &s) {
    std::vector<std::pair<size_t, size_t>> found; // offset, length
    for (size_t i = 0; i < s.size(); ++i) {
      if (i && (isIdent(s[i - 1]) && s[i - 1] != 'x'))
        continue;
      if (i && (s[i - 1] == '%' || s[i - 1] == '#' || s[i - 1] == '@' ||
                s[i - 1] == '^'))
        continue;
      if (i >= 6 && s.compare(i - 6, 6, "array<") == 0)
        continue; // the element type of a dense array: see hasIndexDenseArray
      if (s.compare(i, 7, "vector<") == 0) {
        size_t close = closeAngle(s, i + 6);
        if (close != std::string::npos)
          found.emplace_back(i, close + 1 - i);
        continue;
      }
      for (const std::string &t : scalarTypes())
        if (s.compare(i, t.size(), t) == 0 &&
            (i + t.size() == s.size() || !isIdent(s[i + t.size()]))) {
          found.emplace_back(i, t.size());
          break;
        }
    }
    if (found.empty())
      return false;
    auto [at, len] = found[pick(found.size())];
    std::string from = s.substr(at, len), to = randomType();
    if (pick(2)) {
      s.replace(at, len, to);
      return true;
    }
    // Every occurrence: keeps the function's signature and its ops in
    // agreement, so the verifier looks at the new type itself.
    for (auto it = found.rbegin(); it != found.rend(); ++it)
      if (s.compare(it->first, it->second, from) == 0 && it->second == len)
        s.replace(it->first, it->second, to);
    return true;
  }

  /// Wraps an op (or an op and the rest of its block up to the terminator,
  /// so that its results keep their uses) in `scf.if` or `scf.for`, with a
  /// uniform or a lane-dependent condition.
  bool wrapInControlFlow(std::string &s) {
    auto ls = lines(s);
    std::vector<size_t> candidates;
    for (size_t i = 0; i < ls.size(); ++i) {
      std::string op = opName(s.substr(ls[i].first, ls[i].second - ls[i].first));
      if (!op.empty() && !isTerminator(op) && op != "func.func" &&
          op != "gpu.func" && op != "gpu.module" && op != "llvm.func")
        candidates.push_back(i);
    }
    if (candidates.empty())
      return false;
    size_t first = candidates[pick(candidates.size())];
    std::string line =
        s.substr(ls[first].first, ls[first].second - ls[first].first);
    // The span ends before the block's terminator (or its closing brace).
    size_t last = first;
    int depth = 0;
    for (size_t i = first; i < ls.size(); ++i) {
      std::string l = s.substr(ls[i].first, ls[i].second - ls[i].first);
      int before = depth;
      for (char c : l)
        depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      if (before == 0 && (depth < 0 || (i > first && isTerminator(opName(l)))))
        break;
      last = i;
      if (depth == 0 && pick(4) == 0 && line.find(" = ") == std::string::npos)
        break; // sometimes only the op itself
    }
    if (depth > 0 && last + 1 == ls.size())
      return false;
    size_t begin = ls[first].first, end = ls[last].second;
    std::string indent = line.substr(0, line.find_first_not_of(" \t"));
    std::string head;
    if (pick(2)) {
      std::string c = freshName("c");
      if (pick(2)) {
        head = indent + c + " = arith.constant true\n";
      } else {
        std::string lane = freshName("l"), k = freshName("k");
        head = indent + lane + " = warp.lane_id : i32\n" + indent + k +
               " = arith.constant " + std::to_string(pick(33)) + " : i32\n" +
               indent + c + " = arith.cmpi ult, " + lane + ", " + k +
               " : i32\n";
      }
      head += indent + "scf.if " + c + " {\n";
    } else {
      std::string lb = freshName("b"), ub = freshName("e"),
                  st = freshName("s"), iv = freshName("i");
      head = indent + lb + " = arith.constant 0 : index\n" + indent + ub +
             " = arith.constant " + std::to_string(1 + pick(3)) +
             " : index\n" + indent + st + " = arith.constant 1 : index\n" +
             indent + "scf.for " + iv + " = " + lb + " to " + ub + " step " +
             st + " {\n";
    }
    s.insert(end, "\n" + indent + "}");
    s.insert(begin, head);
    return true;
  }

  /// warp.reduce <-> warp.block_reduce, and scan, broadcast, exchange.
  bool toggleBlockOp(std::string &s) {
    static const char *const pairs[][2] = {
        {"warp.reduce ", "warp.block_reduce "},
        {"warp.scan ", "warp.block_scan "},
        {"warp.broadcast ", "warp.block_broadcast "},
        {"warp.exchange ", "warp.block_exchange "}};
    std::vector<std::pair<size_t, int>> found; // offset, pair*2 + side
    for (int p = 0; p < 4; ++p)
      for (int side = 0; side < 2; ++side)
        for (size_t at = s.find(pairs[p][side]); at != std::string::npos;
             at = s.find(pairs[p][side], at + 1))
          found.emplace_back(at, p * 2 + side);
    if (found.empty())
      return false;
    auto [at, which] = found[pick(found.size())];
    const char *from = pairs[which / 2][which % 2];
    const char *to = pairs[which / 2][1 - which % 2];
    s.replace(at, std::strlen(from), to);
    return true;
  }

  /// Replaces a reduce/scan (warp or block) by one over a tuple of N copies
  /// of its first operand with a generated combine region; the old results
  /// are renamed to the new ones (those past N are left dangling).
  bool changeTupleWidth(std::string &s) {
    static const char *const ops[] = {"warp.reduce ", "warp.scan ",
                                      "warp.block_reduce ",
                                      "warp.block_scan "};
    std::vector<std::pair<size_t, int>> found;
    for (int o = 0; o < 4; ++o)
      for (size_t at = s.find(ops[o]); at != std::string::npos;
           at = s.find(ops[o], at + 1))
        found.emplace_back(at, o);
    if (found.empty())
      return false;
    auto [at, o] = found[pick(found.size())];
    size_t lineBegin = s.rfind('\n', at);
    lineBegin = lineBegin == std::string::npos ? 0 : lineBegin + 1;
    size_t lineEnd = s.find('\n', at);
    if (lineEnd == std::string::npos)
      lineEnd = s.size();
    std::string lhs = s.substr(lineBegin, at - lineBegin);
    size_t eq = lhs.find(" = ");
    if (eq == std::string::npos)
      return false;
    std::string indent = lhs.substr(0, lhs.find_first_not_of(" \t"));
    // The first operand and the first type after ` : `.
    size_t operand = s.find('%', at);
    size_t colon = s.find(" : ", at);
    if (operand >= lineEnd || colon >= lineEnd || operand > colon)
      return false;
    size_t operandEnd = operand + 1;
    while (operandEnd < s.size() && (isIdent(s[operandEnd]) || s[operandEnd] == '#'))
      ++operandEnd;
    std::string value = s.substr(operand, operandEnd - operand);
    size_t typeBegin = colon + 3, typeEnd = typeBegin;
    while (typeEnd < lineEnd && s[typeEnd] != ',' && s[typeEnd] != ' ') {
      if (s[typeEnd] == '<') {
        typeEnd = closeAngle(s, typeEnd);
        if (typeEnd == std::string::npos)
          return false;
      }
      ++typeEnd;
    }
    std::string type = s.substr(typeBegin, typeEnd - typeBegin);
    if (type.empty())
      return false;
    // The op ends at its line, or at the brace closing its region.
    size_t opEnd = lineEnd;
    size_t brace = s.find('{', at);
    if (brace < lineEnd) {
      for (auto [b, c] : bracePairs(s))
        if (b == brace)
          opEnd = c + 1;
      if (opEnd == lineEnd)
        return false;
    }
    static const int widths[] = {1, 2, 3, 5, 6, 7, 8, 16, 33};
    int n = widths[pick(9)];
    bool isFloat = type.find('f') != std::string::npos;
    std::string base = freshName("t");
    std::string op = std::string(ops[o]);
    std::string text = indent + base + (n > 1 ? ":" + std::to_string(n) : "") +
                       " = " + op;
    std::string types, lhsArgs, rhsArgs, body, yielded;
    for (int i = 0; i < n; ++i) {
      std::string sep = i ? ", " : "";
      std::string a = base + "a" + std::to_string(i);
      std::string b = base + "b" + std::to_string(i);
      std::string r = base + "r" + std::to_string(i);
      text += sep + value;
      types += sep + type;
      lhsArgs += sep + a + ": " + type;
      rhsArgs += ", " + b + ": " + type;
      body += indent + "  " + r + " = arith." + (isFloat ? "addf " : "addi ") +
              a + ", " + b + " : " + type + "\n";
      yielded += sep + r;
    }
    if (op.find("scan") != std::string::npos && pick(2))
      text += " exclusive";
    text += " : " + types + " combine (" + lhsArgs + rhsArgs + ") {\n" + body +
            indent + "  warp.yield " + yielded + " : " + types + "\n" + indent +
            "}";
    // Old results -> new ones, from the op to the end of its region.
    std::vector<std::string> names;
    std::string results = lhs.substr(0, eq);
    int packed = 0;
    for (size_t p = results.find('%'); p != std::string::npos;
         p = results.find('%', p + 1)) {
      size_t e = p + 1;
      while (e < results.size() && isIdent(results[e]))
        ++e;
      names.push_back(results.substr(p, e - p));
      // `%r:N`: N may have been swept to any integer; results past the
      // largest width drawn here cannot be renamed anyway.
      if (e < results.size() && results[e] == ':')
        packed = std::clamp(std::atoi(results.c_str() + e + 1), 0, 64);
    }
    s.replace(lineBegin, opEnd - lineBegin, text);
    size_t from = lineBegin + text.size(), to = s.size();
    for (auto [b, c] : bracePairs(s))
      if (b < lineBegin && c > from && c < to)
        to = c;
    auto result = [&](int i) {
      return n == 1 && i == 0 ? base : base + "#" + std::to_string(i);
    };
    if (packed && names.size() == 1) {
      for (int i = packed - 1; i >= 0; --i)
        replaceAll(s, names[0] + "#" + std::to_string(i), result(i), from, to);
    } else {
      for (size_t i = 0; i < names.size(); ++i)
        renameValue(s, names[i], result((int)i), from, to);
    }
    return true;
  }

  /// Replaces an integer literal (sizes, strides, widths, block sizes,
  /// vector lengths, memory spaces) by a boundary value.
  bool sweepInteger(std::string &s) {
    std::vector<std::pair<size_t, size_t>> found;
    for (size_t i = 0; i < s.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(s[i])))
        continue;
      size_t e = i;
      while (e < s.size() && std::isdigit(static_cast<unsigned char>(s[e])))
        ++e;
      bool partOfName = i && (isIdent(s[i - 1]) || s[i - 1] == '%' ||
                              s[i - 1] == '#' || s[i - 1] == '@');
      // Digits after a letter are part of a name (i32, sm_90, %arg0),
      // except a vector or memref dimension (`4x8xf32`).
      if (partOfName && !(s[i - 1] == 'x' && i >= 2 &&
                          std::isdigit(static_cast<unsigned char>(s[i - 2]))))
        ;
      else
        found.emplace_back(i, e - i);
      i = e;
    }
    if (found.empty())
      return false;
    static const char *const values[] = {
        "0",          "1",          "2",          "3",          "4",
        "5",          "7",          "8",          "16",         "31",
        "32",         "33",         "64",         "128",        "1023",
        "1024",       "1025",       "4096",       "65536",      "2147483647",
        "2147483648", "4294967295", "4294967296", "-1",         "-2147483648",
        "4611686018427387904",      "9223372036854775807"};
    auto [at, len] = found[pick(found.size())];
    s.replace(at, len, values[pick(sizeof(values) / sizeof(values[0]))]);
    return true;
  }

  /// Replaces an enum spelling `<word>` by another of its group (or of any
  /// group, now and then).
  bool sweepEnum(std::string &s) {
    static const std::vector<std::vector<std::string>> groups = {
        {"add", "mul", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor",
         "minnumf", "maxnumf", "minimumf", "maximumf"},
        {"idx", "xor", "up", "down"},
        {"any", "all", "uni"},
        {"auto", "butterfly", "tree", "redux"},
        {"first", "last"},
        {"warp_reductions", "raking", "warp_scans"},
        {"blocked_to_striped", "striped_to_blocked"},
        {"lt", "le", "eq", "ge", "gt"},
        {"private", "workgroup", "global"}};
    struct Hit {
      size_t at, len, group;
    };
    std::vector<Hit> found;
    for (size_t at = s.find('<'); at != std::string::npos;
         at = s.find('<', at + 1)) {
      size_t close = s.find('>', at);
      if (close == std::string::npos)
        break;
      std::string word = s.substr(at + 1, close - at - 1);
      for (size_t g = 0; g < groups.size(); ++g)
        if (std::find(groups[g].begin(), groups[g].end(), word) !=
            groups[g].end())
          found.push_back({at + 1, word.size(), g});
    }
    if (found.empty())
      return false;
    Hit hit = found[pick(found.size())];
    const auto &group = groups[pick(8) ? hit.group : pick(groups.size())];
    s.replace(hit.at, hit.len, group[pick(group.size())]);
    return true;
  }

  /// Gives a memref type another memory space (a `#gpu.address_space`, an
  /// integer, or none), everywhere the same type is spelled.
  bool sweepAddressSpace(std::string &s) {
    std::vector<std::pair<size_t, size_t>> found;
    for (size_t at = s.find("memref<"); at != std::string::npos;
         at = s.find("memref<", at + 1)) {
      size_t close = closeAngle(s, at + 6);
      if (close != std::string::npos)
        found.emplace_back(at, close + 1 - at);
    }
    if (found.empty())
      return false;
    auto [at, len] = found[pick(found.size())];
    std::string type = s.substr(at, len);
    // Split off a trailing memory space: the last top-level `, X` that is
    // an integer or an address space attribute.
    std::string inner = type.substr(7, type.size() - 8);
    int depth = 0;
    size_t lastComma = std::string::npos;
    for (size_t i = 0; i < inner.size(); ++i) {
      char c = inner[i];
      depth += (c == '<' || c == '[' || c == '(') ? 1
               : (c == '>' || c == ']' || c == ')') ? -1 : 0;
      if (c == ',' && depth == 0)
        lastComma = i;
    }
    if (lastComma != std::string::npos) {
      std::string tail = inner.substr(lastComma + 1);
      tail.erase(0, tail.find_first_not_of(' '));
      if (!tail.empty() && (std::isdigit(static_cast<unsigned char>(tail[0])) ||
                            tail.rfind("#gpu.address_space", 0) == 0))
        inner.erase(lastComma);
    }
    static const char *const spaces[] = {
        "",
        ", #gpu.address_space<private>",
        ", #gpu.address_space<workgroup>",
        ", #gpu.address_space<global>",
        ", 1",
        ", 3",
        ", 4",
        ", 5",
        ", 7"};
    std::string to =
        "memref<" + inner + spaces[pick(sizeof(spaces) / sizeof(spaces[0]))] +
        ">";
    replaceAll(s, type, to);
    return true;
  }
};

bool structuralMutations = true;

/// WARP_FUZZ_CLASSES=1: counts the inputs that parse (and verify) with
/// shapes that earlier crash classes needed, printed at exit, to show what
/// a run's mutations reach.
struct ClassCounts {
  const char *name;
  bool (*has)(llvm::StringRef);
  unsigned long parsed = 0, verified = 0;
};

/// The line of `text` around offset `at`.
llvm::StringRef lineAt(llvm::StringRef text, size_t at) {
  size_t begin = text.rfind('\n', at);
  begin = begin == llvm::StringRef::npos ? 0 : begin + 1;
  return text.slice(begin, text.find('\n', at));
}

bool hasEmptyCombine(llvm::StringRef text) {
  for (size_t at = text.find("combine ("); at != llvm::StringRef::npos;
       at = text.find("combine (", at + 1)) {
    size_t open = text.find(") {", at);
    if (open != llvm::StringRef::npos &&
        text.drop_front(open + 3).ltrim().starts_with("}"))
      return true;
  }
  return false;
}

bool hasWideBlockScan(llvm::StringRef text) {
  for (size_t at = text.find("warp.block_scan "); at != llvm::StringRef::npos;
       at = text.find("warp.block_scan ", at + 1)) {
    llvm::StringRef types = lineAt(text, at).split(" : ").second;
    if (types.split(" combine").first.count(',') >= 6)
      return true;
  }
  return false;
}

bool hasPrivateAtomic(llvm::StringRef text) {
  for (size_t at = text.find("warp.atomic_rmw "); at != llvm::StringRef::npos;
       at = text.find("warp.atomic_rmw ", at + 1)) {
    llvm::StringRef line = lineAt(text, at);
    if (line.contains("address_space<private>") || line.contains(", 5>"))
      return true;
  }
  return false;
}

ClassCounts classCounts[] = {
    {"empty combine region", hasEmptyCombine},
    {"block_scan of 7 or more values", hasWideBlockScan},
    {"atomic_rmw on private memory", hasPrivateAtomic}};
bool countClasses = false;

void printClassCounts() {
  for (const ClassCounts &c : classCounts)
    std::fprintf(stderr, "warp-fuzz: class '%s': %lu parsed, %lu verified\n",
                 c.name, c.parsed, c.verified);
}

/// Upstream MLIR's parser crashes on a dense array of `index` elements
/// (`array<index: 0>`, mlir-opt as well: it asks `index` for its bit
/// width): such inputs are skipped, as not a warp bug.
bool hasIndexDenseArray(llvm::StringRef text) {
  for (size_t at = text.find("array<"); at != llvm::StringRef::npos;
       at = text.find("array<", at + 1))
    if (text.drop_front(at + 6).ltrim().starts_with("index"))
      return true;
  return false;
}

} // namespace

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size,
                                   size_t maxSize);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  Mutator mutator(seed);
  if (!structuralMutations || size < 2 || mutator.pick(2))
    return LLVMFuzzerMutate(data, size, maxSize);
  uint8_t selector = data[0];
  std::string text(reinterpret_cast<const char *>(data + 1), size - 1);
  bool changed = false;
  // Now and then a second edit on top: the classes worth finding often
  // need two (an address space and a wrap, a width and a block op).
  for (int edits = 1 + (mutator.pick(4) == 0); edits > 0; --edits)
    changed |= mutator.mutate(text);
  if (mutator.pick(8) == 0) {
    selector = mutator.sweepOptions();
    changed = true;
  }
  if (!changed || text.size() + 1 > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  // WARP_FUZZ_DUMP=DIR: keep the first structural mutants, to read them.
  static const char *dumpDir = std::getenv("WARP_FUZZ_DUMP");
  static unsigned dumped = 0;
  if (dumpDir && dumped < 1000) {
    std::string path = std::string(dumpDir) + "/mutant-" + std::to_string(dumped++);
    if (FILE *f = std::fopen(path.c_str(), "wb")) {
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
    }
  }
  data[0] = selector;
  std::memcpy(data + 1, text.data(), text.size());
  return text.size() + 1;
}

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (const char *env = std::getenv("WARP_FUZZ_VERIFY_EACH"))
    verifyEach = std::strcmp(env, "0") != 0;
  if (const char *env = std::getenv("WARP_FUZZ_MUTATOR"))
    structuralMutations = std::strcmp(env, "0") != 0;
  if (const char *env = std::getenv("WARP_FUZZ_CLASSES")) {
    countClasses = std::strcmp(env, "0") != 0;
    if (countClasses)
      std::atexit(printClassCounts);
  }
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
  if (maxNesting(source) > kMaxNesting || hasIndexDenseArray(source))
    return 0;

  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);
  DiagnosticLog log;
  ScopedDiagnosticHandler silence(&context, [&log](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    // warp-module-to-binary recovers from an LLVM fatal error and reports
    // it as an error: for the harness it is a finding (a warp lowering
    // must never cause one), and the recovery's long jump may leave state
    // behind that breaks later inputs of this process. Its message starts
    // with the prefix; other diagnostics may quote the input, which may
    // hold the prefix's words (the dictionary has them).
    std::string message = diag.str();
    if (StringRef(message).starts_with(warp::kFatalErrorPrefix)) {
      std::fprintf(stderr, "warp-fuzz: %s\n", message.c_str());
      std::abort();
    }
    if (log.capture)
      log.text += message + "\n";
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
  bool valid = succeeded(verify(*module));
  if (countClasses)
    for (ClassCounts &c : classCounts)
      if (c.has(source)) {
        ++c.parsed;
        c.verified += valid;
      }
  if (!valid)
    return 0;

  warp::WarpPipelineOptions options;
  options.chip = kChips[selector & 3];
  options.strategy = kStrategies[(selector >> 2) & 3];
  options.format = gpu::CompilationTarget::Assembly;
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
