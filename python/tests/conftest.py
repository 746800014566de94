"""pytest for the llcheck Python module. It tests the installed module (`pip install .`); the
command-line binary, when $LLCHECK names it, is the reference for the JSON results."""
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def repo():
    return REPO
