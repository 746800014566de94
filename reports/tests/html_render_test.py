#!/usr/bin/env python3
"""Opens `llcheck report`'s report.html in headless Chromium (Debian's `chromium`) and checks
that every layout picture rendered: the page has one <svg class="layout-pic"> per layout with a
linear layout in report.json, and every finding with a fix in report.json shows the layout now and
the suggested one side by side (two <svg class="fix-pic">, each drawn, the second right of the
first); in the rendered DOM each picture's <use> has the size of its
drawing (getBBox, measured by Chromium's layout engine after the page loaded, from a copy of the
page with a probe script added); and a screenshot of the page is not blank and shows the warp
colours of the ownership pictures.

    python3 reports/tests/html_render_test.py LLCHECK [TTGIR...]

Exits 77 (CTest's "skipped") when no chromium is installed.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))

PROBE = """<script>
window.addEventListener('load', () => {
  const pics = Array.from(document.querySelectorAll('svg.layout-pic'));
  let rendered = 0;
  const failed = [];
  for (const svg of pics) {
    const use = svg.querySelector('use');
    const box = use ? use.getBBox() : {width: 0, height: 0};
    const w = Number(svg.getAttribute('width')), h = Number(svg.getAttribute('height'));
    // The drawing spans the picture (grid lines reach the far edge; 2 px for the stroke).
    if (box.width >= w - 2 && box.height >= h - 16 && box.width > 0) rendered++;
    else failed.push(svg.closest('figure').id + ' ' + box.width + 'x' + box.height);
  }
  // Each finding's fix draws the layout now and the suggested one side by side.
  const fixes = Array.from(document.querySelectorAll('div.fix-pics'));
  let fixRendered = 0;
  for (const f of fixes) {
    const svgs = Array.from(f.querySelectorAll('svg.fix-pic'));
    const boxes = svgs.map(s => s.getBBox());
    const rects = svgs.map(s => s.getBoundingClientRect());
    // Two drawings, each with content, the second to the right of the first (side by side).
    if (svgs.length === 2 && boxes.every(b => b.width > 0 && b.height > 0) &&
        rects[1].left >= rects[0].right - 1) fixRendered++;
    else failed.push('fix ' + svgs.length + ' pictures, boxes ' + boxes.map(b => b.width + 'x' + b.height).join(' ') + ', left ' + rects.map(r => r.left + '-' + r.right).join(' '));
  }
  const out = document.createElement('pre');
  out.id = 'probe';
  out.textContent = JSON.stringify({pictures: pics.length, rendered, failed,
                                    fixes: fixes.length, fixRendered});
  document.body.appendChild(out);
});
</script>"""


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run_chromium(exe, args, url):
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--no-first-run", "--allow-file-access-from-files",
           "--virtual-time-budget=10000", *args, url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180)


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "unsupported PNG"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    llcheck = sys.argv[1]
    inputs = sys.argv[2:] or [os.path.join(REPO, "corpus", "ttgir", "3.9.0", "cuda-sm80",
                                           "attention-fwd-fp16.ttgir"),
                              os.path.join(REPO, "corpus", "ttgir", "3.9.0", "cuda-sm90",
                                           "transpose-fp16.ttgir")]
    exe = chromium()
    if not exe:
        print("SKIP: no chromium installed (apt-get install chromium)")
        return SKIP
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report")
        proc = subprocess.run([llcheck, "report", *inputs, "--out", out, "--no-z3", "--quiet"],
                              capture_output=True, text=True)
        if proc.returncode not in (0, 1):
            print(f"FAIL: llcheck report exited {proc.returncode}: {proc.stderr}")
            return 1
        with open(os.path.join(out, "report.json")) as f:
            report = json.load(f)
        expected = sum(1 for k in report["kernels"] for l in k["layouts"] if l["layout"])
        html_path = os.path.join(out, "report.html")
        with open(html_path) as f:
            html = f.read()
        if "<script" in html:
            print("FAIL: report.html carries a script")
            return 1
        probed = os.path.join(out, "probed.html")
        with open(probed, "w") as f:
            f.write(html.replace("</body>", PROBE + "</body>"))

        dom = run_chromium(exe, ["--dump-dom"], "file://" + probed).stdout
        start = dom.find('<pre id="probe">')
        if start < 0:
            print("FAIL: Chromium's DOM has no probe result:\n" + dom[-2000:])
            return 1
        result = json.loads(dom[start + len('<pre id="probe">'):dom.find("</pre>", start)]
                            .replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
        print(f"layouts in report.json: {expected}; pictures in the DOM: {result['pictures']}; "
              f"rendered: {result['rendered']}")
        if result["pictures"] != expected or result["rendered"] != expected:
            print("FAIL: not every layout picture rendered: " + ", ".join(result["failed"][:10]))
            return 1
        findings = [f for k in report["kernels"] for f in k["findings"]]
        findings += [f for k in report["kernels"] for op in k["ops"] for f in op["findings"]]
        fixes = sum(1 for f in findings if isinstance(f.get("fix"), dict) and "error" not in f["fix"])
        print(f"findings with a fix in report.json: {fixes}; side-by-side pairs in the DOM: "
              f"{result['fixes']}; rendered: {result['fixRendered']}")
        if fixes == 0:
            print("FAIL: the inputs gave no finding with a fix to draw")
            return 1
        if result["fixes"] != fixes or result["fixRendered"] != fixes:
            print("FAIL: not every fix drew both layouts side by side: " + ", ".join(result["failed"][:10]))
            return 1

        # The pictures follow long tables; a copy without the tables puts them in the window.
        pictures_only = os.path.join(out, "pictures.html")
        with open(pictures_only, "w") as f:
            f.write(html.replace("</head>", "<style>table,details,section>p,ul,h1,h2,h1+p,h3,h4,div.fix"
                                 "{display:none}</style></head>"))
        shot = os.path.join(tmp, "shot.png")
        run_chromium(exe, ["--screenshot=" + shot, "--window-size=1200,1400",
                           "--hide-scrollbars"], "file://" + pictures_only)
        if os.environ.get("LLCHECK_KEEP_SCREENSHOT"):
            shutil.copy(shot, os.environ["LLCHECK_KEEP_SCREENSHOT"])
        if not os.path.exists(shot):
            print("FAIL: Chromium wrote no screenshot")
            return 1
        width, height, rows = png_pixels(shot)
        colours = {}
        for row in rows[::2]:
            for px in row[::2]:
                colours[px] = colours.get(px, 0) + 1
        white = colours.get((255, 255, 255), 0)
        total = sum(colours.values())
        # Okabe-Ito orange and sky blue: warps 0 and 1 of the ownership pictures.
        warp_colours = [c for c in ((230, 159, 0), (86, 180, 233)) if colours.get(c, 0) > 50]
        print(f"screenshot {width}x{height}: {len(colours)} colours, "
              f"{100 * (total - white) / total:.1f}% not white, warp colours seen: "
              f"{len(warp_colours)}")
        if total - white < total // 20 or len(colours) < 16 or len(warp_colours) < 2:
            print("FAIL: the screenshot looks blank")
            return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
