// verify(): each property by the algebra, then by enumeration, then compared. Counterexamples
// come from the algebra and must be confirmed by applying the layout (and by the enumerated
// table when there is one) before they are reported.
#include "llcheck/core/Properties.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/XorBasis.h"

#include <algorithm>
#include <bit>
#include <sstream>

namespace llcheck {

using nlohmann::json;

LayoutKind classify(const LinearLayout& layout) {
  bool allDistributed = layout.getNumInDims() > 0, allMemory = layout.getNumInDims() > 0;
  bool hasThreadDim = false, hasOffset = false;
  for (const Dim& d : layout.inDims()) {
    bool thread = d.name == dims::kRegister || d.name == dims::kLane || d.name == dims::kWarp;
    hasThreadDim = hasThreadDim || thread;
    hasOffset = hasOffset || d.name == dims::kOffset;
    allDistributed = allDistributed && (thread || d.name == dims::kBlock);
    allMemory = allMemory && (d.name == dims::kOffset || d.name == dims::kBlock);
  }
  if (allDistributed && hasThreadDim)
    return LayoutKind::Distributed;
  if (allMemory && hasOffset)
    return LayoutKind::Memory;
  return LayoutKind::Generic;
}

const char* kindName(LayoutKind kind) {
  switch (kind) {
  case LayoutKind::Distributed:
    return "distributed";
  case LayoutKind::Memory:
    return "memory";
  case LayoutKind::Generic:
    return "generic";
  }
  return "generic";
}

const char* propertyName(Property property) {
  switch (property) {
  case Property::Injective:
    return "injective";
  case Property::Surjective:
    return "surjective";
  case Property::Invertible:
    return "invertible";
  case Property::Distributed:
    return "distributed";
  case Property::Memory:
    return "memory";
  }
  return "?";
}

const std::vector<Property>& allProperties() {
  static const std::vector<Property> all = {Property::Injective, Property::Surjective,
                                            Property::Invertible, Property::Distributed,
                                            Property::Memory};
  return all;
}

std::optional<Property> parseProperty(std::string_view name) {
  for (Property p : allProperties())
    if (name == propertyName(p))
      return p;
  return std::nullopt;
}

Error unknownPropertyError(std::string_view name, const std::string& where) {
  std::string known;
  for (Property p : allProperties())
    known += (known.empty() ? "" : ", ") + std::string(propertyName(p));
  return makeError("unknown property '" + std::string(name) + "' (known: " + known + ")", where);
}

std::string PropertyResult::status() const {
  if (holds)
    return "yes";
  return !unknown.empty() && counterexample.is_null() ? "unknown" : "no";
}

bool VerifyReport::ok() const {
  if (!disagreements.empty())
    return false;
  for (const PropertyResult& p : properties)
    if ((p.required && !p.holds) || !p.unknown.empty())
      return false;
  return true;
}

std::vector<std::string> VerifyReport::unknowns() const {
  std::vector<std::string> names;
  for (const PropertyResult& p : properties)
    if (!p.unknown.empty())
      names.push_back(p.name());
  return names;
}

const PropertyResult* VerifyReport::find(Property property) const {
  for (const PropertyResult& p : properties)
    if (p.property == property)
      return &p;
  return nullptr;
}

std::string describePoint(const Point& p) {
  std::string s;
  for (const auto& [name, v] : p)
    s += (s.empty() ? "" : ", ") + name.str() + " " + std::to_string(v);
  return s.empty() ? "(the only input)" : s;
}

std::string describeOutput(const Point& p) {
  std::string s = "(";
  for (std::size_t k = 0; k < p.size(); ++k)
    s += (k ? ", " : "") + std::to_string(p[k].second);
  return s + ")";
}

namespace {

json pointJson(const Point& p) {
  json j = json::object();
  for (const auto& [name, v] : p)
    j[name.str()] = v;
  return j;
}

/// Confirms a claim about the layout that a counterexample rests on; a failure means the
/// algebra produced a wrong witness, which must never reach the user as a finding.
void confirm(bool ok, const std::string& what) {
  if (!ok)
    throw LayoutError(makeError("internal error: counterexample not confirmed by apply: " + what));
}

std::vector<std::string> byList(bool enumerated) {
  if (enumerated)
    return {"algebra", "enumeration"};
  return {"algebra"};
}

struct Witnesses {
  // Injectivity: inputs x1 < x2 (flat) with equal images; nullopt if injective.
  std::optional<std::pair<uint64_t, uint64_t>> collision;
  // Surjectivity: the smallest packed output not reached.
  std::optional<uint64_t> missing;
};

Witnesses algebraWitnesses(const LinearLayout& l) {
  Witnesses w;
  XorBasis basis;
  auto cols = l.columns();
  for (std::size_t j = 0; j < cols.size(); ++j) {
    if (!basis.insert(cols[j], uint64_t{1} << j) && !w.collision) {
      // The first dependent column equals a unique combination of the columns before it.
      uint64_t x1 = *basis.solve(cols[j]);
      w.collision = std::make_pair(x1, uint64_t{1} << j);
    }
  }
  w.missing = basis.smallestMissing(l.getTotalOutDimSizeLog2());
  return w;
}

json collisionJson(const LinearLayout& l, std::pair<uint64_t, uint64_t> c) {
  Point a = l.unpackIn(c.first), b = l.unpackIn(c.second);
  auto ya = l.apply(a), yb = l.apply(b);
  confirm(ya.ok() && yb.ok() && *ya == *yb && a != b,
          describePoint(a) + " and " + describePoint(b) + " should map to the same output");
  return {{"inputs", {pointJson(a), pointJson(b)}}, {"output", pointJson(*ya)}};
}

/// The point without its size-1 dimensions (always 0), for text a person reads.
Point withoutUnitDims(const LinearLayout& l, Point p) {
  std::erase_if(p, [&l](const auto& e) { return l.getInDimSizeLog2(e.first) == 0; });
  return p;
}

std::string collisionText(const LinearLayout& l, std::pair<uint64_t, uint64_t> c) {
  Point a = withoutUnitDims(l, l.unpackIn(c.first)), b = withoutUnitDims(l, l.unpackIn(c.second));
  Point y = l.unpackOut(l.applyFlat(c.first));
  return describePoint(a) + " -> " + describeOutput(y) + " and " + describePoint(b) + " -> " +
         describeOutput(y);
}

/// A legality witness: one column of the matrix.
json columnJson(const LinearLayout& l, int flatBit, const std::string& reason) {
  int d = 0;
  while (d + 1 < l.getNumInDims() && l.inDimOffset(d + 1) <= flatBit)
    ++d;
  DimName dim = l.inDims()[d].name;
  int basis = flatBit - l.inDimOffset(d);
  Point in = l.unpackIn(uint64_t{1} << flatBit);
  auto y = l.apply(in);
  std::vector<uint64_t> value = l.getBasis(dim, basis);
  json values = json::array();
  bool same = y.ok() && y->size() == value.size();
  for (std::size_t k = 0; same && k < value.size(); ++k) {
    same = (*y)[k].second == value[k];
    values.push_back(value[k]);
  }
  confirm(same, dim.str() + " basis " + std::to_string(basis));
  return {{"input_dim", dim.str()}, {"basis", basis}, {"value", values}, {"reason", reason}};
}

std::string columnName(const LinearLayout& l, int flatBit) {
  int d = 0;
  while (d + 1 < l.getNumInDims() && l.inDimOffset(d + 1) <= flatBit)
    ++d;
  return l.inDims()[d].name.str() + "=" +
         std::to_string(uint64_t{1} << (flatBit - l.inDimOffset(d)));
}

std::string inputDimNames(const LinearLayout& l) {
  std::string s;
  for (const Dim& d : l.inDims())
    s += (s.empty() ? "" : ", ") + d.name.str();
  return s.empty() ? "none" : s;
}

/// Def. 4.10 / 4.14 column conditions on the packed columns: the first violating column.
struct ColumnCheck {
  int column = -1;
  std::string reason;
};

ColumnCheck distributedColumns(std::span<const uint64_t> cols, const LinearLayout& l) {
  for (std::size_t j = 0; j < cols.size(); ++j) {
    if (std::popcount(cols[j]) > 1)
      return {static_cast<int>(j), "column has " + std::to_string(std::popcount(cols[j])) +
                                       " non-zero bits; a distributed layout allows at most one"};
    for (std::size_t i = 0; i < j; ++i)
      if (cols[j] != 0 && cols[i] == cols[j])
        return {static_cast<int>(j),
                "repeats the non-zero column of " + columnName(l, static_cast<int>(i))};
  }
  return {};
}

ColumnCheck memoryColumns(std::span<const uint64_t> cols) {
  for (std::size_t j = 0; j < cols.size(); ++j) {
    int bits = std::popcount(cols[j]);
    if (bits < 1 || bits > 2)
      return {static_cast<int>(j), "column has " + std::to_string(bits) +
                                       " non-zero bits; a memory layout needs 1 or 2"};
  }
  return {};
}

std::string collisionPairText(std::optional<std::pair<uint64_t, uint64_t>> p) {
  return p ? "inputs " + std::to_string(p->first) + " and " + std::to_string(p->second) + " collide"
           : std::string("no collision");
}

std::string missingOutputText(std::optional<uint64_t> m) {
  return m ? "output " + std::to_string(*m) + " is missed" : std::string("nothing missed");
}

/// The enumerated table when the layout is small enough (the second opinion); otherwise why
/// not, in report.enumerationSkipped.
std::optional<EnumeratedLayout> enumerationOf(const LinearLayout& l, const VerifyOptions& options,
                                              VerifyReport& report) {
  std::optional<EnumeratedLayout> table;
  if (l.getTotalInDimSizeLog2() <= options.maxEnumerationBits) {
    auto t = EnumeratedLayout::build(l.getBases(), l.getOutDims(), options.maxEnumerationBits);
    if (t.ok()) {
      table = std::move(*t);
      table->setProgress(options.progress);
    } else
      report.enumerationSkipped = t.error().message;
  } else {
    report.enumerationSkipped = "2^" + std::to_string(l.getTotalInDimSizeLog2()) +
                                " inputs exceed the enumeration limit 2^" +
                                std::to_string(options.maxEnumerationBits);
  }
  return table;
}

/// What verify's steps share: the layout, the report being written, the algebra's witnesses,
/// the enumerated table (when there is one), the packed columns and each property's `by`.
struct VerifyContext {
  const LinearLayout& l;
  const VerifyOptions& options;
  VerifyReport& report;
  const Witnesses& w;
  const std::optional<EnumeratedLayout>& table;
  std::span<const uint64_t> cols;
  std::vector<std::string> by;

  /// Records that the algebra and the enumeration disagree about `what`.
  void disagree(const std::string& what, const std::string& algebra,
                const std::string& enumeration) const {
    report.disagreements.push_back(what + ": algebra says " + algebra + ", enumeration says " +
                                   enumeration);
  }

  /// Whether --require asks for `property`, or the layout's kind implies it.
  [[nodiscard]] bool isRequired(Property property) const {
    if (std::find(options.require.begin(), options.require.end(), property) !=
        options.require.end())
      return true;
    return (property == Property::Distributed && report.kind == LayoutKind::Distributed) ||
           (property == Property::Memory && report.kind == LayoutKind::Memory);
  }
};

/// The algebra's injectivity, surjectivity and columns against the enumerated table's, and the
/// algebra's unreached output confirmed against every value the layout takes.
void compareWithEnumeration(const VerifyContext& v) {
  const Witnesses& w = v.w;
  const auto& table = v.table;
  if (table) {
    auto collision = table->firstCollision();
    if (collision != w.collision)
      v.disagree("injectivity", collisionPairText(w.collision), collisionPairText(collision));
    auto missing = table->smallestMissingOutput();
    if (missing != w.missing)
      v.disagree("surjectivity", missingOutputText(w.missing), missingOutputText(missing));
    // The columns as the enumeration sees them: the images of the powers of two.
    for (std::size_t j = 0; j < v.cols.size(); ++j)
      if (table->valueAt(uint64_t{1} << j) != v.cols[j])
        v.disagree("column " + columnName(v.l, static_cast<int>(j)), std::to_string(v.cols[j]),
                   std::to_string(table->valueAt(uint64_t{1} << j)));
  }
  if (w.missing && table) {
    // Re-check the unreached output against every value the layout takes.
    bool reached = false;
    for (uint64_t x = 0, n = table->numInputs(); x < n && !reached; ++x) {
      if (v.options.progress && (x & ((uint64_t{1} << 20) - 1)) == 0)
        v.options.progress("the missing output", x, n);
      reached = table->valueAt(x) == *w.missing;
    }
    confirm(!reached, describeOutput(v.l.unpackOut(*w.missing)) + " should not be reached");
  }
}

PropertyResult invertibleProperty(const VerifyContext& v, bool injective, bool invertible,
                                  const json& injectiveCx, const json& surjectiveCx) {
  const LinearLayout& l = v.l;
  PropertyResult p{Property::Invertible,
                   invertible,
                   v.by,
                   v.isRequired(Property::Invertible),
                   json(),
                   "",
                   "",
                   json()};
  int inBits = l.getTotalInDimSizeLog2(), outBits = l.getTotalOutDimSizeLog2();
  if (!invertible) {
    std::string sizes = inBits != outBits ? "2^" + std::to_string(inBits) + " inputs but 2^" +
                                                std::to_string(outBits) + " outputs; "
                                          : "";
    if (!injective) {
      p.counterexample = injectiveCx;
      p.detail = sizes + "not injective: " + collisionText(l, *v.w.collision);
    } else {
      p.counterexample = surjectiveCx;
      p.detail =
          sizes + "not surjective: no input maps to " + describeOutput(l.unpackOut(*v.w.missing));
    }
  }
  return p;
}

/// Def. 4.10, with the enumerated table's columns checked the same way.
PropertyResult distributedProperty(const VerifyContext& v, bool surjective,
                                   const json& surjectiveCx) {
  const LinearLayout& l = v.l;
  PropertyResult p{Property::Distributed,
                   false,
                   v.by,
                   v.isRequired(Property::Distributed),
                   json(),
                   "",
                   "",
                   json()};
  ColumnCheck c = distributedColumns(v.cols, l);
  if (v.table) {
    std::vector<uint64_t> tcols;
    for (std::size_t j = 0; j < v.cols.size(); ++j)
      tcols.push_back(v.table->valueAt(uint64_t{1} << j));
    if (distributedColumns(tcols, l).column != c.column)
      v.disagree("distributed columns", std::to_string(c.column),
                 std::to_string(distributedColumns(tcols, l).column));
  }
  if (v.report.kind != LayoutKind::Distributed) {
    p.by = {"algebra"};
    p.detail = "input dims are " + inputDimNames(l) +
               "; a distributed layout maps register, lane, warp (and block)";
    p.counterexample = {{"reason", p.detail}};
  } else if (!surjective) {
    p.detail = "not surjective: no input maps to " + describeOutput(l.unpackOut(*v.w.missing));
    p.counterexample = surjectiveCx;
    p.counterexample["reason"] = "not surjective";
  } else if (c.column >= 0) {
    p.detail = columnName(l, c.column) + ": " + c.reason;
    p.counterexample = columnJson(l, c.column, c.reason);
  } else {
    p.holds = true;
  }
  return p;
}

/// Def. 4.14; a layout that is not invertible fails it with invertibility's counterexample.
PropertyResult memoryProperty(const VerifyContext& v, bool invertible) {
  const LinearLayout& l = v.l;
  PropertyResult p{Property::Memory, false, v.by, v.isRequired(Property::Memory),
                   json(),           "",    "",   json()};
  ColumnCheck c = memoryColumns(v.cols);
  if (v.report.kind != LayoutKind::Memory) {
    p.by = {"algebra"};
    p.detail = "input dims are " + inputDimNames(l) + "; a memory layout maps offset (and block)";
    p.counterexample = {{"reason", p.detail}};
  } else if (!invertible) {
    const PropertyResult* inv = v.report.find(Property::Invertible);
    p.detail = "not invertible: " + inv->detail;
    p.counterexample = inv->counterexample;
    p.counterexample["reason"] = "not invertible";
  } else if (c.column >= 0) {
    p.detail = columnName(l, c.column) + ": " + c.reason;
    p.counterexample = columnJson(l, c.column, c.reason);
  } else {
    p.holds = true;
  }
  return p;
}

/// The free variables and the contiguity along each out dim, each compared with the table's.
void freeVariablesAndContiguity(const VerifyContext& v) {
  const LinearLayout& l = v.l;
  VerifyReport& report = v.report;
  report.freeVariables = l.getFreeVariableMasks();
  report.freeVariablesBy = v.by;
  if (v.table) {
    auto masks = v.table->freeVariableMasks();
    for (std::size_t d = 0; d < masks.size(); ++d)
      if (masks[d] != report.freeVariables[d].second)
        v.disagree("free variables of " + report.freeVariables[d].first.str(),
                   std::to_string(report.freeVariables[d].second), std::to_string(masks[d]));
  }
  report.contiguityBy = v.by;
  auto outNames = l.getOutDimNames();
  for (std::size_t k = 0; k < outNames.size(); ++k) {
    std::vector<DimName> order = {outNames[k]};
    for (std::size_t m = 0; m < outNames.size(); ++m)
      if (m != k)
        order.push_back(outNames[m]);
    uint64_t n = l.transposeOuts(order).value().getNumConsecutiveInOut();
    report.contiguity.emplace_back(outNames[k], n);
    if (v.table && v.table->numConsecutiveInOut(k) != n)
      v.disagree("contiguity along " + outNames[k].str(), std::to_string(n),
                 std::to_string(v.table->numConsecutiveInOut(k)));
  }
}

} // namespace

Result<VerifyReport> verify(const LinearLayout& l, const VerifyOptions& options) {
  VerifyReport report;
  report.layout = l;
  report.kind = classify(l);

  // ---- Algebra, then enumeration (the second opinion) ------------------------------------------
  Witnesses w = algebraWitnesses(l);
  bool injective = !w.collision.has_value();
  bool surjective = !w.missing.has_value();
  bool invertible = injective && surjective;
  std::optional<EnumeratedLayout> table = enumerationOf(l, options, report);
  VerifyContext v{l, options, report, w, table, l.columns(), byList(table.has_value())};
  compareWithEnumeration(v);

  // ---- The properties --------------------------------------------------------------------------
  json injectiveCx = w.collision ? collisionJson(l, *w.collision) : json();
  json surjectiveCx = w.missing ? json{{"output", pointJson(l.unpackOut(*w.missing))}} : json();
  {
    PropertyResult p{Property::Injective, injective, v.by, v.isRequired(Property::Injective),
                     injectiveCx,         "",        "",   json()};
    if (w.collision)
      p.detail = collisionText(l, *w.collision);
    report.properties.push_back(std::move(p));
  }
  {
    PropertyResult p{Property::Surjective, surjective, v.by, v.isRequired(Property::Surjective),
                     surjectiveCx,         "",         "",   json()};
    if (w.missing)
      p.detail = "no input maps to " + describeOutput(l.unpackOut(*w.missing));
    report.properties.push_back(std::move(p));
  }
  report.properties.push_back(
      invertibleProperty(v, injective, invertible, injectiveCx, surjectiveCx));
  report.properties.push_back(distributedProperty(v, surjective, surjectiveCx));
  report.properties.push_back(memoryProperty(v, invertible));

  // ---- Free variables and contiguity ----------------------------------------------------------
  freeVariablesAndContiguity(v);
  return report;
}

json toJson(const VerifyReport& r) {
  json props = json::object();
  for (const PropertyResult& p : r.properties) {
    props[p.name()] = {{"holds", p.holds},
                       {"by", p.by},
                       {"required", p.required},
                       {"counterexample", p.counterexample},
                       {"detail", p.detail}};
    // Additive keys: present only when a prover ran, so reports without one are unchanged.
    if (!p.proof.is_null())
      props[p.name()]["proof"] = p.proof;
    if (!p.unknown.empty())
      props[p.name()]["unknown"] = p.unknown;
  }
  json masks = json::object();
  for (const auto& [d, m] : r.freeVariables)
    masks[d.str()] = m;
  json contig = json::object();
  for (const auto& [d, n] : r.contiguity)
    contig[d.str()] = n;
  return {
      {"layout", toJson(r.layout)},
      {"kind", kindName(r.kind)},
      {"properties", props},
      {"free_variables", {{"masks", masks}, {"by", r.freeVariablesBy}}},
      {"contiguity",
       {{"num_consecutive", r.layout.getNumConsecutiveInOut()},
        {"per_out_dim", contig},
        {"by", r.contiguityBy}}},
      {"enumeration", {{"done", r.enumerationSkipped.empty()}, {"skipped", r.enumerationSkipped}}},
      {"disagreements", r.disagreements},
      {"ok", r.ok()}};
}

std::string verdictText(const VerifyReport& r) {
  if (r.ok())
    return "ok";
  std::vector<std::string> unknown = r.unknowns();
  if (unknown.empty())
    return "FAILED";
  std::string names;
  for (const std::string& n : unknown)
    names += (names.empty() ? "" : ", ") + n;
  // Only the unknowns keep it from passing: say so rather than "FAILED".
  bool onlyUnknown = r.disagreements.empty();
  for (const PropertyResult& p : r.properties)
    onlyUnknown = onlyUnknown && (!p.required || p.holds || p.status() == "unknown");
  return std::string(onlyUnknown ? "unknown" : "FAILED") + " (not decided: " + names +
         "; nothing is claimed for them)";
}

std::string toText(const VerifyReport& r, const std::string& title) {
  std::ostringstream os;
  const LinearLayout& l = r.layout;
  os << title << ": " << kindName(r.kind) << " layout, " << inputDimNames(l) << " -> ";
  std::string outs;
  for (const DimSize& o : l.getOutDims())
    outs += (outs.empty() ? "" : " x ") + std::to_string(o.size);
  os << (outs.empty() ? "()" : outs) << " (" << l.getTotalInDimSizeLog2() << " input bits, "
     << l.getTotalOutDimSizeLog2() << " output bits)\n";
  for (const PropertyResult& p : r.properties) {
    std::string by;
    for (const std::string& b : p.by)
      by += (by.empty() ? "" : ", ") + b;
    std::string name = p.name() + (p.required ? " (required)" : "");
    os << "  " << name << std::string(name.size() < 24 ? 24 - name.size() : 1, ' ')
       << (p.holds                   ? "yes"
           : p.status() == "unknown" ? "unknown"
                                     : "NO ")
       << "  [" << by << "]";
    if (!p.detail.empty())
      os << "  " << p.detail;
    os << "\n";
  }
  os << "  free variables          ";
  bool any = false;
  for (const auto& [d, m] : r.freeVariables) {
    if (m == 0)
      continue;
    os << (any ? ", " : "") << d.str() << " 0b";
    for (int b = static_cast<int>(std::bit_width(m)) - 1; b >= 0; --b)
      os << ((m >> b) & 1);
    any = true;
  }
  os << (any ? "" : "none (no input dimension holds duplicates)") << "\n";
  os << "  contiguity              ";
  for (std::size_t k = 0; k < r.contiguity.size(); ++k)
    os << (k ? ", " : "") << r.contiguity[k].second << " along " << r.contiguity[k].first.str();
  if (r.contiguity.empty())
    os << "1";
  os << (l.getNumInDims() ? " (consecutive " + l.inDims()[0].name.str() + " values)" : "") << "\n";
  if (!r.enumerationSkipped.empty())
    os << "  enumeration skipped: " << r.enumerationSkipped << "\n";
  for (const std::string& d : r.disagreements)
    os << "  INTERNAL DISAGREEMENT (a bug in llcheck): " << d << "\n";
  os << "  verdict: " << verdictText(r) << "\n";
  return os.str();
}

} // namespace llcheck
