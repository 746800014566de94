// Differential test against Triton's own LinearLayout.
//
// tests/triton_reference/triton_cases.json (Triton 3.6.0) and triton_cases-3.9.0.json (Triton
// 3.9.0) hold what Triton's C++ LinearLayout (through its Python bindings) returned for ~700
// layouts and ~500 pairs chosen at random with a fixed seed (tests/triton_reference/generate.py;
// its docstring says how to regenerate), each file checked with its release's rules. Every layout
// is rebuilt here with llcheck's algebra and every result must be the same: the printed form byte
// for byte, the bases, the output sizes, the properties, the matrix, apply, invert,
// pseudoinvert, product, compose, invertAndCompose and ==. Where Triton rejected a request (a fatal
// error or a failed assertion), llcheck must return an error too.
//
// Each test prints how many cases it checked per operation; a mismatch names the case (its id
// and kind in the JSON file) with both results.
#include "llcheck/core/Formats.h"
#include "llcheck/core/LinearLayout.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#ifndef LLCHECK_SOURCE_DIR
#error "LLCHECK_SOURCE_DIR must name the source tree (see core/CMakeLists.txt)"
#endif

namespace llcheck {
namespace {

using json = nlohmann::json;

/// The committed cases, one file per Triton release (triton_cases.json from 3.6.0,
/// triton_cases-3.9.0.json from 3.9.0); each is checked with that release's rules (the
/// identity dims of invertAndCompose changed). The environment variable LLCHECK_TRITON_CASES
/// may name one other file instead.
std::vector<std::string> casesPaths() {
  const char* env = std::getenv("LLCHECK_TRITON_CASES");
  if (env && *env)
    return {env};
  return {LLCHECK_SOURCE_DIR "/tests/triton_reference/triton_cases.json",
          LLCHECK_SOURCE_DIR "/tests/triton_reference/triton_cases-3.9.0.json"};
}

const json& casesAt(const std::string& path) {
  static std::map<std::string, json> loaded;
  auto it = loaded.find(path);
  if (it == loaded.end()) {
    std::ifstream in(path);
    it = loaded.emplace(path, in ? json::parse(in, nullptr, /*allow_exceptions=*/false) : json())
             .first;
  }
  return it->second;
}

/// The release whose rules a file's answers follow (its "triton_version").
TritonVersion versionOf(const json& d) {
  auto v = parseTritonVersion(d.value("triton_version", std::string()));
  return v ? *v : kNewestTriton;
}

// ---- Building what the JSON describes ---------------------------------------------------------

std::vector<DimBases> basesFrom(const json& j) {
  std::vector<DimBases> out;
  for (const json& d : j) {
    DimBases db{DimName(d[0].get<std::string>()), {}};
    for (const json& b : d[1])
      db.bases.push_back(b.get<std::vector<uint64_t>>());
    out.push_back(std::move(db));
  }
  return out;
}

DimName name(const json& j) {
  return DimName(j.get<std::string>());
}

Result<LinearLayout> build(const json& c) {
  const std::string ctor = c["ctor"];
  if (ctor == "empty")
    return LinearLayout::empty();
  if (ctor == "identity_1d")
    return LinearLayout::identity1D(c["size"], name(c["in"]), name(c["out"]));
  if (ctor == "strided_1d")
    return LinearLayout::strided1D(c["size"], c["stride"], name(c["in"]), name(c["out"]));
  if (ctor == "zeros_1d")
    return LinearLayout::zeros1D(c["size"], name(c["in"]), name(c["out"]), c["out_size"]);
  if (ctor == "from_bases") {
    std::vector<DimBases> bases = basesFrom(c["bases"]);
    if (!c.contains("out_sizes")) {
      std::vector<DimName> names;
      for (const json& n : c["out_names"])
        names.push_back(name(n));
      return LinearLayout::create(bases, names);
    }
    std::vector<DimSize> outs;
    for (std::size_t k = 0; k < c["out_names"].size(); ++k)
      outs.push_back({name(c["out_names"][k]), c["out_sizes"][k].get<uint64_t>()});
    return LinearLayout::create(bases, outs, c["require_surjective"].get<bool>());
  }
  return makeError("unknown ctor " + ctor);
}

json basesJson(const LinearLayout& l) {
  json out = json::array();
  for (const DimBases& d : l.getBases())
    out.push_back({d.name.str(), d.bases});
  return out;
}

json outDimsJson(const LinearLayout& l) {
  json out = json::array();
  for (const DimSize& d : l.getOutDims())
    out.push_back({d.name.str(), d.size});
  return out;
}

std::string show(const Result<LinearLayout>& r) {
  return r.ok() ? "layout:" + r->toString() : "error: " + r.error().str();
}

std::string show(const json& triton) {
  return triton.contains("error") ? "error: " + triton["error"].get<std::string>()
                                  : "layout:" + triton["str"].get<std::string>();
}

// ---- Tallies ------------------------------------------------------------------------------------

struct Tally {
  int cases = 0;
  int tritonErrors = 0;
  int solvedByUs = 0; // Triton rejected; ours answered and the answer was checked
  int mismatches = 0;
};

class Tallies {
public:
  /// Records one case of `op`; reports a failure (with `what`) unless `same`.
  void check(const std::string& op, bool same, bool tritonError, const std::string& what) {
    Tally& t = tallies_[op];
    ++t.cases;
    t.tritonErrors += tritonError ? 1 : 0;
    if (!same) {
      ++t.mismatches;
      ADD_FAILURE() << "[" << op << "] " << what;
    }
  }

  void solvedWhereTritonRejected(const std::string& op) { ++tallies_[op].solvedByUs; }

  ~Tallies() {
    for (const auto& [op, t] : tallies_) {
      std::cout << "[TritonReference] " << op << ": " << t.cases << " cases (" << t.tritonErrors
                << " rejected by Triton";
      if (t.solvedByUs)
        std::cout << ", of which " << t.solvedByUs
                  << " solved by llcheck and checked by their defining equation";
      std::cout << "), " << t.mismatches << " mismatches\n";
      ::testing::Test::RecordProperty(op, std::to_string(t.cases) + " cases, " +
                                              std::to_string(t.mismatches) + " mismatches");
    }
  }

private:
  std::map<std::string, Tally> tallies_;
};

/// The defining equation of an operation's result, checked on every input.
using Definition = std::function<bool(const LinearLayout&)>;

/// Every point of a layout's input space.
std::vector<Point> allInputs(const LinearLayout& l) {
  std::vector<Point> points;
  for (uint64_t x = 0; x < (uint64_t{1} << l.getTotalInDimSizeLog2()); ++x)
    points.push_back(l.unpackIn(x));
  return points;
}

/// A point as a name -> value map, so that outputs in different dim orders compare equal.
std::map<uint32_t, uint64_t> byName(const Point& p) {
  std::map<uint32_t, uint64_t> m;
  for (const auto& [n, v] : p)
    m[n.id()] = v;
  return m;
}

/// this(x) == outer(C(x)) for every x.
Definition solvesInvertAndCompose(const LinearLayout& self, const LinearLayout& outer) {
  return [&self, &outer](const LinearLayout& c) {
    for (const Point& x : allInputs(self)) {
      auto cx = c.apply(x);
      if (!cx.ok())
        return false;
      auto lhs = self.apply(x), rhs = outer.apply(*cx);
      if (!lhs.ok() || !rhs.ok() || byName(*lhs) != byName(*rhs))
        return false;
    }
    return true;
  };
}

/// L(R(y)) == y for every y (and, if `twoSided`, R(L(x)) == x for every x).
Definition isRightInverseOf(const LinearLayout& l, bool twoSided) {
  return [&l, twoSided](const LinearLayout& r) {
    for (const Point& y : allInputs(r)) {
      auto ry = r.apply(y);
      if (!ry.ok())
        return false;
      auto lry = l.apply(*ry);
      if (!lry.ok() || byName(*lry) != byName(y))
        return false;
    }
    if (twoSided)
      for (const Point& x : allInputs(l)) {
        auto lx = l.apply(x);
        auto rlx = lx.ok() ? r.apply(*lx) : Result<Point>(makeError("apply"));
        if (!rlx.ok() || byName(*rlx) != byName(x))
          return false;
      }
    return true;
  };
}

/// Compares a result of ours with Triton's (a described layout or {"error": ...}). Where Triton
/// rejects a request that has a solution (Triton 3.6 aborts on some invertAndCompose inputs
/// that later versions accept), ours may answer, but only with a result that satisfies the
/// operation's defining equation on every input.
void checkResult(Tallies& tallies, const std::string& op, const std::string& where,
                 const Result<LinearLayout>& ours, const json& triton,
                 const Definition& definition = nullptr) {
  bool tritonError = triton.contains("error");
  bool same;
  if (tritonError && ours.ok() && definition) {
    same = definition(*ours);
    if (same)
      tallies.solvedWhereTritonRejected(op);
  } else if (tritonError)
    same = !ours.ok();
  else
    same = ours.ok() && ours->toString() == triton["str"].get<std::string>() &&
           basesJson(*ours) == triton["bases"] && outDimsJson(*ours) == triton["out_dims"];
  tallies.check(op, same, tritonError,
                where + "\n  triton: " + show(triton) + "\n  ours:   " + show(ours));
}

std::string caseName(const json& layout) {
  return "layout " + std::to_string(layout["id"].get<int>()) + " (" +
         layout["kind"].get<std::string>() + ")";
}

// ---- The tests ----------------------------------------------------------------------------------

TEST(TritonReference, DataIsPresent) {
  for (const std::string& path : casesPaths()) {
    const json& d = casesAt(path);
    ASSERT_TRUE(d.is_object()) << "cannot read " << path
                               << "; regenerate it with tests/triton_reference/generate.py";
    ASSERT_TRUE(parseTritonVersion(d.value("triton_version", std::string())))
        << path << " was written by a Triton release llcheck does not follow";
    std::cout << "[TritonReference] " << path << ": Triton " << d["triton_version"] << ", "
              << d["layouts"].size() << " layouts, " << d["pairs"].size() << " pairs\n";
  }
}

void checkLayouts(const json& d) {
  ASSERT_TRUE(d.is_object());
  const TritonVersion triton = versionOf(d);
  Tallies tallies;
  for (const json& c : d["layouts"]) {
    std::string where = caseName(c) + " " + c["ctor"].dump();
    Result<LinearLayout> l = build(c["ctor"]);
    if (c.contains("error")) {
      tallies.check("create", !l.ok(), true,
                    where + "\n  triton: error: " + c["error"].get<std::string>() +
                        "\n  ours:   " + show(l));
      continue;
    }
    const json& r = c["result"];
    tallies.check("create", l.ok(), false, where + "\n  ours: " + show(l));
    if (!l.ok())
      continue;
    const LinearLayout& L = *l;

    tallies.check("toString", L.toString() == r["str"].get<std::string>(), false,
                  where + "\n  triton: " + json(r["str"]).dump() +
                      "\n  ours:   " + json(L.toString()).dump());
    tallies.check("bases", basesJson(L) == r["bases"] && outDimsJson(L) == r["out_dims"], false,
                  where + "\n  triton: " + r["bases"].dump() + " " + r["out_dims"].dump() +
                      "\n  ours:   " + basesJson(L).dump() + " " + outDimsJson(L).dump());

    auto parsed = parseTritonString(r["str"].get<std::string>(), "triton str");
    tallies.check("parseTritonString", parsed.ok() && *parsed == L, false,
                  where + "\n  parsing " + json(r["str"]).dump() + "\n  gives " + show(parsed));

    std::ostringstream props;
    props << "injective " << L.isInjective() << "/" << r["injective"] << ", surjective "
          << L.isSurjective() << "/" << r["surjective"] << ", invertible " << L.isInvertible()
          << "/" << r["invertible"] << " (ours/triton)";
    tallies.check("isInjective", L.isInjective() == r["injective"].get<bool>(), false,
                  where + ": " + props.str());
    tallies.check("isSurjective", L.isSurjective() == r["surjective"].get<bool>(), false,
                  where + ": " + props.str());
    tallies.check("isInvertible", L.isInvertible() == r["invertible"].get<bool>(), false,
                  where + ": " + props.str());

    // get_matrix_view: row r (output bit r, outputs flattened in order), column c (input bit c).
    json matrix = json::array();
    for (int row = 0; row < L.getTotalOutDimSizeLog2(); ++row) {
      std::string bits;
      for (uint64_t col : L.columns())
        bits += ((col >> row) & 1) ? '1' : '0';
      matrix.push_back(bits);
    }
    tallies.check("matrixView", matrix == r["matrix"], false,
                  where + "\n  triton: " + r["matrix"].dump() + "\n  ours:   " + matrix.dump());

    for (const json& a : r["apply"]) {
      Point in;
      for (const json& p : a[0])
        in.emplace_back(name(p[0]), p[1].get<uint64_t>());
      auto out = L.apply(in);
      json ours = json::array();
      if (out.ok())
        for (const auto& [n, v] : *out)
          ours.push_back({n.str(), v});
      tallies.check("apply", out.ok() && ours == a[1], false,
                    where + " apply " + a[0].dump() + "\n  triton: " + a[1].dump() +
                        "\n  ours:   " + (out.ok() ? ours.dump() : out.error().str()));
    }

    checkResult(tallies, "invert", where, L.invert(triton), r["invert"], isRightInverseOf(L, true));
    checkResult(tallies, "pseudoinvert", where, L.pseudoinvert(triton), r["pseudoinvert"],
                isRightInverseOf(L, false));
  }
}

TEST(TritonReference, Layouts) {
  for (const std::string& path : casesPaths()) {
    SCOPED_TRACE(path);
    checkLayouts(casesAt(path));
  }
}

void checkPairsIn(const json& d, const std::string& op) {
  ASSERT_TRUE(d.is_object());
  const TritonVersion triton = versionOf(d);
  const json& layouts = d["layouts"];
  Tallies tallies;
  for (const json& p : d["pairs"]) {
    if (p["op"] != op || p.contains("skipped"))
      continue;
    const json& ja = layouts[p["a"].get<std::size_t>()];
    const json& jb = layouts[p["b"].get<std::size_t>()];
    auto a = build(ja["ctor"]);
    auto b = build(jb["ctor"]);
    std::string where = op + " [" + p["kind"].get<std::string>() + "] a = " + caseName(ja) +
                        ", b = " + caseName(jb) + "\n  a:" + show(a) + "\n  b:" + show(b);
    if (!a.ok() || !b.ok()) {
      tallies.check(op, false, false, where + "\n  (an operand failed to build)");
      continue;
    }
    if (op == "equal") {
      bool eq = *a == *b, ne = !(*a == *b);
      tallies.check(
          op, eq == p["result"]["equal"].get<bool>() && ne == p["result"]["not_equal"].get<bool>(),
          false,
          where + "\n  triton: == " + p["result"]["equal"].dump() + ", != " +
              p["result"]["not_equal"].dump() + "\n  ours:   == " + (eq ? "true" : "false"));
      continue;
    }
    Result<LinearLayout> ours = makeError("unknown op");
    if (op == "product")
      ours = product(*a, *b);
    else if (op == "compose")
      ours = a->compose(*b);
    else if (op == "invert_and_compose") {
      checkResult(tallies, op, where, a->invertAndCompose(*b, triton), p["result"],
                  solvesInvertAndCompose(*a, *b));
      continue;
    }
    checkResult(tallies, op, where, ours, p["result"]);
  }
}

void checkPairs(const std::string& op) {
  for (const std::string& path : casesPaths()) {
    SCOPED_TRACE(path);
    checkPairsIn(casesAt(path), op);
  }
}

TEST(TritonReference, Product) {
  checkPairs("product");
}
TEST(TritonReference, Compose) {
  checkPairs("compose");
}
TEST(TritonReference, InvertAndCompose) {
  checkPairs("invert_and_compose");
}
TEST(TritonReference, Equality) {
  checkPairs("equal");
}

} // namespace
} // namespace llcheck
