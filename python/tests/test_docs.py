"""The Python examples of docs/python.md and the README run as written (doctest)."""
import doctest
import os
import re

import pytest


def python_blocks(path):
    text = open(path).read()
    return [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if ">>>" in b]


@pytest.mark.parametrize("name", ["docs/python.md", "README.md"])
def test_examples_run(repo, name):
    pytest.importorskip("triton.experimental.gluon.language")
    blocks = python_blocks(os.path.join(repo, name))
    assert blocks, f"{name} has no Python example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs = {}
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"{name}[{i}]", name, 0)
        runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 5 and failed == 0
