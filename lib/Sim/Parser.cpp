//===- Parser.cpp - PTX text to the interpreter's instructions ------------===//
//
// Parses exactly the PTX subset that LLVM's NVPTX backend and nvcc emit for
// the project's kernels. Anything else (an instruction, a modifier, a
// directive) is an error naming it: the interpreter must never run an
// instruction whose meaning it silently dropped.
//
//===----------------------------------------------------------------------===//

#include "PTX.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

namespace warp::sim {

unsigned bitWidth(Ty t) {
  switch (t) {
  case Ty::Pred: return 1;
  case Ty::B8: case Ty::U8: case Ty::S8: case Ty::E4M3: case Ty::E5M2:
    return 8;
  case Ty::B16: case Ty::U16: case Ty::S16: case Ty::F16: case Ty::BF16:
    return 16;
  case Ty::B32: case Ty::U32: case Ty::S32: case Ty::F32: case Ty::F16x2:
  case Ty::BF16x2: case Ty::U16x2: case Ty::S16x2: case Ty::TF32:
    return 32;
  case Ty::B64: case Ty::U64: case Ty::S64: case Ty::F64: case Ty::F32x2:
    return 64;
  case Ty::None: return 0;
  }
  return 0;
}

bool isSigned(Ty t) {
  return t == Ty::S8 || t == Ty::S16 || t == Ty::S32 || t == Ty::S64;
}

bool isFloat(Ty t) {
  return t == Ty::F16 || t == Ty::F16x2 || t == Ty::BF16 ||
         t == Ty::BF16x2 || t == Ty::F32 || t == Ty::F64 || t == Ty::F32x2 ||
         t == Ty::TF32 || t == Ty::E4M3 || t == Ty::E5M2;
}

bool isPacked(Ty t) { return elementOf(t) != t; }

Ty elementOf(Ty t) {
  switch (t) {
  case Ty::F16x2: return Ty::F16;
  case Ty::BF16x2: return Ty::BF16;
  case Ty::U16x2: return Ty::U16;
  case Ty::S16x2: return Ty::S16;
  case Ty::F32x2: return Ty::F32;
  default: return t;
  }
}

namespace {

/// A name table for an enum whose values from `first` on are spelled by
/// `names`, in order.
template <typename E, size_t N>
std::unordered_map<std::string, E> enumTable(E first,
                                             const char *const (&names)[N]) {
  std::unordered_map<std::string, E> table;
  for (size_t i = 0; i < N; ++i)
    table[names[i]] = static_cast<E>(static_cast<size_t>(first) + i);
  return table;
}

const std::unordered_map<std::string, Ty> &typeNames() {
  static const char *const names[] = {
      "pred", "b8",  "b16", "b32", "b64", "u8",    "u16",  "u32",    "u64",
      "s8",   "s16", "s32", "s64", "f16", "f16x2", "bf16", "bf16x2", "f32",
      "f64",  "u16x2", "s16x2", "f32x2"};
  static const auto table = enumTable(Ty::Pred, names);
  return table;
}

const std::unordered_map<std::string, SReg> &specialNames() {
  static const char *const names[] = {
      "%tid.x",      "%tid.y",      "%tid.z",      "%ntid.x",
      "%ntid.y",     "%ntid.z",     "%ctaid.x",    "%ctaid.y",
      "%ctaid.z",    "%nctaid.x",   "%nctaid.y",   "%nctaid.z",
      "%laneid",     "%warpid",     "%nwarpid",    "%lanemask_eq",
      "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
      "%cluster_ctarank", "%cluster_nctarank", "%cluster_ctaid.x",
      "%cluster_ctaid.y", "%cluster_ctaid.z", "%cluster_nctaid.x",
      "%cluster_nctaid.y", "%cluster_nctaid.z", "%clusterid.x",
      "%clusterid.y", "%clusterid.z", "%nclusterid.x", "%nclusterid.y",
      "%nclusterid.z", "%is_explicit_cluster"};
  static const auto table = enumTable(SReg::TidX, names);
  return table;
}

const std::unordered_map<std::string, Op> &opNames() {
  // In the order of enum Op; `barrier` is bar's other name (and, as
  // barrier.cluster, the cluster barrier: decodeClusterBarrier). `cp` is
  // cp.async, whose group instructions decodeAsyncCopy tells apart.
  static const char *const names[] = {
      "mov",  "add",   "sub",  "mul",  "mad",  "fma",   "div",   "rem",
      "neg",  "abs",   "min",  "max",  "and",  "or",    "xor",   "not",
      "cnot", "shl",   "shr",  "setp", "selp", "cvt",   "cvta",  "popc",
      "clz",  "brev",  "bfind", "prmt", "bfe", "bfi",   "fns",   "copysign",
      "ex2",  "ld",   "st",    "atom", "red",  "bra",  "ret",   "exit",  "shfl",
      "vote", "match", "redux", "", "elect", "activemask", "bar", "mma",
      "ldmatrix", "stmatrix", "nanosleep", "cp", "", "", "", "", "",
      "mapa", "shf", "bmsk"};
  static const auto table = [] {
    auto t = enumTable(Op::Mov, names);
    t.erase("");
    t["barrier"] = Op::BarSync;
    return t;
  }();
  return table;
}

const std::unordered_map<std::string, Sub> &compareNames() {
  static const char *const names[] = {
      "eq", "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
      "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  static const auto table = enumTable(Sub::Eq, names);
  return table;
}

const std::unordered_map<std::string, Sub> &atomicNames() {
  static const char *const names[] = {"add", "min",  "max", "and", "or",
                                      "xor", "exch", "cas", "inc", "dec"};
  static const auto table = enumTable(Sub::OpAdd, names);
  return table;
}

/// Modifiers with no meaning for a sequential interpreter: memory orders
/// and scopes (every access is sequentially consistent here) and cache
/// hints. Accepted on memory instructions only.
bool isMemoryHint(const std::string &m) {
  static const std::set<std::string> hints = {
      "relaxed", "acquire", "release", "acq_rel", "sc", "volatile", "weak",
      "cta", "gpu", "sys", "cluster", "nc", "ca", "cg", "cs", "lu", "cv",
      "wb", "wt"};
  return hints.count(m) || m.rfind("L1::", 0) == 0 || m.rfind("L2::", 0) == 0;
}

struct Stmt {
  enum Kind { Text, Label, Open, Close, Header } kind;
  std::string text;
  int line;
};

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

/// Whether `c` may be part of an identifier (a register's `%`, a label's
/// `$` included).
bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%';
}

bool isIdentifier(const std::string &s) {
  if (s.empty())
    return false;
  for (char c : s)
    if (!isIdentifierChar(c))
      return false;
  return !std::isdigit(static_cast<unsigned char>(s[0]));
}

/// Splits text into statements, labels and scope braces, without comments.
std::vector<Stmt> splitStatements(const std::string &src) {
  std::vector<Stmt> out;
  std::string cur;
  int line = 1, curLine = 1;
  auto flush = [&](Stmt::Kind kind) {
    std::string t = trim(cur);
    if (!t.empty() || kind != Stmt::Text)
      out.push_back({kind, t, curLine});
    cur.clear();
  };
  for (size_t i = 0; i < src.size(); ++i) {
    char c = src[i];
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
      while (i < src.size() && src[i] != '\n')
        ++i;
      --i;
      continue;
    }
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
      i += 2;
      while (i + 1 < src.size() && !(src[i] == '*' && src[i + 1] == '/')) {
        if (src[i] == '\n')
          ++line;
        ++i;
      }
      ++i;
      continue;
    }
    if (c == '\n')
      ++line;
    if (trim(cur).empty())
      curLine = line;
    // Module directives that end at the end of their line, not at ';'.
    if (trim(cur).empty() && c == '.' &&
        (src.compare(i, 8, ".version") == 0 || src.compare(i, 7, ".target") == 0 ||
         src.compare(i, 13, ".address_size") == 0)) {
      while (i < src.size() && src[i] != '\n')
        ++i;
      --i;
      continue;
    }
    if (c == ';') {
      flush(Stmt::Text);
    } else if (c == '{') {
      std::string t = trim(cur);
      if (t.empty()) {
        out.push_back({Stmt::Open, "", line});
      } else if (t.find(".entry") != std::string::npos ||
                 t.find(".func") != std::string::npos) {
        flush(Stmt::Header);
        out.push_back({Stmt::Open, "", line});
      } else {
        cur += c;
      }
    } else if (c == '}') {
      if (trim(cur).empty())
        out.push_back({Stmt::Close, "", line});
      else
        cur += c;
    } else if (c == ':' && isIdentifier(trim(cur)) &&
               !(i + 1 < src.size() && src[i + 1] == ':')) {
      flush(Stmt::Label);
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty())
    out.push_back({Stmt::Text, trim(cur), curLine});
  return out;
}

/// Splits at top-level separators (outside [], {}).
std::vector<std::string> splitTop(const std::string &s, char sep) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '[' || c == '{' || c == '(')
      ++depth;
    if (c == ']' || c == '}' || c == ')')
      --depth;
    if (c == sep && depth == 0) {
      parts.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty() || !parts.empty())
    parts.push_back(trim(cur));
  return parts;
}

std::vector<std::string> words(const std::string &s) {
  std::vector<std::string> w;
  std::string cur;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      if (!cur.empty())
        w.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty())
    w.push_back(cur);
  return w;
}

bool parseInteger(const std::string &s, uint64_t &value) {
  if (s.empty())
    return false;
  std::string t = s;
  bool neg = false;
  if (t[0] == '-') {
    neg = true;
    t = t.substr(1);
  }
  if (!t.empty() && (t.back() == 'U' || t.back() == 'u'))
    t.pop_back();
  if (t.empty() || !std::isdigit(static_cast<unsigned char>(t[0])))
    return false;
  char *end = nullptr;
  uint64_t v;
  if (t.size() > 2 && (t[1] == 'f' || t[1] == 'F') && t[0] == '0') {
    if (t.size() != 10 || neg)
      return false;
    v = std::strtoull(t.c_str() + 2, &end, 16);
  } else if (t.size() > 2 && (t[1] == 'd' || t[1] == 'D') && t[0] == '0') {
    if (t.size() != 18 || neg)
      return false;
    v = std::strtoull(t.c_str() + 2, &end, 16);
  } else if (t.size() > 2 && (t[1] == 'x' || t[1] == 'X')) {
    v = std::strtoull(t.c_str() + 2, &end, 16);
  } else if (t.size() > 1 && t[0] == '0' && std::isdigit((unsigned char)t[1])) {
    v = std::strtoull(t.c_str(), &end, 8);
  } else {
    v = std::strtoull(t.c_str(), &end, 10);
  }
  if (!end || *end)
    return false;
  value = neg ? (uint64_t)(-(int64_t)v) : v;
  return true;
}

/// A size, count or alignment in a declaration: a non-negative PTX integer
/// no larger than `max` (which also keeps the products of two of them
/// within 64 bits).
bool parseBounded(const std::string &s, uint64_t max, uint64_t &value) {
  return !s.empty() && s[0] != '-' && parseInteger(s, value) && value <= max;
}

/// An alignment: a power of two no larger than a page, the most any PTX
/// object needs.
bool parseAlign(const std::string &s, uint64_t &align) {
  return parseBounded(s, 4096, align) && align && !(align & (align - 1));
}

// What the simulator allocates is bounded so that a hostile file gets an
// error naming the limit instead of an allocation failure. The bounds are
// CUDA's own where there is one.
constexpr uint64_t kMaxRegisters = 1 << 16;           // per kernel
constexpr uint64_t kMaxParamBytes = 32764;            // kernel parameters
constexpr uint64_t kMaxStaticShared = 48 * 1024;      // per block
constexpr uint64_t kMaxModuleShared = 16ull << 20;    // module .shared total
constexpr uint64_t kMaxLocalBytes = 512 * 1024;       // per thread
constexpr uint64_t kMaxGlobalBytes = 256ull << 20;    // module .global total
// The dynamic shared window's address while a function is parsed: far from
// any static variable, so that the function's operands on it can be told
// apart and moved to the window's place once its static variables are
// known (relocateDynamicShared).
constexpr uint64_t kDynamicSharedPlaceholder = 1ull << 40;

struct Symbol {
  Space space;
  uint64_t address;
  bool dynamic = false; ///< the dynamic shared window (`.extern .shared x[]`)
};

/// What the modifiers of mma.sync, ldmatrix and stmatrix said, besides
/// the types (decodeOpcode checks the whole once it has read them all).
struct MatrixModifiers {
  bool sync = false, aligned = false, shape = false, count = false;
  unsigned layouts = 0; ///< mma: .row, then .col
};

/// Reads one modifier of a matrix collective other than .sync and its
/// types; false for one it does not take.
bool matrixModifier(const std::string &m, Inst &inst, MatrixModifiers &mm) {
  static const std::unordered_map<std::string, uint8_t> mmaShapes = {
      {"m16n8k4", 4}, {"m16n8k8", 8}, {"m16n8k16", 16}, {"m16n8k32", 32}};
  if (m == "aligned")
    return mm.aligned = true;
  if (inst.op == Op::Mma) {
    auto k = mmaShapes.find(m);
    if (k != mmaShapes.end() && !mm.shape) {
      inst.shapeK = k->second;
      return mm.shape = true;
    }
    if ((m == "row" && mm.layouts == 0) || (m == "col" && mm.layouts == 1)) {
      ++mm.layouts;
      return true;
    }
    if (m != "satfinite")
      return false;
    inst.flags |= FlagSatFinite;
    return true;
  }
  if (m == "m8n8" && !mm.shape)
    return mm.shape = true;
  if ((m == "x1" || m == "x2" || m == "x4") && !mm.count) {
    inst.vec = (uint8_t)(m[1] - '0');
    return mm.count = true;
  }
  if (m == "trans")
    inst.flags |= FlagTrans;
  else if (m == "shared" || m == "shared::cta")
    inst.space = Space::Shared;
  else
    return false;
  return true;
}

/// Why the interpreter does not run an mma.sync of these types and K (the
/// forms LLVM's NVPTX backend emits for m16n8kK), or null.
const char *unsupportedMma(const Inst &inst, Ty c) {
  Ty d = inst.ty, a = inst.ty2, b = inst.ty3;
  unsigned k = inst.shapeK;
  bool int8 = (a == Ty::S8 || a == Ty::U8) && (b == Ty::S8 || b == Ty::U8);
  bool fp8 =
      (a == Ty::E4M3 || a == Ty::E5M2) && (b == Ty::E4M3 || b == Ty::E5M2);
  if (c != d)
    return "mma.sync with C and D of different types";
  if ((inst.flags & FlagSatFinite) && !int8)
    return ".satfinite on a floating-point mma.sync";
  bool ok = false;
  if (int8)
    ok = d == Ty::S32 && (k == 16 || k == 32);
  else if (fp8)
    ok = (d == Ty::F32 || d == Ty::F16) && k == 32;
  else if (a == b && (a == Ty::F16 || a == Ty::BF16))
    ok = (d == Ty::F32 || (d == Ty::F16 && a == Ty::F16)) &&
         (k == 8 || k == 16);
  else if (a == b && a == Ty::TF32)
    ok = d == Ty::F32 && (k == 4 || k == 8);
  return ok ? nullptr : "this mma.sync shape and types";
}

class Parser {
public:
  Parser(std::string &error) : error(error) {}

  std::unique_ptr<Module> run(const std::string &text);

private:
  bool fail(int line, const std::string &msg) {
    if (error.empty())
      error = "line " + std::to_string(line) + ": " + msg;
    return false;
  }
  bool declareVariable(const Stmt &s, bool moduleScope);
  bool parseHeader(const Stmt &s);
  bool declareRegisters(const Stmt &s);
  bool parseInstruction(const Stmt &s);
  bool parseOperand(const std::string &text, Operand &op, int line);
  bool decodeOpcode(const std::string &opcode, Inst &inst, int line);
  bool decodeClusterBarrier(const std::string &opcode,
                            const std::vector<std::string> &parts, Inst &inst,
                            int line);
  bool parseLaunchDirectives(const std::string &text, int line);
  bool decodeAsyncCopy(const std::string &opcode,
                       const std::vector<std::string> &parts, Inst &inst,
                       int line);
  bool finishMatrixOpcode(const std::string &opcode, Inst &inst,
                          const std::vector<Ty> &types,
                          const MatrixModifiers &mm, int line);
  bool checkMatrixOperands(const Inst &inst);
  bool checkAsyncCopyOperands(const Inst &inst);
  bool checkOperands(Inst &inst);
  int lookupRegister(const std::string &name) const {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
      auto found = it->find(name);
      if (found != it->end())
        return found->second;
    }
    return -1;
  }

  std::string &error;
  std::unique_ptr<Module> module;
  Function *fn = nullptr;
  int depth = 0;
  // The module-scope variables' bytes so far; a function's own are laid
  // out from there (module-scope declarations come only between functions).
  unsigned moduleShared = 0;
  // A kernel's static shared memory, as CUDA counts it against the 48 KiB:
  // its own .shared variables and the module-scope ones it uses (the
  // device functions it calls are inlined into it by then), not every
  // module-scope one of the module.
  std::map<std::string, uint64_t> moduleSharedSizes; // name -> bytes
  std::set<std::string> usedModuleShared;            // of the function `fn`
  // A kernel that names the dynamic window (declared in it or, as NVPTX
  // and nvcc do, at module scope) gets one at its launch.
  void noteSymbol(const std::string &name, const Symbol &sym) {
    if (!fn || sym.space != Space::Shared)
      return;
    if (sym.dynamic) {
      fn->usesDynamicShared = true;
    } else if (!fnSymbols.count(name) && moduleSharedSizes.count(name)) {
      usedModuleShared.insert(name);
    }
  }
  bool checkKernelShared(int line);
  void relocateDynamicShared();
  uint64_t globalBytes = 0;
  std::map<std::string, Symbol> moduleSymbols;
  std::map<std::string, Symbol> fnSymbols;
  std::vector<std::unordered_map<std::string, int>> scopes;
  std::map<std::string, int> labels;
  std::vector<std::pair<int, std::string>> pendingLabels; // inst, name
};

/// The words of an instruction or directive statement; none for the
/// others (labels, braces, headers).
std::vector<std::string> textWords(const Stmt &s) {
  return s.kind == Stmt::Text ? words(s.text) : std::vector<std::string>{};
}

/// A device function (`.func`): its parameters' and return values' names,
/// its body's statements (without the outer braces) and the register names
/// its `.reg` declarations make (without `%` and `<N>`).
struct DeviceFunction {
  std::vector<std::string> params, returns;
  std::vector<Stmt> body;
  std::set<std::string> registers;
  /// Its `.shared` variables, one instance for all calls (moved to module
  /// scope): name -> module-scope name.
  std::map<std::string, std::string> statics;
};

/// The names of a `.func` header's parameter list `list` (the text between
/// its parentheses): the last word of each, without an array's `[N]`.
std::vector<std::string> paramNames(const std::string &list) {
  std::vector<std::string> names;
  for (const std::string &p : splitTop(list, ',')) {
    std::vector<std::string> w = words(p);
    if (w.empty())
      continue;
    std::string name = w.back();
    names.push_back(name.substr(0, name.find('[')));
  }
  return names;
}

/// `text` with each identifier token that `rename` maps replaced (tokens:
/// runs of isIdentifierChar).
std::string renameTokens(const std::string &text,
                         const std::function<std::string(const std::string &)> &rename) {
  std::string out, token;
  auto flush = [&] {
    out += token.empty() ? token : rename(token);
    token.clear();
  };
  for (char c : text) {
    if (isIdentifierChar(c)) {
      token += c;
    } else {
      flush();
      out += c;
    }
  }
  flush();
  return out;
}

/// Replaces every `call` of a `.func` in `stmts` by the function's body
/// (calls in it too), so that the interpreter sees entries only: the
/// body's registers and labels renamed apart per call, its parameters and
/// return values by the call's arguments, `ret` a branch past it; the
/// `.param` variables that carry them (declared in the caller's body) and
/// their `ld.param`/`st.param` become `.local` (per thread, as a call's
/// parameter space is); a function's `.shared` variables move to module
/// scope, one instance for all its calls. Returns false with `error` and
/// `line` set on a call it cannot expand.
bool inlineDeviceFunctions(std::vector<Stmt> &stmts, std::string &error, int &line) {
  std::map<std::string, DeviceFunction> functions;
  std::vector<Stmt> rest, hoisted;
  for (size_t i = 0; i < stmts.size(); ++i) {
    const Stmt &s = stmts[i];
    bool isFunc = (s.kind == Stmt::Header || s.kind == Stmt::Text) &&
                  s.text.find(".func") != std::string::npos &&
                  s.text.find(".entry") == std::string::npos;
    if (!isFunc) {
      rest.push_back(s);
      continue;
    }
    if (s.kind == Stmt::Text)
      continue; // a prototype
    // .func [(returns)] NAME(params)
    std::string text = s.text.substr(s.text.find(".func") + 5);
    DeviceFunction f;
    size_t at = text.find_first_not_of(" \t\n");
    if (at != std::string::npos && text[at] == '(') {
      size_t close = text.find(')', at);
      f.returns = paramNames(text.substr(at + 1, close - at - 1));
      text = text.substr(close + 1);
    }
    size_t open = text.find('('), close = text.rfind(')');
    std::vector<std::string> head = words(text.substr(0, open));
    if (head.empty() || open == std::string::npos || close == std::string::npos) {
      error = "cannot read the device function header '" + s.text + "'";
      line = s.line;
      return false;
    }
    f.params = paramNames(text.substr(open + 1, close - open - 1));
    // The body: from the '{' after the header to its '}'.
    size_t j = i + 1;
    int depth = 0;
    for (; j < stmts.size(); ++j) {
      if (stmts[j].kind == Stmt::Open)
        ++depth;
      else if (stmts[j].kind == Stmt::Close && --depth == 0)
        break;
      if (stmts[j].kind == Stmt::Open && depth == 1)
        continue;
      std::vector<std::string> d = textWords(stmts[j]);
      if (!d.empty() && d[0] == ".reg")
        for (size_t r = 1; r < d.size(); ++r)
          if (d[r][0] == '%')
            for (const std::string &n : splitTop(d[r], ',')) {
              std::string name = trim(n);
              if (name.size() > 1)
                f.registers.insert(name.substr(1, name.find('<') - 1));
            }
      if (!d.empty() && d[0] == ".shared") {
        std::string var = d.back().substr(0, d.back().find('['));
        std::string global = head.back() + "__" + var;
        f.statics[var] = global;
        Stmt moved = stmts[j];
        moved.text = renameTokens(moved.text, [&](const std::string &token) {
          return token == var ? global : token;
        });
        hoisted.push_back(moved);
        continue;
      }
      f.body.push_back(stmts[j]);
    }
    functions[head.back()] = std::move(f);
    i = j;
  }
  if (functions.empty())
    return true;
  int calls = 0;
  // Expands the calls in `in` into `out`, `level` calls deep.
  std::function<bool(const std::vector<Stmt> &, std::vector<Stmt> &, int)> expand =
      [&](const std::vector<Stmt> &in, std::vector<Stmt> &out, int level) {
        for (const Stmt &s : in) {
          std::vector<std::string> w = textWords(s);
          if (w.empty() || w[0].rfind("call", 0) != 0) {
            out.push_back(s);
            continue;
          }
          // call[.uni] [(returns),] NAME[, (arguments)]
          std::vector<std::string> parts = splitTop(s.text.substr(w[0].size()), ',');
          std::vector<std::string> returns, arguments;
          size_t k = 0;
          auto list = [](std::string t) {
            t = trim(t);
            return paramNames(t.size() >= 2 ? t.substr(1, t.size() - 2) : "");
          };
          if (k < parts.size() && trim(parts[k]).rfind("(", 0) == 0)
            returns = list(parts[k++]);
          std::string name = k < parts.size() ? trim(parts[k++]) : "";
          if (k < parts.size())
            arguments = list(parts[k]);
          auto it = functions.find(name);
          if (it == functions.end() || level > 16 ||
              it->second.params.size() != arguments.size() ||
              it->second.returns.size() != returns.size()) {
            error = it == functions.end() ? "call of an unknown function '" + name + "'"
                                          : "cannot expand the call '" + s.text + "'";
            line = s.line;
            return false;
          }
          const DeviceFunction &f = it->second;
          std::string tag = "__inl" + std::to_string(calls++) + "_";
          std::map<std::string, std::string> bound(f.statics);
          for (size_t a = 0; a < arguments.size(); ++a)
            bound[f.params[a]] = arguments[a];
          for (size_t r = 0; r < returns.size(); ++r)
            bound[f.returns[r]] = returns[r];
          auto rename = [&](const std::string &token) -> std::string {
            if (auto b = bound.find(token); b != bound.end())
              return b->second;
            if (token[0] == '$')
              return "$" + tag + token.substr(1);
            if (token[0] == '%') {
              std::string base = token.substr(1);
              size_t digits = base.find_last_not_of("0123456789");
              std::string prefix = base.substr(0, digits + 1);
              if (f.registers.count(base) || f.registers.count(prefix))
                return "%" + tag + base;
            }
            return token;
          };
          std::vector<Stmt> body;
          for (const Stmt &b : f.body) {
            Stmt renamed = b;
            renamed.line = s.line;
            std::vector<std::string> bw = textWords(b);
            if (!bw.empty() && (bw[0] == "ret" || bw[0] == "ret.uni"))
              renamed.text = "bra.uni $" + tag + "return";
            else if (b.kind == Stmt::Text || b.kind == Stmt::Label)
              renamed.text = renameTokens(b.text, rename);
            body.push_back(renamed);
          }
          out.push_back({Stmt::Open, "", s.line});
          if (!expand(body, out, level + 1))
            return false;
          out.push_back({Stmt::Label, "$" + tag + "return", s.line});
          out.push_back({Stmt::Close, "", s.line});
        }
        return true;
      };
  // The functions' shared variables first, at module scope.
  std::vector<Stmt> expanded(hoisted);
  if (!expand(rest, expanded, 0))
    return false;
  // The .param variables declared in bodies (the calls' arguments and
  // return values) live in local memory.
  std::set<std::string> callParams;
  int depth = 0;
  for (Stmt &s : expanded) {
    if (s.kind == Stmt::Open)
      ++depth;
    else if (s.kind == Stmt::Close)
      --depth;
    if (s.kind != Stmt::Text || depth == 0)
      continue;
    std::vector<std::string> w = words(s.text);
    if (!w.empty() && w[0] == ".param") {
      std::string name = w.back();
      callParams.insert(name.substr(0, name.find('[')));
      s.text = ".local" + s.text.substr(s.text.find(".param") + 6);
      continue;
    }
    if (w.empty() || !(w[0].rfind("ld.param", 0) == 0 || w[0].rfind("st.param", 0) == 0))
      continue;
    size_t open = s.text.find('['), close = s.text.find_first_of("+]", open);
    if (open == std::string::npos || close == std::string::npos)
      continue;
    if (callParams.count(trim(s.text.substr(open + 1, close - open - 1))))
      s.text.replace(s.text.find(".param"), 6, ".local");
  }
  stmts = std::move(expanded);
  return true;
}

/// Places the dynamic shared window of the function just parsed past its
/// static variables (48 KiB, CUDA's static limit, or past the module-scope
/// ones laid out before it where those reach further), and moves its
/// operands on the window there.
void Parser::relocateDynamicShared() {
  if (!fn->usesDynamicShared)
    return;
  uint64_t window = std::max<uint64_t>(48 * 1024, (fn->sharedBytes + 15) / 16 * 16);
  fn->dynamicSharedOffset = (unsigned)window;
  // An operand on the window holds the placeholder plus its offset (which
  // may be negative: the window's bytes are at or past the placeholder,
  // the offsets PTX can write are 32-bit).
  for (Inst &inst : fn->insts)
    for (Operand &op : inst.ops)
      if (op.isSymbol && op.symSpace == Space::Shared &&
          op.imm + (1ull << 32) >= kDynamicSharedPlaceholder &&
          op.imm < kDynamicSharedPlaceholder + (1ull << 32))
        op.imm = op.imm - kDynamicSharedPlaceholder + window;
}

bool Parser::checkKernelShared(int line) {
  uint64_t bytes = fn->sharedBytes - moduleShared;
  for (const std::string &name : usedModuleShared)
    bytes += moduleSharedSizes[name];
  if (bytes <= kMaxStaticShared)
    return true;
  return fail(line, "'" + fn->name + "' uses " + std::to_string(bytes) +
                        " bytes of static shared memory (its own variables and the "
                        "module-scope ones it uses), more than " +
                        std::to_string(kMaxStaticShared));
}

std::unique_ptr<Module> Parser::run(const std::string &text) {
  module = std::make_unique<Module>();
  std::vector<Stmt> stmts = splitStatements(text);
  {
    std::string error;
    int line = 1;
    if (!inlineDeviceFunctions(stmts, error, line))
      return fail(line, error), nullptr;
  }
  for (const Stmt &s : stmts) {
    switch (s.kind) {
    case Stmt::Header:
      if (depth != 0 || fn)
        return fail(s.line, fn ? "expected the body of '" + fn->name + "'"
                               : std::string("function header inside a function")),
               nullptr;
      if (!parseHeader(s))
        return nullptr;
      break;
    case Stmt::Open:
      if (depth == 0 && !fn)
        return fail(s.line, "'{' outside a function"), nullptr;
      ++depth;
      scopes.emplace_back();
      break;
    case Stmt::Close:
      if (depth == 0)
        return fail(s.line, "unbalanced '}'"), nullptr;
      --depth;
      scopes.pop_back();
      if (depth == 0) {
        for (auto &[index, name] : pendingLabels) {
          auto it = labels.find(name);
          if (it == labels.end())
            return fail(fn->insts[index].line, "unknown label '" + name + "'"),
                   nullptr;
          for (Operand &o : fn->insts[index].ops)
            if (o.kind == Operand::Label)
              o.label = it->second;
        }
        // Falling off the end returns.
        Inst ret;
        ret.op = Op::Ret;
        ret.text = "ret (end of function)";
        ret.line = s.line;
        fn->insts.push_back(ret);
        relocateDynamicShared();
        if (!checkKernelShared(s.line))
          return nullptr;
        fn = nullptr;
      }
      break;
    case Stmt::Label:
      if (!fn || depth == 0)
        return fail(s.line, "label outside a function"), nullptr;
      labels[s.text] = (int)fn->insts.size();
      break;
    case Stmt::Text:
      if (depth == 0) {
        if (fn)
          return fail(s.line, "expected the body of '" + fn->name + "'"),
                 nullptr;
        std::vector<std::string> w = words(s.text);
        if (w.empty())
          return fail(s.line, "cannot read '" + s.text + "'"), nullptr;
        if (w[0] == ".version" || w[0] == ".target" ||
            w[0] == ".address_size")
          break;
        if (!declareVariable(s, true))
          return nullptr;
        break;
      }
      if (s.text[0] == '.') {
        std::vector<std::string> w = words(s.text);
        if (w.empty())
          return fail(s.line, "cannot read '" + s.text + "'"), nullptr;
        if (w[0] == ".reg") {
          if (!declareRegisters(s))
            return nullptr;
        } else if (w[0] == ".shared" || w[0] == ".local" ||
                   (w[0] == ".extern" && w.size() > 1 && w[1] == ".shared")) {
          if (!declareVariable(s, false))
            return nullptr;
        } else if (w[0] == ".pragma" || w[0] == ".loc" || w[0] == ".file") {
          // Hints and debug locations: no effect on what lanes compute.
        } else {
          return fail(s.line, "unsupported directive '" + w[0] + "'"),
                 nullptr;
        }
        break;
      }
      if (!parseInstruction(s))
        return nullptr;
      break;
    }
  }
  if (depth != 0 || fn)
    return fail(stmts.empty() ? 1 : stmts.back().line, "unterminated function"),
           nullptr;
  return std::move(module);
}

bool Parser::parseHeader(const Stmt &s) {
  size_t open = s.text.find('('), close = s.text.rfind(')');
  std::vector<std::string> head = words(s.text.substr(0, open));
  if (open == std::string::npos || close == std::string::npos)
    return fail(s.line, "expected '(' in the function header");
  bool entry = false;
  std::string name;
  for (const std::string &w : head) {
    if (w == ".entry")
      entry = true;
    else if (w == ".visible" || w == ".weak")
      continue;
    else if (w[0] == '.')
      return fail(s.line, "unsupported function attribute '" + w + "'");
    else
      name = w;
  }
  if (!entry || name.empty())
    return fail(s.line, "expected '.entry NAME('");
  auto f = std::make_unique<Function>();
  f->name = name;
  std::string params = s.text.substr(open + 1, close - open - 1);
  for (const std::string &p : splitTop(params, ',')) {
    if (p.empty())
      continue;
    std::vector<std::string> w = words(p);
    if (w.empty() || w[0] != ".param")
      return fail(s.line, "expected '.param' in '" + p + "'");
    uint64_t elem = 0, align = 0, count = 1;
    // After `.ptr`, `.align N` is the alignment of the memory the pointer
    // points to, not the parameter's (which is its size's).
    bool pointer = false;
    std::string pname;
    for (size_t i = 1; i < w.size(); ++i) {
      auto t = typeNames().find(w[i].substr(1));
      if (w[i] == ".ptr")
        pointer = true;
      if (w[i] == ".ptr" || w[i] == ".global" || w[i] == ".shared")
        continue;
      if (w[i] == ".align" && i + 1 < w.size()) {
        uint64_t value = 0;
        if (!parseAlign(w[++i], value))
          return fail(s.line, "bad alignment '" + w[i] + "' in '" + p + "'");
        if (!pointer)
          align = value;
      } else if (w[i][0] == '.' && t != typeNames().end()) {
        elem = bitWidth(t->second) / 8;
      } else if (w[i][0] == '.') {
        return fail(s.line, "unsupported parameter attribute '" + w[i] + "'");
      } else {
        pname = w[i];
        size_t br = pname.find('[');
        if (br != std::string::npos) {
          size_t end = pname.find(']', br);
          if (end == std::string::npos || end + 1 != pname.size() ||
              !parseBounded(pname.substr(br + 1, end - br - 1),
                            kMaxParamBytes, count))
            return fail(s.line, "bad array size in '" + p + "'");
          pname = pname.substr(0, br);
        }
      }
    }
    if (!elem || pname.empty())
      return fail(s.line, "cannot read the parameter '" + p + "'");
    uint64_t size = elem * count;
    if (!align)
      align = elem;
    uint64_t offset = (f->paramBytes + align - 1) / align * align;
    if (offset + size > kMaxParamBytes)
      return fail(s.line, "the parameters of '" + name + "' take more than " +
                              std::to_string(kMaxParamBytes) + " bytes");
    f->paramBytes = (unsigned)offset;
    f->params.push_back({pname, (unsigned)size, f->paramBytes});
    fnSymbols[pname] = {Space::Param, f->paramBytes};
    f->paramBytes += (unsigned)size;
  }
  fn = f.get();
  module->entries[name] = fn;
  module->functions.push_back(std::move(f));
  fnSymbols.clear();
  for (const Param &p : fn->params)
    fnSymbols[p.name] = {Space::Param, p.offset};
  labels.clear();
  pendingLabels.clear();
  fn->sharedBytes = moduleShared;
  usedModuleShared.clear();
  return parseLaunchDirectives(s.text.substr(close + 1), s.line);
}

// Launch-bound directives after ')' (.maxntid, .reqntid, .minnctapersm,
// .maxclusterrank...) only bound what the launcher may ask; they change
// nothing the lanes compute. The cluster shape does: .reqnctapercluster
// X[, Y[, Z]] makes every launch run in clusters of that shape.
bool Parser::parseLaunchDirectives(const std::string &text, int line) {
  std::vector<std::string> w = words(text);
  for (size_t i = 0; i < w.size(); ++i) {
    if (w[i] == ".explicitcluster") {
      fn->explicitCluster = true;
      continue;
    }
    if (w[i] != ".reqnctapercluster")
      continue;
    unsigned shape[3] = {1, 1, 1};
    size_t d = 0;
    uint64_t v;
    while (i + 1 < w.size() && w[i + 1][0] != '.' && d < 3) {
      if (!parseBounded(w[i + 1], 255, v) || v == 0)
        return fail(line, "bad cluster dimension '" + w[i + 1] +
                              "' in .reqnctapercluster");
      shape[d++] = (unsigned)v;
      ++i;
    }
    if (d == 0 || (i + 1 < w.size() && w[i + 1][0] != '.'))
      return fail(line, "expected .reqnctapercluster X[, Y[, Z]]");
    if ((uint64_t)shape[0] * shape[1] * shape[2] > 255)
      return fail(line, "a cluster of more than 255 blocks");
    for (int k = 0; k < 3; ++k)
      fn->clusterShape[k] = shape[k];
  }
  return true;
}

bool Parser::declareVariable(const Stmt &s, bool moduleScope) {
  std::string text = s.text;
  std::string init;
  size_t eq = text.find('=');
  if (eq != std::string::npos) {
    init = trim(text.substr(eq + 1));
    text = text.substr(0, eq);
  }
  std::vector<std::string> w = words(text);
  Space space = Space::Generic;
  bool isExtern = false;
  uint64_t align = 0, elem = 0;
  std::string name;
  for (size_t i = 0; i < w.size(); ++i) {
    if (w[i] == ".visible" || w[i] == ".weak")
      continue;
    if (w[i] == ".extern") {
      isExtern = true;
    } else if (w[i] == ".shared") {
      space = Space::Shared;
    } else if (w[i] == ".global") {
      space = Space::Global;
    } else if (w[i] == ".local") {
      space = Space::Local;
    } else if (w[i] == ".align" && i + 1 < w.size()) {
      if (!parseAlign(w[++i], align))
        return fail(s.line, "bad alignment '" + w[i] + "'");
    } else if (w[i][0] == '.') {
      auto t = typeNames().find(w[i].substr(1));
      if (t == typeNames().end() || t->second == Ty::Pred)
        return fail(s.line, "unsupported declaration '" + w[i] + "'");
      elem = bitWidth(t->second) / 8;
    } else {
      name = w[i];
    }
  }
  if (space == Space::Generic || !elem || name.empty())
    return fail(s.line, "unsupported declaration '" + s.text + "'");
  if (space == Space::Local && moduleScope)
    return fail(s.line, "module-scope .local variables are not supported");
  if (!align)
    align = elem;
  uint64_t count = 1;
  bool dynamic = false;
  size_t br = name.find('[');
  if (br != std::string::npos) {
    size_t end = name.find(']', br);
    if (end == std::string::npos || end + 1 != name.size())
      return fail(s.line, "bad array declaration '" + name + "'");
    std::string n = name.substr(br + 1, end - br - 1);
    if (n.empty())
      dynamic = true;
    else if (!parseBounded(n, kMaxGlobalBytes, count))
      return fail(s.line, "bad array size '" + n + "' (at most " +
                              std::to_string(kMaxGlobalBytes) + ")");
    name = name.substr(0, br);
  }
  uint64_t bytes = elem * count;
  std::map<std::string, Symbol> &table = moduleScope ? moduleSymbols : fnSymbols;
  if (space == Space::Shared) {
    if (dynamic) {
      if (!isExtern)
        return fail(s.line, "a shared array without a size must be .extern");
      // Placed when the function that uses it ends (relocateDynamicShared).
      table[name] = {Space::Shared, kDynamicSharedPlaceholder, /*dynamic=*/true};
      if (fn)
        fn->usesDynamicShared = true;
      return true;
    }
    if (!init.empty())
      return fail(s.line, "shared variables cannot have initializers");
    unsigned &top = moduleScope ? moduleShared : fn->sharedBytes;
    uint64_t offset = (top + align - 1) / align * align;
    // Module-scope variables are laid out one after another for every
    // kernel of the module, a function's own after them; each kernel
    // counts its own and the module-scope ones it uses (checkKernelShared,
    // as ptxas does), so the module's total is bounded only to keep the
    // simulated block's memory finite.
    uint64_t limit = moduleScope ? kMaxModuleShared : kMaxStaticShared;
    uint64_t start = moduleScope ? 0 : moduleShared;
    if (offset + bytes - start > limit)
      return fail(s.line, "more than " + std::to_string(limit) + " bytes of " +
                              (moduleScope ? "module-scope " : "") +
                              "static shared memory");
    table[name] = {Space::Shared, offset};
    if (moduleScope)
      moduleSharedSizes[name] = (bytes + align - 1) / align * align;
    // A variable takes whole units of its alignment, as ptxas lays them
    // out: code generation may widen an access within that alignment (a
    // 12-byte vector<3xf32> read as 16 bytes from a 16-byte aligned
    // buffer), which reads the padding after the variable, never another
    // variable, and is not out of bounds even for the last one.
    top = (unsigned)((offset + bytes + align - 1) / align * align);
    return true;
  }
  if (space == Space::Local) {
    uint64_t offset = (fn->localBytes + align - 1) / align * align;
    if (offset + bytes > kMaxLocalBytes)
      return fail(s.line, "more than " + std::to_string(kMaxLocalBytes) +
                              " bytes of local memory per thread");
    table[name] = {Space::Local, offset};
    fn->localBytes = (unsigned)(offset + bytes);
    return true;
  }
  // .global: host memory owned by the module.
  if (isExtern || dynamic)
    return fail(s.line, "extern global variables are not supported");
  if (globalBytes + bytes > kMaxGlobalBytes)
    return fail(s.line, "more than " + std::to_string(kMaxGlobalBytes) +
                            " bytes of .global variables");
  globalBytes += bytes;
  std::vector<uint8_t> storage(bytes + 8, 0);
  if (!init.empty()) {
    std::string body = init;
    if (body.front() == '{')
      body = body.substr(1, body.rfind('}') - 1);
    size_t k = 0;
    for (const std::string &v : splitTop(body, ',')) {
      uint64_t value;
      if (!parseInteger(v, value) || k >= count)
        return fail(s.line, "unsupported initializer '" + v + "'");
      std::memcpy(&storage[k * elem], &value, elem);
      ++k;
    }
  }
  module->globals.push_back(std::move(storage));
  table[name] = {Space::Global,
                 (uint64_t)(uintptr_t)module->globals.back().data()};
  return true;
}

bool Parser::declareRegisters(const Stmt &s) {
  std::vector<std::string> w = words(s.text);
  if (w.size() < 3)
    return fail(s.line, "expected '.reg .TYPE NAME'");
  auto t = typeNames().find(w[1].substr(1));
  if (w[1][0] != '.' || t == typeNames().end() || isPacked(t->second))
    return fail(s.line, "unsupported register type '" + w[1] + "'");
  unsigned bits = bitWidth(t->second);
  if (bits == 8)
    bits = 16; // PTX has no 8-bit registers; .b8 ones behave as 16-bit.
  for (size_t i = 2; i < w.size(); ++i) {
    std::string name = w[i];
    size_t lt = name.find('<');
    uint64_t n = 1;
    if (lt != std::string::npos &&
        (name.back() != '>' ||
         !parseBounded(name.substr(lt + 1, name.size() - lt - 2),
                       ~0u, n)))
      return fail(s.line, "bad register range '" + name + "'");
    if (fn->regs.size() + n > kMaxRegisters)
      return fail(s.line, "'" + fn->name + "' declares more than " +
                              std::to_string(kMaxRegisters) + " registers");
    if (lt != std::string::npos) {
      std::string base = name.substr(0, lt);
      for (uint64_t k = 0; k < n; ++k) {
        scopes.back()[base + std::to_string(k)] = (int)fn->regs.size();
        fn->regs.push_back({base + std::to_string(k), bits});
      }
    } else {
      scopes.back()[name] = (int)fn->regs.size();
      fn->regs.push_back({name, bits});
    }
  }
  return true;
}

bool Parser::parseOperand(const std::string &textIn, Operand &op, int line) {
  std::string text = trim(textIn);
  if (text.empty())
    return fail(line, "empty operand");
  if (text == "_") {
    op.kind = Operand::Sink;
    return true;
  }
  if (text[0] == '{') {
    if (text.back() != '}')
      return fail(line, "unterminated vector operand '" + text + "'");
    op.kind = Operand::Vec;
    for (const std::string &e : splitTop(text.substr(1, text.size() - 2), ',')) {
      Operand sub;
      if (!parseOperand(e, sub, line))
        return false;
      if (sub.kind != Operand::Reg && sub.kind != Operand::Sink &&
          sub.kind != Operand::Imm)
        return fail(line, "unsupported vector element '" + e + "'");
      op.elems.push_back(sub);
    }
    return true;
  }
  if (text[0] == '[') {
    if (text.back() != ']')
      return fail(line, "unterminated address '" + text + "'");
    std::string inner = trim(text.substr(1, text.size() - 2));
    op.kind = Operand::Mem;
    std::string base = inner, offset;
    size_t plus = inner.find('+');
    if (plus != std::string::npos) {
      base = trim(inner.substr(0, plus));
      offset = trim(inner.substr(plus + 1));
    }
    uint64_t value;
    if (!offset.empty()) {
      if (!parseInteger(offset, value))
        return fail(line, "unsupported address offset '" + offset + "'");
      op.imm = value;
    }
    if (parseInteger(base, value)) {
      op.imm += value;
      return true;
    }
    int reg = lookupRegister(base);
    if (reg >= 0) {
      op.reg = reg;
      return true;
    }
    auto sym = fnSymbols.find(base);
    if (sym == fnSymbols.end())
      sym = moduleSymbols.find(base);
    if (sym == moduleSymbols.end())
      return fail(line, "unknown address base '" + base + "'");
    noteSymbol(base, sym->second);
    op.isSymbol = true;
    op.symSpace = sym->second.space;
    op.imm += sym->second.address;
    return true;
  }
  if (text[0] == '!') {
    if (!parseOperand(text.substr(1), op, line))
      return false;
    if (op.kind != Operand::Reg)
      return fail(line, "'!' applies to predicates only");
    op.negate = true;
    return true;
  }
  size_t bar = text.find('|');
  if (bar != std::string::npos) {
    Operand second;
    if (!parseOperand(text.substr(0, bar), op, line) ||
        !parseOperand(text.substr(bar + 1), second, line))
      return false;
    if ((op.kind != Operand::Reg && op.kind != Operand::Sink) ||
        (second.kind != Operand::Reg && second.kind != Operand::Sink) ||
        (op.kind == Operand::Sink && second.kind == Operand::Sink))
      return fail(line, "expected 'reg|pred' in '" + text + "'");
    op.reg2 = second.kind == Operand::Reg ? second.reg : -1;
    op.pair = true;
    return true;
  }
  uint64_t value;
  if (parseInteger(text, value)) {
    op.kind = Operand::Imm;
    op.imm = value;
    return true;
  }
  if (text == "WARP_SZ") {
    op.kind = Operand::Imm;
    op.imm = 32;
    return true;
  }
  int reg = lookupRegister(text);
  if (reg >= 0) {
    op.kind = Operand::Reg;
    op.reg = reg;
    return true;
  }
  auto sp = specialNames().find(text);
  if (sp != specialNames().end()) {
    op.kind = Operand::Special;
    op.sreg = sp->second;
    return true;
  }
  auto sym = fnSymbols.find(text);
  if (sym == fnSymbols.end())
    sym = moduleSymbols.find(text);
  if (sym != moduleSymbols.end()) {
    noteSymbol(text, sym->second);
    op.kind = Operand::Imm;
    op.isSymbol = true;
    op.symSpace = sym->second.space;
    op.imm = sym->second.address;
    return true;
  }
  if (text[0] == '%')
    return fail(line, "unknown register '" + text + "'");
  if (isIdentifier(text)) {
    op.kind = Operand::Label; // resolved when the function ends
    return true;
  }
  return fail(line, "cannot read the operand '" + text + "'");
}

bool Parser::decodeOpcode(const std::string &opcode, Inst &inst, int line) {
  std::vector<std::string> parts;
  {
    std::string cur;
    for (size_t i = 0; i < opcode.size(); ++i) {
      if (opcode[i] == '.') {
        parts.push_back(cur);
        cur.clear();
      } else {
        cur += opcode[i];
      }
    }
    parts.push_back(cur);
  }
  auto op = opNames().find(parts[0]);
  if (op == opNames().end())
    return fail(line, "unsupported instruction '" + parts[0] + "'");
  inst.op = op->second;
  if (inst.op == Op::CpAsync)
    return decodeAsyncCopy(opcode, parts, inst, line);
  if (inst.op == Op::BarSync && parts[0] == "barrier" && parts.size() > 1 &&
      parts[1] == "cluster")
    return decodeClusterBarrier(opcode, parts, inst, line);
  std::vector<Ty> types;
  bool sync = false, warpMod = false, cmpSeen = false, noftz = false;
  MatrixModifiers matrix;
  auto unsupported = [&](const std::string &m) {
    return fail(line, "unsupported modifier '." + m + "' of '" + parts[0] +
                          "' in '" + opcode + "'");
  };
  bool memOp = inst.op == Op::Ld || inst.op == Op::St || inst.op == Op::Atom ||
               inst.op == Op::Red;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string &m = parts[i];
    auto t = typeNames().find(m);
    if (t != typeNames().end()) {
      types.push_back(t->second);
      continue;
    }
    if (inst.op == Op::Mma && (m == "tf32" || m == "e4m3" || m == "e5m2")) {
      types.push_back(m == "tf32"   ? Ty::TF32
                      : m == "e4m3" ? Ty::E4M3
                                    : Ty::E5M2);
      continue;
    }
    Op o = inst.op;
    if (m == "rn" || m == "rz" || m == "rm" || m == "rp" || m == "rni" ||
        m == "rzi" || m == "rmi" || m == "rpi") {
      if (o != Op::Add && o != Op::Sub && o != Op::Mul && o != Op::Fma &&
          o != Op::Mad && o != Op::Div && o != Op::Cvt)
        return unsupported(m);
      static const std::unordered_map<std::string, Round> r = {
          {"rn", Round::RN},   {"rz", Round::RZ},   {"rm", Round::RM},
          {"rp", Round::RP},   {"rni", Round::RNI}, {"rzi", Round::RZI},
          {"rmi", Round::RMI}, {"rpi", Round::RPI}};
      inst.rnd = r.at(m);
    } else if (m == "noftz" && (o == Op::Atom || o == Op::Red)) {
      // the only form of the 16-bit float adds: subnormals kept, as the
      // interpreter does without .ftz
      noftz = true;
    } else if (m == "ftz") {
      inst.flags |= FlagFtz;
    } else if (m == "sat" && (o == Op::Add || o == Op::Sub || o == Op::Mul ||
                              o == Op::Fma || o == Op::Mad || o == Op::Cvt)) {
      inst.flags |= FlagSat;
    } else if (m == "NaN" && (o == Op::Min || o == Op::Max || o == Op::Redux)) {
      inst.flags |= FlagNaN;
    } else if (m == "relu" && (o == Op::Min || o == Op::Max)) {
      inst.flags |= FlagRelu;
    } else if (m == "abs" && o == Op::Redux) {
      inst.flags |= FlagAbs;
    } else if ((m == "hi" || m == "lo" || m == "wide") &&
               (o == Op::Mul || o == Op::Mad)) {
      inst.flags |= m == "hi" ? FlagHi : m == "lo" ? FlagLo : FlagWide;
    } else if (m == "approx" && (o == Op::Div || o == Op::Ex2)) {
      inst.flags |= FlagApprox;
    } else if (m == "full" && o == Op::Div) {
      inst.flags |= FlagFull;
    } else if ((m == "l" || m == "r") && o == Op::Shf) {
      inst.sub = m == "l" ? Sub::Left : Sub::Right;
    } else if ((m == "wrap" || m == "clamp") && (o == Op::Shf || o == Op::Bmsk)) {
      if (m == "clamp")
        inst.flags |= FlagClamp;
    } else if (m == "shiftamt" && o == Op::Bfind) {
      inst.flags |= FlagShiftAmt;
    } else if (m == "to" && o == Op::Cvta) {
      inst.flags |= FlagTo;
    } else if (m == "shared::cluster" && (memOp || o == Op::Mapa)) {
      inst.space = Space::SharedCluster;
    } else if ((m == "global" || m == "shared" || m == "shared::cta" ||
                m == "local" || m == "param") &&
               (memOp || o == Op::Cvta)) {
      inst.space = m == "global" ? Space::Global
                   : m == "local" ? Space::Local
                   : m == "param" ? Space::Param
                                  : Space::Shared;
    } else if ((m == "v2" || m == "v4") && (o == Op::Ld || o == Op::St)) {
      inst.vec = m == "v2" ? 2 : 4;
    } else if (memOp && isMemoryHint(m)) {
      // no effect here (see isMemoryHint)
    } else if (m == "uni" && o == Op::Bra) {
    } else if (m == "sync" && (isWarpCollective(o) || o == Op::BarSync ||
                               o == Op::Vote || o == Op::Match)) {
      sync = true;
    } else if (m == "aligned" && o == Op::BarSync) {
    } else if (m == "warp" && o == Op::BarSync && parts[0] == "bar") {
      warpMod = true;
    } else if (o == Op::Setp && !cmpSeen && compareNames().count(m)) {
      inst.sub = compareNames().at(m);
      cmpSeen = true;
    } else if (o == Op::Setp && cmpSeen && (m == "and" || m == "or" || m == "xor")) {
      inst.sub2 = atomicNames().at(m);
    } else if (o == Op::Shfl && (m == "up" || m == "down" || m == "bfly" || m == "idx")) {
      inst.sub = m == "up" ? Sub::Up : m == "down" ? Sub::Down
               : m == "bfly" ? Sub::Bfly : Sub::Idx;
    } else if (o == Op::Vote && (m == "any" || m == "all" || m == "uni" || m == "ballot")) {
      inst.sub = m == "any" ? Sub::Any : m == "all" ? Sub::All
               : m == "uni" ? Sub::Uni : Sub::Ballot;
    } else if (o == Op::Match && (m == "any" || m == "all")) {
      inst.sub = m == "any" ? Sub::Any : Sub::All;
    } else if ((o == Op::Atom || o == Op::Red) && atomicNames().count(m)) {
      inst.sub = atomicNames().at(m);
    } else if (o == Op::Redux && (m == "add" || m == "min" || m == "max" ||
                                  m == "and" || m == "or" || m == "xor")) {
      inst.sub = atomicNames().at(m);
    } else if (isMatrixOp(o) && matrixModifier(m, inst, matrix)) {
      // read into `matrix` and `inst`
    } else {
      return unsupported(m);
    }
  }
  if (isMatrixOp(inst.op)) {
    matrix.sync = sync;
    return finishMatrixOpcode(opcode, inst, types, matrix, line);
  }
  if (warpMod)
    inst.op = Op::BarWarpSync;
  // Type checks.
  Op o = inst.op;
  if (o == Op::Cvt) {
    if (types.size() != 2)
      return fail(line, "cvt needs a destination and a source type");
    inst.ty = types[0];
    inst.ty2 = types[1];
  } else if (types.size() == 1) {
    inst.ty = types[0];
  } else if (types.size() > 1) {
    return fail(line, "too many types in '" + opcode + "'");
  }
  bool needsType = !(o == Op::Bra || o == Op::Ret || o == Op::Exit ||
                     o == Op::BarSync || o == Op::BarWarpSync ||
                     o == Op::Elect);
  if (needsType && inst.ty == Ty::None)
    return fail(line, "missing type in '" + opcode + "'");
  if ((isWarpCollective(o) || (o == Op::BarSync && parts[0] == "barrier")) &&
      !sync)
    return fail(line, "'" + opcode + "' without .sync is not supported");
  if ((o == Op::Shfl || o == Op::Vote || o == Op::Match || o == Op::Setp ||
       o == Op::Atom || o == Op::Red || o == Op::Redux) &&
      inst.sub == Sub::None)
    return fail(line, "missing mode in '" + opcode + "'");
  // PTX writes the 16-bit float atomic adds with .noftz, and only them.
  bool halfAdd = (o == Op::Atom || o == Op::Red) && inst.sub == Sub::OpAdd &&
                 (inst.ty == Ty::F16 || inst.ty == Ty::BF16 ||
                  inst.ty == Ty::F16x2 || inst.ty == Ty::BF16x2);
  if (halfAdd != noftz)
    return fail(line, std::string(noftz ? ".noftz"
                                        : "a 16-bit float add without .noftz") +
                          " is not PTX in '" + opcode + "'");
  if (o == Op::Mapa && inst.ty != Ty::U32 && inst.ty != Ty::U64)
    return fail(line, "mapa needs .u32 or .u64 in '" + opcode + "'");
  if ((o == Op::Activemask || o == Op::Fns) && inst.ty != Ty::B32)
    return fail(line, "'" + opcode + "' needs .b32");
  if (o == Op::Shfl && inst.ty != Ty::B32)
    return fail(line, "shfl.sync needs .b32");
  return true;
}

bool Parser::finishMatrixOpcode(const std::string &opcode, Inst &inst,
                                const std::vector<Ty> &types,
                                const MatrixModifiers &mm, int line) {
  if (!mm.sync || !mm.aligned)
    return fail(line,
                "'" + opcode + "' without .sync.aligned is not supported");
  if (!mm.shape)
    return fail(line, "missing shape in '" + opcode + "'");
  if (inst.op != Op::Mma) {
    if (!mm.count)
      return fail(line, "missing .x1, .x2 or .x4 in '" + opcode + "'");
    if (types.size() != 1 || types[0] != Ty::B16)
      return fail(line, "unsupported: a type other than .b16 in '" +
                            inst.text + "'");
    inst.ty = Ty::B16;
    return true;
  }
  if (mm.layouts != 2)
    return fail(line, "mma.sync without .row.col is not supported in '" +
                          opcode + "'");
  if (types.size() != 4)
    return fail(line, "expected the D, A, B and C types in '" + opcode + "'");
  inst.ty = types[0];
  inst.ty2 = types[1];
  inst.ty3 = types[2];
  if (const char *why = unsupportedMma(inst, types[3]))
    return fail(line, std::string("unsupported: ") + why + " in '" +
                          inst.text + "'");
  return true;
}

/// barrier.cluster.arrive{.release,.relaxed}{.aligned} and
/// barrier.cluster.wait{.acquire}{.aligned}. The memory orders change nothing
/// here (every access is sequentially consistent); .aligned (every thread of
/// the warp executes it) is not checked.
bool Parser::decodeClusterBarrier(const std::string &opcode,
                                  const std::vector<std::string> &parts,
                                  Inst &inst, int line) {
  if (parts.size() < 3 || (parts[2] != "arrive" && parts[2] != "wait"))
    return fail(line, "expected barrier.cluster.arrive or .wait in '" +
                          opcode + "'");
  bool arrive = parts[2] == "arrive";
  inst.op = arrive ? Op::ClusterArrive : Op::ClusterWait;
  bool order = false, aligned = false;
  for (size_t i = 3; i < parts.size(); ++i) {
    const std::string &m = parts[i];
    bool isOrder = arrive ? (m == "release" || m == "relaxed") : m == "acquire";
    if (isOrder && !order)
      order = true;
    else if (m == "aligned" && !aligned)
      aligned = true;
    else
      return fail(line, "unsupported modifier '." + m + "' of '" +
                            "barrier.cluster' in '" + opcode + "'");
  }
  return true;
}

/// cp.async.{ca,cg}.shared{::cta}.global with an optional L2 prefetch size
/// (a hint, ignored), cp.async.commit_group, .wait_group and .wait_all.
bool Parser::decodeAsyncCopy(const std::string &opcode,
                             const std::vector<std::string> &parts, Inst &inst,
                             int line) {
  static const std::unordered_map<std::string, Op> groupOps = {
      {"commit_group", Op::CpAsyncCommit},
      {"wait_group", Op::CpAsyncWait},
      {"wait_all", Op::CpAsyncWaitAll}};
  if (parts.size() < 3 || parts[1] != "async")
    return fail(line, "unsupported instruction '" + opcode + "'");
  size_t next = 3;
  auto group = groupOps.find(parts[2]);
  if (group != groupOps.end()) {
    inst.op = group->second;
  } else if (parts[2] == "ca" || parts[2] == "cg") {
    if (parts[2] == "cg")
      inst.flags |= FlagCacheGlobal;
    bool shared = parts.size() >= 5 &&
                  (parts[3] == "shared" || parts[3] == "shared::cta");
    if (!shared || parts[4] != "global")
      return fail(line, "expected .shared.global in '" + opcode + "'");
    // The destination's space; the source's is .global.
    inst.space = Space::Shared;
    for (next = 5; next < parts.size(); ++next)
      if (parts[next] != "L2::64B" && parts[next] != "L2::128B" &&
          parts[next] != "L2::256B")
        break;
  } else {
    next = 2;
  }
  if (next < parts.size())
    return fail(line, "unsupported modifier '." + parts[next] +
                          "' of 'cp.async' in '" + opcode + "'");
  return true;
}

/// Forms the interpreter cannot run bit-exactly (or at all): refused when
/// parsed, so a kernel never half-runs.
const char *unsupportedForm(const Inst &inst) {
  Op o = inst.op;
  Ty t = inst.ty;
  bool half = t == Ty::F16 || t == Ty::BF16 || t == Ty::F16x2 || t == Ty::BF16x2;
  // ex2.approx.f32 is the one approximation kernels need (math.exp): it runs
  // as exp2 correctly rounded, within the hardware's 2 ulp, not bit for bit.
  if (o == Op::Ex2 && (!(inst.flags & FlagApprox) || t != Ty::F32))
    return "ex2 other than ex2.approx(.ftz).f32";
  if ((inst.flags & (FlagApprox | FlagFull)) && o != Op::Ex2)
    return ".approx/.full results are not specified bit for bit";
  if (o == Op::Rem && isFloat(t))
    return "rem on floats";
  if (o == Op::Div && half)
    return "div on half-precision types";
  if (o == Op::Mad && half)
    return "mad on half-precision types";
  if ((inst.flags & FlagSat) && !isFloat(t) && o != Op::Cvt &&
      !(t == Ty::S32 && (o == Op::Add || o == Op::Sub)))
    return ".sat on this integer operation";
  if ((inst.flags & FlagSat) && t == Ty::F32x2)
    return ".sat on f32x2";
  if ((inst.flags & FlagRelu) && t != Ty::S16x2 && t != Ty::S32)
    return ".relu on a type other than s16x2 and s32";
  // PTX has no .ftz on bf16: refused rather than guessed.
  if ((inst.flags & FlagFtz) && (t == Ty::BF16 || t == Ty::BF16x2) &&
      o != Op::Cvt)
    return ".ftz on bf16";
  if (o == Op::Cvt && (t == Ty::F16x2 || t == Ty::BF16x2) && inst.ty2 != Ty::F32)
    return "a packed cvt from a type other than f32";
  if (o == Op::Cvt && isFloat(inst.ty2) && !isFloat(t) &&
      !(inst.rnd == Round::RNI || inst.rnd == Round::RZI ||
        inst.rnd == Round::RMI || inst.rnd == Round::RPI))
    return "a float-to-integer cvt without an integer rounding";
  if (o == Op::Prmt && t != Ty::B32)
    return "prmt modes";
  if ((o == Op::Atom || o == Op::Red) && isFloat(t) && inst.sub != Sub::OpAdd &&
      inst.sub != Sub::OpExch)
    return "float atomics other than add and exch";
  if (o == Op::Redux && t == Ty::F32 && inst.sub != Sub::OpMin &&
      inst.sub != Sub::OpMax)
    return "redux.sync on f32 other than min/max";
  if (o == Op::Redux && t != Ty::F32 && (inst.flags & (FlagAbs | FlagNaN)))
    return ".abs/.NaN on an integer redux";
  if (o == Op::Redux && (bitWidth(t) != 32 || (isFloat(t) && t != Ty::F32)))
    return "redux.sync on a type other than 32 bits";
  return nullptr;
}

bool Parser::checkOperands(Inst &inst) {
  size_t n = inst.ops.size();
  // Operand counts in the order of enum Op (the destination included).
  static const uint8_t counts[] = {
      2, 3, 3, 3, 4, 4, 3, 3, 2, 2, 3, 3, // mov .. max
      3, 3, 3, 2, 2, 3, 3, 3, 4, 2, 2,    // and .. cvta
      2, 2, 2, 2, 4, 4, 5, 4, 3, 2,       // popc .. ex2
      2, 2, 3, 2, 1, 0, 0,                // ld .. exit
      5, 3, 3, 3, 1, 2, 1, 1,             // shfl .. bar.sync
      4, 2, 2,                            // mma .. stmatrix
      1,                                  // nanosleep
      3, 0, 1, 0,                         // cp.async .. wait_all
      0, 0, 3,                            // barrier.cluster, mapa
      4, 3};                              // shf, bmsk
  static_assert(sizeof(counts) == static_cast<size_t>(Op::Bmsk) + 1,
                "one count per Op");
  size_t want = counts[static_cast<size_t>(inst.op)];
  if ((inst.op == Op::Setp && inst.sub2 != Sub::None) ||
      (inst.op == Op::Cvt && (inst.ty == Ty::F16x2 || inst.ty == Ty::BF16x2)) ||
      (inst.op == Op::Atom && inst.sub == Sub::OpCas) ||
      (inst.op == Op::CpAsync && n == 4) || // the optional src-size
      // sm_100's three-input f32 min and max (PTX 8.8).
      ((inst.op == Op::Min || inst.op == Op::Max) && inst.ty == Ty::F32 && n == 4) ||
      (inst.op == Op::BarSync && n == 2))   // bar.sync's thread count
    ++want;
  if (n != want)
    return fail(inst.line, "expected " + std::to_string(want) +
                               " operands in '" + inst.text + "'");
  if (isMatrixOp(inst.op))
    return checkMatrixOperands(inst);
  if (isAsyncCopy(inst.op))
    return checkAsyncCopyOperands(inst);
  if ((inst.op == Op::Ld || inst.op == Op::Atom) && inst.ops[1].kind != Operand::Mem)
    return fail(inst.line, "expected an address in '" + inst.text + "'");
  if ((inst.op == Op::St || inst.op == Op::Red) && inst.ops[0].kind != Operand::Mem)
    return fail(inst.line, "expected an address in '" + inst.text + "'");
  if (inst.op == Op::Bra && inst.ops[0].kind != Operand::Label)
    return fail(inst.line, "expected a label in '" + inst.text + "'");
  if (inst.op == Op::Mapa && inst.ops[1].kind != Operand::Reg &&
      inst.ops[1].kind != Operand::Imm)
    return fail(inst.line, "expected an address value in '" + inst.text + "'");
  if (inst.op != Op::St && inst.op != Op::Red && inst.op != Op::Bra &&
      inst.op != Op::BarSync && inst.op != Op::BarWarpSync &&
      inst.op != Op::Nanosleep && want > 0) {
    const Operand &d = inst.ops[0];
    if (d.kind != Operand::Reg && d.kind != Operand::Vec && d.kind != Operand::Sink)
      return fail(inst.line, "the destination must be a register in '" +
                                 inst.text + "'");
    if (d.kind == Operand::Vec && inst.op != Op::Mov && inst.op != Op::Ld)
      return fail(inst.line, "vector destination in '" + inst.text + "'");
  }
  // The instructions PTX defines on each packed type (and the simulator runs).
  Op po = inst.op;
  bool packedOk = true;
  if (inst.ty == Ty::F16x2 || inst.ty == Ty::BF16x2)
    packedOk = po == Op::Add || po == Op::Sub || po == Op::Mul ||
               po == Op::Fma || po == Op::Min || po == Op::Max ||
               po == Op::Neg || po == Op::Abs || po == Op::Mov ||
               po == Op::Cvt || po == Op::Selp || po == Op::Setp ||
               ((po == Op::Atom || po == Op::Red) && inst.sub == Sub::OpAdd);
  else if (inst.ty == Ty::U16x2 || inst.ty == Ty::S16x2)
    packedOk = po == Op::Add || po == Op::Min || po == Op::Max;
  else if (inst.ty == Ty::F32x2)
    packedOk = po == Op::Add || po == Op::Sub || po == Op::Mul || po == Op::Fma;
  if (!packedOk)
    return fail(inst.line, "packed type not supported in '" + inst.text + "'");
  // setp on halves sets two predicates: `p|q` (either may be `_`).
  if (po == Op::Setp && isPacked(inst.ty) && !inst.ops[0].pair)
    return fail(inst.line, "expected a 'p|q' destination in '" + inst.text + "'");
  // Where each operand kind may appear.
  for (size_t i = 0; i < inst.ops.size(); ++i) {
    const Operand &o = inst.ops[i];
    bool address = (i == 1 && (inst.op == Op::Ld || inst.op == Op::Atom)) ||
                   (i == 0 && (inst.op == Op::St || inst.op == Op::Red));
    if ((o.kind == Operand::Mem) != address)
      return fail(inst.line, "unexpected operand " + std::to_string(i) +
                                 " in '" + inst.text + "'");
    if (o.kind == Operand::Vec) {
      bool value = (inst.op == Op::Mov && i < 2) ||
                   (inst.op == Op::Ld && i == 0) || (inst.op == Op::St && i == 1);
      size_t n = o.elems.size();
      if (!value || n < 2 || n > 4 || n == 3)
        return fail(inst.line, "unsupported vector operand in '" + inst.text + "'");
      if (inst.op == Op::Mov && bitWidth(inst.ty) % n)
        return fail(inst.line, "the vector does not split the type in '" +
                                   inst.text + "'");
      if (inst.op != Op::Mov && n != inst.vec)
        return fail(inst.line, "the vector does not match ." +
                                   std::string("v") + std::to_string(inst.vec) +
                                   " in '" + inst.text + "'");
    }
    if (o.kind == Operand::Sink && i != 0 && inst.op != Op::Mov)
      return fail(inst.line, "'_' is not a source in '" + inst.text + "'");
  }
  if ((inst.op == Op::Ld || inst.op == Op::St) && inst.vec > 1 &&
      inst.ops[inst.op == Op::Ld ? 0 : 1].kind != Operand::Vec)
    return fail(inst.line, "expected a vector operand in '" + inst.text + "'");
  if ((inst.op == Op::Ld || inst.op == Op::St || inst.op == Op::Atom ||
       inst.op == Op::Red) &&
      inst.ty == Ty::Pred)
    return fail(inst.line, "memory access of .pred in '" + inst.text + "'");
  if (const char *why = unsupportedForm(inst))
    return fail(inst.line, std::string("unsupported: ") + why + " in '" +
                               inst.text + "'");
  if (inst.op == Op::BarSync)
    for (const Operand &o : inst.ops)
      if (o.kind != Operand::Imm && o.kind != Operand::Reg)
        return fail(inst.line, "expected a barrier id and thread count (a "
                               "register or a constant) in '" +
                                   inst.text + "'");
  return true;
}

/// mma.sync: {D}, {A}, {B}, {C}; ldmatrix: {D}, [addr]; stmatrix: [addr],
/// {S}. Each vector holds as many 32-bit registers as the fragment needs.
bool Parser::checkMatrixOperands(const Inst &inst) {
  auto regs = [](Ty t, unsigned elems) { return elems * bitWidth(t) / 32; };
  std::vector<unsigned> want; // registers of each operand, 0 for an address
  if (inst.op == Op::Mma)
    want = {regs(inst.ty, 4), regs(inst.ty2, inst.shapeK / 2),
            regs(inst.ty3, inst.shapeK / 4), regs(inst.ty, 4)};
  else if (inst.op == Op::Ldmatrix)
    want = {inst.vec, 0};
  else
    want = {0, inst.vec};
  for (size_t i = 0; i < want.size(); ++i) {
    const Operand &o = inst.ops[i];
    if (!want[i]) {
      if (o.kind != Operand::Mem)
        return fail(inst.line, "expected an address in '" + inst.text + "'");
      continue;
    }
    bool ok = o.kind == Operand::Vec && o.elems.size() == want[i];
    for (const Operand &e : o.elems)
      ok = ok && e.kind == Operand::Reg && fn->regs[e.reg].bits == 32;
    if (!ok)
      return fail(inst.line, "expected {" + std::to_string(want[i]) +
                                 " 32-bit registers} as operand " +
                                 std::to_string(i) + " in '" + inst.text + "'");
  }
  return true;
}

/// cp.async: [dst], [src], cp-size (4, 8 or 16; 16 only with .cg) and an
/// optional src-size (a 32-bit register, or a constant up to cp-size);
/// wait_group: a constant count of groups.
bool Parser::checkAsyncCopyOperands(const Inst &inst) {
  const std::vector<Operand> &ops = inst.ops;
  auto constant = [](const Operand &o) {
    return o.kind == Operand::Imm && !o.isSymbol;
  };
  if (inst.op == Op::CpAsyncWait && !constant(ops[0]))
    return fail(inst.line, "expected a constant group count in '" +
                               inst.text + "'");
  if (inst.op != Op::CpAsync)
    return true;
  if (ops[0].kind != Operand::Mem || ops[1].kind != Operand::Mem)
    return fail(inst.line, "expected an address in '" + inst.text + "'");
  uint64_t size = ops[2].imm;
  if (!constant(ops[2]) || (size != 4 && size != 8 && size != 16))
    return fail(inst.line, "cp-size must be 4, 8 or 16 in '" + inst.text + "'");
  if ((inst.flags & FlagCacheGlobal) && size != 16)
    return fail(inst.line, "cp.async.cg needs cp-size 16 in '" + inst.text +
                               "'");
  if (ops.size() < 4)
    return true;
  const Operand &src = ops[3];
  bool ok = (constant(src) && src.imm <= size) ||
            (src.kind == Operand::Reg && !src.negate &&
             fn->regs[src.reg].bits == 32);
  if (!ok)
    return fail(inst.line, "expected a src-size (a 32-bit register or a "
                           "constant up to cp-size) in '" + inst.text + "'");
  return true;
}

bool Parser::parseInstruction(const Stmt &s) {
  Inst inst;
  inst.line = s.line;
  inst.text = s.text;
  // Collapse whitespace runs for readable reports.
  {
    std::string t;
    for (char c : s.text) {
      if (std::isspace(static_cast<unsigned char>(c))) {
        if (!t.empty() && t.back() != ' ')
          t += ' ';
      } else {
        t += c;
      }
    }
    inst.text = t;
  }
  std::string rest = inst.text;
  if (rest[0] == '@') {
    size_t sp = rest.find(' ');
    if (sp == std::string::npos)
      return fail(s.line, "expected an instruction after the guard in '" +
                              inst.text + "'");
    std::string g = rest.substr(1, sp - 1);
    if (!g.empty() && g[0] == '!') {
      inst.guardNeg = true;
      g = g.substr(1);
    }
    inst.guard = lookupRegister(g);
    if (inst.guard < 0 || fn->regs[inst.guard].bits != 1)
      return fail(s.line, "unknown guard predicate '" + g + "'");
    rest = trim(rest.substr(sp));
  }
  size_t sp = rest.find(' ');
  std::string opcode = rest.substr(0, sp);
  std::string operands = sp == std::string::npos ? "" : rest.substr(sp + 1);
  if (!decodeOpcode(opcode, inst, s.line))
    return false;
  if (!trim(operands).empty()) {
    for (const std::string &o : splitTop(operands, ',')) {
      Operand op;
      if (!parseOperand(o, op, s.line))
        return false;
      if (op.kind == Operand::Label)
        pendingLabels.push_back({(int)fn->insts.size(), trim(o)});
      inst.ops.push_back(op);
    }
  }
  if (!checkOperands(inst))
    return false;
  for (size_t i = 0; i < inst.ops.size(); ++i)
    if (inst.ops[i].kind == Operand::Label && inst.op != Op::Bra)
      return fail(s.line, "unknown symbol in '" + inst.text + "'");
  fn->insts.push_back(std::move(inst));
  return true;
}

} // namespace

std::unique_ptr<Module> parsePTX(const std::string &text, std::string &error) {
  Parser p(error);
  std::unique_ptr<Module> m = p.run(text);
  if (!error.empty())
    return nullptr;
  return m;
}

} // namespace warp::sim
