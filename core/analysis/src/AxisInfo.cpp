// Triton's AxisInfo on a TTGIR module's text, and the affine offsets of its pointer tensors
// (AxisInfo.h). Two passes: the lines are read into ops (results, operands, types, attributes,
// the loops and ifs that own each scf.yield), then the ops are evaluated in order, again and
// again, until no value's facts change (the loops' carried values settle).
#include "llcheck/core/AxisInfo.h"
#include "TtgirOpReader.h"

#include "llcheck/core/Ttgir.h"
#include "llcheck/core/conversion/SharedMemory.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <map>
#include <numeric>
#include <unordered_map>

namespace llcheck {

// ---- The lattice
// ---------------------------------------------------------------------------------

namespace {

int64_t gcd2(int64_t a, int64_t b) {
  if (a == 0)
    return b;
  if (b == 0)
    return a;
  return std::gcd(a, b);
}

template <typename... Args> int64_t gcdN(int64_t a, int64_t b, Args... rest) {
  if constexpr (sizeof...(rest) == 0)
    return gcd2(a, b);
  else
    return gcdN(gcd2(a, b), rest...);
}

int64_t highestPowOf2Divisor(int64_t n) {
  if (n == 0)
    return kAxisMaxDivisor;
  auto u = static_cast<uint64_t>(n);
  return static_cast<int64_t>(u & (~u + 1)) == std::numeric_limits<int64_t>::min()
             ? kAxisMaxDivisor
             : std::min<int64_t>(static_cast<int64_t>(u & (~u + 1)), kAxisMaxDivisor);
}

int64_t multiplyDivisor(int64_t a, int64_t b) {
  if (b != 0 && a > kAxisMaxDivisor / b)
    return kAxisMaxDivisor;
  return a * b;
}

/// Triton's getDivisibilityFromContiguity: where two values of different contiguity meet (a
/// select, a join), a run of one may start inside a run of the other.
int64_t divisibilityFromContiguity(const AxisInfo& a, const AxisInfo& b, int d) {
  auto i = static_cast<std::size_t>(d);
  if (a.contiguity[i] == b.contiguity[i] || a.contiguity[i] == kAxisMaxDivisor ||
      b.contiguity[i] == kAxisMaxDivisor)
    return gcd2(a.divisibility[i], b.divisibility[i]);
  return gcdN(a.divisibility[i], b.divisibility[i], a.contiguity[i], b.contiguity[i]);
}

} // namespace

AxisInfo AxisInfo::pessimistic(int rank) {
  auto n = static_cast<std::size_t>(std::max(rank, 1));
  return {std::vector<int64_t>(n, 1), std::vector<int64_t>(n, 1), std::vector<int64_t>(n, 1),
          std::nullopt};
}

AxisInfo AxisInfo::join(const AxisInfo& a, const AxisInfo& b) {
  if (a.rank() == 0)
    return b;
  if (b.rank() == 0 || a.rank() != b.rank())
    return a.rank() == b.rank() ? a : pessimistic(a.rank());
  AxisInfo r;
  for (int d = 0; d < a.rank(); ++d) {
    auto i = static_cast<std::size_t>(d);
    r.contiguity.push_back(gcd2(a.contiguity[i], b.contiguity[i]));
    r.divisibility.push_back(divisibilityFromContiguity(a, b, d));
    r.constancy.push_back(gcd2(a.constancy[i], b.constancy[i]));
  }
  if (a.constantValue && b.constantValue && *a.constantValue == *b.constantValue)
    r.constantValue = a.constantValue;
  return r;
}

int64_t axisAlignment(const AxisInfo& pointer, int dim, int pointeeBits) {
  if (dim < 0 || dim >= pointer.rank())
    return 1;
  auto i = static_cast<std::size_t>(dim);
  int64_t bytes = std::max(pointeeBits / 8, 1);
  return std::min(std::max<int64_t>(pointer.divisibility[i] / bytes, 1), pointer.contiguity[i]);
}

namespace {

std::string dimsText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + (v[i] == kAxisMaxDivisor ? std::string("2^62") : std::to_string(v[i]));
  return s + "]";
}

} // namespace

std::string axisInfoText(const AxisInfo& info) {
  std::string s = "contiguity = " + dimsText(info.contiguity) +
                  ", divisibility = " + dimsText(info.divisibility) +
                  ", constancy = " + dimsText(info.constancy);
  if (info.constantValue)
    s += ", constant = " + std::to_string(*info.constantValue);
  return s;
}

std::string affineStridesText(const std::vector<AffineStride>& strides) {
  std::string s = "[";
  for (std::size_t i = 0; i < strides.size(); ++i) {
    const AffineStride& st = strides[i];
    s += i ? ", " : "";
    if (st.symbol.empty())
      s += std::to_string(st.factor);
    else if (st.factor == 1)
      s += st.symbol;
    else
      s += std::to_string(st.factor) + " * " + st.symbol;
  }
  return s + "]";
}

const TtgirAccessFacts* TtgirAxisAnalysis::atLine(int line) const {
  for (const TtgirAccessFacts& a : accesses)
    if (a.line == line)
      return &a;
  return nullptr;
}

namespace {

using namespace detail;

// ---- Evaluating them
// -------------------------------------------------------------------------------

struct Facts {
  AxisInfo axis;
  AffineOffsets offsets;
  ValueType type;
  /// A uniform value that is not a known constant: the scalar it multiplies by, by name.
  std::string symbol;
  bool operator==(const Facts&) const = default;
};

bool uniform(const Facts& f) {
  return f.offsets.affine && std::all_of(f.offsets.strides.begin(), f.offsets.strides.end(),
                                         [](const AffineStride& s) { return s.factor == 0; });
}

AffineOffsets notAffine(std::string why) {
  AffineOffsets o;
  o.notAffine = std::move(why);
  return o;
}

AffineOffsets zeroOffsets(int rank) {
  AffineOffsets o;
  o.affine = true;
  o.strides.assign(static_cast<std::size_t>(std::max(rank, 1)), AffineStride{});
  return o;
}

void appendAssumptions(AffineOffsets& into, const AffineOffsets& from) {
  for (const std::string& a : from.assumptions)
    if (std::find(into.assumptions.begin(), into.assumptions.end(), a) == into.assumptions.end())
      into.assumptions.push_back(a);
}

AffineOffsets addOffsets(const AffineOffsets& a, const AffineOffsets& b, bool subtract) {
  if (!a.affine)
    return a;
  if (!b.affine)
    return b;
  if (a.strides.size() != b.strides.size())
    return notAffine("operands of different ranks");
  AffineOffsets r = a;
  appendAssumptions(r, b);
  for (std::size_t d = 0; d < a.strides.size(); ++d) {
    AffineStride x = a.strides[d], y = b.strides[d];
    if (subtract && __builtin_sub_overflow(int64_t{0}, y.factor, &y.factor))
      return notAffine("a stride overflows 64 bits");
    if (y.factor == 0)
      continue;
    if (x.factor == 0) {
      r.strides[d] = y;
      continue;
    }
    if (x.symbol != y.symbol)
      return notAffine("a sum of strides " + affineStridesText({x}) + " and " +
                       affineStridesText({y}) + " along dim" + std::to_string(d));
    if (__builtin_add_overflow(x.factor, y.factor, &r.strides[d].factor))
      return notAffine("a stride overflows 64 bits");
  }
  return r;
}

/// `offsets` times the uniform value `by`.
AffineOffsets scaleOffsets(const AffineOffsets& offsets, const Facts& by) {
  if (!offsets.affine)
    return offsets;
  AffineOffsets r = offsets;
  appendAssumptions(r, by.offsets);
  for (AffineStride& s : r.strides) {
    if (s.factor == 0)
      continue;
    if (by.axis.constantValue) {
      if (__builtin_mul_overflow(s.factor, *by.axis.constantValue, &s.factor))
        return notAffine("a stride overflows 64 bits");
      if (s.factor == 0)
        s.symbol.clear();
      continue;
    }
    if (!s.symbol.empty())
      return notAffine("a product of two unknown scalars (" + s.symbol + " and " + by.symbol + ")");
    s.symbol = by.symbol;
    s.symbolDivisibility = by.axis.divisibility.empty() ? 1 : by.axis.divisibility[0];
  }
  return r;
}

class Evaluator {
public:
  Evaluator(const std::vector<ParsedOp>& ops, const std::string& source)
      : ops_(ops), source_(source) {}

  TtgirAxisAnalysis run() {
    TtgirAxisAnalysis out;
    // Loops carry values: evaluate until nothing changes. Each round can only lower a fact
    // (gcd), so few rounds are needed; the bound is for safety, and a module that reaches it is
    // reported, not trusted.
    constexpr int kMaxRounds = 32;
    bool settled = false;
    for (int round = 0; round < kMaxRounds && !settled; ++round) {
      changed_ = false;
      for (std::size_t i = 0; i < ops_.size(); ++i)
        evaluate(ops_[i]);
      settled = !changed_;
    }
    if (!settled)
      out.problems.push_back(source_ + ": the loops' carried values did not settle in " +
                             std::to_string(kMaxRounds) + " rounds");
    out.opaqueOps = opaque_;
    for (const ParsedOp& op : ops_)
      access(op, out);
    return out;
  }

private:
  const std::vector<ParsedOp>& ops_;
  const std::string& source_;
  std::map<std::string, Facts> values_;
  std::set<std::string> opaque_;
  bool changed_ = false;

  void set(const std::string& name, Facts f) {
    auto it = values_.find(name);
    if (it == values_.end()) {
      values_.emplace(name, std::move(f));
      changed_ = true;
    } else if (!(it->second == f)) {
      it->second = std::move(f);
      changed_ = true;
    }
  }

  /// The facts of an operand; a value not (yet) defined is unknown to Triton too.
  Facts get(const std::string& name, const ValueType& type) const {
    auto it = values_.find(name);
    if (it != values_.end())
      return it->second;
    return opaque(type, "a value the analysis has not seen");
  }

  static Facts opaque(const ValueType& type, const std::string& why, const std::string& name = {}) {
    Facts f;
    f.type = type;
    f.axis = AxisInfo::pessimistic(type.rank());
    if (!type.isTensor()) {
      f.offsets = zeroOffsets(1);
      f.symbol = name.empty() ? std::string("?") : displayName(name);
    } else {
      f.offsets = notAffine(why);
    }
    return f;
  }

  static void applyHints(const std::string& attrs, AxisInfo& a) {
    auto hint = [&](std::string_view name, std::vector<int64_t>& into) {
      if (auto v = ttgirOpAttribute(attrs, name))
        if (auto vec = hintVector(*v))
          into = *vec;
    };
    hint("tt.contiguity", a.contiguity);
    hint("tt.divisibility", a.divisibility);
    hint("tt.constancy", a.constancy);
    // A hint of the wrong length (Triton would read out of bounds): make the vectors agree.
    auto n = a.contiguity.size();
    for (std::vector<int64_t>* v : {&a.divisibility, &a.constancy})
      v->resize(n, 1);
  }

  void evaluate(const ParsedOp& op) {
    if (op.name == "tt.func") {
      for (const auto& [name, type, attrs] : op.arguments) {
        Facts f = opaque(type, "a kernel argument", name);
        if (type.isPointer() && !type.isTensor())
          f.offsets = zeroOffsets(1);
        applyHints(attrs, f.axis);
        set(name, f);
      }
      return;
    }
    if (op.name == "^bb") {
      for (const auto& [name, type, attrs] : op.arguments)
        set(name, opaque(type, "a block argument", name));
      return;
    }
    if (op.name == "scf.for") {
      forOp(op);
      return;
    }
    if (op.name == "scf.if") {
      ifOp(op);
      return;
    }
    if (op.results.empty())
      return;
    std::optional<Facts> result = transfer(op);
    if (!result) {
      opaque_.insert(op.name);
      for (const std::string& r : op.results) {
        Facts f = opaque(op.results.size() == 1 ? op.resultType : ValueType{},
                         op.name + " (Triton's AxisInfo has no rule for it either)", r);
        applyHints(op.body, f.axis);
        set(r, f);
      }
      return;
    }
    applyHints(op.body, result->axis);
    for (const std::string& r : op.results)
      set(r, *result);
  }

  Facts operand(const ParsedOp& op, std::size_t k) const {
    ValueType t = k < op.operandTypes.size() ? op.operandTypes[k] : op.operandType;
    return k < op.operands.size() ? get(op.operands[k], t) : opaque(t, "a missing operand");
  }

  void forOp(const ParsedOp& op) {
    // The induction variable: Triton's visitForOpInductionVar.
    Facts iv = opaque(ValueType{{}, "i32"}, "", op.inductionVariable);
    Facts lb = get(op.lowerBound, {}), step = get(op.step, {});
    iv.axis.divisibility[0] = gcd2(lb.axis.divisibility[0], step.axis.divisibility[0]);
    set(op.inductionVariable, iv);
    const ParsedOp* yield =
        op.yields.empty() ? nullptr : &ops_[static_cast<std::size_t>(op.yields.front())];
    for (std::size_t k = 0; k < op.iterArgs.size(); ++k) {
      Facts init = get(op.iterArgs[k].second, {});
      Facts carried = init;
      if (yield && k < yield->operands.size()) {
        auto it = values_.find(yield->operands[k]);
        if (it != values_.end())
          carried = joinFacts(init, it->second, op.iterArgs[k].first);
      }
      set(op.iterArgs[k].first, carried);
      if (k < op.results.size())
        set(op.results[k], carried);
    }
  }

  void ifOp(const ParsedOp& op) {
    for (std::size_t k = 0; k < op.results.size(); ++k) {
      std::optional<Facts> joined;
      for (int y : op.yields) {
        const ParsedOp& yield = ops_[static_cast<std::size_t>(y)];
        if (k >= yield.operands.size())
          continue;
        auto it = values_.find(yield.operands[k]);
        if (it == values_.end())
          continue;
        joined = joined ? joinFacts(*joined, it->second, op.results[k]) : it->second;
      }
      if (joined)
        set(op.results[k], *joined);
    }
  }

  static Facts joinFacts(const Facts& a, const Facts& b, const std::string& name) {
    Facts r = a;
    r.axis = AxisInfo::join(a.axis, b.axis);
    if (a.offsets.affine && b.offsets.affine) {
      if (a.offsets.strides == b.offsets.strides)
        appendAssumptions(r.offsets, b.offsets);
      else
        r.offsets = notAffine("the values joined at " + displayName(name) + " have strides " +
                              affineStridesText(a.offsets.strides) + " and " +
                              affineStridesText(b.offsets.strides));
    } else {
      r.offsets = a.offsets.affine ? b.offsets : a.offsets;
    }
    if (a.symbol != b.symbol)
      r.symbol = displayName(name);
    return r;
  }

  /// Facts for a result of `op`, or nullopt for an op Triton's AxisInfo has no rule for.
  std::optional<Facts> transfer(const ParsedOp& op) {
    const std::string& n = op.name;
    ValueType type = op.resultType;
    int rank = type.rank();
    Facts f;
    f.type = type;
    if (n == "arith.constant")
      return constant(op);
    if (n == "tt.make_range") {
      int64_t s = 0, e = 0, length = 0;
      if (!integerAttribute(op.body, "start", s) || !integerAttribute(op.body, "end", e) ||
          __builtin_sub_overflow(e, s, &length) || length < 1)
        return std::nullopt;
      f.axis = {{length}, {highestPowOf2Divisor(s)}, {1}, std::nullopt};
      f.offsets = zeroOffsets(1);
      f.offsets.strides[0].factor = 1;
      return f;
    }
    if (n == "ub.poison") {
      auto r = static_cast<std::size_t>(rank);
      f.axis = {std::vector<int64_t>(r, kAxisMaxDivisor), std::vector<int64_t>(r, kAxisMaxDivisor),
                std::vector<int64_t>(r, kAxisMaxDivisor), std::nullopt};
      f.offsets = notAffine("a poison value");
      return f;
    }
    if (n == "arith.extsi" || n == "arith.extui" || n == "arith.trunci" ||
        n == "ttg.convert_layout" || n == "builtin.unrealized_conversion_cast" ||
        n == "tt.bitcast") {
      Facts x = operand(op, 0);
      x.type = type;
      return x;
    }
    if (n == "tt.splat")
      return splat(op);
    if (n == "tt.expand_dims")
      return expandDims(op);
    if (n == "tt.broadcast")
      return broadcast(op);
    if (n == "tt.load") {
      Facts ptr = operand(op, 0);
      std::optional<Facts> mask;
      if (op.operands.size() > 1)
        mask = operand(op, 1);
      f.axis = AxisInfo::pessimistic(ptr.axis.rank());
      for (int d = 0; d < ptr.axis.rank(); ++d) {
        auto i = static_cast<std::size_t>(d);
        f.axis.constancy[i] =
            gcd2(ptr.axis.constancy[i],
                 mask && i < mask->axis.constancy.size() ? mask->axis.constancy[i] : 0);
      }
      if (!type.isTensor()) {
        f.offsets = zeroOffsets(1);
        f.symbol = op.results.empty() ? "?" : displayName(op.results.front());
      } else {
        f.offsets = notAffine("a value loaded from memory");
      }
      return f;
    }
    if (n == "arith.select")
      return select(op);
    if (n == "arith.cmpi")
      return compare(op);
    static const std::set<std::string> kBinary = {
        "tt.addptr",   "arith.addi",  "arith.subi",  "arith.muli",  "arith.divsi", "arith.divui",
        "arith.remsi", "arith.remui", "arith.andi",  "arith.ori",   "arith.xori",  "arith.shli",
        "arith.shrui", "arith.shrsi", "arith.maxsi", "arith.maxui", "arith.minsi", "arith.minui"};
    if (kBinary.count(n))
      return binary(op);
    return std::nullopt;
  }

  Facts constant(const ParsedOp& op) const {
    Facts f;
    f.type = op.resultType;
    std::string_view body = op.body;
    auto colon = topLevel(body, " : ");
    std::string_view value = trimmed(colon.empty() ? body : body.substr(0, colon.front()));
    std::optional<int64_t> v;
    bool splatTensor = false;
    if (value == "true" || value == "false") {
      v = value == "true" ? 1 : 0;
    } else if (value.rfind("dense<", 0) == 0 && value.back() == '>') {
      std::string_view inner = value.substr(6, value.size() - 7);
      if (inner == "true" || inner == "false")
        v = inner == "true" ? 1 : 0;
      else if (inner.find_first_of(".[x") == std::string_view::npos)
        v = leadingInteger(inner);
      splatTensor = true;
    } else if (value.find_first_of(".x") == std::string_view::npos) {
      v = leadingInteger(value);
    }
    int rank = f.type.rank();
    if (!v || (f.type.integerBits() == 0 && f.type.element != "i1")) {
      f.axis = AxisInfo::pessimistic(rank);
      f.offsets =
          f.type.isTensor() ? notAffine("a constant that is not an integer splat") : zeroOffsets(1);
      f.symbol = "?";
      return f;
    }
    // Triton reads the value zero-extended from its width (getZExtValue): -1 : i32 is 2^32 - 1.
    int bits = f.type.element == "i1" ? 1 : f.type.integerBits();
    // In unsigned arithmetic: at i63 the old `v + 2^63` overflowed int64 (the ttgir fuzz target).
    if (*v < 0 && bits > 0 && bits < 64)
      *v = static_cast<int64_t>(static_cast<uint64_t>(*v) & ((uint64_t{1} << bits) - 1));
    auto r = static_cast<std::size_t>(rank);
    f.axis.contiguity.assign(r, 1);
    f.axis.divisibility.assign(r, highestPowOf2Divisor(*v));
    if (splatTensor && f.type.isTensor())
      f.axis.constancy.assign(f.type.shape.begin(), f.type.shape.end());
    else
      f.axis.constancy.assign(r, 1);
    f.axis.constantValue = v;
    f.offsets = zeroOffsets(rank);
    return f;
  }

  Facts splat(const ParsedOp& op) const {
    Facts x = operand(op, 0);
    Facts f;
    f.type = op.resultType;
    int rank = f.type.rank();
    auto r = static_cast<std::size_t>(rank);
    f.axis.contiguity.assign(r, 1);
    f.axis.divisibility.assign(r, x.axis.divisibility.empty() ? 1 : x.axis.divisibility[0]);
    if (f.type.isTensor())
      f.axis.constancy.assign(f.type.shape.begin(), f.type.shape.end());
    else
      f.axis.constancy.assign(r, 1);
    f.axis.constantValue = x.axis.constantValue;
    f.offsets = zeroOffsets(rank);
    appendAssumptions(f.offsets, x.offsets);
    f.symbol = x.symbol;
    return f;
  }

  Facts expandDims(const ParsedOp& op) const {
    Facts x = operand(op, 0);
    int64_t axis = -1;
    bool known = integerAttribute(op.body, "axis", axis);
    Facts f = x;
    f.type = op.resultType;
    if (!known || axis < 0 || axis > x.axis.rank()) {
      f.axis = AxisInfo::pessimistic(f.type.rank());
      f.offsets = notAffine("tt.expand_dims without a readable axis");
      return f;
    }
    int64_t divisibility = 1;
    if (x.axis.constantValue) {
      divisibility = highestPowOf2Divisor(*x.axis.constantValue);
    } else if (x.axis.rank() > 0) {
      divisibility = x.axis.contiguity[0] > 1 ? 1 : x.axis.divisibility[0];
      for (int d = 1; d < x.axis.rank(); ++d) {
        auto i = static_cast<std::size_t>(d);
        divisibility = gcd2(divisibility, x.axis.contiguity[i] > 1 ? 1 : x.axis.divisibility[i]);
      }
    }
    auto at = static_cast<std::ptrdiff_t>(axis);
    f.axis.contiguity.insert(f.axis.contiguity.begin() + at, 1);
    f.axis.divisibility.insert(f.axis.divisibility.begin() + at, divisibility);
    f.axis.constancy.insert(f.axis.constancy.begin() + at, 1);
    if (f.offsets.affine && static_cast<std::size_t>(at) <= f.offsets.strides.size())
      f.offsets.strides.insert(f.offsets.strides.begin() + at, AffineStride{});
    return f;
  }

  Facts broadcast(const ParsedOp& op) const {
    Facts x = operand(op, 0);
    Facts f = x;
    f.type = op.resultType;
    const std::vector<uint64_t>& from = op.operandType.shape;
    const std::vector<uint64_t>& to = f.type.shape;
    if (from.size() != to.size() || static_cast<int>(from.size()) != x.axis.rank()) {
      f.axis = AxisInfo::pessimistic(f.type.rank());
      f.offsets = notAffine("tt.broadcast between ranks");
      return f;
    }
    // Offsets of another rank (an operand whose type the line misstates) are not this tensor's.
    if (f.offsets.affine && f.offsets.strides.size() != to.size())
      f.offsets = notAffine("tt.broadcast of an operand of another rank");
    for (std::size_t d = 0; d < to.size(); ++d) {
      if (from[d] == 1) {
        f.axis.contiguity[d] = 1;
        f.axis.constancy[d] = static_cast<int64_t>(to[d]);
        if (f.offsets.affine && d < f.offsets.strides.size())
          f.offsets.strides[d] = AffineStride{};
      }
    }
    return f;
  }

  static bool isContiguousDim(const AxisInfo& a, const std::vector<uint64_t>& shape, int d) {
    auto i = static_cast<std::size_t>(d);
    return i < shape.size() && a.contiguity[i] == static_cast<int64_t>(shape[i]);
  }
  static bool isConstantDim(const AxisInfo& a, const std::vector<uint64_t>& shape, int d) {
    auto i = static_cast<std::size_t>(d);
    return i < shape.size() && a.constancy[i] == static_cast<int64_t>(shape[i]);
  }

  Facts compare(const ParsedOp& op) const {
    // `arith.cmpi slt, %a, %b : T`
    std::string_view body = op.body;
    std::string_view predicate = body.substr(0, body.find(','));
    Facts l = operand(op, 0), r = operand(op, 1);
    Facts f;
    f.type = op.resultType;
    int rank = std::min(l.axis.rank(), r.axis.rank());
    const std::vector<uint64_t>& shape = f.type.shape;
    f.axis = AxisInfo::pessimistic(rank);
    bool gt = predicate == "sgt" || predicate == "ugt",
         ge = predicate == "sge" || predicate == "uge";
    bool lt = predicate == "slt" || predicate == "ult",
         le = predicate == "sle" || predicate == "ule";
    if (!f.type.isTensor()) {
      // Triton's CmpOp visitor answers nothing for a scalar compare (no ranked tensor type).
      f.offsets = zeroOffsets(1);
      f.symbol = op.results.empty() ? "?" : displayName(op.results.front());
      return f;
    }
    for (int d = 0; d < rank; ++d) {
      auto i = static_cast<std::size_t>(d);
      int64_t hint = 1;
      if (l.axis.constantValue && r.axis.constantValue) {
        hint = l.axis.constancy[i];
        int64_t a = *l.axis.constantValue, b = *r.axis.constantValue;
        auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
        bool c = comparePredicate(predicate, a, b, ua, ub);
        f.axis.constantValue = c ? 1 : 0;
      } else {
        hint = gcd2(l.axis.constancy[i], r.axis.constancy[i]);
        if ((gt || le) && isConstantDim(l.axis, shape, d))
          hint = std::max(
              hint, gcdN(r.axis.contiguity[i], l.axis.divisibility[i], r.axis.divisibility[i]));
        else if ((lt || ge) && isConstantDim(r.axis, shape, d))
          hint = std::max(
              hint, gcdN(l.axis.contiguity[i], l.axis.divisibility[i], r.axis.divisibility[i]));
      }
      f.axis.constancy[i] = hint;
    }
    f.offsets = notAffine("a comparison");
    return f;
  }

  Facts select(const ParsedOp& op) const {
    Facts c = operand(op, 0), a = operand(op, 1), b = operand(op, 2);
    Facts f;
    f.type = op.resultType;
    if (c.axis.constantValue) {
      f = *c.axis.constantValue == 0 ? b : a;
      f.type = op.resultType;
      return f;
    }
    bool scalarCondition = !c.type.isTensor();
    int rank = std::min(a.axis.rank(), b.axis.rank());
    f.axis = AxisInfo::pessimistic(rank);
    for (int d = 0; d < rank; ++d) {
      auto i = static_cast<std::size_t>(d);
      int64_t cc = scalarCondition || i >= c.axis.constancy.size() ? 0 : c.axis.constancy[i];
      if (scalarCondition) {
        f.axis.constancy[i] = gcd2(a.axis.constancy[i], b.axis.constancy[i]);
        f.axis.contiguity[i] = gcd2(a.axis.contiguity[i], b.axis.contiguity[i]);
      } else {
        f.axis.constancy[i] = gcdN(a.axis.constancy[i], b.axis.constancy[i], cc);
        f.axis.contiguity[i] = gcdN(a.axis.contiguity[i], b.axis.contiguity[i], cc);
      }
      f.axis.divisibility[i] = divisibilityFromContiguity(a.axis, b.axis, d);
    }
    if (a.axis.constantValue && b.axis.constantValue &&
        *a.axis.constantValue == *b.axis.constantValue)
      f.axis.constantValue = a.axis.constantValue;
    if (scalarCondition && a.offsets.affine && b.offsets.affine &&
        a.offsets.strides == b.offsets.strides) {
      f.offsets = a.offsets;
      appendAssumptions(f.offsets, b.offsets);
    } else {
      f.offsets = notAffine("a select between different offsets");
    }
    f.symbol = op.results.empty() ? "?" : displayName(op.results.front());
    return f;
  }

  Facts binary(const ParsedOp& op) const {
    const std::string& n = op.name;
    Facts l = operand(op, 0), r = operand(op, 1);
    Facts f;
    f.type = op.resultType;
    const std::vector<uint64_t>& shape = f.type.shape;
    bool tensor = f.type.isTensor();
    int rank = std::min(l.axis.rank(), r.axis.rank());
    f.axis = AxisInfo::pessimistic(rank);
    std::optional<int64_t> lc = l.axis.constantValue, rc = r.axis.constantValue;
    int64_t elemSize = n == "tt.addptr" ? std::max(1, op.operandType.pointeeBits() / 8) : 1;

    // The constant, where both sides are known (Triton folds it the same way).
    std::optional<int64_t> value;
    if (lc && rc) {
      int64_t a = *lc, b = *rc, out = 0;
      bool ok = true;
      if (n == "arith.addi")
        ok = !__builtin_add_overflow(a, b, &out);
      else if (n == "arith.subi")
        ok = !__builtin_sub_overflow(a, b, &out);
      else if (n == "tt.addptr")
        ok = !__builtin_mul_overflow(b, elemSize, &out) && !__builtin_add_overflow(a, out, &out);
      else if (n == "arith.muli")
        ok = !__builtin_mul_overflow(a, b, &out);
      else if (n == "arith.divsi" || n == "arith.divui")
        ok = b != 0 && !(a == std::numeric_limits<int64_t>::min() && b == -1), out = ok ? a / b : 0;
      else if (n == "arith.remsi" || n == "arith.remui")
        ok = b != 0 && !(a == std::numeric_limits<int64_t>::min() && b == -1), out = ok ? a % b : 0;
      else if (n == "arith.andi")
        out = a & b;
      else if (n == "arith.ori")
        out = a | b;
      else if (n == "arith.xori")
        out = a ^ b;
      else if (n == "arith.shli")
        ok = b >= 0 && b < 63, out = ok ? static_cast<int64_t>(static_cast<uint64_t>(a) << b) : 0;
      else if (n == "arith.shrui" || n == "arith.shrsi")
        ok = b >= 0 && b < 63, out = ok ? a >> b : 0;
      else if (n == "arith.maxsi" || n == "arith.maxui")
        out = std::max(a, b);
      else if (n == "arith.minsi" || n == "arith.minui")
        out = std::min(a, b);
      if (ok)
        value = out;
    } else if (n == "arith.remsi" || n == "arith.remui") {
      if (rc && *rc == 1)
        value = 0;
    }
    bool minMax = n.find("max") != std::string::npos || n.find("min") != std::string::npos;
    for (int d = 0; d < rank; ++d) {
      auto i = static_cast<std::size_t>(d);
      const int64_t lcont = l.axis.contiguity[i], rcont = r.axis.contiguity[i];
      const int64_t ldiv = l.axis.divisibility[i], rdiv = r.axis.divisibility[i];
      const int64_t lconst = l.axis.constancy[i], rconst = r.axis.constancy[i];
      if (minMax) {
        if (lc && rc) {
          f.axis.contiguity[i] = 1, f.axis.divisibility[i] = 1, f.axis.constancy[i] = 1;
        } else {
          f.axis.constancy[i] = gcd2(lconst, rconst);
          f.axis.divisibility[i] = divisibilityFromContiguity(l.axis, r.axis, d);
          f.axis.contiguity[i] = gcd2(lcont, rcont);
        }
        continue;
      }
      if (value) {
        f.axis.contiguity[i] = 1;
        f.axis.constancy[i] = std::max(lconst, rconst);
        f.axis.divisibility[i] = highestPowOf2Divisor(*value);
        continue;
      }
      int64_t cont = 1, div = 1, cons = 1;
      if (n == "tt.addptr" || n == "arith.addi" || n == "arith.subi") {
        cont = n == "arith.subi" ? gcd2(lcont, rconst)
                                 : std::max(gcd2(lconst, rcont), gcd2(lcont, rconst));
        div = gcd2(ldiv, n == "tt.addptr" ? multiplyDivisor(rdiv, elemSize) : rdiv);
        cons = gcd2(lconst, rconst);
      } else if (n == "arith.muli") {
        int64_t a = rc && *rc == 1 ? lcont : 1, b = lc && *lc == 1 ? rcont : 1;
        cont = std::max(a, b);
        cons = gcd2(lconst, rconst);
        int64_t dl = lcont > 1 && !(rc && *rc == 1) ? 1 : ldiv;
        int64_t dr = rcont > 1 && !(lc && *lc == 1) ? 1 : rdiv;
        div = multiplyDivisor(dl, dr);
      } else if (n == "arith.divsi" || n == "arith.divui") {
        cont = rc && *rc == 1 ? lcont : 1;
        cons = 1;
        if (tensor) {
          cons = gcd2(lconst, rconst);
          if (isContiguousDim(l.axis, shape, d) && isConstantDim(r.axis, shape, d))
            cons = std::max(cons, gcdN(lcont, ldiv, rdiv));
        }
        if (lc && *lc == 0)
          div = ldiv;
        else if (rc && *rc == 1)
          div = ldiv;
        else if (uint64_t mag =
                     rc ? (*rc < 0 ? 0 - static_cast<uint64_t>(*rc) : static_cast<uint64_t>(*rc))
                        : 0;
                 mag != 0 && std::has_single_bit(mag) && lcont == 1)
          div = mag > static_cast<uint64_t>(kAxisMaxDivisor)
                    ? 1
                    : std::max<int64_t>(1, ldiv / static_cast<int64_t>(mag));
        else
          div = 1;
      } else if (n == "arith.remsi" || n == "arith.remui") {
        cont = 1;
        if (tensor && isContiguousDim(l.axis, shape, d) && isConstantDim(r.axis, shape, d))
          cont = gcdN(lcont, ldiv, rdiv);
        div = rconst > 1 ? gcd2(ldiv, rdiv) : 1;
        cons = 1;
        if (tensor)
          cons = rc && *rc == 1 ? static_cast<int64_t>(shape[i]) : gcd2(lconst, rconst);
      } else if (n == "arith.andi" || n == "arith.ori" || n == "arith.xori") {
        cons = gcd2(lconst, rconst);
      } else if (n == "arith.shli") {
        cont = rc && *rc == 0 ? lcont : 1;
        int64_t shift = rc.value_or(0);
        int64_t dl = lcont > 1 && shift ? 1 : ldiv;
        div = shift >= 0 && shift < 62 ? multiplyDivisor(dl, int64_t{1} << shift) : kAxisMaxDivisor;
        cons = gcd2(lconst, rconst);
      } else if (n == "arith.shrui" || n == "arith.shrsi") {
        cont = rc && *rc == 0 ? lcont : 1;
        if (rc && *rc >= 0 && *rc < 62) {
          int64_t dl = lcont > 1 && *rc ? 1 : ldiv;
          div = std::max<int64_t>(1, dl / (int64_t{1} << *rc));
        }
        cons = gcd2(lconst, rconst);
      }
      f.axis.contiguity[i] = cont;
      f.axis.divisibility[i] = div;
      f.axis.constancy[i] = cons;
    }
    if (minMax && lc && rc)
      f.axis.constantValue = value;
    else if (!minMax)
      f.axis.constantValue = value;
    f.offsets = binaryOffsets(op, l, r);
    if (uniform(f) && !f.axis.constantValue)
      f.symbol = op.results.empty() ? "?" : displayName(op.results.front());
    return f;
  }

  AffineOffsets binaryOffsets(const ParsedOp& op, const Facts& l, const Facts& r) const {
    const std::string& n = op.name;
    if (uniform(l) && uniform(r)) {
      AffineOffsets o = l.offsets;
      appendAssumptions(o, r.offsets);
      return o;
    }
    if (n == "tt.addptr" || n == "arith.addi")
      return addOffsets(l.offsets, r.offsets, false);
    if (n == "arith.subi")
      return addOffsets(l.offsets, r.offsets, true);
    if (n == "arith.muli") {
      if (uniform(r))
        return scaleOffsets(l.offsets, r);
      if (uniform(l))
        return scaleOffsets(r.offsets, l);
      return notAffine("a product of two index tensors");
    }
    if (n == "arith.shli" && uniform(r) && r.axis.constantValue && *r.axis.constantValue >= 0 &&
        *r.axis.constantValue < 62) {
      Facts by = r;
      by.axis.constantValue = int64_t{1} << *r.axis.constantValue;
      return scaleOffsets(l.offsets, by);
    }
    if ((n == "arith.remsi" || n == "arith.remui") && uniform(r) && l.offsets.affine) {
      AffineOffsets o = l.offsets;
      o.assumptions.push_back(
          displayName(op.operands.empty() ? std::string("?") : op.operands.front()) + " % " +
          (r.axis.constantValue ? std::to_string(*r.axis.constantValue) : r.symbol) +
          " does not wrap within the tile");
      return o;
    }
    return notAffine(n + " of an index tensor");
  }

  void access(const ParsedOp& op, TtgirAxisAnalysis& out) const {
    const std::string& n = op.name;
    bool isAccess = n == "tt.load" || n == "tt.store" || n == "tt.atomic_rmw" ||
                    n == "tt.atomic_cas" || n == "ttg.async_copy_global_to_local";
    if (!isAccess || op.operands.empty())
      return;
    // The pointer operand: the first (tt.atomic_rmw prints its kind first, not a value).
    TtgirAccessFacts a;
    a.op = n;
    a.line = op.line;
    a.pointerName = displayName(op.operands.front());
    ValueType ptrType = op.operandType;
    if (n == "ttg.async_copy_global_to_local")
      ptrType = op.operandTypes.empty() ? ValueType{} : op.operandTypes.front();
    if (!ptrType.isTensor() || !ptrType.isPointer())
      return;
    a.shape = ptrType.shape;
    a.pointeeBits = ptrType.pointeeBits();
    Facts p = get(op.operands.front(), ptrType);
    a.pointer = p.axis;
    a.offsets = p.offsets;
    // The mask: tt.load's second operand, tt.store's third, the async copy's after `mask`.
    std::optional<std::size_t> maskIndex;
    if (n == "tt.load" && op.operands.size() >= 2)
      maskIndex = 1;
    else if (n == "tt.store" && op.operands.size() >= 3)
      maskIndex = 2;
    else if (n == "ttg.async_copy_global_to_local" && op.body.find(" mask ") != std::string::npos &&
             op.operands.size() >= 3)
      maskIndex = 2;
    if (maskIndex) {
      a.maskName = displayName(op.operands[*maskIndex]);
      a.mask = get(op.operands[*maskIndex], ptrType).axis;
    }
    out.accesses.push_back(std::move(a));
  }
};

} // namespace

Result<TtgirAxisAnalysis> analyzeAxisInfo(std::string_view text, const std::string& source) {
  std::vector<std::string> problems;
  std::vector<ParsedOp> ops = detail::readTtgirOps(text, source, problems);
  Evaluator evaluator(ops, source);
  TtgirAxisAnalysis out = evaluator.run();
  out.problems.insert(out.problems.begin(), problems.begin(), problems.end());
  return out;
}

} // namespace llcheck
