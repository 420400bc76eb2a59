"""The Python sessions of docs/python.md, run as doctests: the one place that runs them."""

import doctest
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_docs_python_md():
    page = os.path.join(ROOT, "docs", "python.md")
    with open(page, encoding="utf-8") as file:
        text = file.read()
    sessions = []
    for block in text.split("```pycon\n")[1:]:
        sessions.append(block.split("```", 1)[0])
    assert sessions, "no Python sessions on the page"
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(sessions), {}, "docs/python.md", page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 10 and failed == 0
