//===- ShufflePayloads.cpp - any shuffle payload as 32-bit words ----------===//
//
// The in-dialect legalization that runs before the NVVM conversion (as
// upstream's gpu.shuffle lowering does), so that `shfl.sync`, which moves one
// 32-bit register (i32 or f32: NVVM's shuffle takes both, so an f32 moves as
// it is, without a bitcast each way), is the only form the conversion sees:
//
//   %r, %v = warp.shuffle <xor> %x, %o : f64
// becomes
//   %bits = arith.bitcast %x : f64 to i64
//   %lo = arith.trunci %bits : i64 to i32          (and %hi from bits >> 32)
//   %rlo, %v = warp.shuffle <xor> %lo, %o : i32
//   %rhi, %_ = warp.shuffle <xor> %hi, %o : i32
//   %r = ... (rebuilt from %rlo and %rhi)
//
// Values of up to 32 bits travel in one word (narrow integers zero-extended,
// two 16-bit values or four 8-bit values packed), 64-bit scalars in two,
// vectors of 32- and 64-bit elements as their words, index as i64, other
// vectors of elements narrower than 32 bits as words of 32 / bits elements
// each (the last one's unused bits zero), and i1 vectors element by element.
// Every word reads the same source lane, so the first word's `valid` is the
// op's.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Conversion/Passes.h"

#include "WarpDialect/Utils/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::warp;

namespace {

unsigned getBitWidth(Type type) {
  if (auto vectorType = dyn_cast<VectorType>(type))
    return vectorType.getNumElements() *
           vectorType.getElementType().getIntOrFloatBitWidth();
  return type.getIntOrFloatBitWidth();
}

/// `type` with its (index) elements as i64: how index payloads travel.
Type withI64Elements(Type type) {
  Type i64 = IntegerType::get(type.getContext(), 64);
  if (auto vectorType = dyn_cast<VectorType>(type))
    return vectorType.clone(i64);
  return i64;
}

/// Vectors of i1 move element by element (each i1 zero-extended to a word).
bool movesElementwise(VectorType type) {
  return type.getElementType().isInteger(1);
}

/// Whether a vector (not moved element by element) is reinterpreted as its
/// words with one bitcast: a power-of-two number of elements of 32 bits or
/// more, or of fewer bits filling at most one word (vector<2xi8>,
/// vector<4xi8>, vector<2xf16>, ...). Other vectors of elements narrower
/// than 32 bits (vector<3xi8>, vector<4xf16>, vector<6xi16>, ...) are built
/// into words and taken apart word by word (packSubwordVector): a bitcast
/// of the whole vector gives LLVM's backend an odd-sized or multi-word
/// vector, which it legalizes through wider registers with undefined parts
/// (a vector<3xi8> word read an undefined byte; on sm_100 a vector<4xf16>
/// came back through a 64-bit register half of which was undefined).
bool fitsOneBitcast(VectorType type) {
  unsigned elementBits = type.getElementType().getIntOrFloatBitWidth();
  if (elementBits >= 32)
    return true;
  int64_t n = type.getNumElements();
  return llvm::isPowerOf2_64(n) && n * elementBits <= 32;
}

/// `element` (an integer or float of fewer than 32 bits) as the low bits of
/// an i32, the others zero.
Value elementToWordBits(OpBuilder &b, Location loc, Value element) {
  Type type = element.getType();
  Value asInt = element;
  if (isa<FloatType>(type))
    asInt = arith::BitcastOp::create(
        b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()), element);
  return arith::ExtUIOp::create(b, loc, b.getI32Type(), asInt);
}

/// Appends the words of a vector of elements narrower than 32 bits that
/// fitsOneBitcast rejects: each word holds 32 / bits consecutive elements,
/// the first in the low bits; the last word's unused high bits are zero.
/// A whole word's elements are bitcast together (a power-of-two vector of
/// at most 32 bits); a partial last word is built element by element.
void packSubwordVector(OpBuilder &b, Location loc, Value value,
                       SmallVectorImpl<Value> &words) {
  auto type = cast<VectorType>(value.getType());
  Type element = type.getElementType();
  unsigned elementBits = element.getIntOrFloatBitWidth();
  int64_t perWord = 32 / elementBits, n = type.getNumElements();
  for (int64_t first = 0; first < n; first += perWord) {
    int64_t count = std::min(perWord, n - first);
    if (count == perWord) {
      SmallVector<int64_t> positions =
          llvm::to_vector(llvm::seq<int64_t>(first, first + perWord));
      Value slice = vector::ShuffleOp::create(b, loc, value, value, positions);
      Value word = vector::BitCastOp::create(
          b, loc, VectorType::get({1}, b.getI32Type()), slice);
      words.push_back(vector::ExtractOp::create(b, loc, word, 0));
      continue;
    }
    Value word;
    for (int64_t j = 0; j < count; ++j) {
      Value part = elementToWordBits(
          b, loc, vector::ExtractOp::create(b, loc, value, first + j));
      if (j)
        part = arith::ShLIOp::create(b, loc, part,
                                     buildI32Constant(b, loc, j * elementBits));
      word = word ? arith::OrIOp::create(b, loc, word, part).getResult() : part;
    }
    words.push_back(word);
  }
}

/// Rebuilds a vector that packSubwordVector packed, from the front of
/// `words`: every element is taken out of its word and the vector built
/// from the elements.
Value unpackSubwordVector(OpBuilder &b, Location loc, VectorType type,
                          ArrayRef<Value> &words) {
  Type element = type.getElementType();
  unsigned elementBits = element.getIntOrFloatBitWidth();
  int64_t perWord = 32 / elementBits, n = type.getNumElements();
  SmallVector<Value> elements;
  for (int64_t first = 0; first < n; first += perWord) {
    Value word = words.front();
    words = words.drop_front();
    int64_t count = std::min(perWord, n - first);
    if (count == perWord) {
      Value oneWord = vector::FromElementsOp::create(
          b, loc, VectorType::get({1}, b.getI32Type()), word);
      Value slice = vector::BitCastOp::create(
          b, loc, VectorType::get({perWord}, element), oneWord);
      for (int64_t j = 0; j < perWord; ++j)
        elements.push_back(vector::ExtractOp::create(b, loc, slice, j));
      continue;
    }
    Type intType = b.getIntegerType(elementBits);
    for (int64_t j = 0; j < count; ++j) {
      Value part = word;
      if (j)
        part = arith::ShRUIOp::create(
            b, loc, part, buildI32Constant(b, loc, j * elementBits));
      part = arith::TruncIOp::create(b, loc, intType, part);
      if (isa<FloatType>(element))
        part = arith::BitcastOp::create(b, loc, element, part);
      elements.push_back(part);
    }
  }
  return vector::FromElementsOp::create(b, loc, type, elements);
}

/// Appends the 32-bit words that carry `value`.
void packToWords(OpBuilder &b, Location loc, Value value,
                 SmallVectorImpl<Value> &words) {
  Type type = value.getType();
  Type i32 = b.getI32Type();
  if (getElementTypeOrSelf(type).isIndex()) {
    value = arith::IndexCastOp::create(b, loc, withI64Elements(type), value);
    type = value.getType();
  }
  auto vectorType = dyn_cast<VectorType>(type);
  if (vectorType && movesElementwise(vectorType)) {
    for (int64_t i = 0, e = vectorType.getNumElements(); i < e; ++i)
      packToWords(b, loc, vector::ExtractOp::create(b, loc, value, i), words);
    return;
  }
  unsigned bits = getBitWidth(type);
  if (vectorType && !fitsOneBitcast(vectorType)) {
    packSubwordVector(b, loc, value, words);
    return;
  }
  if (bits <= 32) {
    Type intType = b.getIntegerType(bits);
    Value asInt = value;
    if (vectorType) {
      auto oneInt = VectorType::get({1}, intType);
      Value cast = vector::BitCastOp::create(b, loc, oneInt, value);
      asInt = vector::ExtractOp::create(b, loc, cast, 0);
    } else if (isa<FloatType>(type)) {
      asInt = arith::BitcastOp::create(b, loc, intType, value);
    }
    if (bits < 32)
      asInt = arith::ExtUIOp::create(b, loc, i32, asInt);
    words.push_back(asInt);
    return;
  }
  if (!vectorType) { // a 64-bit scalar: low word, then high word
    Type i64 = b.getI64Type();
    Value asInt = isa<FloatType>(type)
                      ? arith::BitcastOp::create(b, loc, i64, value).getResult()
                      : value;
    words.push_back(arith::TruncIOp::create(b, loc, i32, asInt));
    Value high = arith::ShRUIOp::create(
        b, loc, asInt, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32)));
    words.push_back(arith::TruncIOp::create(b, loc, i32, high));
    return;
  }
  // A multiple of 32 bits: reinterpret as <N x i32> and take the words.
  auto wordsType = VectorType::get({int64_t(bits / 32)}, i32);
  Value asWords = vector::BitCastOp::create(b, loc, wordsType, value);
  for (int64_t i = 0, e = wordsType.getNumElements(); i < e; ++i)
    words.push_back(vector::ExtractOp::create(b, loc, asWords, i));
}

/// Rebuilds a value of `type` from the words packToWords produced, consuming
/// them from `words` front to back.
Value unpackFromWords(OpBuilder &b, Location loc, Type type,
                      ArrayRef<Value> &words) {
  Type i32 = b.getI32Type();
  if (getElementTypeOrSelf(type).isIndex()) {
    Value wide = unpackFromWords(b, loc, withI64Elements(type), words);
    return arith::IndexCastOp::create(b, loc, type, wide);
  }
  auto vectorType = dyn_cast<VectorType>(type);
  if (vectorType && movesElementwise(vectorType)) {
    SmallVector<Value> elements;
    for (int64_t i = 0, e = vectorType.getNumElements(); i < e; ++i)
      elements.push_back(
          unpackFromWords(b, loc, vectorType.getElementType(), words));
    return vector::FromElementsOp::create(b, loc, vectorType, elements);
  }
  unsigned bits = getBitWidth(type);
  if (vectorType && !fitsOneBitcast(vectorType))
    return unpackSubwordVector(b, loc, vectorType, words);
  if (bits <= 32) {
    Value asInt = words.front();
    words = words.drop_front();
    Type intType = b.getIntegerType(bits);
    if (bits < 32)
      asInt = arith::TruncIOp::create(b, loc, intType, asInt);
    if (vectorType) {
      Value oneInt = vector::FromElementsOp::create(
          b, loc, VectorType::get({1}, intType), asInt);
      return vector::BitCastOp::create(b, loc, vectorType, oneInt);
    }
    if (isa<FloatType>(type))
      return arith::BitcastOp::create(b, loc, type, asInt);
    return asInt;
  }
  unsigned numWords = bits / 32;
  ArrayRef<Value> mine = words.take_front(numWords);
  words = words.drop_front(numWords);
  if (!vectorType) {
    Type i64 = b.getI64Type();
    Value low = arith::ExtUIOp::create(b, loc, i64, mine[0]);
    Value high = arith::ExtUIOp::create(b, loc, i64, mine[1]);
    Value shifted = arith::ShLIOp::create(
        b, loc, high, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32)));
    Value joined = arith::OrIOp::create(b, loc, low, shifted);
    if (isa<FloatType>(type))
      return arith::BitcastOp::create(b, loc, type, joined);
    return joined;
  }
  Value asWords = vector::FromElementsOp::create(
      b, loc, VectorType::get({int64_t(numWords)}, i32), mine);
  return vector::BitCastOp::create(b, loc, vectorType, asWords);
}

/// A shuffle of anything but i32 or f32 becomes one i32 shuffle per word.
struct SplitShufflePayload final : public OpRewritePattern<ShuffleOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ShuffleOp op,
                                PatternRewriter &rewriter) const override {
    if (isShuffleWord(op.getValue().getType()))
      return rewriter.notifyMatchFailure(op, "already one word");
    Location loc = op.getLoc();
    SmallVector<Value> words;
    packToWords(rewriter, loc, op.getValue(), words);
    SmallVector<Value> moved;
    Value valid;
    for (Value word : words) {
      auto shuffle = ShuffleOp::create(
          rewriter, loc, word.getType(), rewriter.getI1Type(), op.getMode(),
          word, op.getOffset(), op.getWidth(), op.getDynamicWidth(),
          op.getBound(), op.getMask());
      moved.push_back(shuffle.getResult());
      if (!valid)
        valid = shuffle.getValid();
    }
    ArrayRef<Value> remaining = moved;
    Value result =
        unpackFromWords(rewriter, loc, op.getValue().getType(), remaining);
    rewriter.replaceOp(op, {result, valid});
    return success();
  }
};

} // namespace

bool mlir::warp::isShuffleWord(Type type) {
  return type.isInteger(32) || type.isF32();
}

void mlir::warp::populateShufflePayloadPatterns(RewritePatternSet &patterns,
                                                PatternBenefit benefit) {
  patterns.add<SplitShufflePayload>(patterns.getContext(), benefit);
}
