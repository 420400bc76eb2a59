"""The Python sessions (`pycon` blocks) of the README and of every page of docs/, run as
doctests: the one place that runs them (tests/integration/docs.rs leaves them here)."""

import doctest
import glob
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGES = ["README.md"] + sorted(
    os.path.relpath(page, ROOT) for page in glob.glob(os.path.join(ROOT, "docs", "*.md"))
)


def sessions(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as file:
        text = file.read()
    return [block.split("```", 1)[0] for block in text.split("```pycon\n")[1:]]


def test_the_pages_have_sessions():
    assert sessions("docs/python.md") and sessions("README.md")


@pytest.mark.parametrize("name", [page for page in PAGES if sessions(page)])
def test_python_sessions(name):
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(sessions(name)), {}, name, name, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 0 and failed == 0
