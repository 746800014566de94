// `llcheck sweep FAMILY --against triton`: each encoding of a group compared with Triton's own
// to_linear_layout basis by basis (the answers come from TritonPeer); a difference or an
// encoding only one side accepts is a failure with the attribute, both layouts and the first
// differing basis.
#include "AgainstTriton.h"

#include "Spaces.h"

#include "llcheck/core/JsonFields.h"

#include <algorithm>
#include <optional>
#include <set>

namespace llcheck::fuzz::sweep {

namespace {

/// A layout's bases per input dim, each basis's coordinates in dim0, dim1, ... order, as
/// Triton's to_linear_layout returns them (answer: {"ins": [[name, bases]...]}).
using NamedBases = std::vector<std::pair<std::string, std::vector<std::vector<uint64_t>>>>;

NamedBases namedBases(const LinearLayout& l) {
  std::vector<DimName> outs = l.getOutDimNames();
  // llcheck's out dims are named dim0, dim1, ...; their order in the layout may differ.
  std::vector<std::size_t> column(outs.size());
  for (std::size_t c = 0; c < outs.size(); ++c) {
    const std::string& n = outs[c].str();
    std::size_t d = n.rfind("dim", 0) == 0 ? std::stoul(n.substr(3)) : c;
    column[c] = d < outs.size() ? d : c;
  }
  NamedBases out;
  for (const DimBases& b : l.getBases()) {
    std::vector<std::vector<uint64_t>> bases;
    for (const auto& v : b.bases) {
      std::vector<uint64_t> w(v.size());
      for (std::size_t c = 0; c < v.size(); ++c)
        w[column[c]] = v[c];
      bases.push_back(std::move(w));
    }
    out.emplace_back(b.name.str(), std::move(bases));
  }
  return out;
}

std::string basisText(const std::vector<uint64_t>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

std::string basesText(const NamedBases& l) {
  std::string s;
  for (const auto& [name, bases] : l) {
    s += (s.empty() ? "" : "; ") + name + ":";
    for (const auto& b : bases)
      s += " " + basisText(b);
  }
  return s;
}

/// One answer of the helper, read through json::FieldReader (the protocol at the top of
/// triton_layouts.py): {"id", "ins": [[dim, bases]...], "outs": [...] or null} or {"id",
/// "error", "stage"}. The helper is another program: an answer of another shape (a number where
/// a string belongs, a basis that is not a list of counts) is an Error naming the field, never
/// taken as some layout.
struct Answer {
  std::optional<NamedBases> ins; ///< absent: Triton rejects the encoding
  std::optional<std::vector<uint64_t>> outs;
  std::string error; ///< "stage: error" when Triton rejects it
};

Result<Answer> readAnswer(const nlohmann::json& a) {
  auto f = json::FieldReader::of(a, "");
  if (!f.ok())
    return f.error();
  if (auto only = f->onlyFields({"id", "ins", "outs", "error", "stage"}); !only.ok())
    return only.error();
  Answer out;
  if (!f->has("ins")) {
    auto error = f->stringField("error");
    if (!error.ok())
      return makeError("neither \"ins\" (a layout) nor a string \"error\"", "error");
    auto stage = f->stringField("stage", 64);
    if (!stage.ok())
      return stage.error();
    if (*stage != "gluon" && *stage != "to_linear_layout" && *stage != "abort")
      return makeError("\"" + utf8Prefix(*stage, 20) +
                           "\" is not a stage (gluon, to_linear_layout or abort)",
                       "stage");
    out.error = *stage + ": " + *error;
    return out;
  }
  auto ins = f->arrayField("ins", 64);
  if (!ins.ok())
    return ins.error();
  NamedBases bases;
  for (std::size_t d = 0; d < (*ins)->size(); ++d) {
    std::string dPath = json::elementPath("ins", d);
    auto pair = json::asArray((**ins)[d], dPath, 2);
    if (!pair.ok())
      return pair.error();
    if ((*pair)->size() != 2)
      return makeError("expected [dim, bases]", dPath);
    auto name = json::asString((**pair)[0], json::elementPath(dPath, 0), 64);
    if (!name.ok())
      return name.error();
    std::string bPath = json::elementPath(dPath, 1);
    auto list = json::asArray((**pair)[1], bPath, 64);
    if (!list.ok())
      return list.error();
    std::vector<std::vector<uint64_t>> vs;
    for (std::size_t i = 0; i < (*list)->size(); ++i) {
      std::string vPath = json::elementPath(bPath, i);
      auto basis = json::asArray((**list)[i], vPath, 16);
      if (!basis.ok())
        return basis.error();
      std::vector<uint64_t> v;
      for (std::size_t c = 0; c < (*basis)->size(); ++c) {
        auto x = json::asUnsigned((**basis)[c], json::elementPath(vPath, c));
        if (!x.ok())
          return x.error();
        v.push_back(*x);
      }
      vs.push_back(std::move(v));
    }
    bases.emplace_back(std::move(*name), std::move(vs));
  }
  out.ins = std::move(bases);
  if (f->has("outs") && !f->value()["outs"].is_null()) {
    auto outs = f->arrayField("outs", 16);
    if (!outs.ok())
      return outs.error();
    std::vector<uint64_t> sizes;
    for (std::size_t i = 0; i < (*outs)->size(); ++i) {
      auto x = json::asUnsigned((**outs)[i], json::elementPath("outs", i));
      if (!x.ok())
        return x.error();
      sizes.push_back(*x);
    }
    out.outs = std::move(sizes);
  }
  return out;
}

/// "" when llcheck's and Triton's layouts are the same (the same bases of every input dim; an
/// input dim of no bases may be missing from either), else the first difference.
std::string firstDifference(const NamedBases& ours, const NamedBases& theirs,
                            const std::vector<uint64_t>& ourOuts,
                            const std::optional<std::vector<uint64_t>>& outs) {
  if (outs && *outs != ourOuts)
    return "tensor sizes: llcheck " + nlohmann::json(ourOuts).dump() + ", Triton " +
           nlohmann::json(*outs).dump();
  auto find = [](const NamedBases& l, const std::string& name) {
    static const std::vector<std::vector<uint64_t>> none;
    for (const auto& [n, b] : l)
      if (n == name)
        return &b;
    return &none;
  };
  std::vector<std::string> names;
  for (const auto& d : ours)
    names.push_back(d.first);
  for (const auto& d : theirs)
    if (std::find(names.begin(), names.end(), d.first) == names.end())
      names.push_back(d.first);
  for (const std::string& name : names) {
    const auto& a = *find(ours, name);
    const auto& b = *find(theirs, name);
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      if (i < a.size() && i < b.size() && a[i] == b[i])
        continue;
      return name + " basis " + std::to_string(i) + ": llcheck " +
             (i < a.size() ? basisText(a[i]) : std::string("none")) + ", Triton " +
             (i < b.size() ? basisText(b[i]) : std::string("none"));
    }
  }
  return "";
}

} // namespace

/// Compares every encoding of group `index` with Triton's own layout for it, adding to `report`.
std::optional<Error> runGroupAgainstTriton(const SweepGroup& g, uint64_t index,
                                           const SweepOptions& o, SweepReport& report,
                                           TritonPeer& peer) {
  auto fail = [&](const char* what, const std::string& attr, const std::string& message) {
    if (report.failures.size() < o.maxFailuresKept)
      report.failures.push_back({what, attr, shapeText(g.shape), message, index});
  };
  ++report.groups;
  std::vector<Encoding> encodings = encodingsOf(g, o);
  std::set<std::vector<uint64_t>> seen;
  for (std::size_t begin = 0; begin < encodings.size(); begin += o.tritonBatch) {
    std::size_t end = std::min(encodings.size(), begin + o.tritonBatch);
    std::vector<nlohmann::json> requests;
    for (std::size_t i = begin; i < end; ++i) {
      const Encoding& e = encodings[i];
      requests.push_back(
          {{"id", i}, {"spec", e.blocked ? blockedSpec(*e.blocked) : e.spec}, {"shape", g.shape}});
    }
    auto answers = peer.ask(requests);
    if (!answers.ok())
      return answers.error();
    for (std::size_t i = begin; i < end; ++i) {
      const Encoding& e = encodings[i];
      auto answer = readAnswer((*answers)[i - begin]);
      if (!answer.ok())
        return makeError("the Triton helper's answer for encoding " + std::to_string(i) +
                             " of group " + std::to_string(index) +
                             " is not what triton_layouts.py answers: " + answer.error().str(),
                         "--python");
      const Answer& a = *answer;
      std::string attr = e.blocked ? blockedAttributeText(*e.blocked) : e.attr;
      ++report.enumerated;
      Result<LinearLayout> l = layoutOf(e, g, o);
      if (l.ok() && seen.insert(key(*l)).second)
        ++report.distinct;
      bool theyAnswer = a.ins.has_value();
      const std::string& theirError = a.error;
      if (!l.ok()) {
        ++report.rejected;
        if (!theyAnswer) {
          ++report.bothRejected;
          continue;
        }
        ++report.acceptFailures;
        countAcceptReason(report, "llcheck rejects: " + l.error().message);
        fail("accept", attr,
             "llcheck rejects it (" + l.error().str() + "); Triton answers " + basesText(*a.ins));
        continue;
      }
      NamedBases ours = namedBases(*l);
      if (!theyAnswer) {
        ++report.acceptFailures;
        countAcceptReason(report, "Triton rejects: " + theirError.substr(0, theirError.find('\n')));
        fail("accept", attr,
             "Triton rejects it (" + theirError + "); llcheck answers " + basesText(ours));
        continue;
      }
      const NamedBases& theirs = *a.ins;
      ++report.compared;
      std::vector<uint64_t> outs;
      for (const DimSize& d : l->getOutDims())
        outs.push_back(d.size);
      // Out sizes in dim order (llcheck's layout may list them in another).
      std::vector<DimName> names = l->getOutDimNames();
      std::vector<uint64_t> ordered(outs.size());
      for (std::size_t c = 0; c < names.size(); ++c) {
        const std::string& n = names[c].str();
        std::size_t d = n.rfind("dim", 0) == 0 ? std::stoul(n.substr(3)) : c;
        ordered[d < outs.size() ? d : c] = outs[c];
      }
      std::string diff = firstDifference(ours, theirs, ordered, a.outs);
      if (!diff.empty()) {
        ++report.tritonFailures;
        fail("triton", attr,
             "first difference: " + diff + "\n  llcheck: " + basesText(ours) +
                 "\n  Triton:  " + basesText(theirs));
      }
    }
  }
  return std::nullopt;
}

} // namespace llcheck::fuzz::sweep
