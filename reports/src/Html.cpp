// report.html: one self-contained page (no script, no network), a section per kernel, with an
// inline SVG picture of every layout — the ownership and bank pictures people draw by hand.
// Identical layouts share one drawing (an SVG <symbol> each picture <use>s), which keeps the page
// of a whole corpus small.
#include "llcheck/reports/Outputs.h"

#include "Fix.h"
#include "ReportParts.h"
#include "Streaming.h"

#include "llcheck/core/Formats.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

namespace llcheck::reports {

using json = nlohmann::json;

namespace {

/// Eight warps get colours far apart (Okabe-Ito, readable by colour-blind readers); more warps
/// and the banks go round the hue circle.
std::string warpColour(uint64_t warp, uint64_t warps) {
  static const char* kPalette[] = {"#E69F00", "#56B4E9", "#009E73", "#F0E442",
                                   "#0072B2", "#D55E00", "#CC79A7", "#999999"};
  if (warps <= 8)
    return kPalette[warp % 8];
  char buf[32];
  std::snprintf(buf, sizeof buf, "hsl(%d,70%%,60%%)", static_cast<int>(warp * 360 / warps));
  return buf;
}

std::string hueColour(uint64_t i, uint64_t n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "hsl(%d,65%%,70%%)",
                static_cast<int>(i * 360 / std::max<uint64_t>(n, 1)));
  return buf;
}

/// The tensor coordinates of a packed output, as (row, column) of the picture: the two minor
/// dims of a rank >= 2 tensor, rows of kMaxPictureSide for rank 1; `inSlice` is false for
/// elements whose leading coordinates are not 0.
struct Grid {
  uint64_t rows = 1, cols = 1; // the whole tensor's two minor dims
  uint64_t shownRows = 1, shownCols = 1;
  int rank = 0;
  std::vector<int> offsets; // bit offset of each tensor dim in the packed output
  std::vector<uint64_t> sizes;
  bool place(uint64_t packed, uint64_t& r, uint64_t& c) const {
    std::vector<uint64_t> v(sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i)
      v[i] = (packed >> offsets[i]) & (sizes[i] - 1);
    if (rank == 1) {
      r = v[0] / cols;
      c = v[0] % cols;
    } else {
      for (int i = 0; i + 2 < rank; ++i)
        if (v[static_cast<std::size_t>(i)] != 0)
          return false;
      r = v[static_cast<std::size_t>(rank - 2)];
      c = v[static_cast<std::size_t>(rank - 1)];
    }
    return r < shownRows && c < shownCols;
  }
};

bool makeGrid(const LinearLayout& l, Grid& g, std::string& why) {
  g.rank = l.getNumOutDims();
  for (int k = 0; k < g.rank; ++k) {
    int idx = l.outDimIndex(DimName("dim" + std::to_string(k)));
    if (idx < 0) {
      why = "its outputs are not named dim0..dim" + std::to_string(g.rank - 1);
      return false;
    }
    g.offsets.push_back(l.outDimOffset(idx));
    g.sizes.push_back(uint64_t{1} << l.outDims()[static_cast<std::size_t>(idx)].sizeLog2);
  }
  if (g.rank == 0) {
    why = "it has no output dims";
    return false;
  }
  if (g.rank == 1) {
    g.cols = std::min<uint64_t>(g.sizes[0], kMaxPictureSide);
    g.rows = g.sizes[0] / g.cols;
  } else {
    g.rows = g.sizes[static_cast<std::size_t>(g.rank - 2)];
    g.cols = g.sizes[static_cast<std::size_t>(g.rank - 1)];
  }
  g.shownRows = std::min<uint64_t>(g.rows, kMaxPictureSide);
  g.shownCols = std::min<uint64_t>(g.cols, kMaxPictureSide);
  return true;
}

int cellSize(uint64_t side) {
  return side <= 8 ? 28 : side <= 16 ? 22 : 16;
}

struct Cell {
  bool set = false;
  uint64_t colourKey = 0;
  std::string label;
  uint64_t holders = 0;
};

/// Rows of cells as SVG: one rect per run of equal colour, one label per cell.
std::string drawCells(const std::vector<Cell>& cells, const Grid& g, int cell, uint64_t keys,
                      bool byWarp, int top) {
  std::ostringstream os;
  for (uint64_t r = 0; r < g.shownRows; ++r) {
    uint64_t c = 0;
    while (c < g.shownCols) {
      const Cell& first = cells[r * g.shownCols + c];
      uint64_t end = c + 1;
      while (end < g.shownCols && cells[r * g.shownCols + end].set == first.set &&
             cells[r * g.shownCols + end].colourKey == first.colourKey)
        ++end;
      os << "<rect x=\"" << c * cell << "\" y=\"" << top + static_cast<int>(r) * cell
         << "\" width=\"" << (end - c) * cell << "\" height=\"" << cell << "\" fill=\""
         << (!first.set ? std::string("#ffffff")
             : byWarp   ? warpColour(first.colourKey, keys)
                        : hueColour(first.colourKey, keys))
         << "\"/>";
      c = end;
    }
    os << "\n";
  }
  // Grid lines every cell, darker every 8.
  os << "<g stroke=\"#0003\" stroke-width=\"0.5\">";
  for (uint64_t r = 0; r <= g.shownRows; ++r)
    os << "<line x1=\"0\" x2=\"" << g.shownCols * cell << "\" y1=\""
       << top + static_cast<int>(r) * cell << "\" y2=\"" << top + static_cast<int>(r) * cell << "\""
       << (r % 8 == 0 ? " stroke=\"#0008\"" : "") << "/>";
  for (uint64_t c = 0; c <= g.shownCols; ++c)
    os << "<line y1=\"" << top << "\" y2=\"" << top + static_cast<int>(g.shownRows) * cell
       << "\" x1=\"" << c * cell << "\" x2=\"" << c * cell << "\""
       << (c % 8 == 0 ? " stroke=\"#0008\"" : "") << "/>";
  os << "</g>\n<g font-family=\"monospace\" font-size=\"" << (cell >= 22 ? 8 : 7)
     << "\" text-anchor=\"middle\" fill=\"#000\">";
  for (uint64_t r = 0; r < g.shownRows; ++r)
    for (uint64_t c = 0; c < g.shownCols; ++c) {
      const Cell& x = cells[r * g.shownCols + c];
      if (!x.set || x.label.empty())
        continue;
      os << "<text x=\"" << c * cell + static_cast<uint64_t>(cell / 2) << "\" y=\""
         << top + static_cast<int>(r) * cell + cell / 2 + 3 << "\">" << x.label << "</text>";
    }
  os << "</g>\n";
  return os.str();
}

} // namespace

Picture layoutPicture(const LayoutEntry& e, int banks) {
  Picture p;
  const LinearLayout& l = *e.layout;
  Grid g;
  std::string why;
  auto placeholder = [&](const std::string& text) {
    p.width = 360;
    p.height = 40;
    p.body = "<rect width=\"360\" height=\"40\" fill=\"#eee\" stroke=\"#999\"/><text x=\"8\" "
             "y=\"24\" font-family=\"sans-serif\" font-size=\"11\">" +
             xmlEscape(text) + "</text>";
    p.caption = text;
    return p;
  };
  if (!makeGrid(l, g, why))
    return placeholder("not drawn: " + why);
  int cell = cellSize(std::max(g.shownRows, g.shownCols));
  std::vector<Cell> cells(g.shownRows * g.shownCols);
  std::string legend;
  bool distributed = l.hasInDim(DimName("lane")) || l.hasInDim(DimName("register"));
  bool shared = l.hasInDim(DimName("offset"));
  uint64_t keys = 1;
  bool byWarp = true;
  // Only CTA 0 is drawn: the block bits are the most significant input bits.
  int blockBits = l.hasInDim(DimName("block")) ? l.getInDimSizeLog2(DimName("block")) : 0;
  int bits = l.getTotalInDimSizeLog2() - blockBits;
  if (bits > 22)
    return placeholder("not drawn: 2^" + std::to_string(bits) + " locations per CTA");
  uint64_t maxHolders = 0;
  if (distributed) {
    auto dimValue = [&](uint64_t x, const char* name) -> uint64_t {
      DimName d(name);
      int i = l.inDimIndex(d);
      if (i < 0)
        return 0;
      return (x >> l.inDimOffset(i)) & (l.getInDimSize(d) - 1);
    };
    keys = l.hasInDim(DimName("warp")) ? l.getInDimSize(DimName("warp")) : 1;
    bool showRegister = cell >= 22;
    for (uint64_t x = 0; x < (uint64_t{1} << bits); ++x) {
      uint64_t r = 0, c = 0;
      if (!g.place(l.applyFlat(x), r, c))
        continue;
      Cell& cl = cells[r * g.shownCols + c];
      ++cl.holders;
      maxHolders = std::max(maxHolders, cl.holders);
      if (cl.set)
        continue; // the lowest (warp, lane, register) is drawn: x counts registers fastest
      cl.set = true;
      cl.colourKey = dimValue(x, "warp");
      cl.label = std::to_string(dimValue(x, "lane"));
      if (showRegister)
        cl.label += ":" + std::to_string(dimValue(x, "register"));
    }
    legend = std::string("colour: warp; label: lane") + (showRegister ? ":register" : "");
    p.caption = legend;
    if (maxHolders > 1)
      p.caption += "; each element is held by up to " + std::to_string(maxHolders) +
                   " (warp, lane, register) locations, the lowest is shown";
  } else if (shared) {
    byWarp = false;
    keys = static_cast<uint64_t>(banks);
    uint64_t bytes = static_cast<uint64_t>(std::max(e.elementBits, 8) / 8);
    for (uint64_t o = 0; o < (uint64_t{1} << bits); ++o) {
      uint64_t r = 0, c = 0;
      if (!g.place(l.applyFlat(o), r, c))
        continue;
      Cell& cl = cells[r * g.shownCols + c];
      if (cl.set)
        continue;
      uint64_t address = paddedOffset(e.padding, o) * bytes;
      uint64_t bank = (address / 4) % static_cast<uint64_t>(banks);
      cl.set = true;
      cl.colourKey = bank;
      cl.label = std::to_string(bank);
    }
    legend = "colour and label: bank (" + std::to_string(banks) + " banks of 4 bytes, " +
             (e.elementBits ? std::to_string(e.elementBits) + "-bit elements"
                            : "8-bit elements assumed") +
             ")";
    p.caption = legend;
  } else {
    return placeholder("not drawn: neither a distributed (register/lane/warp) nor a shared "
                       "(offset) layout");
  }
  int top = 14;
  p.width = static_cast<int>(g.shownCols) * cell + 1;
  p.height = static_cast<int>(g.shownRows) * cell + top + 1;
  std::string title = (g.rank == 1 ? "1-D tensor of " + std::to_string(g.sizes[0]) +
                                         ", in rows of " + std::to_string(g.cols)
                                   : "rows dim" + std::to_string(g.rank - 2) + ", columns dim" +
                                         std::to_string(g.rank - 1));
  if (g.shownRows < g.rows || g.shownCols < g.cols)
    title += "; the first " + std::to_string(g.shownRows) + "x" + std::to_string(g.shownCols) +
             " of " + std::to_string(g.rows) + "x" + std::to_string(g.cols);
  if (g.rank > 2)
    title += "; the slice with every other index 0";
  p.caption = title + ". " + p.caption;
  p.body = "<text x=\"0\" y=\"10\" font-family=\"sans-serif\" font-size=\"9\">" + xmlEscape(title) +
           "</text>\n" + drawCells(cells, g, cell, keys, byWarp, top);
  return p;
}

namespace {

std::string sideText(const json& pred, const char* side) {
  if (!pred.is_object() || !pred.contains(side))
    return "";
  const json& a = pred[side];
  std::string s =
      std::string(side) + " " + std::to_string(a.value("wavefronts", uint64_t{0})) + " wf";
  if (a.contains("instruction"))
    s += " (" + a["instruction"].get<std::string>() + ")";
  return s;
}

std::string costText(const json& pred) {
  if (!pred.is_object())
    return "<span class=\"dim\">-</span>";
  std::string s;
  for (const char* side : {"store", "load"}) {
    std::string t = sideText(pred, side);
    if (!t.empty())
      s += (s.empty() ? "" : "<br>") + xmlEscape(t);
  }
  if (pred.contains("rounds"))
    s += "shuffle rounds " + std::to_string(pred["rounds"].get<uint64_t>());
  if (pred.contains("conversions")) {
    for (const json& c : pred["conversions"]) {
      const json& o = c["optimal"];
      s += (s.empty() ? "" : "<br>") +
           xmlEscape("via layout " + std::to_string(c["src"].get<int>()) + " -> " +
                     std::to_string(c["dst"].get<int>()) + ": compiler " +
                     std::to_string(c["compiler"]["store"].get<uint64_t>()) + " + " +
                     std::to_string(c["compiler"]["load"].get<uint64_t>()) + ", optimum " +
                     std::to_string(o["store"]["wavefronts"].get<uint64_t>()) + " + " +
                     std::to_string(o["load"]["wavefronts"].get<uint64_t>()) + " (" +
                     o["store"]["instruction"].get<std::string>() + ", " +
                     o["load"]["instruction"].get<std::string>() + ")");
    }
  }
  if (s.empty() && pred.contains("wavefronts"))
    s = std::to_string(pred["wavefronts"].get<uint64_t>()) + " wavefronts";
  if (pred.contains("misaligned_accesses"))
    s += "<br><span class=\"bad\">" + std::to_string(pred["misaligned_accesses"].get<uint64_t>()) +
         " misaligned lane accesses</span>";
  if (pred.contains("lowering") && pred["lowering"] == "triton" && pred.contains("triton")) {
    s += "<br><span class=\"dim\">Triton " + xmlEscape(pred["triton"].get<std::string>()) +
         "'s lowering";
    if (pred.contains("llcheck") && pred["llcheck"].is_object()) {
      std::string mine;
      for (const char* side : {"store", "load"}) {
        std::string t = sideText(pred["llcheck"], side);
        if (!t.empty())
          mine += (mine.empty() ? "" : ", ") + xmlEscape(t);
      }
      if (!mine.empty())
        s += "; llcheck's instruction: " + mine;
    }
    s += "</span>";
  }
  return s.empty() ? "<span class=\"dim\">-</span>" : s;
}

/// A layout of a fix drawn inline: the layout now (a module layout by id, or Triton's scratch)
/// or the suggested one.
std::string fixPicture(const KernelReport& k, const json& side,
                       const std::optional<LinearLayout>& drawn, int elementBits,
                       const std::string& title) {
  LayoutEntry e;
  e.elementBits = elementBits;
  if (drawn) {
    e.layout = *drawn;
  } else if (side.contains("layout") && side["layout"].is_number_integer()) {
    const LayoutEntry* l = detail::layoutAt(k, side["layout"].get<int>());
    if (l && l->layout)
      e = *l;
  }
  if (!e.layout)
    return "<figure class=\"fix-side\"><figcaption><b>" + xmlEscape(title) +
           "</b>: not drawn (no layout)</figcaption></figure>";
  Picture pic = layoutPicture(e, k.banks);
  return "<figure class=\"fix-side\"><figcaption><b>" + xmlEscape(title) +
         "</b>: " + xmlEscape(pic.caption) + "</figcaption><svg class=\"fix-pic\" " +
         "xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(pic.width) +
         "\" height=\"" + std::to_string(pic.height) + "\" viewBox=\"0 0 " +
         std::to_string(pic.width) + " " + std::to_string(pic.height) + "\" role=\"img\" " +
         "aria-label=\"" + xmlEscape(title) + "\">" + pic.body + "</svg></figure>";
}

} // namespace

namespace detail {

std::string htmlFix(const KernelReport& k, const Finding& f, const std::string& anchor) {
  const json& x = f.fix;
  if (!x.is_object())
    return "";
  if (x.contains("error"))
    return "<div class=\"fix\" id=\"" + anchor + "\"><span class=\"bad\">no fix shown</span>: " +
           xmlEscape(x["error"].get<std::string>()) + "</div>";
  const json& now = x["now"];
  const json& sug = x["suggested"];
  int bits = x.value("element_bits", 16);
  std::string s = "<div class=\"fix\" id=\"" + anchor + "\"><b>" + xmlEscape(f.kind) +
                  "</b>: " + xmlEscape(f.message) + "<br><b>fix</b>: now " +
                  xmlEscape(fixCostText(now));
  s += "; suggested " + xmlEscape(fixCostText(sug));
  if (x.contains("bound") && x["bound"].is_object())
    s += "; bound " + xmlEscape(fixCostText(x["bound"]));
  s += "<br>TTGIR: <code class=\"paste\">" + xmlEscape(sug["attribute"].get<std::string>()) +
       "</code><br>Gluon: <code class=\"paste\">" + xmlEscape(sug["gluon"].get<std::string>()) +
       "</code>";
  for (const char* key : {"accepted_by", "why", "how"})
    if (x.contains(key) && x[key].is_string())
      s += "<br>" + std::string(std::string(key) == "accepted_by" ? "accepted by" : key) + ": " +
           xmlEscape(x[key].get<std::string>());
  s += "<div class=\"fix-pics\">" + fixPicture(k, now, f.nowLayout, bits, "now") +
       fixPicture(k, sug, f.suggestedLayout, bits, "suggested") + "</div></div>";
  return s;
}

} // namespace detail

namespace {

const char* kStyle = R"(
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:1400px}
h1{font-size:1.4em} h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:12px;margin:.5em 0}
td,th{border:1px solid #ddd;padding:3px 6px;vertical-align:top;text-align:left}
th{background:#f4f4f4} tr.fail td{background:#fff1f0} .dim{color:#999}
code{font-size:11px;word-break:break-all} .ok{color:#0a7d28} .bad{color:#c00;font-weight:bold}
figure.layout{display:inline-block;margin:.5em 1em .5em 0;vertical-align:top;max-width:560px}
figcaption{font-size:11px;max-width:540px} details{margin:.3em 0}
div.fix{margin:.4em 0;padding:.3em;border-left:3px solid #c00;background:#fff}
div.fix-pics{display:flex;flex-wrap:nowrap;gap:1em;align-items:flex-start;overflow-x:auto}
figure.fix-side{margin:.3em 0;max-width:560px} code.paste{user-select:all}
)";

} // namespace

namespace detail {

void htmlOpRow(std::ostream& os, std::ostream& fixes, std::size_t& fixCount, const KernelReport& k,
               std::size_t ki, const OpEntry& op) {
  std::string plan = op.plan.is_object() ? op.plan.value("kind", "-") : "-";
  if (op.plan.is_object() && op.plan.contains("construction"))
    plan += " (" + op.plan["construction"].get<std::string>() + ")";
  auto layoutRef = [&](int id) {
    if (id < 0)
      return std::string("-");
    const LayoutEntry& l = k.layouts[static_cast<std::size_t>(id)];
    std::string legal = !l.layout || l.legality.empty() ? ""
                        : l.legal                       ? " <span class=\"ok\">legal</span>"
                                  : " <span class=\"bad\">not " + l.legality + "</span>";
    return "<a href=\"#k" + std::to_string(ki) + "-l" + std::to_string(id) + "\">" +
           std::to_string(id) + "</a>" + legal;
  };
  std::string findings;
  for (const Finding& f : op.findings) {
    findings += (findings.empty() ? "" : "<br>") + std::string("<b>") + xmlEscape(f.kind) +
                "</b>: " + xmlEscape(f.message);
    if (f.fix.is_object()) {
      // The fix goes below the table, where its two pictures have the page's width.
      std::string anchor = "k" + std::to_string(ki) + "-fix" + std::to_string(++fixCount);
      findings += " <a href=\"#" + anchor + "\">(fix " + std::to_string(fixCount) + ")</a>";
      fixes << "<h4>fix " << fixCount << ": line " << op.line << ", " << xmlEscape(op.op) << " ("
            << xmlEscape(op.location) << ")</h4>\n"
            << htmlFix(k, f, anchor) << "\n";
    }
  }
  std::string measured = "<span class=\"dim\">-</span>";
  if (op.measured.is_object()) {
    measured.clear();
    for (const char* side : {"store", "load"})
      if (op.measured.contains(side))
        measured += (measured.empty() ? "" : "<br>") + std::string(side) + " " +
                    std::to_string(op.measured[side].value("wavefronts", uint64_t{0})) + " wf";
    measured += "<br><span class=\"dim\">" + xmlEscape(op.measured.value("of", "")) + "</span>";
  }
  os << "<tr" << (op.findings.empty() ? "" : " class=\"fail\"") << "><td>" << op.line << "</td><td>"
     << xmlEscape(op.op) << "</td><td>" << xmlEscape(op.location) << "</td><td>"
     << layoutRef(op.src) << " &rarr; " << layoutRef(op.dst) << "</td><td>"
     << xmlEscape(shapeText(op.shape)) << "x" << xmlEscape(op.dtype) << "</td><td>"
     << xmlEscape(plan) << "</td><td>" << costText(op.predicted) << "</td><td>"
     << costText(op.optimum) << "</td><td>" << measured << "</td><td>"
     << (findings.empty() ? "<span class=\"ok\">ok</span>" : findings) << "</td></tr>\n";
}

void htmlKernel(ReportStream& r, const KernelReport& k, KernelStream& s) {
  const std::size_t ki = s.index;
  std::ostream& body = r.htmlBody_.out();
  std::size_t nf = k.findings.size() + s.opFindings;
  body << "<section class=\"kernel\" id=\"k" << ki << "\"><h2>" << xmlEscape(k.file) << "</h2>\n<p>"
       << "target " << xmlEscape(k.target.empty() ? "-" : k.target) << ", bank model "
       << xmlEscape(k.arch) << (k.archNote.empty() ? "" : " (" + xmlEscape(k.archNote) + ")")
       << ", num-warps " << (k.numWarps ? std::to_string(*k.numWarps) : "-")
       << ", threads-per-warp " << (k.threadsPerWarp ? std::to_string(*k.threadsPerWarp) : "-")
       << "; " << k.layouts.size() << (k.layouts.size() == 1 ? " layout, " : " layouts, ") << s.ops
       << (s.ops == 1 ? " data-moving op, " : " data-moving ops, ")
       << (nf ? "<span class=\"bad\">" + std::to_string(nf) +
                    (nf == 1 ? " finding</span>" : " findings</span>")
              : std::string("<span class=\"ok\">no findings</span>"))
       << "</p>\n";
  if (!k.findings.empty()) {
    body << "<ul>";
    for (const Finding& f : k.findings)
      body << "<li><b>" << xmlEscape(f.kind) << "</b>: " << xmlEscape(f.message)
           << htmlFix(k, f,
                      "k" + std::to_string(ki) + "-mfix" + std::to_string(&f - &k.findings[0]))
           << "</li>";
    body << "</ul>\n";
  }
  if (s.ops > 0) {
    body << "<table><tr><th>line</th><th>op</th><th>location</th><th>layouts</th><th>shape</th>"
            "<th>plan</th><th>predicted</th><th>optimum</th><th>measured</th><th>findings</th></"
            "tr>";
    s.htmlRows.copyTo(body);
    body << "</table>\n";
    if (s.htmlFixCount > 0) {
      body << "<h3>Fixes (" << s.htmlFixCount << ")</h3>\n";
      s.htmlFixes.copyTo(body);
    }
  }
  for (const LayoutEntry& l : k.layouts) {
    body << "<figure class=\"layout\" id=\"k" << ki << "-l" << l.id << "\"><figcaption><b>layout "
         << l.id << "</b> (" << xmlEscape(l.kind) << ", line " << l.line << "): <code>"
         << xmlEscape(l.encoding) << "</code> over " << xmlEscape(shapeText(l.shape));
    if (!l.layout) {
      body << "<br><span class=\"bad\">not understood</span>: " << xmlEscape(l.error)
           << "</figcaption></figure>\n";
      continue;
    }
    if (l.verify) {
      body << "<br>";
      for (const PropertyResult& pr : l.verify->properties) {
        std::string st = pr.status();
        body << xmlEscape(pr.name()) << " <span class=\""
             << (st == "yes"   ? "ok"
                 : pr.required ? "bad"
                               : "dim")
             << "\">" << xmlEscape(st) << "</span> <span class=\"dim\">(";
        for (std::size_t b = 0; b < pr.by.size(); ++b)
          body << (b ? ", " : "") << xmlEscape(pr.by[b]);
        body << ")</span>; ";
      }
    }
    std::string key = toJson(*l.layout).dump() + "|" + std::to_string(l.elementBits) + "|" +
                      std::to_string(k.banks) + "|" + std::to_string(l.padding.size());
    Picture pic = layoutPicture(l, k.banks);
    auto it = r.drawn_.find(key);
    if (it == r.drawn_.end()) {
      std::string id = "p" + std::to_string(r.drawn_.size());
      it = r.drawn_.emplace(key, id).first;
      r.htmlDefs_.out() << "<symbol id=\"" << id << "\" viewBox=\"0 0 " << pic.width << " "
                        << pic.height << "\">" << pic.body << "</symbol>\n";
    }
    ++r.pictures_;
    body << "<br>" << xmlEscape(pic.caption) << "</figcaption>\n<svg class=\"layout-pic\" "
         << "xmlns=\"http://www.w3.org/2000/svg\" width=\"" << pic.width << "\" height=\""
         << pic.height << "\" viewBox=\"0 0 " << pic.width << " " << pic.height
         << "\" role=\"img\" aria-label=\"layout " << l.id << "\"><use href=\"#" << it->second
         << "\"/></svg>\n<details><summary>linear layout</summary><pre>"
         << xmlEscape(l.layout->toString().substr(1)) << "</pre></details></figure>\n";
  }
  if (!k.notUnderstood.empty()) {
    body << "<h3>not understood</h3><ul>";
    for (const TtgirNotUnderstood& n : k.notUnderstood)
      body << "<li>" << xmlEscape(n.where) << ": " << xmlEscape(n.what) << " <code>"
           << xmlEscape(n.text) << "</code>: " << xmlEscape(n.reason) << "</li>";
    body << "</ul>\n";
  }
  body << "</section>\n";
}

void htmlPage(ReportStream& r, std::ostream& page) {
  const SummaryData& s = r.summary;
  const auto& worst = r.worst();
  std::map<std::string, std::size_t> byKind;
  for (const FindingRecord& f : s.findings)
    ++byKind[f.kind];
  std::size_t files = s.files.size();
  page << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>llcheck "
          "conformance report</title><style>"
       << kStyle << "</style></head><body data-pictures=\"" << r.pictures_ << "\">\n"
       << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\" "
          "style=\"position:absolute\" aria-hidden=\"true\"><defs>\n";
  r.htmlDefs_.copyTo(page);
  page << "</defs></svg>\n";
  page << "<h1>llcheck conformance report</h1>\n<p>" << files
       << (files == 1 ? " kernel, " : " kernels, ") << s.layouts << " layouts, " << s.checked
       << " of " << s.ops << " data-moving ops checked; properties by the algebra"
       << (s.z3 ? ", Z3" : "") << " and enumeration"
       << (s.oracleSource.empty()
               ? ""
               : "; measured counters from " + xmlEscape(s.oracleSource) + " (" +
                     xmlEscape(s.oracleGpu) + ", " + xmlEscape(s.oracleDate) + ")")
       << ".</p>\n";
  page << "<table><tr><th>findings</th><th>count</th></tr>";
  for (const auto& [k, n] : byKind)
    page << "<tr><td>" << xmlEscape(k) << "</td><td>" << n << "</td></tr>";
  page << "<tr><th>total</th><th>" << s.findings.size() << "</th></tr></table>\n";
  if (!worst.empty()) {
    page << "<details open><summary>Worst findings first (" << worst.size()
         << ")</summary><table><tr><th>file</th><th>where</th><th>kind</th><th>finding</th></tr>";
    for (std::size_t i = 0; i < std::min<std::size_t>(worst.size(), 200); ++i) {
      const FindingRecord& w = *worst[i];
      page << "<tr><td>" << xmlEscape(s.files[w.kernel]) << "</td><td>"
           << xmlEscape(w.module ? "module" : w.location)
           << (w.lines.size() > 1 ? " <b>(" + std::to_string(w.lines.size()) + " ops)</b>" : "")
           << "</td><td>" << xmlEscape(w.kind) << "</td><td>" << xmlEscape(w.message)
           << "</td></tr>";
    }
    page << "</table></details>\n";
  }
  r.htmlBody_.copyTo(page);
  page << "</body></html>\n";
}

} // namespace detail

} // namespace llcheck::reports
