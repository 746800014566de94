// Helpers of the prover tests: an independent check of every counterexample shape against the
// brute-force reference evaluator (tests/support/ReferenceEvaluator.h), so a test never trusts
// the prover's own confirmation.
#pragma once

#include "TestLayouts.h"

#include "llcheck/prover/Prover.h"

#include <nlohmann/json.hpp>

namespace llcheck::test {

inline std::vector<uint64_t> inputValues(const LinearLayout& l, const nlohmann::json& j) {
  std::vector<uint64_t> x;
  for (DimName d : l.getInDimNames())
    x.push_back(j.at(d.str()).get<uint64_t>());
  EXPECT_EQ(j.size(), x.size()) << j.dump();
  return x;
}

inline std::vector<uint64_t> outputValues(const LinearLayout& l, const nlohmann::json& j) {
  std::vector<uint64_t> y;
  for (const DimSize& d : l.getOutDims())
    y.push_back(j.at(d.name.str()).get<uint64_t>());
  EXPECT_EQ(j.size(), y.size()) << j.dump();
  return y;
}

/// Whether a counterexample shows what it claims, by the reference evaluator alone.
inline ::testing::AssertionResult counterexampleHolds(const LinearLayout& l,
                                                      const nlohmann::json& ce) {
  Ref r(l);
  if (ce.contains("inputs")) {
    auto a = inputValues(l, ce["inputs"][0]), b = inputValues(l, ce["inputs"][1]);
    auto y = outputValues(l, ce["output"]);
    if (a == b || r.eval(a) != y || r.eval(b) != y)
      return ::testing::AssertionFailure() << "not a collision: " << ce.dump();
    return ::testing::AssertionSuccess();
  }
  if (ce.contains("input_dim")) {
    DimName d(ce["input_dim"].get<std::string>());
    int basis = ce["basis"].get<int>();
    if (!l.hasInDim(d) || basis >= l.getInDimSizeLog2(d))
      return ::testing::AssertionFailure() << "no such basis: " << ce.dump();
    std::vector<uint64_t> x(static_cast<std::size_t>(l.getNumInDims()), 0);
    x[static_cast<std::size_t>(l.inDimIndex(d))] = uint64_t{1} << basis;
    if (r.eval(x) != ce["value"].get<std::vector<uint64_t>>())
      return ::testing::AssertionFailure() << "wrong column value: " << ce.dump();
    return ::testing::AssertionSuccess();
  }
  if (ce.contains("output")) {
    auto y = outputValues(l, ce["output"]);
    for (uint64_t v : image(r))
      if (r.unflattenOut(v) == y)
        return ::testing::AssertionFailure() << "output is reached: " << ce.dump();
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "unknown counterexample shape: " << ce.dump();
}

} // namespace llcheck::test
