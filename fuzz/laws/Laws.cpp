// The law suite's registry: one table of every law (name, statement, generator of its cases,
// check), in a fixed order; the laws themselves are named functions in laws/, one file a topic.
#include "Laws.h"

#include "Differential.h"
#include "laws/Catalog.h"
#include "laws/Support.h"

#include <new>

namespace llcheck::fuzz {

namespace {

std::vector<Law> makeLaws() {
  using namespace laws;
  // The order is the contract: shards split this list, and --list, the summary and JUnit follow
  // it (each case's seed comes from the law's name, not its place).
  std::vector<Law> registry = {
      {"apply.matches_the_bases", "L(x), applyFlat and apply, is the XOR of the bases of x's bits",
       one(anyNames(Kind::Any)), applyMatchesTheBases},
      {"rank.enumerated",
       "rank, isInjective, isSurjective and isInvertible equal the counts of the whole table",
       one(anyNames(Kind::Any)), rankEnumerated},
      {"generators.make_what_they_promise",
       "the targeted generators' layouts are surjective, injective, invertible, distributed "
       "(Def. 4.10), memory (Def. 4.14) by enumeration",
       generatorsMakeWhatTheyPromiseCases(), generatorsMakeWhatTheyPromise},
      {"free_variable_masks.enumerated",
       "getFreeVariableMasks equals the enumeration engine's masks, and every zero basis is free",
       one(anyNames(Kind::Any)), freeVariableMasksEnumerated},
      {"num_consecutive.enumerated",
       "getNumConsecutiveInOut equals the largest V meeting its definition on every input",
       one(anyNames(Kind::Any)), numConsecutiveEnumerated},
      {"verify.algebra_agrees_with_enumeration",
       "verify() reports no disagreement between the algebra and the enumeration",
       one(rc::gen::oneOf(anyNames(Kind::Any), genLayout(Kind::Distributed),
                          genLayout(Kind::Memory))),
       verifyAlgebraAgreesWithEnumeration},
      {"apply.wide_layouts",
       "applyFlat and apply equal the XOR of the bases on layouts of up to 60 bits (sample points)",
       wide(Kind::Any), applyWideLayouts},
      {"invert.wide_layouts",
       "L^-1(L(x)) = x and L(L^-1(y)) = y on invertible layouts of up to 60 bits (sample points)",
       wide(Kind::Invertible), invertWideLayouts},
      {"compose.definition", "(B ∘ A)(x) = B(A(x)) for every x", composable(2), composeDefinition},
      {"compose.associative", "(C ∘ B) ∘ A = C ∘ (B ∘ A)", composable(3), composeAssociative},
      {"compose.identity", "id ∘ L = L = L ∘ id", one(anyNames(Kind::Any)), composeIdentity},
      {"product.definition",
       "(A * B)(x) = A(x's low bits) + B(x's high bits) shifted above A's outputs, dim by dim",
       pairOf(smallAny(5)), productDefinition},
      {"product.associative",
       "(A * B) * C = A * (B * C), once both have the same dim order (Triton's merge of dim orders "
       "is not associative: [in0] * ([register] * [in0]) puts in0 last)",
       productAssociativeCases(), productAssociative},
      {"product.identity", "empty * L = L = L * empty", one(anyNames(Kind::Any)), productIdentity},
      {"product.dim_merging",
       "identity1D(a) * identity1D(b) = identity1D(a * b); zeros1D likewise; strided1D(a, s) * "
       "identity1D(b) reaches a * s * b",
       productDimMergingCases(), productDimMerging},
      {"invert.left_inverse", "L^-1(L(x)) = x for invertible L, and L^-1 ∘ L = id",
       one(anyNames(Kind::Invertible)), invertLeftInverse},
      {"invert.right_inverse", "L(L^-1(y)) = y for invertible L", one(anyNames(Kind::Invertible)),
       invertRightInverse},
      {"invert.involution", "(L^-1)^-1 = L", one(anyNames(Kind::Invertible)), invertInvolution},
      {"invert.exactly_when_bijective", "invert() succeeds iff the whole table is a bijection",
       one(rc::gen::oneOf(anyNames(Kind::Any), anyNames(Kind::Invertible),
                          anyNames(Kind::Surjective))),
       invertExactlyWhenBijective},
      {"pseudoinvert.right_inverse", "L(R(y)) = y for every y, R = pseudoinvert(L), L surjective",
       one(anyNames(Kind::Surjective)), pseudoinvertRightInverse},
      {"pseudoinvert.equals_invert", "pseudoinvert(L) = invert(L) for invertible L",
       one(anyNames(Kind::Invertible)), pseudoinvertEqualsInvert},
      {"invertAndCompose.solves", "C = A.invertAndCompose(B) has B(C(x)) = A(x) for surjective B",
       rc::gen::oneOf(solvable(Kind::Surjective, Names::Arbitrary),
                      solvable(Kind::Distributed, Names::Distributed),
                      solvable(Kind::Memory, Names::Memory)),
       invertAndComposeSolves},
      {"invertAndCompose.minimal_weight",
       "for distributed or memory B, C maps each input bit to a preimage of least Hamming weight",
       rc::gen::oneOf(solvable(Kind::Distributed, Names::Distributed),
                      solvable(Kind::Memory, Names::Memory)),
       invertAndComposeMinimalWeight},
      {"invertAndCompose.identity_dims",
       "an input dim with the same sublayout in A and B is mapped by the identity (Triton 3.6's "
       "rule), and B(C(x)) = A(x)",
       invertAndComposeIdentityDimsCases(), invertAndComposeIdentityDims},
      {"invertAndCompose.equals_compose_with_inverse",
       "A.invertAndCompose(B) = A.compose(B^-1) for invertible B",
       solvable(Kind::Invertible, Names::Arbitrary), invertAndComposeEqualsComposeWithInverse},
      {"divideLeft.undoes_the_product", "A * divideLeft(A * B, A) = A * B", pairOf(smallAny(5)),
       divideLeftUndoesTheProduct},
      {"divideRight.undoes_the_product", "divideRight(A * B, B) * B = A * B", pairOf(smallAny(5)),
       divideRightUndoesTheProduct},
      {"reshapeIns.keeps_the_flat_map",
       "reshapeIns keeps the map on flattened inputs, and reshaping back gives L",
       withSplit(Kind::Any), reshapeInsKeepsTheFlatMap},
      {"reshapeOuts.keeps_the_flat_map",
       "reshapeOuts keeps the map onto flattened outputs, and reshaping back gives L",
       withSplit(Kind::Any), reshapeOutsKeepsTheFlatMap},
      {"flatten.keeps_the_flat_map",
       "flattenIns and flattenOuts keep the flattened map and leave at most one dim each",
       one(anyNames(Kind::Any)), flattenKeepsTheFlatMap},
      {"transposeIns.round_trip",
       "transposeIns keeps the map on named points, and transposing back gives L",
       withPermutation(Kind::Any), transposeInsRoundTrip},
      {"transposeOuts.round_trip",
       "transposeOuts keeps the map on named points, and transposing back gives L",
       withPermutation(Kind::Any), transposeOutsRoundTrip},
      {"squeeze.drops_size_one_dims",
       "squeezeIns and squeezeOuts remove every size-1 dim and keep the map",
       one(anyNames(Kind::Any)), squeezeDropsSizeOneDims},
      {"rename.round_trip", "renaming an input and an output dim there and back gives L",
       one(anyNames(Kind::Any)), renameRoundTrip},
      {"resizeInDim.restriction", "resizeInDim(d, s) is L on the inputs with d below s",
       resizeInDimRestrictionCases(), resizeInDimRestriction},
      {"removeZeroBasesAlongDim.same_image",
       "removeZeroBasesAlongDim keeps the image and leaves no zero basis in the dim",
       one(rc::gen::oneOf(genLayout(Kind::Distributed), anyNames(Kind::Any))),
       removeZeroBasesAlongDimSameImage},
      {"sublayout.restriction",
       "sublayout(ins, outs)(x) is L(x, the other inputs 0) on the kept outputs",
       sublayoutRestrictionCases(), sublayoutRestriction},
      {"concatIns.sum", "(A concatIns B)(x, y) = A(x) xor B(y), and sublayout recovers A",
       concatInsSumCases(), concatInsSum},
      {"concatOuts.pair", "(A concatOuts B)(x) = (A(x), B(x)), and sublayout recovers B",
       concatOutsPairCases(), concatOutsPair},
      {"quotient.definition",
       "isTrivialOver({t}) holds exactly when L is the identity on t and t meets nothing else, "
       "and then quotient({t}) is the rest",
       quotientDefinitionCases(), quotientDefinition},
      {"json.round_trip", "Layout JSON: parse(print(L)) = L, through the text too",
       one(anyNames(Kind::Any)), jsonRoundTrip},
      {"triton_text.round_trip", "Triton's printed form: parseTritonString(toString(L)) = L",
       one(anyNames(Kind::Any)), tritonTextRoundTrip},
      {"linear_attr.round_trip",
       "#ttg.linear / #ttg.generic_linear: reading toLinearAttr(L) over L's shape gives L",
       linearAttrRoundTripCases(), linearAttrRoundTrip},
      {"shape.round_trip",
       "parseShape(shapeText(s)) = s for power-of-two shapes; any other size is refused",
       shapeRoundTripCases(), shapeRoundTrip},
      {"blocked.is_distributed",
       "#ttg.blocked over any shape is a distributed layout (Def. 4.10) with exactly that shape",
       genBlockedParams(), blockedIsDistributed},
      {"blocked.holds_its_elements",
       "#ttg.blocked: thread t, register r holds the element its sizePerThread, threadsPerWarp, "
       "warpsPerCTA and order put there (wrapping around the shape)",
       genBlockedParams(), blockedHoldsItsElements},
      {"swizzled_shared.is_memory",
       "#ttg.swizzled_shared over a 2-D shape is a memory layout (Def. 4.14) with that shape",
       genSwizzledParams(), swizzledSharedIsMemory},
      {"swizzled_shared.places_elements",
       "#ttg.swizzled_shared: offset o holds row o / C, column (o % C) xor (vec * ((row / "
       "perPhase) % maxPhase)) % C",
       genSwizzledParams(), swizzledSharedPlacesElements},
      {"slice.is_linear",
       "Prop. 4.8: #ttg.slice of a blocked parent holds, in every thread, exactly the parent's "
       "elements with the sliced dim dropped",
       sliceIsLinearCases(), sliceIsLinear},
      {"convert.plan_is_correct",
       "planConversion: DST(C(x)) = SRC(x) for every x, and no_op exactly when SRC = DST",
       genConversionPair(), convertPlanIsCorrect},
      {"convert.kind_is_the_cheapest",
       "the kind is the least movement with which every DST location finds its element in SRC, "
       "found by searching every location",
       genConversionPair(), convertKindIsTheCheapest},
      {"optimal_swizzle.is_a_bijection",
       "optimalSwizzle's shared layout maps offsets one-to-one onto the tensor",
       genConversionPair(), optimalSwizzleIsABijection},
      {"optimal_swizzle.attains_the_bound",
       "the paper's construction attains Lemma 9.5's bound with no bank conflict, recounted by "
       "the address simulator",
       genConversionPair(), optimalSwizzleAttainsTheBound},
      {"bank_model.equals_the_simulator",
       "bankConflicts' instructions, wavefronts and ideal wavefronts equal the address "
       "simulator's, and its vector is valid and maximal",
       bankModelEqualsTheSimulatorCases(), bankModelEqualsTheSimulator},
      {"report.suggestion_is_verified",
       "every shared layout report suggests for TTGIR's encodings (NVIDIA and AMD) is a memory "
       "layout of the tensor whose ld/st.shared sides take, in the address simulator, what it "
       "states; none is refused by llcheck's own check",
       suggestionIsVerifiedCases(), suggestionIsVerified},
  };
  for (Law& l : differentialLaws())
    registry.push_back(std::move(l));
  registry.push_back(wideAddressesLaw());
  return registry;
}

} // namespace

const std::vector<Law>& allLaws() {
  static const std::vector<Law> laws = makeLaws();
  return laws;
}

const Law* findLaw(std::string_view name) {
  for (const Law& l : allLaws())
    if (l.name == name)
      return &l;
  return nullptr;
}

Verdict checkLaw(const Law& law, const Case& c) {
  try {
    return law.check(c);
  } catch (const std::bad_alloc&) {
    // Running out of memory says nothing about the law: it ends the run (exit 3, one line).
    throw;
  } catch (const std::exception& e) {
    return std::string("threw: ") + e.what();
  }
}

} // namespace llcheck::fuzz
