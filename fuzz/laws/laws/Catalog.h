// Every law of the suite as a named function, by topic: the check, and the generator of its
// cases where it is more than a line. Laws.cpp registers them in one table, in a fixed order
// (shards split that list; each case's seed comes from the law's name).
#pragma once

#include "../Generators.h"
#include "../Laws.h"

namespace llcheck::fuzz::laws {

// ---- Evaluation.cpp ------------------------------------------------------------------------
[[nodiscard]] Verdict applyMatchesTheBases(const Case& c);
[[nodiscard]] Verdict rankEnumerated(const Case& c);
[[nodiscard]] rc::Gen<Case> generatorsMakeWhatTheyPromiseCases();
[[nodiscard]] Verdict generatorsMakeWhatTheyPromise(const Case& c);
[[nodiscard]] Verdict freeVariableMasksEnumerated(const Case& c);
[[nodiscard]] Verdict numConsecutiveEnumerated(const Case& c);
[[nodiscard]] Verdict verifyAlgebraAgreesWithEnumeration(const Case& c);
/// Layouts of up to 60 input and output bits (no dim may exceed 2^63), and sample inputs from
/// params[0]; the whole table is out of reach, so these check the points the samples reach.
[[nodiscard]] rc::Gen<Case> wide(Kind kind);
[[nodiscard]] Verdict applyWideLayouts(const Case& c);
[[nodiscard]] Verdict invertWideLayouts(const Case& c);

// ---- Algebra.cpp ---------------------------------------------------------------------------
/// A : in -> dim*, B : dim* (at least A's sizes) -> out*, C : out* -> z*.
[[nodiscard]] rc::Gen<Case> composable(int count);
[[nodiscard]] Verdict composeDefinition(const Case& c);
[[nodiscard]] Verdict composeAssociative(const Case& c);
[[nodiscard]] Verdict composeIdentity(const Case& c);
[[nodiscard]] Verdict productDefinition(const Case& c);
[[nodiscard]] rc::Gen<Case> productAssociativeCases();
[[nodiscard]] Verdict productAssociative(const Case& c);
[[nodiscard]] Verdict productIdentity(const Case& c);
[[nodiscard]] rc::Gen<Case> productDimMergingCases();
[[nodiscard]] Verdict productDimMerging(const Case& c);

// ---- Inverse.cpp ---------------------------------------------------------------------------
[[nodiscard]] Verdict invertLeftInverse(const Case& c);
[[nodiscard]] Verdict invertRightInverse(const Case& c);
[[nodiscard]] Verdict invertInvolution(const Case& c);
[[nodiscard]] Verdict invertExactlyWhenBijective(const Case& c);
[[nodiscard]] Verdict pseudoinvertRightInverse(const Case& c);
[[nodiscard]] Verdict pseudoinvertEqualsInvert(const Case& c);
/// B : in* -> dim* of `kind`; A : register, lane (disjoint from B's inputs) -> B's outputs.
[[nodiscard]] rc::Gen<Case> solvable(Kind kind, Names names);
[[nodiscard]] Verdict invertAndComposeSolves(const Case& c);
[[nodiscard]] Verdict invertAndComposeMinimalWeight(const Case& c);
[[nodiscard]] rc::Gen<Case> invertAndComposeIdentityDimsCases();
[[nodiscard]] Verdict invertAndComposeIdentityDims(const Case& c);
[[nodiscard]] Verdict invertAndComposeEqualsComposeWithInverse(const Case& c);
[[nodiscard]] Verdict divideLeftUndoesTheProduct(const Case& c);
[[nodiscard]] Verdict divideRightUndoesTheProduct(const Case& c);

// ---- Reshape.cpp ---------------------------------------------------------------------------
/// A random split of `bits` into 1 to 3 dims named prefix0, prefix1, ...
[[nodiscard]] rc::Gen<Case> withSplit(Kind k);
[[nodiscard]] Verdict reshapeInsKeepsTheFlatMap(const Case& c);
[[nodiscard]] Verdict reshapeOutsKeepsTheFlatMap(const Case& c);
[[nodiscard]] Verdict flattenKeepsTheFlatMap(const Case& c);
/// A permutation of L's dims, as swaps in params (shrinks to the identity).
[[nodiscard]] rc::Gen<Case> withPermutation(Kind k);
[[nodiscard]] Verdict transposeInsRoundTrip(const Case& c);
[[nodiscard]] Verdict transposeOutsRoundTrip(const Case& c);
[[nodiscard]] Verdict squeezeDropsSizeOneDims(const Case& c);
[[nodiscard]] Verdict renameRoundTrip(const Case& c);
[[nodiscard]] rc::Gen<Case> resizeInDimRestrictionCases();
[[nodiscard]] Verdict resizeInDimRestriction(const Case& c);
[[nodiscard]] Verdict removeZeroBasesAlongDimSameImage(const Case& c);

// ---- Sublayout.cpp -------------------------------------------------------------------------
[[nodiscard]] rc::Gen<Case> sublayoutRestrictionCases();
[[nodiscard]] Verdict sublayoutRestriction(const Case& c);
[[nodiscard]] rc::Gen<Case> concatInsSumCases();
[[nodiscard]] Verdict concatInsSum(const Case& c);
[[nodiscard]] rc::Gen<Case> concatOutsPairCases();
[[nodiscard]] Verdict concatOutsPair(const Case& c);
[[nodiscard]] rc::Gen<Case> quotientDefinitionCases();
[[nodiscard]] Verdict quotientDefinition(const Case& c);

// ---- Formats.cpp ---------------------------------------------------------------------------
[[nodiscard]] Verdict jsonRoundTrip(const Case& c);
[[nodiscard]] Verdict tritonTextRoundTrip(const Case& c);
[[nodiscard]] rc::Gen<Case> linearAttrRoundTripCases();
[[nodiscard]] Verdict linearAttrRoundTrip(const Case& c);
[[nodiscard]] rc::Gen<Case> shapeRoundTripCases();
[[nodiscard]] Verdict shapeRoundTrip(const Case& c);

// ---- Encodings.cpp -------------------------------------------------------------------------
[[nodiscard]] Verdict blockedIsDistributed(const Case& c);
[[nodiscard]] Verdict blockedHoldsItsElements(const Case& c);
[[nodiscard]] Verdict swizzledSharedIsMemory(const Case& c);
[[nodiscard]] Verdict swizzledSharedPlacesElements(const Case& c);
[[nodiscard]] rc::Gen<Case> sliceIsLinearCases();
[[nodiscard]] Verdict sliceIsLinear(const Case& c);

// ---- Conversion.cpp ------------------------------------------------------------------------
[[nodiscard]] Verdict convertPlanIsCorrect(const Case& c);
[[nodiscard]] Verdict convertKindIsTheCheapest(const Case& c);
[[nodiscard]] Verdict optimalSwizzleIsABijection(const Case& c);
[[nodiscard]] Verdict optimalSwizzleAttainsTheBound(const Case& c);
[[nodiscard]] rc::Gen<Case> bankModelEqualsTheSimulatorCases();
[[nodiscard]] Verdict bankModelEqualsTheSimulator(const Case& c);

// ---- Suggestion.cpp ------------------------------------------------------------------------
/// Two encodings as TTGIR writes them (blocked, nvidia_mma, amd_mfma, dot_op) over one 2-D
/// shape, on sm80, sm90, gfx942 or gfx950, with the element width: all in params.
[[nodiscard]] rc::Gen<Case> suggestionIsVerifiedCases();
[[nodiscard]] Verdict suggestionIsVerified(const Case& c);

} // namespace llcheck::fuzz::laws
