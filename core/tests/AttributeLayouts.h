// The layout of a Triton attribute ("#ttg.blocked<{...}>") over a shape, for the core tests
// that state their cases as the attributes Triton prints.
#pragma once

#include "llcheck/core/Spec.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace llcheck::test {

inline LinearLayout attr(const std::string& text, std::vector<uint64_t> shape) {
  LayoutContext o;
  o.shape = std::move(shape);
  auto l = loadSpec(text, o);
  EXPECT_TRUE(l.ok()) << (l.ok() ? "" : l.error().str());
  return l.ok() ? l->layout : LinearLayout();
}

} // namespace llcheck::test
