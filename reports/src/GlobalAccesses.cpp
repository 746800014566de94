// Each tt.load / tt.store of a tensor of pointers, as `llcheck coalescing --lowering triton`
// predicts it (Coalescing.h, measured on an H100 in gpu_oracle/triton_coalescing), beside the
// layout that moves the same tensor in the fewest requests and sectors.
//
// TTGIR does not show where the pointers point. The entry assumes what Triton's own coalescing
// assumes of contiguous pointers: a row-major tensor of the op's shape whose base is line
// aligned (as torch's allocations are). The vector, the instructions and the requests hold for
// any row stride that keeps rows 16-byte aligned; the sectors hold where each row starts on a
// 32-byte boundary (a tile of a larger tensor whose rows are sector aligned), which is why the
// entry states the assumption and counts no lines.
#include "GlobalAccesses.h"

#include "llcheck/core/conversion/Coalescing.h"
#include "llcheck/core/conversion/SharedMemory.h"

#include <algorithm>

namespace llcheck::reports::detail {

using json = nlohmann::json;

namespace {

constexpr const char* kAssumed =
    "a contiguous row-major tensor of this shape at a 128-byte aligned base (TTGIR does not show "
    "the pointers' strides)";

constexpr const char* kAssumedUnmarked =
    "a contiguous row-major tensor of this shape at a 128-byte aligned base that Triton cannot "
    "prove aligned (no pointer argument carries tt.divisibility): one element per access";

json accessJson(const GlobalAccess& a) {
  json j = toJson(a);
  j.erase("lines");
  j.erase("max_lines_per_request");
  return j;
}

} // namespace

void reportGlobalAccesses(const TtgirModule& module, const ReportOptions& options,
                          KernelReport& k) {
  if (module.globalAccesses.empty())
    return;
  auto model = globalMemoryModel(k.arch);
  uint64_t numWarps = k.numWarps.value_or(4);
  // Triton vectorizes a pointer only as far as AxisInfo proves it aligned: with no
  // tt.divisibility on any pointer argument, every access is one element, whatever the layout.
  std::string unmarked;
  if (!module.pointerArguments.empty() &&
      std::none_of(module.pointerArguments.begin(), module.pointerArguments.end(),
                   [](const TtgirPointerArgument& p) { return p.divisibility >= 16; }))
    unmarked = "no pointer argument of the kernel carries tt.divisibility = 16, so Triton "
               "moves one element per access whatever the layout (the JIT marks 16-byte "
               "aligned tensors; triton.compile needs them in its attrs)";
  for (const TtgirGlobalAccess& a : module.globalAccesses) {
    json e = {{"op", a.op},       {"location", a.location},
              {"line", a.line},   {"layout", a.pointers.layout},
              {"shape", a.shape}, {"dtype", a.elementType}};
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
    const LayoutEntry* entry =
        a.pointers.layout >= 0 && static_cast<std::size_t>(a.pointers.layout) < k.layouts.size()
            ? &k.layouts[static_cast<std::size_t>(a.pointers.layout)]
            : nullptr;
    if (!entry || !entry->layout) {
      skip("the pointers' layout could not be read");
      continue;
    }
    CoalescingOptions co;
    co.elementBits = *bits;
    bool isLoad = a.op == "tt.load";
    CoalescingOptions asEmitted = co;
    if (!unmarked.empty())
      asEmitted.maxVectorLog2 = 0;
    auto triton = predictTritonGlobalAccess(*entry->layout, asEmitted, *model, options.triton);
    auto best = predictGlobalAccess(*entry->layout, co, *model);
    if (!triton.ok() || !best.ok()) {
      skip((triton.ok() ? best.error() : triton.error()).message);
      continue;
    }
    const GlobalAccess& t = isLoad ? triton->load : triton->store;
    e["assumed"] = unmarked.empty() ? kAssumed : kAssumedUnmarked;
    e["predicted"] = accessJson(t);
    e["predicted"]["lowering"] = "triton";
    e["predicted"]["ptx"] = t.ptx(isLoad);
    e["predicted"]["llcheck"] = accessJson(*best);
    // The ideal: the coalesced layout of the same tensor, as Triton would move it.
    auto params = coalescedBlocked(a.shape, *bits, numWarps, *model);
    std::optional<GlobalAccess> ideal;
    std::string idealText;
    if (params.ok()) {
      auto layout = blockedToLinearLayout(*params, a.shape, options.triton);
      if (layout.ok()) {
        auto coalesced = predictTritonGlobalAccess(*layout, co, *model, options.triton);
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
    if (!unmarked.empty())
      e["note"] = unmarked;
    bool moreSectors = t.sectors > ideal->sectors, moreRequests = t.requests > ideal->requests;
    if (moreSectors || moreRequests) {
      const LayoutEntry& l = *entry;
      std::string message =
          a.op + " at " + a.location + " (" + (l.encoding.empty() ? l.attribute : l.encoding) +
          ", " + a.elementType + "): Triton's " + e["predicted"]["ptx"].get<std::string>() +
          " takes " + std::to_string(t.requests) + " requests and " + std::to_string(t.sectors) +
          " sectors per CTA; " + idealText + " takes " + std::to_string(ideal->requests) + " and " +
          std::to_string(ideal->sectors) +
          (isLoad ? " (load in it, then convert_layout)" : " (convert_layout to it, then store)") +
          (unmarked.empty() ? std::string() : "; " + unmarked);
      double excess =
          static_cast<double>(t.sectors > ideal->sectors ? t.sectors - ideal->sectors : 0) +
          static_cast<double>(t.requests - std::min(t.requests, ideal->requests)) / 8;
      k.findings.push_back({"global_above_ideal", message, excess});
      e["finding"] = "global_above_ideal";
    }
    k.globalAccesses.push_back(std::move(e));
  }
}

} // namespace llcheck::reports::detail
