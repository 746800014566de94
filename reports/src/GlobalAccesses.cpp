// Each tt.load / tt.store of a tensor of pointers, as `llcheck coalescing --lowering triton`
// predicts it (Coalescing.h, measured on an H100 in gpu_oracle/triton_coalescing), beside the
// layout that moves the same tensor in the fewest requests and sectors.
//
// What the pointers are comes from the kernel's own TTGIR (AxisInfo.h, issue 32): Triton's
// AxisInfo of the pointer tensor and its mask gives the vector Triton emits, and the affine
// offsets give the strides the count needs. Each entry says what was established and what was
// not:
// - strides that are integers: exact counts (for a line-aligned base), and a finding where the
//   layout is above the coalesced one of the same strides;
// - strides that involve an unknown scalar (a kernel argument stride_am): the counts hold for
//   rows in distinct sectors (the unknown stride taken as a large multiple of the line), and
//   no finding rests on them;
// - offsets that are not affine (a loaded index), or an op the analysis could not find: the
//   vector and instruction counts, no sectors, no finding.
#include "GlobalAccesses.h"
#include "Fix.h"
#include "ReportParts.h"

#include "llcheck/core/AxisInfo.h"
#include "llcheck/core/Formats.h"
#include "llcheck/core/LayoutContext.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/Coalescing.h"
#include "llcheck/core/conversion/SharedMemory.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llcheck::reports::detail {

using json = nlohmann::json;

namespace {

json accessJson(const GlobalAccess& a) {
  json j = toJson(a);
  j.erase("lines");
  j.erase("max_lines_per_request");
  return j;
}

json axisJson(const AxisInfo& a) {
  auto dims = [](const std::vector<int64_t>& v) {
    json out = json::array();
    for (int64_t x : v)
      out.push_back(x == kAxisMaxDivisor ? json("2^62") : json(x));
    return out;
  };
  json j = {{"contiguity", dims(a.contiguity)},
            {"divisibility", dims(a.divisibility)},
            {"constancy", dims(a.constancy)}};
  if (a.constantValue)
    j["constant"] = *a.constantValue;
  return j;
}

/// Where the strides stand for the count.
struct Strides {
  std::vector<int64_t> values; ///< for the count; empty when none could be chosen
  bool established = false;    ///< every stride an integer the IR fixes
  std::string text;            ///< "[1, 64]", "[%stride_am, 1]"
  std::string why;             ///< when not established: what is missing
};

Strides stridesOf(const TtgirAccessFacts& f) {
  Strides s;
  if (!f.offsets.affine) {
    s.why = "the pointers are not an affine function of the tensor's indices (" +
            f.offsets.notAffine + ")";
    return s;
  }
  s.text = affineStridesText(f.offsets.strides);
  bool symbolic = false;
  for (const AffineStride& st : f.offsets.strides) {
    if (st.factor < 0) {
      s.why = "a negative stride (" + s.text + ")";
      return s;
    }
    symbolic = symbolic || !st.symbol.empty();
  }
  // An unknown stride stands for rows far apart: a power of two past every known offset, so
  // no two rows share a sector (what the counts then hold for).
  // (Each further unknown stride 16 times the last; the count refuses addresses past 2^64.)
  uint64_t reach = 1;
  for (std::size_t d = 0; d < f.offsets.strides.size(); ++d) {
    uint64_t extent = 0;
    if (f.offsets.strides[d].symbol.empty() &&
        __builtin_mul_overflow(static_cast<uint64_t>(f.offsets.strides[d].factor),
                               d < f.shape.size() ? f.shape[d] : 1, &extent)) {
      s.why = "a stride of " + s.text + " reaches past 2^64 elements";
      return s;
    }
    reach = std::max(reach, extent);
  }
  if (reach > (uint64_t{1} << 40)) {
    s.why = "the tensor " + s.text + " spans more than 2^40 elements";
    return s;
  }
  auto far = static_cast<int64_t>(std::max<uint64_t>(uint64_t{1} << 10, std::bit_ceil(reach)));
  for (const AffineStride& st : f.offsets.strides) {
    if (st.symbol.empty()) {
      s.values.push_back(st.factor);
    } else {
      if (far > (int64_t{1} << 56)) {
        s.values.clear();
        s.why = "too many unknown strides to stand for";
        return s;
      }
      s.values.push_back(far);
      far <<= 4;
    }
  }
  s.established = !symbolic;
  if (symbolic)
    s.why = "the strides " + s.text +
            " involve unknown kernel values; the sectors are counted with rows in distinct "
            "sectors (each unknown stride taken as a large multiple of the line)";
  for (const std::string& a : f.offsets.assumptions) {
    s.established = false;
    s.why += std::string(s.why.empty() ? "" : "; ") + "assumed: " + a;
  }
  return s;
}

/// The dims fastest first by stride (a stride of 1 first), for the coalesced layout.
std::vector<uint64_t> orderByStrides(const std::vector<int64_t>& strides) {
  std::vector<uint64_t> order(strides.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
    int64_t sa = strides[a], sb = strides[b];
    if (sa == sb)
      return a > b;
    return sa < sb;
  });
  return order;
}

/// What AxisInfo proves along `dim`, mask included: the cap on Triton's vector.
/// How far past an i64 load its uses are looked for: a use further away (or a region longer
/// than this) leaves the load as written, so that a module of many such loads stays linear.
constexpr std::size_t kNarrowingLines = 4096;

/// Where every use of the i64 that the tt.load at `line` loads truncates it to i32 (FlagGems'
/// _to_copy of the sort's indices), LLVM loads the low 32 bits alone: `ld.global.b32` at the
/// 64-bit elements' addresses (measured on the H200, gpu_oracle/real_kernels). The reason, or
/// nullopt where a use is anything else, or there is none. Uses are looked for up to the end of
/// the region that holds the load (MLIR reuses a name in sibling regions); `lines` holds the
/// module's lines.
std::optional<std::string> narrowedToLowWord(const std::vector<std::string_view>& lines, int line) {
  if (line < 1 || static_cast<std::size_t>(line) > lines.size())
    return std::nullopt;
  std::string_view def = lines[static_cast<std::size_t>(line) - 1];
  std::size_t lead = def.find_first_not_of(" \t");
  std::size_t eq = def.find(" = tt.load ");
  if (lead == std::string_view::npos || def[lead] != '%' || eq == std::string_view::npos)
    return std::nullopt;
  std::string name(def.substr(lead, eq - lead));
  int depth = 0, uses = 0;
  bool closed = false; // the end of the load's region (`}`, `} else {`)
  std::size_t last = std::min(lines.size(), static_cast<std::size_t>(line) + kNarrowingLines);
  for (std::size_t i = static_cast<std::size_t>(line); i < last && !closed; ++i) {
    std::string_view use = lines[i];
    for (char c : use) {
      depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      closed = closed || depth < 0;
    }
    if (closed)
      break;
    for (std::size_t k = use.find(name); k != std::string_view::npos; k = use.find(name, k + 1)) {
      std::size_t after = k + name.size();
      if (after < use.size() && (std::isalnum(static_cast<unsigned char>(use[after])) ||
                                 use[after] == '_' || use[after] == '#'))
        continue; // another name with this one's prefix
      // `%t = arith.trunci %x : tensor<256xi64, #blocked> to tensor<256xi32, #blocked>`
      std::size_t op = use.find(" = arith.trunci ");
      std::size_t to = use.find(" to tensor<");
      if (op == std::string_view::npos || k != op + 16 || to == std::string_view::npos ||
          use.find("xi32", to) == std::string_view::npos)
        return std::nullopt;
      ++uses;
    }
  }
  if (uses == 0 || !closed)
    return std::nullopt; // no use, or the region runs on past the lines looked at
  return "every use of " + name +
         " truncates it to i32 (arith.trunci): LLVM loads the low 32 "
         "bits of each element alone, one ld.global.b32 per element at the 64-bit elements' "
         "addresses (their sectors)";
}

uint64_t alignmentAlong(const TtgirAccessFacts& f, int dim) {
  int64_t a = axisAlignment(f.pointer, dim, f.pointeeBits);
  if (f.mask && dim >= 0 && dim < f.mask->rank())
    a = std::min<int64_t>(a,
                          std::max<int64_t>(f.mask->constancy[static_cast<std::size_t>(dim)], 1));
  return static_cast<uint64_t>(std::max<int64_t>(a, 1));
}

} // namespace

void reportGlobalAccesses(const TtgirModule& module, const ReportOptions& options, KernelReport& k,
                          const TtgirAxisAnalysis* analysis) {
  if (module.globalAccesses.empty())
    return;
  auto model = globalMemoryModel(k.arch);
  uint64_t numWarps = k.numWarps.value_or(4);
  std::string problems;
  if (analysis)
    for (const std::string& p : analysis->problems)
      problems += (problems.empty() ? "" : "; ") + p;
  std::vector<std::string_view> lines; // the module's, read once an i64 load needs them
  for (const TtgirGlobalAccess& a : module.globalAccesses) {
    json e = {{"op", a.op},       {"location", a.location},
              {"line", a.line},   {"layout", a.pointers.layout},
              {"shape", a.shape}, {"dtype", a.elementType}};
    putLoop(e, a.loopDepth, a.trips, a.tripsFormula); // counts per run; runs per program
    putBranch(e, a.branch);
    auto skip = [&](const std::string& why) {
      e["not_analysed"] = why;
      k.globalAccesses.push_back(std::move(e));
    };
    if (!model.ok()) {
      skip("no global-memory model for " + k.arch + " (NVIDIA sm80 and sm90 only)");
      continue;
    }
    auto bits = dtypeBits(a.elementType);
    if (!bits.ok()) {
      skip(bits.error().message);
      continue;
    }
    if (a.scalar) {
      // One value: Triton's scalar store is made by thread 0 (the other warps branch around
      // it: measured on the H200, gpu_oracle/reduce_scratch), its scalar load by every thread
      // at one address (a broadcast per warp; not yet measured).
      bool store = a.op == "tt.store";
      uint64_t n = store ? 1 : numWarps;
      json p = {{"lowering", "triton"},
                {"scalar", true},
                {"ptx", std::string(store ? "st" : "ld") + ".global.b" + std::to_string(*bits)},
                {"vector_bits", *bits},
                {"vector_elements", 1},
                {"instructions", n},
                {"instructions_per_warp", 1},
                {"requests", n},
                {"sectors", n},
                {"ideal_sectors", n},
                {"excess_sectors", 0},
                {"why", store ? "a scalar store: one thread stores the value"
                              : "a scalar load: every thread loads the value at one address (not "
                                "yet measured on a GPU)"}};
      e["predicted"] = p;
      k.globalAccesses.push_back(std::move(e));
      continue;
    }
    const LayoutEntry* entry =
        a.pointers.layout >= 0 && static_cast<std::size_t>(a.pointers.layout) < k.layouts.size()
            ? &k.layouts[static_cast<std::size_t>(a.pointers.layout)]
            : nullptr;
    if (!entry || !entry->layout) {
      skip("the pointers' layout could not be read");
      continue;
    }
    const TtgirAccessFacts* facts = analysis ? analysis->atLine(a.line) : nullptr;
    if (facts && (facts->op != a.op || facts->shape != a.shape))
      facts = nullptr;
    if (!facts) {
      skip("the axis analysis did not find the pointers of this op, so neither the vector "
           "Triton emits nor the strides are known" +
           (problems.empty() ? std::string() : " (" + problems + ")"));
      continue;
    }
    int fastest = tritonFastestDim(*entry->layout);
    uint64_t alignment = alignmentAlong(*facts, fastest);
    Strides strides = stridesOf(*facts);
    e["axis_info"] = {
        {"pointer", axisJson(facts->pointer)}, {"dim", fastest}, {"alignment", alignment}};
    if (facts->mask)
      e["axis_info"]["mask"] = axisJson(*facts->mask);
    e["strides"] = strides.text.empty() ? json(nullptr) : json(strides.text);
    if (!strides.why.empty())
      e["strides_not_established"] = strides.why;
    if (!problems.empty())
      e["analysis_problems"] = problems;
    // The counts: with the strides where there are any, else row-major for the instructions
    // and requests alone (they do not depend on the addresses).
    CoalescingOptions co;
    co.elementBits = *bits;
    co.strides = strides.values;
    if (co.strides.empty() && fastest >= 0) {
      // Unknown addresses: what AxisInfo proved (the vector along the layout's fastest dim)
      // must hold in the count, so that dim is taken as stride 1 and the others as rows far
      // apart; the sectors that would depend on them are not reported.
      int64_t far = static_cast<int64_t>(std::max<uint64_t>(
          uint64_t{1} << 10, std::bit_ceil(a.shape[static_cast<std::size_t>(fastest)])));
      for (std::size_t d = 0; d < a.shape.size(); ++d) {
        co.strides.push_back(static_cast<int>(d) == fastest ? 1 : far);
        if (static_cast<int>(d) != fastest)
          far <<= 4;
      }
    }
    CoalescingOptions asEmitted = co;
    asEmitted.tritonAlignment = alignment;
    bool isLoad = a.op == "tt.load";
    auto triton = predictTritonGlobalAccess(*entry->layout, asEmitted, *model, options.triton);
    auto best = predictGlobalAccess(*entry->layout, co, *model);
    if (!triton.ok() || !best.ok()) {
      skip((triton.ok() ? best.error() : triton.error()).message);
      continue;
    }
    const GlobalAccess& t = isLoad ? triton->load : triton->store;
    e["predicted"] = accessJson(t);
    e["predicted"]["lowering"] = "triton";
    e["predicted"]["ptx"] = t.ptx(isLoad);
    e["predicted"]["llcheck"] = accessJson(*best);
    if (strides.values.empty()) {
      for (json* j : {&e["predicted"], &e["predicted"]["llcheck"]})
        for (const char* field : {"sectors", "ideal_sectors", "excess_sectors",
                                  "max_sectors_per_request", "bytes_per_request"})
          if (j->contains(field))
            (*j)[field] = nullptr;
    }
    if (isLoad && a.elementType == "i64" && lines.empty())
      for (std::size_t from = 0; from <= module.text.size();) {
        std::size_t newline = module.text.find('\n', from);
        std::size_t end = newline == std::string::npos ? module.text.size() : newline;
        lines.push_back(std::string_view(module.text).substr(from, end - from));
        from = end + 1;
      }
    if (auto narrowed =
            isLoad && a.elementType == "i64" ? narrowedToLowWord(lines, a.line) : std::nullopt) {
      json& p = e["predicted"];
      uint64_t per = p.value("vector_elements", uint64_t{1});
      uint64_t n = p.value("instructions", uint64_t{0}) * per;
      p["instructions"] = n;
      p["instructions_per_warp"] = p.value("instructions_per_warp", uint64_t{0}) * per;
      p["requests"] = n;
      p["vector_bits"] = 32;
      p["vector_elements"] = 1;
      p["ptx"] = "ld.global.b32";
      p["narrowed"] = *narrowed;
      e["coalesced"] = nullptr; // the coalesced layout's count is of the 64-bit load
      k.globalAccesses.push_back(std::move(e));
      continue;
    }
    int64_t bytes = std::max(*bits / 8, 1);
    if (fastest >= 0 && fastest < facts->pointer.rank() &&
        facts->pointer.divisibility[static_cast<std::size_t>(fastest)] < 16 &&
        facts->pointer.divisibility[static_cast<std::size_t>(fastest)] / bytes <
            facts->pointer.contiguity[static_cast<std::size_t>(fastest)])
      e["note"] = "Triton proves the pointers divisible by only " +
                  std::to_string(facts->pointer.divisibility[static_cast<std::size_t>(fastest)]) +
                  (facts->pointer.divisibility[static_cast<std::size_t>(fastest)] == 1 ? " byte"
                                                                                       : " bytes") +
                  " along dim" + std::to_string(fastest) +
                  ", so it moves at most that much per access (the JIT marks 16-byte aligned "
                  "tensors with tt.divisibility = 16; triton.compile needs them in its attrs)";
    if (strides.values.empty()) {
      e["coalesced"] = nullptr;
      k.globalAccesses.push_back(std::move(e));
      continue;
    }
    // The ideal: the coalesced layout of the same tensor and strides, as Triton would move it
    // with what AxisInfo proves of these pointers along that layout's fastest dim.
    std::vector<uint64_t> order = orderByStrides(strides.values);
    auto params = coalescedBlocked(a.shape, *bits, numWarps, *model, order);
    std::optional<GlobalAccess> ideal;
    std::optional<LinearLayout> layoutOfIdeal;
    std::string idealText;
    if (params.ok()) {
      auto layout = blockedToLinearLayout(*params, a.shape, options.triton);
      if (layout.ok()) {
        layoutOfIdeal = *layout;
        CoalescingOptions io = co;
        io.tritonAlignment = alignmentAlong(*facts, tritonFastestDim(*layout));
        auto coalesced = predictTritonGlobalAccess(*layout, io, *model, options.triton);
        if (coalesced.ok()) {
          ideal = isLoad ? coalesced->load : coalesced->store;
          idealText = blockedAttributeText(*params);
        }
      }
    }
    if (!ideal) {
      e["coalesced"] = nullptr;
      k.globalAccesses.push_back(std::move(e));
      continue;
    }
    e["coalesced"] = accessJson(*ideal);
    e["coalesced"]["layout"] = idealText;
    e["coalesced"]["ptx"] = ideal->ptx(isLoad);
    bool moreSectors = t.sectors > ideal->sectors, moreRequests = t.requests > ideal->requests;
    if (!moreSectors && !moreRequests) {
      k.globalAccesses.push_back(std::move(e));
      continue;
    }
    if (!strides.established || !problems.empty()) {
      e["finding_withheld"] = "the coalesced layout takes fewer requests or sectors here, but " +
                              (strides.why.empty() ? problems : strides.why);
      k.globalAccesses.push_back(std::move(e));
      continue;
    }
    const LayoutEntry& l = *entry;
    std::string message =
        a.op + " at " + a.location + " (" + (l.encoding.empty() ? l.attribute : l.encoding) + ", " +
        a.elementType + ", strides " + strides.text + "): Triton's " +
        e["predicted"]["ptx"].get<std::string>() + " takes " + std::to_string(t.requests) +
        " requests and " + std::to_string(t.sectors) + " sectors per CTA; " + idealText +
        " takes " + std::to_string(ideal->requests) + " and " + std::to_string(ideal->sectors) +
        (isLoad ? " (load in it, then convert_layout)" : " (convert_layout to it, then store)") +
        (e.contains("note") ? "; " + e["note"].get<std::string>() : std::string());
    double excess =
        static_cast<double>(t.sectors > ideal->sectors ? t.sectors - ideal->sectors : 0) +
        static_cast<double>(t.requests - std::min(t.requests, ideal->requests)) / 8;
    SpelledLayout spelled = spellBlocked(*params);
    json fix = {{"shape", a.shape},
                {"element_bits", *bits},
                {"now",
                 {{"layout", l.id},
                  {"attribute", l.attribute},
                  {"requests", t.requests},
                  {"sectors", t.sectors},
                  {"instructions", e["predicted"]["ptx"]}}},
                {"suggested",
                 {{"attribute", spelled.attribute},
                  {"gluon", spelled.gluon},
                  {"gluon_import", kGluonImport},
                  {"requests", ideal->requests},
                  {"sectors", ideal->sectors},
                  {"instructions", ideal->ptx(isLoad)}}},
                {"bound", nullptr},
                {"accepted_by", a.op + std::string(": Triton lowers it in any distributed layout")},
                {"why", "the coalesced #ttg.blocked of this tensor for its strides " +
                            strides.text +
                            " (threads along the fastest-moving dim, the widest "
                            "vector the pointers allow), costed with Triton's own lowering"},
                {"how", isLoad ? "load in this layout, then ttg.convert_layout to layout " +
                                     std::to_string(l.id) + " where the value is used"
                               : "ttg.convert_layout the value to this layout, then store"},
                {"checked", "read back by llcheck's attribute reader as the layout costed"}};
    if (auto back = loadSpec(spelled.attribute,
                             [&] {
                               LayoutContext c;
                               c.shape = a.shape;
                               c.triton = options.triton;
                               return c;
                             }());
        !back.ok() || !sameLayout(back->layout, *layoutOfIdeal))
      fix = {{"error", "a bug in llcheck: its coalesced layout " + spelled.attribute +
                           " does not read back as the layout it costed"}};
    Finding f{"global_above_ideal", message, excess, fix};
    f.op = a.op;
    f.location = a.location;
    f.line = a.line;
    f.suggestedLayout = layoutOfIdeal;
    k.findings.push_back(std::move(f));
    e["finding"] = "global_above_ideal";
    k.globalAccesses.push_back(std::move(e));
  }
}

} // namespace llcheck::reports::detail
