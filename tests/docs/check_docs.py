#!/usr/bin/env python3
"""The documentation test: docs/ and the README say what the tool does.

1. Every example in docs/*.md is real: each ```console block holds `$ llcheck ...` commands, each
   followed by its output; the command is run (from the repository root, `llcheck` being the
   binary under test) and its stdout and stderr must be exactly the text shown.
2. Every subcommand that `llcheck --help` lists has a page docs/<name>.md and a section in the
   README, and every option that `llcheck <name> --help` lists appears on its page and in the
   README.

    check_docs.py LLCHECK REPO            check
    check_docs.py LLCHECK REPO --update   rewrite each example's output from the tool
"""
import os
import re
import shlex
import subprocess
import sys

BLOCK = re.compile(r"```console\n(.*?)```", re.S)
# Wall-clock figures ("in 0.4 s") are the only part of an output that may change between runs.
TIMING = re.compile(r"\b\d+\.\d+ s\b")


# `llcheck` where the shell runs it: first on the line, or after a pipe.
COMMAND = re.compile(r"(^|\|\s*)llcheck(?=\s)")


def same(a, b):
    return TIMING.sub("#.# s", a) == TIMING.sub("#.# s", b)


def run(llcheck, repo, command):
    """A shell line with the command llcheck replaced by the binary under test."""
    line = command[2:]
    shell, n = COMMAND.subn(lambda m: m.group(1) + shlex.quote(llcheck), line)
    if n == 0:
        raise SystemExit(f"docs: an example must run llcheck: {command}")
    r = subprocess.run(["bash", "-c", shell + " 2>&1"], cwd=repo, capture_output=True, text=True,
                       timeout=300)
    return r.stdout


def examples(text):
    """(start, end, [(command, output)]) for each console block."""
    for m in BLOCK.finditer(text):
        pairs, command, output = [], None, []
        for line in m.group(1).splitlines(keepends=True):
            if line.startswith("$ "):
                if command is not None:
                    pairs.append((command, "".join(output)))
                command, output = line.rstrip("\n"), []
            elif command is not None:
                output.append(line)
        if command is not None:
            pairs.append((command, "".join(output)))
        yield m.start(1), m.end(1), pairs


def check_examples(llcheck, repo, update):
    failures, count = [], 0
    docs = os.path.join(repo, "docs")
    for name in sorted(os.listdir(docs)):
        if not name.endswith(".md"):
            continue
        path = os.path.join(docs, name)
        text = open(path).read()
        pieces, last = [], 0
        for start, end, pairs in examples(text):
            block = ""
            for command, shown in pairs:
                got = run(llcheck, repo, command)
                count += 1
                if not same(got, shown):
                    failures.append(f"docs/{name}: `{command}` prints\n{got}\nbut the page shows\n{shown}")
                block += command + "\n" + (shown if same(got, shown) else got)
            pieces.append(text[last:start] + block)
            last = end
        pieces.append(text[last:])
        if update:
            open(path, "w").write("".join(pieces))
    return failures, count


def subcommands(llcheck):
    out = subprocess.run([llcheck, "--help"], capture_output=True, text=True).stdout
    section = re.split(r"(?i)subcommands:", out, 1)[1].split("\n\n", 1)[0]
    return [m.group(1) for m in re.finditer(r"^  ([a-z][a-z-]*)\s", section, re.M)]


def options(llcheck, command):
    out = subprocess.run([llcheck, command, "--help"], capture_output=True, text=True).stdout
    out = out.split("\n\n", 1)[-1]  # the description line may mention other commands' options
    return sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", out)) - {"--help"})


def positionals(llcheck, command):
    """The operands of the Usage line (`llcheck convert [OPTIONS] SRC DST` gives SRC, DST)."""
    out = subprocess.run([llcheck, command, "--help"], capture_output=True, text=True).stdout
    usage = next(line for line in out.splitlines() if line.startswith("Usage:"))
    return [w.rstrip(".") for w in usage.split("[OPTIONS]", 1)[-1].split()]


def check_help(llcheck, repo):
    failures = []
    readme = open(os.path.join(repo, "README.md")).read()
    commands = subcommands(llcheck)
    if len(commands) < 8:
        failures.append(f"llcheck --help lists only {commands}")
    for c in commands:
        page = os.path.join(repo, "docs", c + ".md")
        if not os.path.exists(page):
            failures.append(f"llcheck {c}: no page docs/{c}.md")
            continue
        text = open(page).read()
        for opt in options(llcheck, c):
            if opt not in text:
                failures.append(f"llcheck {c} --help lists {opt}, docs/{c}.md does not mention it")
            if opt not in readme:
                failures.append(f"llcheck {c} --help lists {opt}, the README does not mention it")
        headings = re.findall(r"^##+ .*`llcheck " + re.escape(c) + r"\b.*$", readme, re.M)
        if not headings:
            failures.append(f"llcheck {c}: no README section headed `llcheck {c} ...`")
        for arg in positionals(llcheck, c):
            if not any(f"llcheck {c} {arg}" in h or f" {arg}" in h.split(f"llcheck {c}", 1)[1]
                       for h in headings):
                failures.append(f"llcheck {c} --help names the operand {arg}; the README heading "
                                f"does not")
    return failures, commands


def main():
    llcheck, repo = os.path.abspath(sys.argv[1]), sys.argv[2]
    update = "--update" in sys.argv[3:]
    failures, count = check_examples(llcheck, repo, update)
    help_failures, commands = check_help(llcheck, repo)
    failures += help_failures
    for f in failures:
        print("FAIL", f)
    print(f"docs: {count} examples run, {len(commands)} subcommands checked against "
          f"docs/ and the README: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
