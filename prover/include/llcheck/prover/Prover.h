// What Z3 proves about a layout: each property of `llcheck verify`, stated over the layout's
// bit-vector encoding (Encoding.h) and decided by Z3, independently of the algebra's rank
// computations. A refutation carries a concrete counterexample in verify's JSON shape, re-checked
// by applying the layout with the algebra before anyone sees it; one that the algebra does not
// confirm is a bug in llcheck and throws LayoutError. A timeout or resource limit is Unknown and
// never counts as a proof.
//
// This header does not include Z3, so the command line can link the prover without seeing it.
#pragma once

#include "llcheck/core/LinearLayout.h"
#include "llcheck/core/Properties.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace llcheck::prover {

/// Bounded so that `llcheck verify` always ends; generous, since the corpus needs milliseconds.
inline constexpr unsigned kDefaultTimeoutMs = 10000;

struct ProverOptions {
  /// Per Z3 query (a property asks one to four).
  unsigned timeoutMs = kDefaultTimeoutMs;
  /// Z3's deterministic resource limit per query, 0 for none (tests force "unknown" with it).
  unsigned rlimit = 0;
  /// Surjectivity is also asked directly (exists y, forall x: L(x) != y) when the layout has
  /// at most this many output bits. Z3 answers it by model-based quantifier instantiation, one
  /// output per round, so its time doubles with each bit (measured: ~9 ms at 6 bits, 22 ms at
  /// 7, 57 ms at 8) and beyond ~9 bits it says "incomplete quantifiers"; above the limit the
  /// witness queries alone decide. Negative: never.
  int maxDirectSurjectiveOutBits = 6;
};

enum class Outcome {
  Proven,  ///< Z3 showed that no counterexample exists
  Refuted, ///< Z3 found a counterexample, confirmed by the algebra
  Unknown, ///< Z3 gave up within the limits; nothing is claimed
  Error,   ///< Z3 failed, or contradicted the algebra's witness; nothing is claimed
};
[[nodiscard]] const char* outcomeName(Outcome o);

struct ProofResult {
  Outcome outcome = Outcome::Error;
  /// Refuted: the counterexample, in the shape verify prints (see docs/verify.md).
  nlohmann::json counterexample;
  /// Refuted: why, in one line. Unknown and Error: the reason (and the limit).
  std::string detail;
  /// Proven, for claims that something exists (a phase reaching a count): the instance found,
  /// re-checked by the algebra. Null otherwise.
  nlohmann::json witness;
  /// Error only: Z3 contradicted the algebra (a bug in one of them), not a failure of Z3.
  bool contradictsAlgebra = false;
  double ms = 0; ///< wall time, encoding included
  int queries = 0;
  [[nodiscard]] nlohmann::json toJson() const;
};

/// exists x != y with L(x) = L(y) is unsat.
[[nodiscard]] ProofResult proveInjective(const LinearLayout& l, const ProverOptions& o);
/// For a surjective L (by the algebra): its right inverse R is checked as a witness for every
/// output (exists y with L(R(y)) != y is unsat). Otherwise the algebra's smallest unreached
/// output y0 is proven unreached (exists x with L(x) = y0 is unsat). Small layouts also get the
/// direct quantified query; both answers must agree.
[[nodiscard]] ProofResult proveSurjective(const LinearLayout& l, const ProverOptions& o);
/// Injective and surjective.
[[nodiscard]] ProofResult proveInvertible(const LinearLayout& l, const ProverOptions& o);
/// Paper Def. 4.10: surjective, every column (the image of a one-hot input) has at most one
/// non-zero bit, and no two columns are equal and non-zero.
[[nodiscard]] ProofResult proveDistributed(const LinearLayout& l, const ProverOptions& o);
/// Paper Def. 4.14: invertible, and every column has one or two non-zero bits.
[[nodiscard]] ProofResult proveMemory(const LinearLayout& l, const ProverOptions& o);

/// Conversion correctness (paper 5.4): every source location's element lands where the
/// destination layout wants it, forall x: src(x) = dst(conversion(x)), with `conversion` mapping
/// src's input dims to dst's (ConversionPlan::conversion, C = DST^-1 o SRC). src and conversion
/// read the same input variables. A counterexample is {"input": x, "src_output": src(x),
/// "moved_to": conversion(x), "dst_output": dst(conversion(x))}, checked with the algebra.
[[nodiscard]] ProofResult proveConversion(const LinearLayout& src, const LinearLayout& dst,
                                          const LinearLayout& conversion, const ProverOptions& o);

/// A conversion through shared memory layout `shared` (offset[, block] -> tensor): every location
/// x of src stores its element at St(x) and every location y of dst loads from Ld(y), with
/// St = src.invertAndCompose(shared) and Ld = dst.invertAndCompose(shared) as the algebra plans
/// them. Proven: every element has one offset (shared is injective: nothing is stored twice),
/// shared(St(x)) = src(x) (each store lands where its element lives), shared(Ld(y)) = dst(y)
/// (each load reads its element), and St(R(dst(y))) = Ld(y) with R = src.pseudoinvert() (every
/// offset loaded was stored). Together: every element moves exactly once and arrives where dst
/// wants it. Each counterexample carries a "reason" and the locations, offsets and elements.
[[nodiscard]] ProofResult proveSharedRoundTrip(const LinearLayout& src, const LinearLayout& shared,
                                               const LinearLayout& dst, const ProverOptions& o);

/// The one rule that joins the algebra's answer for a property with Z3's, for every command
/// (verify, convert, report). Z3 deciding the same way confirms (`z3Agrees`); Z3 deciding the
/// other way, or failing because its answer contradicts the algebra, is a disagreement between
/// two engines: a bug in llcheck, reported as such and never turned into "holds" or "fails".
/// An undecided Z3 (timeout, resource limit, error) withdraws a "holds" (Unknown: nothing is
/// claimed) and leaves the algebra's "fails" standing.
struct MergedVerdict {
  enum class Status { Holds, Fails, Unknown, Disagree };
  Status status = Status::Unknown;
  bool z3Agrees = false;
  /// Unknown (or Fails with Z3 undecided): "z3 timeout: ..."; Disagree: what the engines said.
  std::string note;
};
[[nodiscard]] MergedVerdict mergeWithZ3(const std::string& property, bool algebraHolds,
                                        const std::string& algebraDetail, const ProofResult& z3);

/// Adds Z3's verdicts to a report of core's verify(). Each property Z3 decided the same way as
/// the algebra gets "z3" in `by`; a different answer is recorded in report.disagreements; an
/// unknown (or a Z3 failure) sets the property's `unknown`, so it is never reported as holding
/// and the report is not ok. Legality properties are proven only for the layout's own kind.
void addProofs(VerifyReport& report, const ProverOptions& o);

} // namespace llcheck::prover
