"""The `llcheck` command pip installs (pyproject.toml's [project.scripts], llcheck/_cli.py): the
command line the wheel carries, llcheck/bin/llcheck, run in the command's place, its output and
exit status its own."""
import os
import subprocess
import sys

import pytest

import llcheck
import llcheck._cli
import llcheck._report

# pip puts the command beside the interpreter, in the virtualenv's bin/.
COMMAND = os.path.join(os.path.dirname(sys.executable), "llcheck")


def need_command():
    if llcheck._cli.executable() is None or not os.access(COMMAND, os.X_OK):
        pytest.skip("this llcheck module was not installed by pip with its command line")


def test_the_command_runs_the_carried_command_line(repo):
    need_command()
    helped = subprocess.run([COMMAND, "--help"], capture_output=True, text=True)
    assert helped.returncode == 0, helped.stderr
    assert helped.stdout.startswith("llcheck: verify linear layouts")
    assert "Usage: llcheck " in helped.stdout
    # The exit status is the command line's: 0 for a legal layout, 1 for an illegal one.
    legal = os.path.join(repo, "corpus", "layouts", "02-seed003-blocked-64x16.json")
    illegal = os.path.join(repo, "corpus", "illegal", "17-lane-strided-not-surjective.json")
    ok = subprocess.run([COMMAND, "verify", legal], capture_output=True, text=True)
    assert ok.returncode == 0 and "verdict: ok" in ok.stdout, ok.stdout + ok.stderr
    bad = subprocess.run([COMMAND, "verify", illegal], capture_output=True, text=True)
    assert bad.returncode == 1 and "verdict: FAILED" in bad.stdout, bad.stdout + bad.stderr
    # Bad usage: exit 2 and one line on stderr, as the binary itself gives.
    usage = subprocess.run([COMMAND, "verify", "--no-such-option"], capture_output=True, text=True)
    direct = subprocess.run([llcheck._cli.executable(), "verify", "--no-such-option"],
                            capture_output=True, text=True)
    assert usage.returncode == direct.returncode == 2
    assert usage.stderr == direct.stderr


def test_report_runs_the_carried_command_line(monkeypatch):
    need_command()
    monkeypatch.delenv("LLCHECK", raising=False)
    monkeypatch.setenv("PATH", "")
    assert llcheck._report.find_cli() == llcheck._cli.executable()
