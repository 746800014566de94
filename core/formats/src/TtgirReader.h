// Private to core/formats: what the files of the TTGIR module reader (llcheck/core/Ttgir.h) share.
// Ttgir.cpp drives the reading (the lines in order, the module header and the aliases) and turns
// each distinct encoding into its layout; TtgirOps.cpp reads the types and ops of a line;
// TtgirText.cpp holds the passes over the raw text (the structure check and source locations).
#pragma once

#include "llcheck/core/Error.h"
#include "llcheck/core/MlirAttr.h"
#include "llcheck/core/Ttgir.h"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llcheck::ttgir {

inline constexpr int kMaxAliasDepth = 16;
inline constexpr int kMaxLocDepth = 32;

inline bool identChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' ||
         c == '-';
}

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

inline bool startsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

inline std::string where(const std::string& source, int line, int column) {
  return source + ":" + std::to_string(line) + ":" + std::to_string(column);
}

// ---- The raw text (TtgirText.cpp) --------------------------------------------------------------

/// The structure pass over the whole file: brackets and strings balanced, no NUL byte (an Error
/// says where, and whether the file looks cut short).
[[nodiscard]] Error checkStructure(std::string_view text, const std::string& source);

/// The text inside the parentheses of the last top-level `loc(...)` on a line, or empty.
[[nodiscard]] std::string_view trailingLoc(std::string_view line);

/// Follows a location to a file position: "file":L:C, a named location "x"(inner), a call site
/// (the callee first), a fused location (its first resolvable part), or an alias #locN.
///
/// Locations may refer to each other through aliases without limit (`#loc0 =
/// loc(fused[#loc0, #loc0])`, or chains of fused aliases ten wide), and following every
/// reference would take time exponential in the file. So each alias is resolved at most once
/// per module and remembered, and an alias met again while it is being resolved (a cycle)
/// resolves to nothing: the work is linear in the alias definitions' text (times the nesting
/// bound kMaxLocDepth within one location). A location that resolves to nothing is shown as
/// the op's file and line.
class LocResolver {
public:
  explicit LocResolver(const std::map<std::string, std::string>& aliases) : aliases_(aliases) {}

  [[nodiscard]] std::optional<std::string> resolve(std::string_view loc, int depth = 0);

private:
  const std::map<std::string, std::string>& aliases_;
  std::map<std::string, std::optional<std::string>> resolved_;
  std::set<std::string> resolving_;

  std::optional<std::string> firstOf(const std::vector<std::string_view>& parts, int depth);
  std::optional<std::string> alias(const std::string& name, int depth);
};

// ---- The reader
// ----------------------------------------------------------------------------------

struct LineRef {
  std::string_view text;
  std::size_t offset; // of text[0] in the file
  int number;
};

/// Reads one module: the structure pass, then the alias lines, then every other line in order
/// (the module header, types and ops), then the layouts of the types' encodings.
class Reader {
public:
  Reader(std::string_view text, const std::string& source, const TtgirOptions& options)
      : text_(text), source_(source), options_(options) {
    module_.source = source;
    module_.text = std::string(text);
    module_.triton = options.triton;
  }

  Result<TtgirModule> read();

private:
  std::string_view text_;
  const std::string& source_;
  const TtgirOptions& options_;
  TtgirModule module_;
  std::map<std::string, AttrValue> aliases_;
  std::map<std::string, std::string> brokenAliases_; // name -> why it could not be read
  std::map<std::string, std::string> locAliases_;
  /// Made after every alias line is read; remembers each alias's resolution.
  std::optional<LocResolver> locResolver_;
  /// Type index -> the names of the ops whose line uses that type (TtgirLayout::users).
  std::map<int, std::set<std::string>> typeUsers_;
  std::map<std::string, int> typeIndex_;
  /// Types whose encoding still has to be resolved, with the parsed encoding.
  std::vector<std::optional<AttrValue>> typeEncodings_;
  /// Per op of module_.ops: the indices of its source (-1: none) and destination types.
  std::vector<std::pair<int, int>> opTypes_;
  /// Per access of module_.globalAccesses: the index of its pointer tensor's type.
  std::vector<int> globalTypes_;
  /// Per op of module_.scratchOps: the indices of its operand's and its result's types.
  std::vector<std::pair<int, int>> scratchTypes_;
  /// Per copy of module_.tmaCopies: its buffer's type; per read of module_.descriptorReads: its
  /// shared operands' types.
  std::vector<int> tmaTypes_;
  std::vector<std::vector<int>> descriptorTypes_;
  /// A reduce or scan in MLIR's generic form opens a region on its line; its types come on the
  /// line that closes it (`}) : (tensor<...>) -> ...`).
  std::optional<TtgirScratchOp> pendingScratch_;
  /// The warp-specialize region being read (an index into module_.partitions, or -1), and the
  /// indentation of its opening line (its closing `}` has the same).
  int partition_ = -1;
  std::size_t partitionIndent_ = 0;
  bool warpSpecialize_ = false;
  /// Scalar integer constants by SSA name (`%c128_i32 = arith.constant 128 : i32`), and the
  /// scf.for loops open at this line: their indentation and trip count (nullopt: a bound is
  /// not a constant).
  std::map<std::string, int64_t> constants_;
  struct OpenLoop {
    std::size_t indent = 0;
    std::optional<uint64_t> trips;
    /// trips(LB, UB, STEP) over the kernel's scalar arguments (TtgirOp::tripsFormula), or ""
    /// where a bound is not such a formula.
    std::string formula;
  };
  std::vector<OpenLoop> loops_;
  /// Scalar integer values by SSA name, as formulas over the kernel's integer arguments, the
  /// program ids and constants (see TtgirOp::tripsFormula): what a loop bound that is not a
  /// constant is computed from.
  std::map<std::string, std::string> scalarFormulas_;
  /// Reads a constant, a scalar integer op, the kernel's signature, or an scf.for's opening or
  /// closing line.
  void loopLine(std::string_view trimmed, std::size_t lead);
  /// A scalar integer op's result as a formula (scalarFormulas_), when its operands have one.
  void scalarLine(std::string_view trimmed);
  [[nodiscard]] std::string currentTripsFormula() const;
  /// The scf.if regions open at this line: the scf.if's indentation (its `} else {` and `}`
  /// have the same), line and region.
  std::vector<std::pair<std::size_t, TtgirBranch>> ifs_;
  /// Reads an scf.if's opening, `} else {` or closing line.
  void ifLine(const LineRef& l, std::string_view trimmed, std::size_t lead);
  [[nodiscard]] TtgirBranch currentBranch() const {
    return ifs_.empty() ? TtgirBranch{} : ifs_.back().second;
  }
  /// The current loop depth and trips per program (the product over the open loops).
  [[nodiscard]] std::optional<uint64_t> currentTrips() const;
  /// A `default {` or `partitionN(...) num_warps(N) {` line opens a region, the `}` at its
  /// indentation closes it: true when the line was one of those.
  bool partitionLine(const LineRef& l, std::string_view trimmed, std::size_t lead);

  static int column(std::size_t offsetInLine) { return static_cast<int>(offsetInLine) + 1; }

  void notUnderstood(std::string what, std::string text, std::string at, std::string reason,
                     bool unsupported = false) {
    module_.notUnderstood.push_back(
        {std::move(what), std::move(text), std::move(at), std::move(reason), unsupported});
  }

  // The module's header and aliases (Ttgir.cpp).
  Error aliasLine(const LineRef& l);
  Error moduleLine(const LineRef& l);
  Error moduleAttribute(const std::string& key, std::string_view value, const std::string& at);
  Error checkOptions();

  // Types (TtgirOps.cpp).
  struct TypeUse {
    int index;
    std::size_t begin, end;
  };
  Result<bool> shapeAndElement(std::string_view t, std::size_t& i, TtgirType& type,
                               const LineRef& l);
  Result<AttrValue> attrAt(const LineRef& l, std::size_t& i);
  Result<int> typeAt(const LineRef& l, std::size_t at, std::size_t& end);
  Result<int> typeProblem(const LineRef& l, std::size_t at, const Error& e);
  Result<std::vector<TypeUse>> typesOnLine(const LineRef& l, std::size_t sigArrow);

  // Ops (TtgirOps.cpp).
  Error opLine(const LineRef& l);
  std::string locationOf(const LineRef& l);
  Error globalAccessLine(const LineRef& l, const std::string& name,
                         const std::vector<TypeUse>& uses, std::size_t colon, std::size_t sigEnd,
                         std::size_t lead);
  void pointerArguments(std::string_view t);
  void tmaCopy(const LineRef& l, const std::string& name, const std::vector<TypeUse>& uses,
               std::size_t colon, std::size_t arrow);
  void barrierExpect(const LineRef& l);
  void descriptorRead(const LineRef& l, const std::string& name, const std::vector<TypeUse>& uses,
                      std::size_t colon);
  void scratchOp(const LineRef& l, TtgirScratchOp op, const std::vector<TypeUse>& uses,
                 std::size_t colon);

  // Encodings and layouts (Ttgir.cpp).
  Error substitute(AttrValue& v, int depth, std::string& broken);
  Error computeLayouts();
};

} // namespace llcheck::ttgir
