"""The Python examples of docs/python.md and the README run as written (doctest).

docs/python.md is the Python module's reference and must hold examples; the README is the short
front page and need not, but any it holds must run."""
import doctest
import os
import re

import pytest


def python_blocks(path):
    text = open(path).read()
    return [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if ">>>" in b]


@pytest.mark.parametrize("name,required", [("docs/python.md", True), ("README.md", False)])
def test_examples_run(repo, name, required):
    blocks = python_blocks(os.path.join(repo, name))
    if not required and not blocks:
        return
    pytest.importorskip("triton.experimental.gluon.language")
    assert blocks, f"{name} has no Python example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs = {}
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"{name}[{i}]", name, 0)
        runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert (attempted > 5 or not required) and failed == 0
