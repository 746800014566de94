// The Triton reference cases of tests/triton_reference/encodings/encoding_cases.json, for the
// encoding tests: each case's attribute is read with parseAttribute and turned into a layout
// with attributeToLayout; the result must equal Triton's (bases, in/out dims and sizes), and a
// case Triton rejected must be an error here too.
#pragma once

#include "llcheck/core/MlirAttr.h"
#include "llcheck/core/Spec.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <string>

#ifndef LLCHECK_SOURCE_DIR
#error "LLCHECK_SOURCE_DIR must name the source tree (see core/CMakeLists.txt)"
#endif

namespace llcheck::enctest {

using json = nlohmann::json;

/// A case file under tests/triton_reference/encodings/ (same format as encoding_cases.json).
inline const json& cases(const std::string& file = "encoding_cases.json") {
  static std::map<std::string, json> loaded;
  auto it = loaded.find(file);
  if (it == loaded.end()) {
    std::ifstream in(LLCHECK_SOURCE_DIR "/tests/triton_reference/encodings/" + file);
    it = loaded.emplace(file, json::parse(in)).first;
  }
  return it->second;
}

inline LinearLayout tritonLayout(const json& layout) {
  std::vector<DimBases> bases;
  for (const json& in : layout["ins"])
    bases.push_back({DimName(in["name"].get<std::string>()),
                     in["bases"].get<std::vector<std::vector<uint64_t>>>()});
  std::vector<DimSize> outs;
  for (const json& out : layout["outs"])
    outs.push_back({DimName(out["name"].get<std::string>()), out["size"].get<uint64_t>()});
  return LinearLayout::create(bases, outs, /*requireSurjective=*/false).value();
}

/// The innermost parent's encoding name of a (possibly nested) slice case.
inline std::string innermostParent(const json& params) {
  const json* p = &params;
  while (p->contains("parent")) {
    const json& parent = (*p)["parent"];
    if (parent.value("encoding", "") != "slice")
      return parent.value("encoding", "");
    p = &parent["args"];
  }
  return "";
}

struct Counts {
  int matched = 0;
  int total = 0;
  int skipped = 0;
  std::string skipReason;
};

/// Checks every case of `encoding` for which `skip` (when given) returns an empty reason;
/// skipped cases are counted and printed with the reason.
inline Counts checkEncoding(const std::string& encoding,
                            const std::function<std::string(const json&)>& skip = {},
                            const std::string& file = "encoding_cases.json") {
  Counts c;
  for (const json& tc : cases(file)["encodings"][encoding]) {
    std::string id = tc["id"].get<std::string>();
    if (std::string why = skip ? skip(tc) : std::string(); !why.empty()) {
      ++c.skipped;
      c.skipReason = why;
      continue;
    }
    ++c.total;
    LayoutContext options;
    options.shape = tc["shape"].get<std::vector<uint64_t>>();
    if (tc.contains("num_warps") && tc["num_warps"].is_number())
      options.numWarps = tc["num_warps"].get<uint64_t>();
    if (tc.contains("threads_per_warp") && tc["threads_per_warp"].is_number())
      options.threadsPerWarp = tc["threads_per_warp"].get<uint64_t>();
    auto attr = parseAttribute(tc["attr"].get<std::string>(), "attribute");
    EXPECT_TRUE(attr.ok()) << id << ": " << attr.error().str();
    if (!attr.ok())
      continue;
    auto ours = attributeToLayout(*attr, options, "attribute");
    if (tc.contains("error")) {
      EXPECT_FALSE(ours.ok()) << id << ": Triton rejected it (" << tc["error"] << ")";
      if (!ours.ok())
        ++c.matched;
      continue;
    }
    EXPECT_TRUE(ours.ok()) << id << " " << tc["attr"] << ": " << ours.error().str();
    if (!ours.ok())
      continue;
    LinearLayout expected = tritonLayout(tc["layout"]);
    EXPECT_EQ(*ours, expected) << id << " " << tc["attr"] << " shape " << tc["shape"]
                               << "\nours:" << ours->toString()
                               << "\nTriton:" << expected.toString();
    if (*ours == expected)
      ++c.matched;
  }
  std::cout << "[ encodings ] " << encoding << ": " << c.matched << "/" << c.total
            << " cases match Triton 3.9";
  if (c.skipped)
    std::cout << " (" << c.skipped << " skipped: " << c.skipReason << ")";
  std::cout << "\n";
  return c;
}

/// The attribute `text` over `shape` must be refused with a message that contains `fragment`
/// and points at a column of the attribute.
inline void expectAttributeError(const std::string& text, const std::string& fragment,
                                 const std::optional<std::vector<uint64_t>>& shape) {
  LayoutContext options;
  options.shape = shape;
  auto attr = parseAttribute(text, "attribute");
  ASSERT_TRUE(attr.ok()) << text << ": " << attr.error().str();
  auto l = attributeToLayout(*attr, options, "attribute");
  ASSERT_FALSE(l.ok()) << text << " was accepted";
  EXPECT_NE(l.error().str().find(fragment), std::string::npos)
      << text << ": '" << l.error().str() << "' lacks '" << fragment << "'";
  EXPECT_NE(l.error().str().find("attribute at column"), std::string::npos) << l.error().str();
}

} // namespace llcheck::enctest
