// The duplicate masks of Broadcast.h: one Gaussian elimination over all columns in order (for
// free), one per dim (for withinDim), and the combination each dependent column solves to.
#include "llcheck/core/conversion/Broadcast.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/XorBasis.h"

#include <bit>

namespace llcheck {

namespace {

std::string bitList(uint64_t mask, int shiftValues) {
  std::string s;
  for (uint64_t m = mask; m != 0; m &= m - 1) {
    int b = std::countr_zero(m);
    s += (s.empty() ? "" : ", ") +
         std::to_string(shiftValues ? (uint64_t{1} << b) : static_cast<uint64_t>(b));
  }
  return s;
}

std::string plural(const std::string& dim) {
  return dim == "register" ? "registers"
         : dim == "lane"   ? "lanes"
         : dim == "warp"   ? "warps"
                           : "blocks";
}

} // namespace

Result<Broadcast> broadcast(const LinearLayout& regIn) {
  auto reg = withDistributedInDims(regIn);
  if (!reg.ok())
    return reg.error();
  Broadcast out;
  std::span<const uint64_t> cols = reg->columns();
  XorBasis all;
  std::vector<std::string> bitNames; // "lane 1" for each flattened input bit
  for (int i = 0; i < reg->getNumInDims(); ++i) {
    const Dim& d = reg->inDims()[i];
    DimBroadcast db;
    db.dim = d.name;
    db.sizeLog2 = d.sizeLog2;
    XorBasis own;
    int first = reg->inDimOffset(i);
    for (int b = 0; b < d.sizeLog2; ++b) {
      int j = first + b;
      uint64_t col = cols[j];
      if (col == 0)
        db.zero |= uint64_t{1} << b;
      if (!own.insert(col, 0))
        db.withinDim |= uint64_t{1} << b;
      std::optional<uint64_t> combo = all.solve(col);
      if (combo) {
        db.free |= uint64_t{1} << b;
        std::vector<std::string> parts;
        for (uint64_t m = *combo; m != 0; m &= m - 1)
          parts.push_back(bitNames[static_cast<std::size_t>(std::countr_zero(m))]);
        db.dependsOn.emplace_back(b, std::move(parts));
      } else {
        all.insert(col, uint64_t{1} << j);
      }
      bitNames.push_back(d.name.str() + " " + std::to_string(uint64_t{1} << b));
    }
    db.distinct = uint64_t{1} << (d.sizeLog2 - std::popcount(db.withinDim));
    out.locations <<= d.sizeLog2;
    out.dims.push_back(std::move(db));
  }
  out.distinctElements = uint64_t{1} << all.rank();

  for (const DimBroadcast& db : out.dims) {
    if (db.free == 0)
      continue;
    std::string name = db.dim.str(), line;
    line = name + ": " + std::to_string(db.distinct) + " of " +
           std::to_string(uint64_t{1} << db.sizeLog2) + " " + plural(name) +
           " hold distinct data (other dims fixed)";
    if (db.zero != 0)
      line += "; " + name + " bits " + bitList(db.zero, 0) + " (" + plural(name) + " " +
              bitList(db.zero, 1) + ") are zero columns: flipping them keeps the element";
    uint64_t dependent = db.withinDim & ~db.zero;
    if (dependent != 0)
      line += "; " + name + " bits " + bitList(dependent, 0) + " repeat combinations of lower " +
              plural(name);
    for (const auto& [bit, parts] : db.dependsOn) {
      if ((db.withinDim >> bit) & 1)
        continue;
      std::string what;
      for (const std::string& p : parts)
        what += (what.empty() ? "" : ", ") + p;
      line += "; " + name + " " + std::to_string(uint64_t{1} << bit) + " holds the element of (" +
              what + ")";
    }
    out.summary.push_back(line);
  }
  if (out.summary.empty())
    out.summary.push_back("no duplicated data: every location holds a distinct element");
  return out;
}

nlohmann::json toJson(const Broadcast& b) {
  nlohmann::json dimsJson = nlohmann::json::array();
  for (const DimBroadcast& d : b.dims) {
    nlohmann::json deps = nlohmann::json::object();
    for (const auto& [bit, parts] : d.dependsOn)
      deps[std::to_string(bit)] = parts;
    dimsJson.push_back({{"dim", d.dim.str()},
                        {"size", uint64_t{1} << d.sizeLog2},
                        {"zero", d.zero},
                        {"withinDim", d.withinDim},
                        {"free", d.free},
                        {"distinct", d.distinct},
                        {"dependsOn", deps}});
  }
  return {{"distinctElements", b.distinctElements},
          {"locations", b.locations},
          {"dims", dimsJson},
          {"summary", b.summary}};
}

} // namespace llcheck
