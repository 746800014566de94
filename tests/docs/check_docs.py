#!/usr/bin/env python3
"""The documentation test: docs/ and the README say what the tool does.

docs/ is the single home of the command reference; the README is the short front page.

1. Every example in docs/*.md and the README is real: each ```console block holds `$ llcheck ...`
   commands, each followed by its output; the command is run (from the repository root,
   `llcheck` being the binary under test) and its stdout and stderr must be exactly the text
   shown.
2. Every subcommand that `llcheck --help` lists has a page docs/<name>.md, whose title names its
   operands, and the README links to that page; every option that `llcheck <name> --help` lists
   appears on its page. A subcommand of a subcommand (`llcheck sweep merge`) is documented on its
   parent's page the same way: its title names it with its operands, the page its options.
3. Every relative link of the README and docs/*.md leads to a file that exists and, for a
   Markdown file, to a heading it has (`#anchor`, as GitHub makes them).

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


def pages(repo):
    """The README and every docs/*.md, as (name relative to the repository, path)."""
    docs = os.path.join(repo, "docs")
    found = [("README.md", os.path.join(repo, "README.md"))]
    found += [("docs/" + n, os.path.join(docs, n)) for n in sorted(os.listdir(docs)) if n.endswith(".md")]
    return found


def check_examples(llcheck, repo, update):
    failures, count = [], 0
    for name, path in pages(repo):
        text = open(path).read()
        pieces, last = [], 0
        for start, end, pairs in examples(text):
            block = ""
            for command, shown in pairs:
                got = run(llcheck, repo, command)
                count += 1
                if not same(got, shown):
                    failures.append(f"{name}: `{command}` prints\n{got}\nbut the page shows\n{shown}")
                block += command + "\n" + (shown if same(got, shown) else got)
            pieces.append(text[last:start] + block)
            last = end
        pieces.append(text[last:])
        if update:
            open(path, "w").write("".join(pieces))
    return failures, count


def subcommands(llcheck, *command):
    """The subcommands `llcheck [COMMAND...] --help` lists (none: an empty list)."""
    out = subprocess.run([llcheck, *command, "--help"], capture_output=True, text=True).stdout
    parts = re.split(r"(?i)subcommands:", out, 1)
    if len(parts) < 2:
        return []
    section = parts[1].split("\n\n", 1)[0]
    return [m.group(1) for m in re.finditer(r"^  ([a-z][a-z-]*)\s", section, re.M)]


def options(llcheck, *command):
    out = subprocess.run([llcheck, *command, "--help"], capture_output=True, text=True).stdout
    out = out.split("\n\n", 1)[-1]  # the description line may mention other commands' options
    if re.search(r"(?i)^subcommands:", out, re.M):  # their descriptions, not this command's options
        out = re.split(r"(?im)^subcommands:", out, 1)[0]
    return sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", out)) - {"--help"})


def positionals(llcheck, *command):
    """The operands of the Usage line (`llcheck convert [OPTIONS] SRC DST` gives SRC, DST; an
    optional one keeps its brackets, `[RESULTS]`). CLI11's `SUBCOMMAND` placeholder is left out:
    each subcommand is checked by name."""
    out = subprocess.run([llcheck, *command, "--help"], capture_output=True, text=True).stdout
    usage = next(line for line in out.splitlines() if line.startswith("Usage:"))
    words = [w.rstrip(".") for w in usage.split("[OPTIONS]", 1)[-1].split()]
    return [w for w in words if w.strip("[]") not in ("SUBCOMMAND", "SUBCOMMANDS")]


def named(title, command, arg):
    """Whether a page title names `arg` after `llcheck <command>`; an optional operand may be
    written with or without its brackets (`sweep [FAMILY]` is a sweep of a FAMILY, or a merge)."""
    after = title.split(command, 1)[1]
    return any(f"{command} {a}" in title or f" {a}" in after for a in {arg, arg.strip("[]")})


# A Markdown link's target: [text](target) or [text](target "title"); images alike.
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose(text):
    """The lines of a Markdown text outside fenced code blocks."""
    inside = False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield line


def links(text):
    return [target for line in prose(text) for target in LINK.findall(line)]


def anchors(text):
    """The anchors GitHub gives the headings of a Markdown text: lower case, punctuation other
    than '-' and '_' dropped, spaces as '-', a repeated one suffixed -1, -2, ..."""
    seen, found = {}, set()
    for line in prose(text):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def check_links(repo):
    failures = []
    for name, path in pages(repo):
        for target in links(open(path).read()):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
                continue
            file, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            if not os.path.exists(dest):
                failures.append(f"{name}: the link {target} leads to no file")
            elif anchor and dest.endswith(".md") and anchor not in anchors(open(dest).read()):
                failures.append(f"{name}: the link {target}: {file or name} has no heading #{anchor}")
    return failures


def check_help(llcheck, repo):
    failures = []
    readme_links = {target.partition("#")[0] for target in links(open(os.path.join(repo, "README.md")).read())}
    commands = subcommands(llcheck)
    if len(commands) < 8:
        failures.append(f"llcheck --help lists only {commands}")
    for c in commands:
        page = os.path.join(repo, "docs", c + ".md")
        if not os.path.exists(page):
            failures.append(f"llcheck {c}: no page docs/{c}.md")
            continue
        if f"docs/{c}.md" not in readme_links:
            failures.append(f"llcheck {c}: the README does not link to docs/{c}.md")
        text = open(page).read()
        for opt in options(llcheck, c):
            if opt not in text:
                failures.append(f"llcheck {c} --help lists {opt}, docs/{c}.md does not mention it")
        title = next((line for line in text.splitlines() if line.startswith("# ")), "")
        if f"llcheck {c}" not in title:
            failures.append(f"llcheck {c}: docs/{c}.md's title does not name `llcheck {c} ...`")
            continue
        for arg in positionals(llcheck, c):
            if not named(title, f"llcheck {c}", arg):
                failures.append(f"llcheck {c} --help names the operand {arg}; the title of "
                                f"docs/{c}.md does not")
        for sub in subcommands(llcheck, c):
            name = f"llcheck {c} {sub}"
            for opt in options(llcheck, c, sub):
                if opt not in text:
                    failures.append(f"{name} --help lists {opt}, docs/{c}.md does not mention it")
            if name not in title:
                failures.append(f"{name}: docs/{c}.md's title does not name `{name} ...`")
                continue
            for arg in positionals(llcheck, c, sub):
                if not named(title, name, arg):
                    failures.append(f"{name} --help names the operand {arg}; the title of "
                                    f"docs/{c}.md does not")
    return failures, commands


def main():
    llcheck, repo = os.path.abspath(sys.argv[1]), sys.argv[2]
    update = "--update" in sys.argv[3:]
    failures, count = check_examples(llcheck, repo, update)
    help_failures, commands = check_help(llcheck, repo)
    failures += help_failures + check_links(repo)
    for f in failures:
        print("FAIL", f)
    print(f"docs: {count} examples run, {len(commands)} subcommands checked against "
          f"docs/ and the README, links checked: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
