"""Checks that the four files of a report and its summary line agree (report-stream.test).

usage: report-stream-check.py STDOUT_FILE OUT_DIR
"""
import json
import os
import re
import sys

stdout, out = sys.argv[1], sys.argv[2]
line = open(stdout).read()
m = re.match(r"llcheck report: (\d+) kernels?, (\d+) layouts, (\d+) of (\d+) data-moving ops checked, "
             r"(\d+) findings", line)
kernels, layouts, checked, ops, findings = map(int, m.groups())
report = json.load(open(os.path.join(out, "report.json")))
s = report["summary"]
assert len(report["kernels"]) == kernels == s["files"], (kernels, s["files"])
assert sum(len(k["ops"]) for k in report["kernels"]) == ops == s["ops"]
assert sum(len(k["layouts"]) for k in report["kernels"]) == layouts == s["layouts"]
assert s["findings"] == findings == len(s["worst"])
# The summary keeps one finding per source location (a pipelined loop's stages): its counts add
# up to every op's and module's findings.
assert sum(w["count"] for w in s["worst"]) == sum(
    len(k["findings"]) + sum(len(o["findings"]) for o in k["ops"]) for k in report["kernels"])
junit = open(os.path.join(out, "junit.xml")).read()
assert junit.endswith("</testsuites>\n")
assert junit.count("<testcase ") == ops + kernels
assert f'tests="{ops + kernels}"' in junit
html = open(os.path.join(out, "report.html")).read()
assert html.endswith("</body></html>\n")
assert html.count("<tr class=\"fail\">") + html.count("<tr><td>") >= ops
md = open(os.path.join(out, "report.md")).read()
assert f"**{findings}**" in md and md.endswith("junit.xml.\n")
counted = sum(w["count"] for w in s["worst"])
print(f"stream: {kernels} kernels, {ops} ops, {findings} findings ({counted} op findings); "
      "report.json, junit.xml, report.html and report.md agree")
print("stream: files in the folder:", " ".join(sorted(os.listdir(out))))
