// Printing for `llcheck coalescing` (see CoalescingCommand.h).
#include "CoalescingCommand.h"

#include "llcheck/core/Formats.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <optional>
#include <ostream>

namespace llcheck::cli {

Result<std::vector<int64_t>> parseStrides(const std::string& text) {
  std::vector<int64_t> strides;
  std::string item;
  auto flush = [&]() -> std::optional<Error> {
    bool digits = !item.empty() && item.size() <= 13;
    for (char c : item)
      digits = digits && c >= '0' && c <= '9';
    if (!digits)
      return makeError("'" + utf8Prefix(item, 32) +
                           "' is not a stride (expected non-negative element counts, dim0 "
                           "first, such as 64,1)",
                       "--strides");
    strides.push_back(std::stoll(item));
    item.clear();
    return std::nullopt;
  };
  for (char c : text) {
    if (c == ',') {
      if (auto e = flush())
        return *e;
    } else {
      item += c;
    }
  }
  if (auto e = flush())
    return *e;
  return strides;
}

int runCoalescing(const CoalescingRequest& r, std::ostream& out, std::string& errorMessage) {
  auto access = predictGlobalAccess(r.layout.layout, r.options, r.model);
  if (!access.ok()) {
    errorMessage = access.error().within(r.layout.source).str();
    return 2;
  }
  const LinearLayout& l = r.layout.layout;
  std::vector<int64_t> strides = effectiveStrides(l, r.options);
  const GlobalAccess& a = *access;
  // Z3 proves rank counts; an enumerated count (strides that are not F2-linear, a misaligned
  // base) walked every request already.
  std::optional<CoalescingProof> proof;
  if (r.prove && a.byRank)
    proof = r.prove(a);
  int status = proof ? proof->status : 0;
  std::string proofLine = proof ? proof->line : "";
  if (proof && !proof->unknownMessage.empty())
    std::cerr << proof->unknownMessage << "\n";
  if (r.prove && !a.byRank)
    proofLine = "none: the addresses are not F2-linear, so every request was counted lane by "
                "lane (z3 proves rank counts)";
  std::string load = "ld.global." + a.ptxSuffix(), store = "st.global." + a.ptxSuffix();
  if (r.json) {
    nlohmann::json j = coalescingJson(a, l, r.options, r.model);
    j["dtype"] = r.dtype;
    if (proof)
      j["proof"] = {{"sectors_per_request", proof->json}};
    else if (r.prove)
      j["proof"] = {{"sectors_per_request", nullptr}, {"why", proofLine}};
    out << dumpJson(j) << "\n";
    return status;
  }
  std::string shapeText, strideText;
  for (std::size_t k = 0; k < strides.size(); ++k) {
    shapeText +=
        (k ? "x" : "") + std::to_string(l.getOutDimSize(dims::standardOut(static_cast<int>(k))));
    strideText += (k ? ", " : "") + std::to_string(strides[k]);
  }
  std::string base = r.options.baseAlignment >= static_cast<uint64_t>(r.model.lineBytes)
                         ? "line-aligned base"
                         : "base " + std::to_string(r.options.baseAlignment) + " bytes past a line";
  out << r.layout.source << " over a " << shapeText << " " << r.dtype << " tensor (strides "
      << strideText << ", " << base << ") on " << r.model.arch << ", per CTA (" << a.warps
      << (a.warps == 1 ? " warp" : " warps") << "):\n"
      << "  vector:   " << a.vectorBits << " bits per lane (" << load << " / " << store
      << "), limited by " << vectorLimitName(a.vectorLimit) << "\n"
      << "  requests: " << a.requests << " (" << a.instructionsPerWarp
      << " instructions per warp, one request each)\n"
      << "  sectors:  " << a.sectors << " (ideal " << a.idealSectors << ", "
      << a.sectors - a.idealSectors << " excess), at most " << a.maxSectorsPerRequest
      << " per request\n"
      << "  lines:    " << a.lines << ", at most " << a.maxLinesPerRequest << " per request\n"
      << "  (a load and a store touch the same sectors; counted by "
      << (a.byRank ? "rank" : "enumerating each request's lanes") << ")\n";
  if (!proofLine.empty())
    out << "  proof:    " << proofLine << "\n";
  return status;
}

} // namespace llcheck::cli
