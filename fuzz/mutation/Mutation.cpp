// The mutation check (Mutation.h): each one-bit mutant of a corpus layout or of a plan's
// conversion, whether the suite catches it, and the score.
#include "Mutation.h"

#include "check/PlanCheck.h"
#include "laws/Generators.h"

#include "llcheck/core/Properties.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/conversion/ConversionPlan.h"
#include "llcheck/prover/Prover.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <filesystem>
#include <map>
#include <sstream>

namespace llcheck::fuzz {

namespace {

/// What verify says about a layout, item by item, for comparing a mutant with its original.
std::vector<std::pair<std::string, std::string>> signature(const VerifyReport& r) {
  std::vector<std::pair<std::string, std::string>> s;
  for (const PropertyResult& p : r.properties)
    s.emplace_back(p.name(), p.status());
  for (const auto& [d, m] : r.freeVariables)
    s.emplace_back("free variables of " + d.str(), std::to_string(m));
  for (const auto& [d, n] : r.contiguity)
    s.emplace_back("contiguity along " + d.str(), std::to_string(n));
  s.emplace_back("ok", r.ok() ? "yes" : "no");
  return s;
}

/// Every single-bit flip of a basis vector of `l`: the mutant and where the bit is.
template <class F> void forEachFlip(const LinearLayout& l, F visit) {
  std::vector<DimBases> bases = l.getBases();
  std::vector<DimSize> outs = l.getOutDims();
  for (std::size_t d = 0; d < bases.size(); ++d)
    for (std::size_t i = 0; i < bases[d].bases.size(); ++i)
      for (std::size_t o = 0; o < outs.size(); ++o)
        for (int b = 0; b < std::countr_zero(outs[o].size); ++b) {
          bases[d].bases[i][o] ^= uint64_t{1} << b;
          auto m = LinearLayout::create(bases, outs, false);
          bases[d].bases[i][o] ^= uint64_t{1} << b;
          if (!m.ok())
            continue;
          visit(*m, bases[d].name.str() + " basis " + std::to_string(i) + ", " +
                        outs[o].name.str() + " bit " + std::to_string(b));
        }
}

std::string kindWords(LayoutKind k) {
  return k == LayoutKind::Distributed ? "distributed"
         : k == LayoutKind::Memory    ? "memory"
                                      : "generic";
}

void layoutMutants(const std::string& name, const LinearLayout& original, MutationReport& report) {
  auto base = verify(original, VerifyOptions{});
  if (!base.ok())
    return;
  auto want = signature(*base);
  forEachFlip(original, [&](const LinearLayout& m, const std::string& where) {
    Mutant mu{"layout", name, where, false, false, ""};
    auto r = verify(m, VerifyOptions{});
    if (!r.ok()) {
      mu.caught = true;
      mu.why = "verify: " + r.error().str();
    } else {
      auto got = signature(*r);
      for (std::size_t k = 0; k < want.size() && !mu.caught; ++k)
        if (got[k] != want[k]) {
          mu.caught = true;
          mu.why = "verify: " + want[k].first + " " + want[k].second + " -> " + got[k].second;
        }
      if (!mu.caught) {
        bool legal = r->kind != LayoutKind::Generic && r->ok();
        mu.why = legal ? "still a legal " + kindWords(r->kind) +
                             " layout with the original's properties, free variables and "
                             "contiguity: verify has no reference to compare against"
                       : "verify's report (properties, free variables, contiguity) unchanged";
      }
    }
    ++report.layouts.mutants;
    report.layouts.caught += mu.caught;
    report.mutants.push_back(std::move(mu));
  });
}

void planMutants(const std::string& name, const ConversionPlan& plan,
                 const MutationOptions& options, MutationReport& report) {
  if (planViolation(plan.src, plan.dst, plan.conversion))
    return; // the plan itself is wrong: the laws and the sweep report that, not this
  prover::ProverOptions po;
  po.timeoutMs = options.timeoutMs;
  forEachFlip(plan.conversion, [&](const LinearLayout& c, const std::string& where) {
    Mutant mu{"plan", name, "C's " + where, false, false, ""};
    if (auto v = planViolation(plan.src, plan.dst, c)) {
      mu.caught = true;
      mu.why = "plan correctness (enumeration): " + *v;
    } else {
      prover::ProofResult z3 = prover::proveConversion(plan.src, plan.dst, c, po);
      if (z3.outcome == prover::Outcome::Proven) {
        mu.equivalent = true;
        mu.why = "equivalent: DST holds the same element at C(x) and C'(x) (it broadcasts along "
                 "the flipped bit); enumeration and Z3 both find the mutated plan correct";
      } else if (z3.outcome == prover::Outcome::Unknown) {
        mu.why = "enumeration finds the mutated plan correct; Z3 unknown (" + z3.detail + ")";
      } else {
        ++report.disagreements;
        mu.caught = true;
        mu.why = std::string("DISAGREEMENT: enumeration finds the mutated plan correct, Z3 ") +
                 prover::outcomeName(z3.outcome) + ": " + z3.detail;
      }
    }
    ++report.plans.mutants;
    report.plans.caught += mu.caught;
    report.plans.equivalent += mu.equivalent;
    report.mutants.push_back(std::move(mu));
  });
}

} // namespace

double FamilyScore::score() const {
  uint64_t live = mutants - equivalent;
  return live == 0 ? 1.0 : static_cast<double>(caught) / static_cast<double>(live);
}

Result<MutationReport> runMutation(const MutationOptions& options) {
  auto start = std::chrono::steady_clock::now();
  MutationReport report;
  std::vector<std::pair<std::string, LinearLayout>> corpus;
  if (!options.corpusDir.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(options.corpusDir, ec))
      return makeError("not a directory", options.corpusDir);
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(options.corpusDir, ec))
      if (e.path().extension() == ".json")
        files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    if (options.maxLayouts > 0 && files.size() > static_cast<std::size_t>(options.maxLayouts))
      files.resize(static_cast<std::size_t>(options.maxLayouts));
    for (const std::string& f : files) {
      auto l = loadSpec(f, {});
      if (!l.ok())
        return l.error();
      corpus.emplace_back(std::filesystem::path(f).filename().string(), l->layout);
    }
  }
  for (const auto& [name, l] : corpus) {
    report.subjects.push_back("layout " + name);
    layoutMutants(name, l, report);
  }
  // Plans: every ordered pair of distributed corpus layouts that planConversion accepts (the
  // same tensor, lanes and warps), then generated pairs.
  for (const auto& [a, la] : corpus)
    for (const auto& [b, lb] : corpus) {
      if (a == b || classify(la) != LayoutKind::Distributed ||
          classify(lb) != LayoutKind::Distributed)
        continue;
      auto plan = planConversion(la, lb);
      if (!plan.ok())
        continue;
      report.subjects.push_back("plan " + a + " -> " + b);
      planMutants(a + " -> " + b, *plan, options, report);
    }
  for (int i = 0; i < options.generatedPairs; ++i) {
    uint64_t seed = options.seed + static_cast<uint64_t>(i);
    Case c = genConversionPair()(rc::Random(seed), rc::kNominalSize).value();
    auto plan = planConversion(c.layouts.at(0), c.layouts.at(1));
    if (!plan.ok())
      continue;
    std::string name = "generated pair (seed " + std::to_string(seed) + ")";
    report.subjects.push_back("plan " + name);
    planMutants(name, *plan, options, report);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

nlohmann::json toJson(const MutationReport& report) {
  auto family = [](const FamilyScore& f) {
    return nlohmann::json{{"mutants", f.mutants},
                          {"caught", f.caught},
                          {"equivalent", f.equivalent},
                          {"score", f.score()}};
  };
  nlohmann::json survivors = nlohmann::json::array();
  for (const Mutant& m : report.mutants)
    if (!m.caught)
      survivors.push_back({{"family", m.family},
                           {"subject", m.subject},
                           {"where", m.where},
                           {"equivalent", m.equivalent},
                           {"why", m.why}});
  return {{"layouts", family(report.layouts)},
          {"plans", family(report.plans)},
          {"survivors", survivors},
          {"subjects", report.subjects},
          {"disagreements", report.disagreements},
          {"seconds", report.seconds}};
}

std::string toText(const MutationReport& report) {
  std::ostringstream out;
  auto line = [&](const char* what, const FamilyScore& f) {
    char buf[200];
    std::snprintf(
        buf, sizeof buf, "%-7s %6llu mutants, %6llu caught, %5llu equivalent, score %.4f\n", what,
        static_cast<unsigned long long>(f.mutants), static_cast<unsigned long long>(f.caught),
        static_cast<unsigned long long>(f.equivalent), f.score());
    out << buf;
  };
  std::size_t layouts = 0, plans = 0;
  for (const std::string& s : report.subjects)
    (s.rfind("layout", 0) == 0 ? layouts : plans) += 1;
  out << "mutation check: " << layouts << " corpus layouts, " << plans << " conversion plans\n";
  line("layouts", report.layouts);
  line("plans", report.plans);
  // Survivors grouped by (family, why), each group with its count and a few examples.
  std::map<std::pair<std::string, std::string>, std::vector<const Mutant*>> groups;
  for (const Mutant& m : report.mutants)
    if (!m.caught)
      groups[{m.family, m.why}].push_back(&m);
  if (!groups.empty())
    out << "survivors:\n";
  for (const auto& [key, ms] : groups) {
    out << "  " << ms.size() << " " << key.first << " mutants: " << key.second << "\n";
    std::map<std::string, int> perSubject;
    for (const Mutant* m : ms)
      ++perSubject[m->subject];
    out << "    in";
    int shown = 0;
    for (const auto& [s, n] : perSubject) {
      if (shown++ == 8) {
        out << " ... (" << perSubject.size() - 8 << " more)";
        break;
      }
      out << " " << s << " (" << n << ")";
    }
    out << "\n    e.g. " << ms.front()->subject << ": " << ms.front()->where << "\n";
  }
  if (report.disagreements)
    out << report.disagreements << " DISAGREEMENTS between enumeration and Z3\n";
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", report.seconds);
  out << "in " << secs << " s\n";
  return out.str();
}

} // namespace llcheck::fuzz
