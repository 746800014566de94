// llcheck._core: the Python binding of core/, the prover and its verdicts (pybind11). It exposes
// the layout algebra on one class, Layout, and the analyses as functions returning the same JSON
// the command line prints (`--format json`), as text that llcheck/__init__.py turns into dicts
// and lists; verify and convert ask Z3 as the command line does unless told not to. Every Error
// becomes a ValueError carrying the command line's one-line message.
#include "llcheck/core/Cute.h"
#include "llcheck/core/Formats.h"
#include "llcheck/core/Properties.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/TritonVersion.h"
#include "llcheck/core/conversion/Coalescing.h"
#include "llcheck/core/conversion/Gather.h"
#include "llcheck/core/conversion/SharedMemory.h"
#include "llcheck/prover/Prover.h"
#include "llcheck/verdict/Coalescing.h"
#include "llcheck/verdict/Conversion.h"
#include "llcheck/verdict/ConvertProofs.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sstream>

namespace py = pybind11;

namespace {

using llcheck::DimName;
using llcheck::LinearLayout;
using llcheck::Result;

/// A layout and, for #ttg.padded_shared, its padding (which is not F2-linear, so it travels
/// beside the linear component).
struct Layout {
  LinearLayout layout;
  std::vector<llcheck::IntervalPad> padding;
};

template <class T> T unwrap(Result<T> r) {
  if (!r.ok())
    throw py::value_error(r.error().str());
  return std::move(*r);
}

Layout wrap(Result<LinearLayout> r) {
  return Layout{unwrap(std::move(r)), {}};
}

std::vector<DimName> names(const std::vector<std::string>& v) {
  return {v.begin(), v.end()};
}

std::vector<llcheck::DimSize> dimSizes(const std::vector<std::pair<std::string, uint64_t>>& v) {
  std::vector<llcheck::DimSize> out;
  for (const auto& [n, s] : v)
    out.push_back({DimName(n), s});
  return out;
}

std::vector<std::pair<std::string, uint64_t>> pairs(const std::vector<llcheck::DimSize>& v) {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const auto& d : v)
    out.emplace_back(d.name.str(), d.size);
  return out;
}

/// triton=: "3.6", "3.9" (any patch), or None for the newest; anything else is a ValueError
/// that lists the supported versions.
llcheck::TritonVersion tritonVersion(const std::optional<std::string>& text) {
  if (!text)
    return llcheck::kNewestTriton;
  return unwrap(llcheck::parseTritonVersionOrError(*text, "triton"));
}

Layout fromSpec(const std::string& spec, std::optional<std::vector<uint64_t>> shape,
                std::optional<uint64_t> numWarps, std::optional<uint64_t> threadsPerWarp,
                const std::optional<std::string>& triton) {
  llcheck::LayoutContext o;
  o.shape = std::move(shape);
  o.numWarps = numWarps;
  o.threadsPerWarp = threadsPerWarp;
  o.triton = tritonVersion(triton);
  auto loaded = unwrap(llcheck::loadSpec(spec, o));
  return Layout{loaded.layout, loaded.padding};
}

Layout fromBases(const std::vector<std::pair<std::string, std::vector<std::vector<uint64_t>>>>& ins,
                 const std::vector<std::pair<std::string, uint64_t>>& outs,
                 bool requireSurjective) {
  std::vector<llcheck::DimBases> bases;
  for (const auto& [n, b] : ins)
    bases.push_back({DimName(n), b});
  return wrap(LinearLayout::create(bases, dimSizes(outs), requireSurjective));
}

Layout fromBasesInferred(
    const std::vector<std::pair<std::string, std::vector<std::vector<uint64_t>>>>& ins,
    const std::vector<std::string>& outs) {
  std::vector<llcheck::DimBases> bases;
  for (const auto& [n, b] : ins)
    bases.push_back({DimName(n), b});
  return wrap(LinearLayout::create(bases, names(outs)));
}

/// Z3's limits as the command line's --prover-timeout sets them, or nullopt for z3=False.
std::optional<llcheck::prover::ProverOptions> proverOptions(bool z3,
                                                            std::optional<unsigned> timeoutMs) {
  if (!z3)
    return std::nullopt;
  llcheck::prover::ProverOptions o;
  if (timeoutMs)
    o.timeoutMs = *timeoutMs;
  return o;
}

/// The conversion commands print to a stream; the binding hands their JSON text to Python.
std::string conversionJson(const Layout& src, const Layout& dst, const std::string& dtype,
                           const std::string& arch, bool convert,
                           const std::optional<std::string>& triton,
                           const std::optional<llcheck::prover::ProverOptions>& z3 = {}) {
  auto model = unwrap(llcheck::sharedMemoryModel(arch));
  int bits = unwrap(llcheck::dtypeBits(dtype));
  if (!src.padding.empty())
    throw py::value_error("a padded shared layout is not a distributed layout");
  if (convert && !dst.padding.empty())
    throw py::value_error("DST: a padded shared layout is not a distributed layout to convert to");
  llcheck::verdict::ConversionRequest r{{src.layout, "src", "python", "", {}},
                                        {dst.layout, "dst", "python", "", dst.padding},
                                        dtype,
                                        bits,
                                        model,
                                        true};
  r.triton = tritonVersion(triton);
  if (convert)
    r.properties = [&r, z3](const llcheck::ConversionPlan& plan,
                            const llcheck::OptimalSwizzle* swizzle) {
      return llcheck::verdict::proveConvert(plan, swizzle, r.elementBits, r.model, z3);
    };
  std::ostringstream out;
  std::string message;
  int status = convert ? llcheck::verdict::runConvert(r, out, message)
                       : llcheck::verdict::runBankConflicts(r, out, message);
  if (status == 2)
    throw py::value_error(message);
  return out.str();
}

/// `llcheck coalescing SPEC --format json` (with `--no-z3` for z3=False), through the command
/// line's own answer (verdict::runCoalescing), Z3's proof of the sectors per request included.
std::string coalescingJson(const Layout& reg, const std::string& dtype, const std::string& arch,
                           const std::optional<std::vector<int64_t>>& strides,
                           uint64_t baseAlignment,
                           const std::optional<llcheck::prover::ProverOptions>& z3) {
  if (!reg.padding.empty())
    throw py::value_error("a padded shared layout is not a distributed layout");
  llcheck::verdict::CoalescingRequest r;
  r.layout.layout = reg.layout;
  r.layout.source = "layout";
  r.dtype = dtype;
  r.model = unwrap(llcheck::globalMemoryModel(arch));
  r.options.elementBits = unwrap(llcheck::dtypeBits(dtype));
  if (strides)
    r.options.strides = *strides;
  r.options.baseAlignment = baseAlignment;
  r.json = true;
  r.prove = z3;
  std::ostringstream out;
  std::string message;
  if (llcheck::verdict::runCoalescing(r, out, message) == 2)
    throw py::value_error(message);
  return out.str();
}

/// The keyword argument that supplies a context item core's messages mention (ContextItem).
std::string keywordName(llcheck::ContextItem item) {
  switch (item) {
  case llcheck::ContextItem::NumWarps:
    return "num_warps";
  case llcheck::ContextItem::ThreadsPerWarp:
    return "threads_per_warp";
  default: // shape, arch, dtype, strides: the keyword is core's name
    return llcheck::coreContextName(item);
  }
}

/// Layout's constructors (from a SPEC, bases, JSON or CuTe), its printed forms and identity.
void bindLayoutConstruction(py::class_<Layout>& cls) {
  cls.def_static("from_spec", &fromSpec, py::arg("spec"), py::arg("shape") = py::none(),
                 py::arg("num_warps") = py::none(), py::arg("threads_per_warp") = py::none(),
                 py::arg("triton") = py::none())
      .def_static("from_bases", &fromBases, py::arg("ins"), py::arg("outs"),
                  py::arg("require_surjective"))
      .def_static("from_bases_inferred", &fromBasesInferred, py::arg("ins"), py::arg("outs"))
      .def_static("from_json",
                  [](const std::string& text) {
                    auto j = unwrap(llcheck::parseJsonText(text, "layout"));
                    return wrap(llcheck::layoutFromJson(j));
                  })
      .def_static(
          "from_cute",
          [](const std::string& text, bool forward) {
            auto c = unwrap(llcheck::parseCuteLayout(text));
            return wrap(forward ? llcheck::cuteForwardLayout(c) : llcheck::cuteSharedLayout(c));
          },
          py::arg("text"), py::arg("forward") = false)
      .def("to_json", [](const Layout& l) { return llcheck::dumpJson(llcheck::toJson(l.layout)); })
      .def("to_attr", [](const Layout& l) { return unwrap(llcheck::toLinearAttr(l.layout)); })
      .def("__str__", [](const Layout& l) { return l.layout.toString(); })
      .def("__eq__", [](const Layout& a,
                        const Layout& b) { return a.layout == b.layout && a.padding == b.padding; })
      .def("__hash__", [](const Layout& l) { return l.layout.hash(); });
}

/// What a layout is: its padding, dims and bases, its values and properties.
void bindLayoutQueries(py::class_<Layout>& cls) {
  cls.def_property_readonly("padding",
                            [](const Layout& l) {
                              std::vector<std::pair<uint64_t, uint64_t>> out;
                              for (const auto& p : l.padding)
                                out.emplace_back(p.interval, p.pad);
                              return out;
                            })
      .def_property_readonly("in_dims", [](const Layout& l) { return pairs(l.layout.getInDims()); })
      .def_property_readonly("out_dims",
                             [](const Layout& l) { return pairs(l.layout.getOutDims()); })
      .def_property_readonly(
          "bases",
          [](const Layout& l) {
            std::vector<std::pair<std::string, std::vector<std::vector<uint64_t>>>> out;
            for (const auto& b : l.layout.getBases())
              out.emplace_back(b.name.str(), b.bases);
            return out;
          })
      .def("apply",
           [](const Layout& l, const std::vector<std::pair<std::string, uint64_t>>& in) {
             llcheck::Point p;
             for (const auto& [n, v] : in)
               p.push_back({DimName(n), v});
             std::vector<std::pair<std::string, uint64_t>> out;
             for (const auto& [n, v] : unwrap(l.layout.apply(p)))
               out.emplace_back(n.str(), v);
             return out;
           })
      .def("rank", [](const Layout& l) { return l.layout.rank(); })
      .def("is_injective", [](const Layout& l) { return l.layout.isInjective(); })
      .def("is_surjective", [](const Layout& l) { return l.layout.isSurjective(); })
      .def("is_invertible", [](const Layout& l) { return l.layout.isInvertible(); })
      .def("free_variable_masks",
           [](const Layout& l) {
             std::vector<std::pair<std::string, uint64_t>> out;
             for (const auto& [n, v] : l.layout.getFreeVariableMasks())
               out.emplace_back(n.str(), v);
             return out;
           })
      .def("num_consecutive_in_out",
           [](const Layout& l) { return l.layout.getNumConsecutiveInOut(); });
}

/// The algebra: composition, inverses, products and the reshaping of dims.
void bindLayoutOperations(py::class_<Layout>& cls) {
  cls.def("compose",
          [](const Layout& a, const Layout& b) { return wrap(a.layout.compose(b.layout)); })
      .def(
          "invert_and_compose",
          [](const Layout& a, const Layout& b, const std::optional<std::string>& triton) {
            return wrap(a.layout.invertAndCompose(b.layout, tritonVersion(triton)));
          },
          py::arg("outer"), py::arg("triton") = py::none())
      .def(
          "invert",
          [](const Layout& l, const std::optional<std::string>& triton) {
            return wrap(l.layout.invert(tritonVersion(triton)));
          },
          py::arg("triton") = py::none())
      .def(
          "pseudoinvert",
          [](const Layout& l, const std::optional<std::string>& triton) {
            return wrap(l.layout.pseudoinvert(tritonVersion(triton)));
          },
          py::arg("triton") = py::none())
      .def("product",
           [](const Layout& a, const Layout& b) { return wrap(product(a.layout, b.layout)); })
      .def("concat_ins",
           [](const Layout& a, const Layout& b) { return wrap(a.layout.concatIns(b.layout)); })
      .def("concat_outs",
           [](const Layout& a, const Layout& b) { return wrap(a.layout.concatOuts(b.layout)); })
      .def("sublayout",
           [](const Layout& l, const std::vector<std::string>& ins,
              const std::vector<std::string>& outs) {
             return wrap(l.layout.sublayout(names(ins), names(outs)));
           })
      .def("transpose_ins",
           [](const Layout& l, const std::vector<std::string>& order) {
             return wrap(l.layout.transposeIns(names(order)));
           })
      .def("transpose_outs",
           [](const Layout& l, const std::vector<std::string>& order) {
             return wrap(l.layout.transposeOuts(names(order)));
           })
      .def("reshape_ins",
           [](const Layout& l, const std::vector<std::pair<std::string, uint64_t>>& dims) {
             return wrap(l.layout.reshapeIns(dimSizes(dims)));
           })
      .def("reshape_outs",
           [](const Layout& l, const std::vector<std::pair<std::string, uint64_t>>& dims) {
             return wrap(l.layout.reshapeOuts(dimSizes(dims)));
           })
      .def("flatten_ins",
           [](const Layout& l) {
             return Layout{l.layout.flattenIns(), {}};
           })
      .def("flatten_outs",
           [](const Layout& l) {
             return Layout{l.layout.flattenOuts(), {}};
           })
      .def("resize_in_dim",
           [](const Layout& l, const std::string& d, uint64_t size) {
             return wrap(l.layout.resizeInDim(DimName(d), size));
           })
      .def("resize_out_dim",
           [](const Layout& l, const std::string& d, uint64_t size) {
             return wrap(l.layout.resizeOutDim(DimName(d), size));
           })
      .def("rename_in_dim",
           [](const Layout& l, const std::string& from, const std::string& to) {
             return wrap(l.layout.renameInDim(DimName(from), DimName(to)));
           })
      .def("rename_out_dim",
           [](const Layout& l, const std::string& from, const std::string& to) {
             return wrap(l.layout.renameOutDim(DimName(from), DimName(to)));
           })
      .def("remove_zero_bases_along_dim",
           [](const Layout& l, const std::string& d) {
             return wrap(l.layout.removeZeroBasesAlongDim(DimName(d)));
           })
      .def("quotient", [](const Layout& l, const std::vector<std::string>& dims) {
        auto q = l.layout.quotient(names(dims));
        if (!q)
          throw py::value_error("the layout is not trivial over the given dims");
        return Layout{*q, {}};
      });
}

/// The analyses, each returning the JSON text the command line prints with --format json.
void bindAnalyses(py::module_& m) {
  m.def(
      "verify",
      [](const Layout& l, int maxEnumerationBits, const std::vector<std::string>& require, bool z3,
         std::optional<unsigned> z3TimeoutMs) {
        llcheck::VerifyOptions o;
        o.maxEnumerationBits = maxEnumerationBits;
        for (const std::string& name : require) {
          std::optional<llcheck::Property> property = llcheck::parseProperty(name);
          if (!property)
            throw py::value_error(llcheck::unknownPropertyError(name, "require").str());
          o.require.push_back(*property);
        }
        llcheck::VerifyReport report = unwrap(llcheck::verify(l.layout, o));
        if (auto prover = proverOptions(z3, z3TimeoutMs))
          llcheck::prover::addProofs(report, *prover);
        return llcheck::dumpJson(llcheck::toJson(report));
      },
      py::arg("layout"), py::arg("max_enumeration_bits"), py::arg("require"), py::arg("z3") = true,
      py::arg("z3_timeout_ms") = py::none());
  m.def("default_max_enumeration_bits", [] { return llcheck::kDefaultMaxEnumerationBits; });
  m.def(
      "convert",
      [](const Layout& src, const Layout& dst, const std::string& dtype, const std::string& arch,
         const std::optional<std::string>& triton, bool z3, std::optional<unsigned> z3TimeoutMs) {
        return conversionJson(src, dst, dtype, arch, true, triton, proverOptions(z3, z3TimeoutMs));
      },
      py::arg("src"), py::arg("dst"), py::arg("dtype"), py::arg("arch"),
      py::arg("triton") = py::none(), py::arg("z3") = true, py::arg("z3_timeout_ms") = py::none());
  m.def(
      "bank_conflicts",
      [](const Layout& reg, const Layout& shared, const std::string& dtype, const std::string& arch,
         const std::optional<std::string>& triton) {
        return conversionJson(reg, shared, dtype, arch, false, triton);
      },
      py::arg("reg"), py::arg("shared"), py::arg("dtype"), py::arg("arch"),
      py::arg("triton") = py::none());
  m.def(
      "coalescing",
      [](const Layout& reg, const std::string& dtype, const std::string& arch,
         const std::optional<std::vector<int64_t>>& strides, uint64_t baseAlignment, bool z3,
         std::optional<unsigned> z3TimeoutMs) {
        return coalescingJson(reg, dtype, arch, strides, baseAlignment,
                              proverOptions(z3, z3TimeoutMs));
      },
      py::arg("reg"), py::arg("dtype"), py::arg("arch"), py::arg("strides") = py::none(),
      py::arg("base_alignment") = 128, py::arg("z3") = true, py::arg("z3_timeout_ms") = py::none());
  m.def("gather", [](const Layout& l, int axis) {
    return llcheck::dumpJson(llcheck::toJson(unwrap(llcheck::planGather(l.layout, axis))));
  });
}

/// The Triton releases whose semantics llcheck knows.
void bindTritonVersions(py::module_& m) {
  m.def("triton_versions", [] {
    std::vector<std::string> names;
    for (llcheck::TritonVersion v : llcheck::supportedTritonVersions())
      names.push_back(llcheck::tritonVersionName(v));
    return names;
  });
  m.def("newest_triton", [] { return llcheck::tritonVersionName(llcheck::kNewestTriton); });
}

} // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "llcheck's C++ core: linear layouts over F2 as Triton uses them";
  // Messages about the context name the keyword arguments that supply it ("pass shape").
  llcheck::setContextNames(&keywordName);

  py::class_<Layout> layout(m, "Layout");
  bindLayoutConstruction(layout);
  bindLayoutQueries(layout);
  bindLayoutOperations(layout);
  bindAnalyses(m);
  bindTritonVersions(m);
}
