// The law driver (Driver.h): cases generated per (seed, law, index), checked, shrunk and saved
// when they fail; the replay of saved cases; the summary and JUnit report of a run.
#include "Driver.h"

#include "llcheck/core/Formats.h"
#include "llcheck/core/JsonFields.h"
#include "llcheck/core/OutputFile.h"
#include "llcheck/core/Spec.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <new>
#include <sstream>

namespace llcheck::fuzz {

namespace {

using Clock = std::chrono::steady_clock;

/// The RapidCheck seed of case `index` of `law`: a hash, so that cases of different laws and
/// seeds are independent, and case i of a law is the same whatever else the run does.
uint64_t caseSeed(uint64_t seed, const std::string& law, uint64_t index) {
  uint64_t h = 1469598103934665603ull; // FNV-1a of the name
  for (char ch : law)
    h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  uint64_t z = seed ^ h ^ (index * 0x9e3779b97f4a7c15ull);
  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Shrinks stop after this many candidate checks: each is a whole law check, and a shrunk case
/// is reached long before (the generators draw few integers).
constexpr int kMaxShrinkChecks = 20000;

struct Checked {
  Verdict verdict;
  Case value;
};

Checked generateAndCheck(const Law& law, const rc::Shrinkable<Case>& s) {
  Checked c;
  try {
    c.value = s.value();
  } catch (const std::bad_alloc&) {
    throw; // not a failure of the law (see checkLaw)
  } catch (const std::exception& e) {
    c.verdict = std::string("the generator threw: ") + e.what();
    return c;
  }
  c.verdict = checkLaw(law, c.value);
  return c;
}

Failure shrink(const Law& law, rc::Shrinkable<Case> failing, Checked first) {
  Failure f;
  f.law = law.name;
  f.message = *first.verdict;
  f.shrunk = std::move(first.value);
  int checks = 0;
  for (bool progressed = true; progressed && checks < kMaxShrinkChecks;) {
    progressed = false;
    rc::Seq<rc::Shrinkable<Case>> candidates = failing.shrinks();
    while (auto next = candidates.next()) {
      if (++checks >= kMaxShrinkChecks)
        break;
      Checked c = generateAndCheck(law, *next);
      if (c.verdict) {
        failing = std::move(*next);
        f.message = *c.verdict;
        f.shrunk = std::move(c.value);
        ++f.shrinkSteps;
        progressed = true;
        break;
      }
    }
  }
  return f;
}

std::string fileNameFor(const Failure& f) {
  std::string name =
      f.law + "-seed" + std::to_string(f.seed) + "-case" + std::to_string(f.caseIndex) + ".json";
  for (char& ch : name)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-' || ch == '_'))
      ch = '_';
  return name;
}

std::string xmlEscape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '&':
      out += "&amp;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += ch;
    }
  }
  return out;
}

} // namespace

Result<std::vector<const Law*>> selectLaws(const std::vector<Law>& registry,
                                           const FuzzOptions& options) {
  for (const std::string& name : options.only)
    if (std::none_of(registry.begin(), registry.end(),
                     [&](const Law& l) { return l.name == name; }))
      return makeError("no law named '" + utf8Prefix(name, 80) + "' (see 'llcheck fuzz --list')",
                       "--law");
  std::vector<const Law*> laws;
  for (std::size_t i = 0; i < registry.size(); ++i) {
    if (static_cast<int>(i % static_cast<std::size_t>(options.shardCount)) != options.shardIndex)
      continue;
    if (!options.only.empty() &&
        std::find(options.only.begin(), options.only.end(), registry[i].name) == options.only.end())
      continue;
    laws.push_back(&registry[i]);
  }
  return laws;
}

FuzzReport runLaws(const std::vector<const Law*>& laws, const FuzzOptions& options) {
  FuzzReport report;
  report.seed = options.seed;
  report.shardIndex = options.shardIndex;
  report.shardCount = options.shardCount;
  for (const Law* l : laws)
    report.laws.push_back({l->name, 0, 0, 0, 0});
  auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  auto lastProgress = start;
  std::vector<bool> done(laws.size(), false);
  // Round robin in short slices, so that a time box spreads evenly over the laws.
  constexpr double kSliceSeconds = 0.02;
  for (bool anyLeft = !laws.empty(); anyLeft;) {
    anyLeft = false;
    for (std::size_t i = 0; i < laws.size(); ++i) {
      if (done[i])
        continue;
      if (options.seconds > 0 && elapsed() >= options.seconds)
        break;
      const Law& law = *laws[i];
      LawResult& r = report.laws[i];
      auto sliceStart = Clock::now();
      do {
        if (options.maxCases > 0 && r.cases >= options.maxCases) {
          done[i] = true;
          break;
        }
        uint64_t index = r.cases;
        rc::Shrinkable<Case> s =
            law.gen(rc::Random(caseSeed(options.seed, law.name, index)), rc::kNominalSize);
        uint64_t undecidedBefore = undecidedCount();
        Checked c = generateAndCheck(law, s);
        r.undecided += undecidedCount() - undecidedBefore;
        // A case the generator draws must be one --replay accepts: the bound is checked here
        // on every generated case, so it cannot fall behind a generator that grows.
        if (!c.verdict) {
          std::string beyond = beyondBound(c.value, caseBound(law.name));
          if (!beyond.empty())
            c.verdict = "the generator drew a case --replay would refuse: " + beyond;
        }
        ++r.cases;
        if (c.verdict) {
          Failure f = shrink(law, std::move(s), std::move(c));
          f.seed = options.seed;
          f.caseIndex = index;
          if (!options.regressionsDir.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(options.regressionsDir, ec);
            std::string path =
                (std::filesystem::path(options.regressionsDir) / fileNameFor(f)).string();
            auto saved = writeFileAtomically(path, dumpJson(caseToJson(f, &law), 2) + "\n");
            if (saved.ok())
              f.savedTo = path;
            else
              f.saveError = saved.error().str();
          }
          ++r.failures;
          report.failures.push_back(std::move(f));
          done[i] = true;
          break;
        }
      } while (std::chrono::duration<double>(Clock::now() - sliceStart).count() < kSliceSeconds);
      r.seconds += std::chrono::duration<double>(Clock::now() - sliceStart).count();
      anyLeft = anyLeft || !done[i];
      if (options.progress && Clock::now() - lastProgress > std::chrono::milliseconds(250)) {
        lastProgress = Clock::now();
        uint64_t cases = 0;
        for (const LawResult& x : report.laws)
          cases += x.cases;
        // The time left: the time box's, or, with --cases, the cases still to run at this run's
        // rate, whichever ends first.
        double t = elapsed(), rate = t > 0 ? static_cast<double>(cases) / t : 0, left = -1;
        if (options.seconds > 0)
          left = std::max(0.0, options.seconds - t);
        if (options.maxCases > 0 && rate > 0) {
          double all = static_cast<double>(options.maxCases) * static_cast<double>(laws.size());
          double byCases = std::max(0.0, all - static_cast<double>(cases)) / rate;
          left = left < 0 ? byCases : std::min(left, byCases);
        }
        char line[200];
        std::snprintf(line, sizeof line,
                      "\r[%5.1fs] %llu cases (%.0f/s), %zu failures, %.0f s left, %-32.32s", t,
                      static_cast<unsigned long long>(cases), rate, report.failures.size(),
                      std::max(left, 0.0), law.name.c_str());
        *options.progress << line << std::flush;
      }
    }
    if (options.seconds > 0 && elapsed() >= options.seconds)
      break;
  }
  if (options.progress)
    *options.progress << "\r" << std::string(110, ' ') << "\r" << std::flush;
  for (const LawResult& r : report.laws)
    report.cases += r.cases;
  report.seconds = elapsed();
  return report;
}

CaseBound caseBound(const std::string& law) {
  CaseBound b;
  // The wide laws check 64-bit packing at sample points (never a table): layouts of up to 60
  // bits, the sample seed up to 4095.
  if (law == "apply.wide_layouts" || law == "invert.wide_layouts")
    b.inBits = b.outBits = 60;
  // #ttg.blocked and #ttg.swizzled_shared parameters are log2 sizes of at most 5 (Generators.cpp);
  // blockedFromParams accepts up to 16 each, a 2^64-element tensor at rank 4.
  if (law.rfind("blocked.", 0) == 0 || law.rfind("swizzled_shared.", 0) == 0 ||
      law == "slice.is_linear")
    b.maxParam = 5;
  // Tensors of up to 2^24 elements with strides up to 2^40 (WideAddresses.cpp); its brute force
  // enumerates at most 8 registers x 4 warps x 32 lanes, whatever the tensor size.
  if (law == "differential.coalescing_wide_addresses") {
    b.outBits = 24; // its input bits, at most 12, are the default
    b.maxParam = int64_t{1} << 40;
  }
  return b;
}

std::string boundText(const CaseBound& b) {
  return std::to_string(b.layouts) + " layouts of " + std::to_string(b.inBits) + " input and " +
         std::to_string(b.outBits) + " output bits, " + std::to_string(b.params) + " params from " +
         std::to_string(b.minParam) + " to " + std::to_string(b.maxParam);
}

std::string beyondBound(const Case& c, const CaseBound& b) {
  if (c.layouts.size() > b.layouts)
    return std::to_string(c.layouts.size()) + " layouts";
  for (std::size_t i = 0; i < c.layouts.size(); ++i)
    if (c.layouts[i].getTotalInDimSizeLog2() > b.inBits ||
        c.layouts[i].getTotalOutDimSizeLog2() > b.outBits)
      return "layouts[" + std::to_string(i) + "] has " +
             std::to_string(c.layouts[i].getTotalInDimSizeLog2()) + " input and " +
             std::to_string(c.layouts[i].getTotalOutDimSizeLog2()) + " output bits";
  if (c.params.size() > b.params)
    return std::to_string(c.params.size()) + " params";
  for (std::size_t i = 0; i < c.params.size(); ++i)
    if (c.params[i] < b.minParam || c.params[i] > b.maxParam)
      return "params[" + std::to_string(i) + "] is " + std::to_string(c.params[i]);
  return {};
}

nlohmann::json caseToJson(const Failure& f, const Law* law) {
  nlohmann::json layouts = nlohmann::json::array();
  for (const LinearLayout& l : f.shrunk.layouts)
    layouts.push_back(toJson(l));
  return {{"law", f.law},
          {"statement", law ? law->statement : ""},
          {"seed", f.seed},
          {"case", f.caseIndex},
          {"failure", f.message},
          {"layouts", layouts},
          {"params", f.shrunk.params}};
}

namespace {

Result<ReplayResult> replayFile(const std::string& path, const std::vector<Law>& registry) {
  auto j = readJsonFile(path);
  if (!j.ok())
    return j.error();
  if (!j->is_object() || !j->contains("law") || !(*j)["law"].is_string())
    return makeError("not a regression case: no \"law\" name", path);
  std::string name = (*j)["law"].get<std::string>();
  auto law =
      std::find_if(registry.begin(), registry.end(), [&](const Law& l) { return l.name == name; });
  if (law == registry.end())
    return makeError("no law named '" + utf8Prefix(name, 80) + "'", path);
  // Every input-driven cost of the case is bounded before the law runs: a saved case holds no
  // more than the law's generator draws (caseBound), so replaying it costs what a generated
  // case does (a 40-bit layout would enumerate 2^40 inputs).
  const CaseBound bound = caseBound(name);
  auto beyond = [&](const std::string& what, const std::string& field) {
    return makeError(what + "; the cases of " + name + " hold at most what its generator draws (" +
                         boundText(bound) + "; docs/limits.md)",
                     path + ": " + field);
  };
  Case c;
  if (j->contains("layouts")) {
    auto ls = json::asArray((*j)["layouts"], "layouts");
    if (!ls.ok())
      return ls.error().within(path);
    if ((*ls)->size() > bound.layouts)
      return beyond(std::to_string((*ls)->size()) + " layouts", "layouts");
    for (std::size_t i = 0; i < (*ls)->size(); ++i) {
      std::string field = json::elementPath("layouts", i);
      auto l = layoutFromJson((**ls)[i]);
      if (!l.ok())
        return l.error().within(path + ": " + field);
      if (l->getTotalInDimSizeLog2() > bound.inBits || l->getTotalOutDimSizeLog2() > bound.outBits)
        return beyond(std::to_string(l->getTotalInDimSizeLog2()) + " input bits and " +
                          std::to_string(l->getTotalOutDimSizeLog2()) + " output bits",
                      field);
      c.layouts.push_back(*l);
    }
  }
  if (j->contains("params")) {
    auto ps = json::asArray((*j)["params"], "params");
    if (!ps.ok())
      return ps.error().within(path);
    if ((*ps)->size() > bound.params)
      return beyond(std::to_string((*ps)->size()) + " params", "params");
    for (std::size_t i = 0; i < (*ps)->size(); ++i) {
      auto v =
          json::asSigned((**ps)[i], json::elementPath("params", i), bound.minParam, bound.maxParam);
      if (!v.ok())
        return beyond(v.error().message, json::elementPath("params", i));
      c.params.push_back(*v);
    }
  }
  std::string drawn = beyondBound(c, bound);
  if (!drawn.empty())
    return beyond(drawn, "(case)");
  return ReplayResult{path, name, checkLaw(*law, c)};
}

} // namespace

Result<std::vector<ReplayResult>> replay(const std::string& path,
                                         const std::vector<Law>& registry) {
  std::vector<ReplayResult> results;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec))
      if (entry.path().extension() == ".json")
        files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) {
      auto r = replayFile(f, registry);
      if (!r.ok())
        return r.error();
      results.push_back(*r);
    }
    return results;
  }
  if (!std::filesystem::exists(path, ec))
    return makeError("no such file or directory (a saved case, or a folder of them)", path);
  auto r = replayFile(path, registry);
  if (!r.ok())
    return r.error();
  results.push_back(*r);
  return results;
}

std::string describeFailure(const Failure& f, const Law* law) {
  std::ostringstream out;
  out << "FAILED " << f.law << " (seed " << f.seed << ", case " << f.caseIndex << ", shrunk in "
      << f.shrinkSteps << " steps)\n";
  if (law)
    out << "  law: " << law->statement << "\n";
  std::istringstream msg(f.message);
  for (std::string line; std::getline(msg, line);)
    out << "  | " << line << "\n";
  out << "  shrunk case:\n";
  for (std::size_t i = 0; i < f.shrunk.layouts.size(); ++i) {
    std::string s = f.shrunk.layouts[i].toString();
    out << "    layout " << i << ":" << (s.empty() ? " (empty layout)" : "") << "\n";
    std::istringstream ls(s);
    for (std::string line; std::getline(ls, line);)
      if (!line.empty())
        out << "      " << line << "\n";
  }
  if (!f.shrunk.params.empty()) {
    out << "    params: [";
    for (std::size_t i = 0; i < f.shrunk.params.size(); ++i)
      out << (i ? ", " : "") << f.shrunk.params[i];
    out << "]\n";
  }
  if (!f.savedTo.empty())
    out << "  saved: " << f.savedTo << "\n  replay: llcheck fuzz --replay " << f.savedTo << "\n";
  else if (!f.saveError.empty())
    out << "  not saved: " << f.saveError << "\n";
  out << "  rerun: llcheck fuzz --seed " << f.seed << " --law " << f.law << " --cases "
      << f.caseIndex + 1 << " --time 0\n";
  return out.str();
}

nlohmann::json toJson(const FuzzReport& report) {
  nlohmann::json laws = nlohmann::json::array();
  uint64_t failures = 0, undecided = 0;
  for (const LawResult& r : report.laws) {
    laws.push_back({{"name", r.name},
                    {"cases", r.cases},
                    {"failures", r.failures},
                    {"undecided", r.undecided}});
    failures += r.failures;
    undecided += r.undecided;
  }
  nlohmann::json failed = nlohmann::json::array();
  for (const Failure& f : report.failures)
    failed.push_back(
        {{"law", f.law},
         {"seed", f.seed},
         {"case", f.caseIndex},
         {"failure", f.message},
         {"saved", f.savedTo.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.savedTo)}});
  return {{"laws", laws},
          {"cases", report.cases},
          {"failures", failures},
          {"undecided", undecided},
          {"seed", report.seed},
          {"shard", std::to_string(report.shardIndex) + "/" + std::to_string(report.shardCount)},
          {"failed", failed}};
}

std::string toJunit(const FuzzReport& report, const std::vector<Law>& registry) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"llcheck "
         "fuzz\" tests=\""
      << report.laws.size() << "\" failures=\"" << report.failures.size() << "\" time=\""
      << report.seconds << "\">\n";
  for (const LawResult& r : report.laws) {
    out << "    <testcase classname=\"llcheck.fuzz\" name=\"" << xmlEscape(r.name) << "\" time=\""
        << r.seconds << "\">\n";
    out << "      <system-out>" << r.cases << " cases, " << r.undecided << " undecided, seed "
        << report.seed << "</system-out>\n";
    for (const Failure& f : report.failures)
      if (f.law == r.name) {
        const Law* law = nullptr;
        for (const Law& l : registry)
          if (l.name == f.law)
            law = &l;
        std::string first = f.message.substr(0, f.message.find('\n'));
        out << "      <failure message=\"" << xmlEscape(first) << "\">"
            << xmlEscape(describeFailure(f, law)) << "</failure>\n";
      }
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
  return out.str();
}

std::string summaryText(const FuzzReport& report) {
  std::size_t width = 4;
  for (const LawResult& r : report.laws)
    width = std::max(width, r.name.size());
  std::ostringstream out;
  auto pad = [&](const std::string& s) { return s + std::string(width + 2 - s.size(), ' '); };
  out << pad("law") << "cases  failures\n";
  uint64_t failures = 0, undecided = 0;
  for (const LawResult& r : report.laws) {
    std::string cases = std::to_string(r.cases);
    out << pad(r.name) << cases << std::string(cases.size() < 7 ? 7 - cases.size() : 1, ' ')
        << r.failures;
    if (r.undecided > 0)
      out << "  (" << r.undecided << " undecided: Z3 unknown)";
    out << "\n";
    failures += r.failures;
    undecided += r.undecided;
  }
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", report.seconds);
  out << report.laws.size() << " laws, " << report.cases << " cases, " << failures
      << " failures in " << secs << " s (seed " << report.seed << ", shard " << report.shardIndex
      << "/" << report.shardCount << ")\n";
  if (undecided > 0)
    out << undecided << " cases undecided (Z3 unknown within its limit): not failures\n";
  return out.str();
}

} // namespace llcheck::fuzz
