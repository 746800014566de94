// `llcheck hwlayout`: the measured maps fitted as linear layouts, compared with llcheck's
// encodings, and the report (HwLayout.h). The per-family decoding is in HwDecode.cpp.
#include "llcheck/gpu_oracle/HwLayout.h"

#include "HwInternal.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/Spec.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <ostream>
#include <set>
#include <sstream>

namespace llcheck::hwlayout {

using namespace hwprobe;

ObservedMap emptyMap(std::vector<Dim> ins, std::vector<DimSize> outs) {
  ObservedMap m;
  int bits = 0;
  for (const Dim& d : ins)
    bits += d.sizeLog2;
  m.ins = std::move(ins);
  m.outs = std::move(outs);
  m.at.resize(std::size_t{1} << bits);
  return m;
}

void observe(ObservedMap& map, uint64_t x, const std::vector<uint64_t>& value) {
  if (x >= map.at.size()) {
    map.conflicts.push_back("input " + std::to_string(x) + " is outside the instruction");
    return;
  }
  auto& slot = map.at[x];
  if (slot && *slot != value) {
    map.conflicts.push_back(describeInput(map.ins, x) + " received both " + describePoint(*slot) +
                            " and " + describePoint(value));
    return;
  }
  slot = value;
}

std::string describeInput(const std::vector<Dim>& ins, uint64_t x) {
  std::string s;
  for (const Dim& d : ins) {
    uint64_t v = x & ((uint64_t{1} << d.sizeLog2) - 1);
    x >>= d.sizeLog2;
    if (d.sizeLog2 == 0)
      continue;
    s += (s.empty() ? "" : ", ") + d.name.str() + " " + std::to_string(v);
  }
  return s.empty() ? "the only input" : s;
}

std::string describePoint(const std::vector<uint64_t>& p) {
  std::string s = "(";
  for (std::size_t i = 0; i < p.size(); ++i)
    s += (i ? ", " : "") + std::to_string(p[i]);
  return s + ")";
}

Result<LinearLayout> fitLinear(const ObservedMap& map) {
  if (!map.conflicts.empty())
    return makeError("not a function: " + map.conflicts.front() +
                     (map.conflicts.size() > 1
                          ? " (and " + std::to_string(map.conflicts.size() - 1) + " more)"
                          : ""));
  for (uint64_t x = 0; x < map.at.size(); ++x) {
    if (!map.at[x])
      return makeError(describeInput(map.ins, x) + ": nothing arrived");
    if (map.at[x]->size() != map.outs.size())
      return makeError(describeInput(map.ins, x) + ": wrong number of coordinates");
    for (std::size_t d = 0; d < map.outs.size(); ++d)
      if ((*map.at[x])[d] >= map.outs[d].size)
        return makeError(describeInput(map.ins, x) + " -> " + describePoint(*map.at[x]) +
                         ", outside the " + map.outs[d].name.str() + " range of " +
                         std::to_string(map.outs[d].size));
  }
  const auto& zero = *map.at[0];
  if (std::any_of(zero.begin(), zero.end(), [](uint64_t v) { return v != 0; }))
    return makeError("not F2-linear: " + describeInput(map.ins, 0) + " -> " + describePoint(zero) +
                     ", not the origin");
  // The images of the single bits, then every input against the XOR of its bits' images.
  std::vector<std::vector<uint64_t>> columns;
  for (uint64_t bit = 1; bit < map.at.size(); bit <<= 1)
    columns.push_back(*map.at[bit]);
  for (uint64_t x = 0; x < map.at.size(); ++x) {
    std::vector<uint64_t> want(map.outs.size(), 0);
    for (std::size_t b = 0; b < columns.size(); ++b)
      if ((x >> b) & 1)
        for (std::size_t d = 0; d < want.size(); ++d)
          want[d] ^= columns[b][d];
    if (want != *map.at[x])
      return makeError("not F2-linear: " + describeInput(map.ins, x) + " -> " +
                       describePoint(*map.at[x]) + ", but the XOR of its bits' images is " +
                       describePoint(want));
  }
  std::vector<DimBases> bases;
  std::size_t b = 0;
  for (const Dim& d : map.ins) {
    DimBases db{d.name, {}};
    for (int i = 0; i < d.sizeLog2; ++i)
      db.bases.push_back(columns[b++]);
    bases.push_back(std::move(db));
  }
  return LinearLayout::create(bases, map.outs, /*requireSurjective=*/false);
}

std::string firstDifference(const LinearLayout& hardware, const LinearLayout& llcheck) {
  if (hardware.inDims().size() != llcheck.inDims().size() ||
      hardware.outDims().size() != llcheck.outDims().size())
    return "the layouts have different dims";
  for (std::size_t i = 0; i < hardware.inDims().size(); ++i) {
    const Dim& d = hardware.inDims()[i];
    if (!(d == llcheck.inDims()[i]))
      return "the layouts have different input dims (" + d.name.str() + ")";
    for (int b = 0; b < d.sizeLog2; ++b) {
      auto h = hardware.getBasis(d.name, b), l = llcheck.getBasis(d.name, b);
      if (h != l)
        return d.name.str() + " " + std::to_string(uint64_t{1} << b) + ": the GPU " +
               describePoint(h) + ", llcheck " + describePoint(l);
    }
  }
  for (std::size_t i = 0; i < hardware.outDims().size(); ++i)
    if (!(hardware.outDims()[i] == llcheck.outDims()[i]))
      return "the layouts cover different ranges of " + hardware.outDims()[i].name.str();
  return {};
}

namespace detail {

Result<LinearLayout> encodingLayout(const std::string& attr, const std::vector<uint64_t>& shape) {
  LayoutContext o;
  o.shape = shape;
  auto loaded = loadSpec(attr, o);
  if (!loaded.ok())
    return loaded.error();
  return loaded->layout;
}

std::vector<uint64_t> evalAt(const LinearLayout& layout,
                             const std::vector<std::pair<DimName, uint64_t>>& in) {
  uint64_t flat = 0;
  for (const auto& [name, v] : in) {
    int i = layout.inDimIndex(name);
    if (i < 0 || v == 0)
      continue;
    flat |= v << layout.inDimOffset(i);
  }
  uint64_t packed = layout.applyFlat(flat);
  std::vector<uint64_t> out;
  for (std::size_t j = 0; j < layout.outDims().size(); ++j) {
    int bits = layout.outDims()[j].sizeLog2;
    out.push_back((packed >> layout.outDimOffset(static_cast<int>(j))) &
                  (bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1));
  }
  return out;
}

ObservedMap sampleLayout(const LinearLayout& layout, const std::vector<Dim>& ins,
                         const std::vector<DimSize>& outs) {
  ObservedMap m = emptyMap(ins, outs);
  for (uint64_t x = 0; x < m.at.size(); ++x) {
    std::vector<std::pair<DimName, uint64_t>> in;
    uint64_t rest = x;
    bool fits = true;
    for (const Dim& d : ins) {
      uint64_t v = rest & ((uint64_t{1} << d.sizeLog2) - 1);
      rest >>= d.sizeLog2;
      int idx = layout.inDimIndex(d.name);
      if (v != 0 && (idx < 0 || d.sizeLog2 > layout.inDims()[idx].sizeLog2))
        fits = false;
      in.emplace_back(d.name, v);
    }
    if (!fits) {
      m.conflicts.push_back(describeInput(ins, x) + " is past the encoding's own inputs");
      break;
    }
    m.at[x] = evalAt(layout, in);
  }
  return m;
}

Result<LinearLayout> restrictedEncoding(const std::string& attr, const std::vector<uint64_t>& shape,
                                        const std::vector<Dim>& ins,
                                        const std::vector<DimSize>& outs) {
  auto layout = encodingLayout(attr, shape);
  if (!layout.ok())
    return layout.error();
  auto fitted = fitLinear(sampleLayout(*layout, ins, outs));
  if (!fitted.ok())
    return makeError("llcheck's layout restricted to one instruction: " + fitted.error().str());
  return fitted;
}

LayoutComparison compareMaps(std::string what, std::string encoding, const ObservedMap& hardware,
                             const Result<LinearLayout>& expected) {
  LayoutComparison c;
  c.what = std::move(what);
  c.encoding = std::move(encoding);
  auto fitted = fitLinear(hardware);
  if (!fitted.ok()) {
    c.problem = "the GPU's map: " + fitted.error().str();
    return c;
  }
  c.read = true;
  c.hardware = *fitted;
  if (!expected.ok()) {
    c.problem = expected.error().str();
    return c;
  }
  c.problem = firstDifference(*fitted, *expected);
  c.equal = c.problem.empty();
  return c;
}

std::vector<DimSize> tileOuts(const std::vector<uint64_t>& sizes) {
  std::vector<DimSize> outs;
  for (std::size_t d = 0; d < sizes.size(); ++d)
    outs.push_back({dims::standardOut(static_cast<int>(d)), sizes[d]});
  return outs;
}

int log2Exact(uint64_t v) {
  return std::countr_zero(v);
}

std::string attrText(const char* name, const std::string& body) {
  return std::string("#ttg.") + name + "<{" + body + "}>";
}

namespace {
std::string list(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}
} // namespace

std::string mmaV2Parent(const std::vector<uint64_t>& warps) {
  return attrText("nvidia_mma", "versionMajor = 2, versionMinor = 0, warpsPerCTA = " + list(warps) +
                                    ", instrShape = [16, 8]");
}

std::string mmaV2ParentRank3(const std::vector<uint64_t>& warps) {
  return attrText("nvidia_mma", "versionMajor = 2, versionMinor = 0, warpsPerCTA = " + list(warps) +
                                    ", instrShape = [1, 16, 8]");
}

std::string mmaV3Parent(const std::vector<uint64_t>& warps, int n, int k) {
  return attrText("nvidia_mma", "versionMajor = 3, versionMinor = 0, warpsPerCTA = " + list(warps) +
                                    ", instrShape = [16, " + std::to_string(n) + ", " +
                                    std::to_string(k) + "]");
}

std::string dotOperand(int opIdx, const std::string& parent, int kWidth) {
  return attrText("dot_op", "opIdx = " + std::to_string(opIdx) + ", parent = " + parent +
                                ", kWidth = " + std::to_string(kWidth));
}

int nativeKWidth(Elem e) {
  int bits = elemBits(e);
  return bits >= 32 ? 1 : 32 / bits;
}

std::string instructionText(const Probe& p) {
  std::string id = p.id;
  switch (p.family) {
  case kMmaSync: {
    std::string shape =
        "m" + std::to_string(p.m) + "n" + std::to_string(p.n) + "k" + std::to_string(p.k);
    std::string ab = elemName(p.elem);
    std::string acc = elemName(p.acc);
    return "mma.sync.aligned." + shape + ".row.col." + acc + "." + ab + "." + ab + "." + acc;
  }
  case kWgmmaSS:
  case kWgmmaRS:
    return std::string("wgmma.mma_async.sync.aligned.m64n") + std::to_string(p.n) + "k" +
           std::to_string(p.k) + "." + elemName(p.acc) + "." + elemName(p.elem) + "." +
           elemName(p.elem) + (p.family == kWgmmaSS ? " (A, B: shared memory)" : " (A: registers)");
  case kLdmatrix:
  case kStmatrix:
    return std::string(p.family == kLdmatrix ? "ldmatrix" : "stmatrix") + ".sync.aligned.m8n8.x" +
           std::to_string(p.x) + (p.trans ? ".trans" : "") + ".shared.b16";
  case kTma:
    return "cp.async.bulk.tensor." + std::to_string(p.rank) + "d, " +
           (p.swizzle ? std::to_string(p.swizzle) + "-byte swizzle" : std::string("no swizzle")) +
           ", " + std::to_string(elemBits(p.elem)) + "-bit elements";
  default:
    return std::string("cp.async.") + (p.trans ? "cg" : "ca") + ".shared.global, " +
           std::to_string(p.x) + " bytes";
  }
}

} // namespace detail

// ---- The whole file ---------------------------------------------------------------------------

namespace {

std::string knownReason(const CheckOptions& o, const std::string& key) {
  if (o.known.is_object()) {
    auto it = o.known.find(key);
    if (it != o.known.end() && it->is_string())
      return it->get<std::string>();
  }
  return {};
}

std::string stringField(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null())
    return {};
  if (it->is_string())
    return it->get<std::string>();
  return dumpJson(*it);
}

/// memcheck's verdict per family (the file's schema is checked). A GPU's results pass only with
/// the evidence docs/hwlayout.md names: a sanitizer section in which memcheck ran over every
/// probe of every family and counted no error. Its exit status is 0, or 1 where a probe of the
/// family failed (that probe is reported with its own record); 9 is memcheck's own "errors".
void readSanitizer(const nlohmann::json& results, Report& r) {
  auto it = results.find("sanitizer");
  if (it == results.end()) {
    if (!r.emulated)
      r.problems.push_back("compute-sanitizer memcheck: the file has no sanitizer section (run.sh "
                           "found no compute-sanitizer), so nothing shows the probes ran clean");
    return;
  }
  const nlohmann::json& families = (*it)["families"];
  std::vector<std::string> order;
  for (const Probe& p : kProbes)
    if (std::find(order.begin(), order.end(), familyName(p.family)) == order.end())
      order.emplace_back(familyName(p.family));
  for (const std::string& family : order) {
    auto f = families.find(family);
    if (f == families.end()) {
      r.sanitizer.push_back(family + ": not run");
      r.problems.push_back("compute-sanitizer memcheck, " + family + ": not in the file");
      continue;
    }
    const nlohmann::json& errors = (*f)["errors"];
    const nlohmann::json& exitStatus = (*f)["exit"];
    bool familyFailed = false;
    for (const ProbeReport& p : r.probes)
      familyFailed = familyFailed || (p.family == family && !p.ran);
    std::string line = family + ": " +
                       (errors.is_null() ? std::string("no error summary")
                                         : std::to_string(errors.get<uint64_t>()) + " errors");
    uint64_t status = exitStatus.is_null() ? 256 : exitStatus.get<uint64_t>();
    if (status != 0)
      line += exitStatus.is_null() ? " (no exit status)" : " (exit " + std::to_string(status) + ")";
    bool clean = !errors.is_null() && errors.get<uint64_t>() == 0 &&
                 (status == 0 || (status == 1 && familyFailed));
    std::string unchecked;
    for (const Probe& p : kProbes) {
      if (familyName(p.family) != family)
        continue;
      const nlohmann::json& ran = (*f)["probes"];
      if (std::find(ran.begin(), ran.end(), nlohmann::json(p.id)) == ran.end()) {
        unchecked = p.id;
        break;
      }
    }
    r.sanitizer.push_back(line);
    if (!clean)
      r.problems.push_back("compute-sanitizer memcheck, " + line);
    else if (!unchecked.empty())
      r.problems.push_back("compute-sanitizer memcheck, " + family + ": did not run " + unchecked);
  }
  for (const auto& [family, v] : families.items())
    if (std::find(order.begin(), order.end(), family) == order.end())
      r.problems.push_back("compute-sanitizer memcheck: family " + family + " has no probes");
}

} // namespace

Result<Report> checkResults(const nlohmann::json& results, const CheckOptions& options) {
  if (!results.is_object() || stringField(results, "format") != "llcheck-hwlayout 1")
    return makeError("not a results file of the instruction probes (\"format\": \"llcheck-hwlayout "
                     "1\" expected)");
  // Every field is checked before a decoder reads it: the decoders then meet only records of
  // the shapes and ranges the probes write.
  auto schema = detail::checkSchema(results);
  if (!schema.ok())
    return schema.error();
  auto probes = results.find("probes");
  Report r;
  r.gpu = stringField(results, "gpu");
  r.driver = stringField(results, "driver");
  r.cuda = stringField(results, "nvcc");
  if (r.cuda.empty())
    r.cuda = stringField(results, "cuda_runtime");
  r.date = stringField(results, "date");
  r.emulated = results.value("emulated", false);
  if (results.contains("build_error"))
    r.problems.push_back("the probes did not build: " + stringField(results, "build_error"));
  std::map<std::string, const nlohmann::json*> byId;
  for (const auto& p : *probes)
    byId[p["id"].get<std::string>()] = &p;
  detail::Tiles tiles;
  for (const Probe& p : kProbes) {
    auto it = byId.find(p.id);
    if (it == byId.end()) {
      r.missing.push_back(p.id);
      continue;
    }
    const nlohmann::json& entry = *it->second;
    ProbeReport pr;
    pr.id = p.id;
    pr.family = familyName(p.family);
    pr.instruction = detail::instructionText(p);
    pr.ran = entry["ok"].get<bool>();
    if (!pr.ran) {
      pr.error = "did not run: " + stringField(entry, "error");
    } else {
      try {
        const nlohmann::json& o = entry["observed"];
        switch (p.family) {
        case kMmaSync:
          detail::decodeMma(p, o, pr, tiles);
          break;
        case kWgmmaSS:
          detail::decodeWgmmaSS(p, o, pr, tiles);
          break;
        case kWgmmaRS:
          detail::decodeWgmmaRS(p, o, pr, tiles);
          break;
        case kLdmatrix:
        case kStmatrix:
          detail::decodeMatrix(p, o, pr);
          break;
        case kTma:
          detail::decodeTma(p, o, pr);
          break;
        default:
          detail::decodeCpAsync(p, o, pr);
          break;
        }
      } catch (const nlohmann::json::exception& e) {
        pr.error = std::string("malformed observations: ") + e.what();
      }
    }
    for (LayoutComparison& c : pr.layouts)
      c.known = knownReason(options, pr.id + "/" + c.what);
    if (!pr.error.empty() || !pr.ran) {
      std::string k = knownReason(options, pr.id);
      if (!k.empty())
        pr.notes.push_back("known: " + k);
    }
    r.probes.push_back(std::move(pr));
  }
  if (options.tilings)
    r.tilings = detail::tilingChecks(tiles);
  readSanitizer(results, r);
  return r;
}

namespace {

bool probeKnown(const ProbeReport& p) {
  return std::any_of(p.notes.begin(), p.notes.end(),
                     [](const std::string& n) { return n.rfind("known: ", 0) == 0; });
}

bool layoutOk(const LayoutComparison& c) {
  return (c.read && (c.equal || !c.hasCounterpart)) || !c.known.empty();
}

} // namespace

std::vector<FamilySummary> summarize(const Report& report) {
  std::vector<FamilySummary> out;
  auto of = [&](const std::string& family) -> FamilySummary& {
    for (auto& f : out)
      if (f.family == family)
        return f;
    out.push_back({});
    out.back().family = family;
    return out.back();
  };
  for (const Probe& p : kProbes)
    ++of(familyName(p.family)).probes;
  for (const ProbeReport& p : report.probes) {
    FamilySummary& f = of(p.family);
    f.ran += p.ran ? 1 : 0;
    for (const LayoutComparison& c : p.layouts) {
      if (c.read)
        ++f.read;
      if (!c.hasCounterpart)
        ++f.noCounterpart;
      else if (c.read && c.equal)
        ++f.equal;
      else
        ++f.differ;
      if (!c.known.empty() && !(c.read && c.equal))
        ++f.known;
    }
  }
  for (const TilingCheck& t : report.tilings) {
    FamilySummary& f = of(t.family);
    ++f.tilings;
    f.tilingsOk += t.ok ? 1 : 0;
  }
  return out;
}

bool passed(const Report& report) {
  if (!report.missing.empty() || !report.problems.empty())
    return false;
  for (const ProbeReport& p : report.probes) {
    if ((!p.ran || !p.error.empty()) && !probeKnown(p))
      return false;
    for (const LayoutComparison& c : p.layouts)
      if (!layoutOk(c))
        return false;
  }
  return std::all_of(report.tilings.begin(), report.tilings.end(),
                     [](const TilingCheck& t) { return t.ok; });
}

namespace {

/// Text from the results or known-differences file as a terminal may show it: control bytes
/// (C0, DEL, and C1 written in UTF-8) as \xNN, so that a forged "gpu" cannot move the cursor,
/// recolour or retitle the terminal, or start a line of its own.
std::string printable(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  char hex[8];
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    bool c1 = c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
              static_cast<unsigned char>(s[i + 1]) <= 0x9F;
    if (c < 0x20 || c == 0x7F || c1) {
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
      if (c1) {
        std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(s[++i]));
        out += hex;
      }
    } else {
      out += s[i];
    }
  }
  return out;
}

} // namespace

void printReport(std::ostream& os, const Report& report) {
  os << "llcheck hwlayout: "
     << (report.emulated
             ? std::string("the PTX ISA's fragment tables, emulated (no GPU)")
             : printable(report.gpu + (report.driver.empty() ? "" : ", driver " + report.driver) +
                         (report.cuda.empty() ? "" : ", " + report.cuda) +
                         (report.date.empty() ? "" : ", " + report.date)))
     << "\n";
  os << "family      probes  layouts read  equal llcheck  no counterpart  differ  tilings\n";
  int read = 0, equal = 0, differ = 0;
  for (const FamilySummary& f : summarize(report)) {
    char line[160];
    std::snprintf(line, sizeof line, "%-10s  %2d/%-3d  %12d  %13d  %14d  %6d  %d/%d\n",
                  f.family.c_str(), f.ran, f.probes, f.read, f.equal, f.noCounterpart, f.differ,
                  f.tilingsOk, f.tilings);
    os << line;
    read += f.read;
    equal += f.equal;
    differ += f.differ;
  }
  for (const std::string& s : report.sanitizer)
    os << "memcheck " << s << "\n";
  if (report.sanitizer.empty() && !report.emulated)
    os << "memcheck: not in this file\n";
  for (const ProbeReport& p : report.probes) {
    if (!p.ran || !p.error.empty())
      os << (probeKnown(p) ? "KNOWN " : "FAILED ") << p.id << " (" << p.instruction
         << "): " << printable(p.error) << "\n";
    for (const LayoutComparison& c : p.layouts) {
      if (c.read && (c.equal || !c.hasCounterpart))
        continue;
      os << (c.known.empty() ? "DIFFERS " : "KNOWN ") << p.id << " " << c.what << " vs "
         << c.encoding << ": " << printable(c.problem) << "\n";
      if (!c.known.empty())
        os << "  known: " << printable(c.known) << "\n";
    }
  }
  int badTilings = 0;
  for (const TilingCheck& t : report.tilings)
    if (!t.ok && ++badTilings <= 20)
      os << "TILING " << t.probe << ": " << t.encoding << " over " << t.shape << ": " << t.problem
         << "\n";
  for (const std::string& m : report.missing)
    os << "MISSING " << m << " (the file has no result for this probe)\n";
  for (const std::string& pr : report.problems)
    os << "PROBLEM " << printable(pr) << "\n";
  os << read << " layouts read off the " << (report.emulated ? "emulation" : "GPU") << ", " << equal
     << " equal llcheck's encodings, " << differ << " differ; "
     << (passed(report) ? "passed" : "FAILED") << "\n";
}

nlohmann::json reportJson(const Report& report) {
  nlohmann::json j = {{"gpu", report.gpu},
                      {"driver", report.driver},
                      {"cuda", report.cuda},
                      {"date", report.date},
                      {"emulated", report.emulated}};
  j["families"] = nlohmann::json::array();
  for (const FamilySummary& f : summarize(report))
    j["families"].push_back({{"family", f.family},
                             {"probes", f.probes},
                             {"ran", f.ran},
                             {"read", f.read},
                             {"equal", f.equal},
                             {"no_counterpart", f.noCounterpart},
                             {"differ", f.differ},
                             {"known", f.known},
                             {"tilings", f.tilings},
                             {"tilings_ok", f.tilingsOk}});
  j["probes"] = nlohmann::json::array();
  for (const ProbeReport& p : report.probes) {
    nlohmann::json pj = {{"id", p.id},
                         {"family", p.family},
                         {"instruction", p.instruction},
                         {"ran", p.ran},
                         {"error", p.error},
                         {"notes", p.notes},
                         {"layouts", nlohmann::json::array()}};
    for (const LayoutComparison& c : p.layouts) {
      nlohmann::json cj = {{"what", c.what},   {"encoding", c.encoding},
                           {"read", c.read},   {"has_counterpart", c.hasCounterpart},
                           {"equal", c.equal}, {"problem", c.problem},
                           {"known", c.known}};
      if (c.hardware)
        cj["hardware"] = toJson(*c.hardware);
      pj["layouts"].push_back(std::move(cj));
    }
    j["probes"].push_back(std::move(pj));
  }
  j["tilings"] = nlohmann::json::array();
  for (const TilingCheck& t : report.tilings)
    j["tilings"].push_back({{"family", t.family},
                            {"probe", t.probe},
                            {"encoding", t.encoding},
                            {"shape", t.shape},
                            {"ok", t.ok},
                            {"problem", t.problem}});
  j["sanitizer"] = report.sanitizer;
  j["missing"] = report.missing;
  j["problems"] = report.problems;
  j["passed"] = passed(report);
  return j;
}

} // namespace llcheck::hwlayout
