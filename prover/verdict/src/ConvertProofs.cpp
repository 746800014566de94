// The properties of `llcheck convert` (ConvertProofs.h). The algebra checks each one on the
// basis vectors (the maps are linear, so that covers every input); Z3 proves it over all inputs
// by its own encoding. A property holds only when every prover asked agrees; a Z3 timeout
// withdraws the claim ("unknown"), never confirms it.
#include "llcheck/verdict/ConvertProofs.h"

#include "llcheck/core/Subspace.h"
#include "llcheck/core/conversion/Ldmatrix.h"
#include "llcheck/prover/SharedProofs.h"

#include <algorithm>

namespace llcheck::verdict {

namespace {

using prover::Outcome;
using prover::ProofResult;

uint64_t valueOf(const Point& p, DimName name) {
  for (const auto& [n, v] : p)
    if (n == name)
      return v;
  return 0;
}

bool sameElement(const Point& a, const Point& b) {
  if (a.size() != b.size())
    return false;
  for (const auto& [n, v] : a)
    if (valueOf(b, n) != v)
      return false;
  return true;
}

/// outer(inner(x)) = target(x) on every basis vector of target's input (so everywhere).
bool composesTo(const LinearLayout& inner, const LinearLayout& outer, const LinearLayout& target) {
  for (int j = 0; j < target.getTotalInDimSizeLog2(); ++j) {
    Point x = target.unpackIn(uint64_t{1} << j);
    auto mid = inner.apply(x);
    if (!mid.ok())
      return false;
    auto got = outer.apply(*mid);
    auto want = target.apply(x);
    if (!got.ok() || !want.ok() || !sameElement(*got, *want))
      return false;
  }
  return true;
}

class Recorder {
public:
  Recorder(ConvertProofs& out, const std::optional<prover::ProverOptions>& z3)
      : out_(out), z3_(z3) {}

  /// `algebraHolds`: the algebra's own check; `prove`: the Z3 proof, run unless --no-z3
  /// (nullptr: Z3 has no encoding of this property).
  template <class F>
  bool record(const std::string& name, const std::string& statement, bool algebraHolds,
              const std::string& algebraDetail, F&& prove) {
    nlohmann::json p = {{"statement", statement}, {"holds", algebraHolds}};
    std::vector<std::string> by = {"algebra"};
    std::string detail = algebraHolds ? "" : algebraDetail;
    std::string status = algebraHolds ? "holds" : "NO";
    bool z3Proven = false;
    if (z3_) {
      std::optional<ProofResult> r = prove(*z3_);
      if (r) {
        p["proof"] = r->toJson();
        prover::MergedVerdict v = prover::mergeWithZ3(name, algebraHolds, algebraDetail, *r);
        switch (v.status) {
        case prover::MergedVerdict::Status::Holds:
          by.push_back("z3");
          z3Proven = true;
          break;
        case prover::MergedVerdict::Status::Fails:
          if (v.z3Agrees) {
            // Z3's counterexample is the one shown: it is checked against the layouts.
            by.push_back("z3");
            p["counterexample"] = r->counterexample;
            detail = "z3: " + r->detail;
          } else {
            p["unknown"] = v.note;
          }
          break;
        case prover::MergedVerdict::Status::Unknown:
          p["unknown"] = v.note;
          p["holds"] = false;
          status = "unknown";
          detail = v.note + "; the algebra alone says it holds";
          out_.unknowns.push_back(name);
          break;
        case prover::MergedVerdict::Status::Disagree:
          // Neither answer is claimed: two engines disagree, which is a bug in llcheck.
          p["holds"] = false;
          p["disagreement"] = v.note;
          status = "DISAGREE";
          detail = "INTERNAL DISAGREEMENT (a bug in llcheck): " + v.note;
          out_.disagreements.push_back(v.note);
          break;
        }
      }
    }
    p["by"] = by;
    if (!detail.empty())
      p["detail"] = detail;
    if (status == "NO" || status == "DISAGREE")
      out_.failed = true;
    out_.properties[name] = p;
    std::string byText;
    for (const std::string& b : by)
      byText += (byText.empty() ? "" : ", ") + b;
    std::string line = "  " + name;
    line += std::string(std::max<std::size_t>(19 - name.size(), 1), ' ') + status +
            std::string(std::max<std::size_t>(9 - status.size(), 1), ' ') + "[" + byText + "]  " +
            statement;
    if (!detail.empty())
      line += "\n" + std::string(4, ' ') + detail;
    out_.text += line + "\n";
    return z3Proven;
  }

private:
  ConvertProofs& out_;
  const std::optional<prover::ProverOptions>& z3_;
};

std::string perPhase(uint64_t n) {
  return std::to_string(n) + " wavefront" + (n == 1 ? "" : "s");
}

/// Lemma 9.5 by the algebra: m = d - max(dim U, dim V), and the layout's first min(m, l)
/// segment vectors meet U ∪ V only in 0. A nonzero combination lies in U ∪ V exactly when it
/// lies in U or in V, so this is two rank checks: the segment vectors extend a basis of U (and
/// one of V) without losing independence. Polynomial in d, so it decides every size.
bool swizzleBoundByAlgebra(const OptimalSwizzle& s, std::string& detail) {
  std::vector<uint64_t> u = s.vec, v = s.vec;
  u.insert(u.end(), s.storePhase.begin(), s.storePhase.end());
  v.insert(v.end(), s.loadPhase.begin(), s.loadPhase.end());
  Subspace su(u), sv(v);
  int d = static_cast<int>(s.vec.size() + s.bank.size() + s.segment.size());
  int m = s.bound.conflictFreeSegmentDims;
  if (m != d - std::max(su.dim(), sv.dim())) {
    detail = "conflict_free_segment_dims is " + std::to_string(m) + ", Lemma 9.5 gives " +
             std::to_string(d - std::max(su.dim(), sv.dim()));
    return false;
  }
  std::size_t used = static_cast<std::size_t>(std::min<int>(m, static_cast<int>(s.segment.size())));
  std::vector<uint64_t> seg(s.segment.begin(), s.segment.begin() + static_cast<long>(used));
  if (Subspace(seg).dim() != static_cast<int>(used)) {
    detail = "the layout's segment vectors are linearly dependent";
    return false;
  }
  for (auto [phase, name] : {std::pair{&u, "store"}, std::pair{&v, "load"}}) {
    std::vector<uint64_t> common = intersectionBasis(seg, *phase);
    if (!common.empty()) {
      detail = "the segment's span meets span(vec, " + std::string(name) + " lanes) in offset " +
               std::to_string(common.front());
      return false;
    }
  }
  return true;
}

} // namespace

ConvertProofs proveConvert(const ConversionPlan& plan, const OptimalSwizzle* swizzle,
                           int elementBits, const SharedMemoryModel& model,
                           const std::optional<prover::ProverOptions>& z3) {
  ConvertProofs out;
  Recorder rec(out, z3);
  if (z3)
    out.unknownMessage = "(within --prover-timeout " + std::to_string(z3->timeoutMs) +
                         " ms, or the query was too large to state: each property's detail says "
                         "which); they are not reported as holding";
  out.text = std::string("properties") + (z3 ? "" : " (--no-z3: the algebra alone)") + ":\n";
  rec.record("conversion", "for every x: SRC(x) = DST(C(x))",
             composesTo(plan.conversion, plan.dst, plan.src),
             "the algebra finds a basis vector x with DST(C(x)) != SRC(x)",
             [&](const prover::ProverOptions& o) -> std::optional<ProofResult> {
               return prover::proveConversion(plan.src, plan.dst, plan.conversion, o);
             });
  if (swizzle == nullptr)
    return out;
  const OptimalSwizzle& s = *swizzle;
  auto st = plan.src.invertAndCompose(s.shared), ld = plan.dst.invertAndCompose(s.shared);
  bool roundTrip = s.shared.isInvertible() && st.ok() && ld.ok() &&
                   composesTo(*st, s.shared, plan.src) && composesTo(*ld, s.shared, plan.dst);
  rec.record("shared_round_trip",
             "the store to SHARED and the load from it move every element exactly once, to where "
             "DST wants it",
             roundTrip, "the algebra's store or load map does not land on the element's offset",
             [&](const prover::ProverOptions& o) -> std::optional<ProofResult> {
               return prover::proveSharedRoundTrip(plan.src, s.shared, plan.dst, o);
             });
  for (auto [side, kind] :
       {std::pair{&s.store, SharedAccessKind::Store}, std::pair{&s.load, SharedAccessKind::Load}}) {
    bool store = kind == SharedAccessKind::Store;
    std::string name = store ? "store_banks" : "load_banks";
    uint64_t n = side->count.wavefrontsPerPhase;
    if (side->instruction != SharedInstruction::Vector) {
      // ldmatrix/stmatrix: a phase is one matrix of 8 rows (Ldmatrix.h).
      bool trans = side->instruction == SharedInstruction::MatrixTrans;
      const LinearLayout& reg = store ? plan.src : plan.dst;
      auto matrix = ldmatrix(reg, s.shared, LdmatrixOptions{elementBits, trans});
      bool fits = matrix.ok() && matrix->divides;
      uint64_t perMatrix = fits ? matrix->wavefrontsPerMatrix : 0;
      rec.record(name,
                 "every matrix of " + side->name + " takes exactly " + perPhase(perMatrix) +
                     ": no bank serves more of its 8 rows, and a matrix reaches it",
                 fits, "ldmatrix/stmatrix does not fit the layout",
                 [&, kind = kind, trans, perMatrix, fits,
                  store](const prover::ProverOptions& o) -> std::optional<ProofResult> {
                   if (!fits)
                     return std::nullopt;
                   return prover::proveMatrixBankBound(store ? plan.src : plan.dst, s.shared,
                                                       elementBits, trans, model, kind, perMatrix,
                                                       o);
                 });
      continue;
    }
    rec.record(name,
               "every " + std::string(store ? "store" : "load") + " phase (" + side->name +
                   ") takes exactly " + perPhase(n) +
                   ": no bank serves more words of one phase, and a phase reaches it",
               n >= 1, "no per-phase count",
               [&, kind = kind,
                side = side](const prover::ProverOptions& o) -> std::optional<ProofResult> {
                 const LinearLayout& reg = store ? plan.src : plan.dst;
                 return prover::proveBankBound(reg, s.shared, elementBits, model, kind, side->count,
                                               o);
               });
  }
  std::string detail;
  bool bound = swizzleBoundByAlgebra(s, detail);
  out.swizzleBoundByZ3 = rec.record(
      "swizzle_bound",
      "Lemma 9.5: no segment space of " + std::to_string(s.bound.conflictFreeSegmentDims + 1) +
          " dimensions meets span(vec, store lanes) or span(vec, load lanes) only in 0, and the "
          "layout's segment attains " +
          std::to_string(
              std::min<int>(s.bound.conflictFreeSegmentDims, static_cast<int>(s.segment.size()))),
      bound, detail, [&](const prover::ProverOptions& o) -> std::optional<ProofResult> {
        return prover::proveSwizzleBound(s, o);
      });
  return out;
}

} // namespace llcheck::verdict
