// Text and JSON forms of a TTGIR module's layouts, ops and not-understood items.
#include "TtgirOutput.h"

#include "llcheck/core/Formats.h"

#include <sstream>

namespace llcheck::cli {

namespace {

std::string count(std::size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : word.back() == 's' ? "es" : "s");
}

std::string operandText(const TtgirModule& m, const TtgirOperand& o) {
  if (o.layout < 0)
    return o.type + " (no layout)";
  const TtgirLayout& l = m.layouts[static_cast<std::size_t>(o.layout)];
  return "layout " + std::to_string(o.layout) + " (" + l.encoding + " " + shapeText(l.shape) +
         (l.layout ? "" : ", not understood") + ")";
}

nlohmann::json operandJson(const TtgirOperand& o) {
  return {{"type", o.type},
          {"layout", o.layout < 0 ? nlohmann::json(nullptr) : nlohmann::json(o.layout)}};
}

template <class T> nlohmann::json optional(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

} // namespace

std::string ttgirText(const TtgirModule& m, bool withOps, bool asAttr) {
  std::ostringstream os;
  auto num = [](const std::optional<uint64_t>& v) { return v ? std::to_string(*v) : "-"; };
  os << "module " << m.source << ": target " << (m.target ? *m.target : "-") << ", num-warps "
     << num(m.numWarps) << ", threads-per-warp " << num(m.threadsPerWarp) << ", num-ctas "
     << num(m.numCtas) << ", Triton " << tritonVersionName(m.triton) << " semantics\n";
  os << count(m.aliases.size(), "alias") << ", " << count(m.types.size(), "type") << ", "
     << count(m.layouts.size(), "layout") << ", " << count(m.ops.size(), "data-moving op") << ", "
     << m.notUnderstood.size() << " not understood\n";
  for (std::size_t i = 0; i < m.layouts.size(); ++i) {
    const TtgirLayout& l = m.layouts[i];
    os << "\nlayout " << i << ": " << l.encoding << " over " << shapeText(l.shape) << " (" << l.kind
       << ", line " << l.line << ")\n";
    if (l.attribute != l.encoding)
      os << "  " << l.attribute << "\n";
    if (!l.layout) {
      os << "  not understood: " << l.error << "\n";
      continue;
    }
    auto attr = asAttr ? toLinearAttr(*l.layout, m.triton) : Result<std::string>(Error{});
    if (asAttr && attr.ok())
      os << *attr << "\n";
    else
      os << l.layout->toString().substr(1) << "\n";
  }
  if (withOps) {
    os << "\nops (" << m.ops.size() << "):\n";
    for (const TtgirOp& op : m.ops)
      os << "  " << op.location << ": " << op.name << " "
         << (op.src ? operandText(m, *op.src) : std::string("(new buffer)")) << " -> "
         << operandText(m, op.dst) << ", " << shapeText(op.shape) << "x" << op.elementType
         << " (line " << op.line << ")\n";
  }
  if (!m.notUnderstood.empty()) {
    os << "\nnot understood (" << m.notUnderstood.size() << "):\n";
    for (const TtgirNotUnderstood& n : m.notUnderstood)
      os << "  " << n.where << ": " << n.what << " " << n.text << ": " << n.reason << "\n";
  }
  return os.str();
}

nlohmann::json ttgirJson(const TtgirModule& m, bool withOps) {
  nlohmann::json j;
  j["source"] = m.source;
  j["triton"] = tritonVersionName(m.triton);
  j["module"] = {{"target", optional(m.target)},
                 {"num_warps", optional(m.numWarps)},
                 {"threads_per_warp", optional(m.threadsPerWarp)},
                 {"num_ctas", optional(m.numCtas)}};
  nlohmann::json aliases = nlohmann::json::array();
  for (const TtgirAlias& a : m.aliases)
    aliases.push_back({{"name", a.name}, {"attribute", a.text}, {"line", a.line}});
  j["aliases"] = aliases;
  nlohmann::json types = nlohmann::json::array();
  for (const TtgirType& t : m.types) {
    nlohmann::json o = {
        {"kind", t.kind == TtgirType::Kind::Tensor ? "tensor" : "memdesc"},
        {"text", t.text},
        {"shape", t.shape},
        {"element_type", t.elementType},
        {"encoding", t.encoding},
        {"layout", t.layout < 0 ? nlohmann::json(nullptr) : nlohmann::json(t.layout)},
        {"line", t.line},
        {"column", t.column},
        {"count", t.count}};
    if (t.kind == TtgirType::Kind::MemDesc) {
      o["memory_space"] = t.memorySpace;
      o["mutable"] = t.isMutable;
      o["alloc_shape"] = t.allocShape.empty() ? t.shape : t.allocShape;
    }
    types.push_back(std::move(o));
  }
  j["types"] = types;
  nlohmann::json layouts = nlohmann::json::array();
  for (std::size_t i = 0; i < m.layouts.size(); ++i) {
    const TtgirLayout& l = m.layouts[i];
    layouts.push_back({{"id", i},
                       {"encoding", l.encoding},
                       {"attribute", l.attribute},
                       {"shape", l.shape},
                       {"kind", l.kind},
                       {"line", l.line},
                       {"column", l.column},
                       {"layout", l.layout ? toJson(*l.layout) : nlohmann::json(nullptr)},
                       {"error", l.layout ? nlohmann::json(nullptr) : nlohmann::json(l.error)}});
  }
  j["layouts"] = layouts;
  if (withOps) {
    nlohmann::json ops = nlohmann::json::array();
    for (const TtgirOp& op : m.ops)
      ops.push_back({{"op", op.name},
                     {"location", op.location},
                     {"line", op.line},
                     {"src", op.src ? operandJson(*op.src) : nlohmann::json(nullptr)},
                     {"dst", operandJson(op.dst)},
                     {"shape", op.shape},
                     {"dtype", op.elementType}});
    j["ops"] = ops;
  }
  nlohmann::json nu = nlohmann::json::array();
  for (const TtgirNotUnderstood& n : m.notUnderstood)
    nu.push_back({{"what", n.what},
                  {"text", n.text},
                  {"where", n.where},
                  {"reason", n.reason},
                  {"unsupported_encoding", n.unsupportedEncoding}});
  j["not_understood"] = nu;
  return j;
}

} // namespace llcheck::cli
