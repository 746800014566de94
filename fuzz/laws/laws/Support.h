// What the laws share: the macros that end a law at the first thing that does not hold, and the
// helpers that evaluate layouts from their raw bases (Reference.h) and compare them point by
// point. Internal to fuzz/laws/; each topic file (Evaluation.cpp, Algebra.cpp, ...) holds its
// laws as named functions and Catalog.h lists them for the table in Laws.cpp.
#pragma once

#include "../Generators.h"
#include "../Laws.h"
#include "../Reference.h"

#include "llcheck/core/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// A law returns early with the first thing that does not hold. Macros, because a Verdict must
// leave the law's function.
#define LAW_REQUIRE(cond, msg)                                                                     \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      return Verdict{std::string(msg)};                                                            \
  } while (0)
#define LAW_TRY(var, expr, what)                                                                   \
  auto var = (expr);                                                                               \
  if (!var.ok())                                                                                   \
    return Verdict {                                                                               \
      std::string(what) + " failed: " + var.error().str()                                          \
    }

namespace llcheck::fuzz::laws {

using DimBits = std::vector<std::pair<DimName, int>>;

inline const std::vector<std::string> kArchs = {"sm90", "gfx942", "gfx950"};

/// L's printed form, or "(empty layout)".
[[nodiscard]] std::string str(const LinearLayout& l);
/// "(1, 2, 3)".
[[nodiscard]] std::string vecStr(const std::vector<uint64_t>& v);
/// Each dim's name and log2 size.
[[nodiscard]] DimBits bitsOf(const std::vector<DimSize>& dims);
/// The identity on these dims (each in -> out of the same name and size), in their order.
[[nodiscard]] LinearLayout identityOn(const std::vector<DimSize>& dims);
/// The inputs of r as values per dim of r, taken by name from (dims, x); missing ones are 0.
[[nodiscard]] std::vector<uint64_t> byName(const RefLayout& r, const std::vector<DimSize>& dims,
                                           const std::vector<uint64_t>& x);
/// The same for outputs of r taken from a point over `dims`.
[[nodiscard]] std::vector<uint64_t> outByName(const RefLayout& r, const std::vector<DimSize>& dims,
                                              const std::vector<uint64_t>& y);

/// Both layouts, evaluated from their bases, give the same flattened output for every
/// flattened input (what reshape and flatten must keep).
[[nodiscard]] Verdict sameFlatTable(const LinearLayout& a, const LinearLayout& b,
                                    const std::string& what);
/// Both layouts map every named input point to the same named output point (dims in any
/// order, the same names and sizes).
[[nodiscard]] Verdict sameByName(const LinearLayout& a, const LinearLayout& b,
                                 const std::string& what);
/// Every input maps to the output point of the same names and values.
[[nodiscard]] Verdict isIdentityMap(const LinearLayout& l, const std::string& what);
/// b(c(x)) = a(x) for every x: a and c have the same input dims, c's outputs are b's inputs and
/// b's outputs are a's (names and sizes; any order).
[[nodiscard]] Verdict composesTo(const LinearLayout& b, const LinearLayout& c,
                                 const LinearLayout& a, const std::string& what);

/// Moves a flat index over `from` to the flat index of the same named point over `to` (the same
/// names in another order, each at least as large in `to`; dims of size 1 may be missing).
class Reindex {
public:
  static std::optional<Reindex> between(const std::vector<DimSize>& from,
                                        const std::vector<DimSize>& to) {
    Reindex r;
    for (const DimSize& d : from) {
      uint64_t stride = 1, found = 0;
      for (const DimSize& e : to) {
        if (e.name == d.name)
          found = e.size;
        else if (found == 0)
          stride *= e.size;
      }
      // A value below d's size keeps its place in a larger dim of `to` (compose allows it).
      if (found == 0 ? d.size > 1 : found < d.size)
        return std::nullopt;
      r.parts_.emplace_back(d.size, found ? stride : 0);
    }
    return r;
  }
  uint64_t operator()(uint64_t f) const {
    uint64_t g = 0;
    for (auto [size, stride] : parts_) {
      g += (f % size) * stride;
      f /= size;
    }
    return g;
  }

private:
  std::vector<std::pair<uint64_t, uint64_t>> parts_; // per `from` dim: size, stride in `to`
};

// ---- Generators the topics share ----

/// A layout of kind k with any names: arbitrary, distributed or memory.
[[nodiscard]] LinearLayout drawAnyNames(Kind k);
[[nodiscard]] rc::Gen<LinearLayout> anyNames(Kind k);
/// A case of the one layout g draws.
[[nodiscard]] rc::Gen<Case> one(rc::Gen<LinearLayout> g);
/// A small layout (up to `bits` bits) that is arbitrary, distributed or surjective.
[[nodiscard]] rc::Gen<LinearLayout> smallAny(int bits);
/// A case of two layouts g draws.
[[nodiscard]] rc::Gen<Case> pairOf(rc::Gen<LinearLayout> g);

} // namespace llcheck::fuzz::laws
