// The ldmatrix/stmatrix check of Ldmatrix.h: the register permutation found column by column,
// divideLeft by the tile for the plain form, the .trans tile checked on the columns, and the
// wavefronts of one 8-lane phase by ranks.
#include "llcheck/core/conversion/Ldmatrix.h"

#include "llcheck/core/Subspace.h"
#include "llcheck/core/conversion/BankConflicts.h"
#include "llcheck/core/conversion/SharedMemory.h"

#include <algorithm>
#include <bit>

namespace llcheck {

namespace {

uint64_t lowMask(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

/// The first column among `named` that moves one of the low `bits` offset bits, as a message.
std::string misaligned(const std::vector<std::pair<std::string, uint64_t>>& named, int bits) {
  for (const auto& [name, col] : named)
    if ((col & lowMask(bits)) != 0)
      return name + " maps to offset " + std::to_string(col) +
             ", inside a 16-byte row: the rows ldmatrix reads would not be whole, aligned rows";
  return {};
}

} // namespace

Result<LdmatrixPlan> ldmatrix(const LinearLayout& reg, const LinearLayout& shared,
                              const LdmatrixOptions& options) {
  if (options.elementBits != 8 && options.elementBits != 16 && options.elementBits != 32)
    return makeError("ldmatrix moves 8-, 16- or 32-bit elements, not " +
                     std::to_string(options.elementBits) + "-bit ones");
  if (options.trans && options.elementBits != 16)
    return makeError("ldmatrix .trans transposes 16-bit elements only, not " +
                     std::to_string(options.elementBits) + "-bit ones");
  SharedMemoryModel model = sharedMemoryModel("sm90").value();
  auto map = offsetMap(reg, shared, {}, model);
  if (!map.ok())
    return map.error();

  LdmatrixPlan plan;
  plan.elementBits = options.elementBits;
  plan.trans = options.trans;
  auto asBases = [](const std::vector<uint64_t>& cols) {
    std::vector<std::vector<uint64_t>> b;
    for (uint64_t c : cols)
      b.push_back({c});
    return b;
  };
  const DimName offset = dims::kOffset;
  plan.conversion =
      LinearLayout::create({{dims::kRegister, asBases(map->registers)},
                            {dims::kLane, asBases(map->lanes)},
                            {dims::kWarp, asBases(map->warps)}},
                           {{offset, uint64_t{1} << map->offsetBits}}, /*requireSurjective=*/false)
          .value();

  const std::vector<uint64_t>& regs = map->registers;
  const std::vector<uint64_t>& lanes = map->lanes; // 5 lane bits (offsetMap checked 32 lanes)
  int elemBytesLog2 = std::countr_zero(static_cast<unsigned>(options.elementBits / 8));
  int rowBits = 4 - elemBytesLog2; // log2 of the elements in a 16-byte row
  int k = 2 - elemBytesLog2;       // log2 of the elements in a 32-bit word

  // The register bases of the tile, then the other non-zero ones, then the zero ones.
  std::vector<bool> used(regs.size(), false);
  std::vector<int> tileRegs;
  std::vector<uint64_t> rowColumns; // offsets of the 8 rows of one matrix (a basis)
  std::vector<std::pair<std::string, uint64_t>> others; // columns that must stay row-aligned
  auto fail = [&](std::string why) {
    plan.divides = false;
    plan.reason = std::move(why);
    return plan;
  };
  if (!options.trans) {
    for (int b = 0; b < k; ++b) {
      std::size_t found = regs.size();
      for (std::size_t j = 0; j < regs.size() && found == regs.size(); ++j)
        if (!used[j] && regs[j] == (uint64_t{1} << b))
          found = j;
      if (found == regs.size())
        return fail("no register holds offset " + std::to_string(uint64_t{1} << b) +
                    " of the thread's 32-bit word: each lane must hold " + std::to_string(1 << k) +
                    " consecutive elements");
      used[found] = true;
      tileRegs.push_back(static_cast<int>(found));
    }
    for (int b = 0; b < 2; ++b)
      if (lanes[b] != (uint64_t{1} << (k + b)))
        return fail("lane " + std::to_string(1 << b) + " maps to offset " +
                    std::to_string(lanes[b]) + ", not " + std::to_string(uint64_t{1} << (k + b)) +
                    ": lanes 4r .. 4r+3 must hold the four words of row r");
    for (int b = 2; b < 5; ++b) {
      rowColumns.push_back(lanes[b]);
      others.emplace_back("lane " + std::to_string(1 << b), lanes[b]);
    }
  } else {
    // Row bit 0: the first non-zero register basis (a 16-bit pair spans two rows), or a zero
    // one (both rows the same: the pair is a copy) when no register holds other data.
    auto it = std::find_if(regs.begin(), regs.end(), [](uint64_t c) { return c != 0; });
    if (it == regs.end())
      it = regs.begin();
    if (it == regs.end())
      return fail(".trans gives each lane two elements: the layout has one register per lane");
    used[static_cast<std::size_t>(it - regs.begin())] = true;
    tileRegs.push_back(static_cast<int>(it - regs.begin()));
    rowColumns.push_back(*it);
    others.emplace_back("register " + std::to_string(uint64_t{1} << (it - regs.begin())), *it);
    for (int b = 2; b < 5; ++b)
      if (lanes[b] != (uint64_t{1} << (b - 2)))
        return fail(".trans: lane " + std::to_string(1 << b) + " maps to offset " +
                    std::to_string(lanes[b]) + ", not " + std::to_string(uint64_t{1} << (b - 2)) +
                    ": lanes t/4 = 0 .. 7 must hold the 8 columns of a row");
    for (int b = 0; b < 2; ++b) {
      rowColumns.push_back(lanes[b]);
      others.emplace_back("lane " + std::to_string(1 << b), lanes[b]);
    }
  }
  std::vector<int> dataRegs, zeroRegs;
  for (std::size_t j = 0; j < regs.size(); ++j)
    if (!used[j]) {
      (regs[j] != 0 ? dataRegs : zeroRegs).push_back(static_cast<int>(j));
      others.emplace_back("register " + std::to_string(uint64_t{1} << j), regs[j]);
    }
  for (std::size_t j = 0; j < map->warps.size(); ++j)
    others.emplace_back("warp " + std::to_string(uint64_t{1} << j), map->warps[j]);
  plan.registerPermutation = tileRegs;
  plan.registerPermutation.insert(plan.registerPermutation.end(), dataRegs.begin(), dataRegs.end());
  plan.registerPermutation.insert(plan.registerPermutation.end(), zeroRegs.begin(), zeroRegs.end());
  int alignBits = options.trans ? 3 : rowBits;
  if (std::string why = misaligned(others, alignBits); !why.empty())
    return fail(why);
  if (map->offsetBits < rowBits)
    return fail("the tensor holds fewer elements than one 16-byte row");

  if (!options.trans) {
    // Theorem 5.1: the permuted conversion divided on the left by the tile.
    auto action = ColumnAction::create(plan.registerPermutation, dims::kRegister,
                                       static_cast<int>(regs.size()));
    LinearLayout permuted = action->apply(plan.conversion).value();
    LinearLayout tile =
        LinearLayout::identity1D(uint64_t{1} << k, dims::kRegister, offset).value() *
        LinearLayout::identity1D(4, dims::kLane, offset).value();
    plan.tile = tile;
    plan.quotient = divideLeft(permuted, tile);
    if (!plan.quotient)
      return fail("P_reg L / T does not exist"); // the checks above make this unreachable
  }

  plan.divides = true;
  plan.tileRegisterBits = static_cast<int>(tileRegs.size());
  plan.matrixRegisterBits = std::min(2, static_cast<int>(dataRegs.size()));
  plan.instructionRegisterBits = static_cast<int>(dataRegs.size()) - plan.matrixRegisterBits;
  plan.duplicateRegisterBits = static_cast<int>(zeroRegs.size());
  plan.matricesPerInstruction = 1 << plan.matrixRegisterBits;
  plan.instructionsPerWarp = uint64_t{1} << plan.instructionRegisterBits;

  // One matrix = one phase of 8 lanes x 16-byte rows; rows as 16-byte units, 8 units a
  // wavefront (32 banks of 4 bytes).
  std::vector<uint64_t> units;
  for (uint64_t c : rowColumns)
    units.push_back(c >> rowBits);
  int c = Subspace(units).dim() - rankUnderMask(units, lowMask(3));
  plan.wavefrontsPerMatrix = uint64_t{1} << c;
  uint64_t matrices = plan.instructionsPerWarp * static_cast<uint64_t>(plan.matricesPerInstruction);
  plan.wavefrontsPerWarp = matrices * plan.wavefrontsPerMatrix;
  plan.bankConflictsPerWarp = plan.wavefrontsPerWarp - matrices;
  return plan;
}

AccessCount toAccessCount(const LdmatrixPlan& plan, uint64_t warps) {
  AccessCount a;
  auto matrices = static_cast<uint64_t>(plan.matricesPerInstruction);
  a.vectorBits = 32 * plan.matricesPerInstruction;
  a.instructions = plan.instructionsPerWarp * warps;
  a.phasesPerInstruction = plan.matricesPerInstruction;
  a.wavefrontsPerPhase = plan.wavefrontsPerMatrix;
  a.wavefronts = plan.wavefrontsPerWarp * warps;
  a.idealWavefronts = a.instructions * matrices;
  a.bankConflicts = a.wavefronts - a.idealWavefronts;
  return a;
}

nlohmann::json toJson(const LdmatrixPlan& p) {
  nlohmann::json j = {{"divides", p.divides}, {"elementBits", p.elementBits}, {"trans", p.trans}};
  if (!p.divides) {
    j["reason"] = p.reason;
    return j;
  }
  j["instruction"] = "ldmatrix.x" + std::to_string(p.matricesPerInstruction) +
                     (p.trans ? ".trans" : "") + " / stmatrix.x" +
                     std::to_string(p.matricesPerInstruction) + (p.trans ? ".trans" : "");
  j["matricesPerInstruction"] = p.matricesPerInstruction;
  j["registerPermutation"] = p.registerPermutation;
  j["registerBits"] = {{"tile", p.tileRegisterBits},
                       {"matrix", p.matrixRegisterBits},
                       {"instruction", p.instructionRegisterBits},
                       {"duplicate", p.duplicateRegisterBits}};
  j["instructionsPerWarp"] = p.instructionsPerWarp;
  j["wavefrontsPerMatrix"] = p.wavefrontsPerMatrix;
  j["wavefrontsPerWarp"] = p.wavefrontsPerWarp;
  j["bankConflictsPerWarp"] = p.bankConflictsPerWarp;
  return j;
}

} // namespace llcheck
