// The ops of a TTGIR module's text, as the axis analysis (AxisInfo.h) and the launch
// evaluation (LaunchEvaluation.h) read them: each op's results, operands, types and attribute
// text, the loops and ifs that own each scf.yield, and where each region ends. Internal to
// core/analysis: the structure checks of a module are readTtgir's (Ttgir.h); this reader only
// takes the lines apart, and an op it cannot read is a problem, not an Error.
#pragma once

#include "llcheck/core/conversion/SharedMemory.h"

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace llcheck::detail {

struct ValueType {
  std::vector<uint64_t> shape; ///< empty: a scalar
  std::string element;         ///< "i32", "!tt.ptr<f16>", "f16"
  [[nodiscard]] int rank() const { return shape.empty() ? 1 : static_cast<int>(shape.size()); }
  [[nodiscard]] bool isTensor() const { return !shape.empty(); }
  [[nodiscard]] bool isPointer() const { return element.rfind("!tt.ptr<", 0) == 0; }
  [[nodiscard]] int pointeeBits() const {
    if (!isPointer() || element.size() < 9)
      return 0;
    std::string pointee = element.substr(8, element.size() - 9);
    if (pointee == "i1")
      return 1;
    auto bits = dtypeBits(pointee);
    return bits.ok() ? *bits : 0;
  }
  /// The integer width (i32: 32), 64 for index, 0 for other types.
  [[nodiscard]] int integerBits() const {
    if (element == "index")
      return 64;
    if (element.size() < 2 || element[0] != 'i')
      return 0;
    int bits = 0;
    auto [p, ec] = std::from_chars(element.data() + 1, element.data() + element.size(), bits);
    return ec == std::errc() && p == element.data() + element.size() && bits > 0 ? bits : 0;
  }
  bool operator==(const ValueType&) const = default;
};

struct ParsedOp {
  std::string name;
  int line = 0;
  int function = 0;
  std::vector<std::string> results;
  std::vector<std::string> operands;
  /// The op's text after its name, without locations (for attributes); a block's label
  /// ("^bb1") for a ^bb line.
  std::string body;
  ValueType resultType, operandType;
  std::vector<ValueType> operandTypes;
  // scf.for
  std::string inductionVariable, lowerBound, upperBound, step;
  std::vector<std::pair<std::string, std::string>> iterArgs; ///< (argument, initial value)
  // scf.for / scf.if: their scf.yield ops; scf.yield: the op it yields to (-1: another).
  std::vector<int> yields;
  int yieldsTo = -1;
  /// Each region the op opens (scf.for: its body; scf.if: then, else), as the index one past
  /// its last op in the list.
  std::vector<int> regionEnds;
  // Block arguments (^bb0 lines, tt.func): name, type and the argument attributes' text.
  std::vector<std::tuple<std::string, ValueType, std::string>> arguments;
};

/// The ops of every tt.func in `text`, in file order. A value is keyed "F:%name" (F: the
/// function's number from 1), with "~N" after the Nth redefinition of the name in sibling
/// regions. Lines it cannot read are appended to `problems` ("source:line: what").
[[nodiscard]] std::vector<ParsedOp> readTtgirOps(std::string_view text, const std::string& source,
                                                 std::vector<std::string>& problems);

[[nodiscard]] std::string_view trimmed(std::string_view s);
/// Positions of `needle` in `t` at bracket depth 0 (outside (), [], {}, <> and strings).
[[nodiscard]] std::vector<std::size_t> topLevel(std::string_view t, std::string_view needle);
/// Splits at top-level commas.
[[nodiscard]] std::vector<std::string_view> splitTop(std::string_view t);
[[nodiscard]] ValueType parseType(std::string_view t);
[[nodiscard]] std::optional<int64_t> leadingInteger(std::string_view s);
/// The integer attribute `key` of the op text in `out`; false when absent or not an integer.
[[nodiscard]] bool integerAttribute(std::string_view t, std::string_view key, int64_t& out);
/// A hint (`tt.divisibility = 16 : i32` or `dense<[16, 1]> : tensor<2xi32>`) as Triton's
/// initDimVectorFromHint reads it: an integer gives a vector of one.
[[nodiscard]] std::optional<std::vector<int64_t>> hintVector(std::string_view value);
/// arith.cmpi's predicates, in the order of their names in integerPredicateOf.
enum class IntegerPredicate { Eq, Ne, Slt, Sle, Sgt, Sge, Ult, Ule, Ugt, Uge };

/// The predicate named `name` ("slt"); an unknown name reads as uge.
[[nodiscard]] inline IntegerPredicate integerPredicateOf(std::string_view name) {
  constexpr std::string_view kNames[] = {"eq",  "ne",  "slt", "sle", "sgt",
                                         "sge", "ult", "ule", "ugt", "uge"};
  for (std::size_t i = 0; i < std::size(kNames); ++i)
    if (name == kNames[i])
      return static_cast<IntegerPredicate>(i);
  return IntegerPredicate::Uge;
}

/// arith.cmpi's `predicate` ("slt", "uge", ...) of a and b, signed and (ua, ub) unsigned.
[[nodiscard]] inline bool comparePredicate(IntegerPredicate p, int64_t a, int64_t b, uint64_t ua,
                                           uint64_t ub) {
  switch (p) {
  case IntegerPredicate::Eq:
    return a == b;
  case IntegerPredicate::Ne:
    return a != b;
  case IntegerPredicate::Slt:
    return a < b;
  case IntegerPredicate::Sle:
    return a <= b;
  case IntegerPredicate::Sgt:
    return a > b;
  case IntegerPredicate::Sge:
    return a >= b;
  case IntegerPredicate::Ult:
    return ua < ub;
  case IntegerPredicate::Ule:
    return ua <= ub;
  case IntegerPredicate::Ugt:
    return ua > ub;
  case IntegerPredicate::Uge:
    return ua >= ub;
  }
  return ua >= ub;
}

[[nodiscard]] inline bool comparePredicate(std::string_view predicate, int64_t a, int64_t b,
                                           uint64_t ua, uint64_t ub) {
  return comparePredicate(integerPredicateOf(predicate), a, b, ua, ub);
}

/// "%offs_am" of the key "2:%offs_am~1".
[[nodiscard]] std::string displayName(const std::string& key);

} // namespace llcheck::detail
