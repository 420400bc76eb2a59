"""Audits of built-in specs and of Python functions, well and badly behaved."""

import fractions
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import ttt_oracle as t
from test_api import ttt

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "bots"))
from perfect import perfect  # noqa: E402


def test_a_built_in_spec():
    report = t.audit("smartbot", side="x")
    assert report.verdict == "can lose"
    side = report.sides[0]
    assert side.side == "X"
    assert side.shortest_loss == [1, 3, 2, 4, 7, 6, 5, 9]
    assert side.losing_games == 38
    assert side.shortest_forfeit is None
    assert sum(side.vs_random.values()) == 1
    assert all(isinstance(v, fractions.Fraction) for v in side.vs_random.values())
    loss, line = side.worst_case
    assert isinstance(loss, fractions.Fraction) and line


@pytest.mark.parametrize("side", ["x", "o", "both"])
@pytest.mark.parametrize("bot", ["smartbot", "marcelo", "casual:0.3"])
def test_to_dict_is_the_command_lines_json(bot, side):
    cli = ttt("audit", bot, "--side", side, "--format", "json")
    assert t.audit(bot, side=side).to_dict() == json.loads(cli.stdout)


def test_to_dict_on_another_game():
    cli = ttt("audit", "perfect", "--game", "3x4", "--side", "o", "--format", "json")
    assert t.audit("perfect", game="3x4", side="o").to_dict() == json.loads(cli.stdout)


@pytest.mark.parametrize("game", ["3x3", "3x4"])
def test_mistakes_are_the_lines_of_the_command_lines_mistakes_file(game):
    cli = ttt("audit", "random", "--game", game, "--mistakes", "-")
    every = [json.loads(line) for line in cli.stdout.splitlines()]
    report = t.audit("random", game=game, all_mistakes=True)
    assert report.mistakes == every
    x, o = report.sides
    assert x.mistakes + o.mistakes == every
    assert [x.mistakes_total, o.mistakes_total] == [
        sum(1 for line in every if line["side"] == side) for side in "XO"
    ]
    # Without all_mistakes, the first 100 of each side, as the JSON's "first".
    first = t.audit("random", game=game)
    for side, listed in zip(first.sides, (x, o)):
        assert side.mistakes == listed.mistakes[:100]
        assert len(side.to_dict()["mistakes"]["first"]) == len(side.mistakes)
    assert game == "3x3" or len(first.sides[0].mistakes) == 100 < x.mistakes_total


def test_a_bot_that_never_errs_has_no_mistakes():
    report = t.audit("perfect")
    assert report.mistakes == []
    assert [side.mistakes_total for side in report.sides] == [0, 0]


def test_to_dict_of_a_python_bot_is_that_of_the_same_program():
    command = f"{sys.executable} {os.path.join(HERE, 'bots', 'perfect.py')}"
    cli = ttt("audit", "--cmd", command, "--name", "perfect.py", "--stateless",
              "--recheck-seed", "7", "--format", "json")
    mine = t.audit(perfect, name="perfect.py", stateless=True, recheck_seed=7)
    assert mine.to_dict() == json.loads(cli.stdout)
    assert mine.verdict == "never loses" and mine.never_loses


def test_a_python_bot_that_remembers_is_audited_by_history():
    seen = []

    def first_free(board, to_move):
        seen.append(board)
        return board.index(".") + 1

    assert t.audit(first_free, side="o").verdict == "can lose"
    by_history = len(seen)
    seen.clear()
    assert t.audit(first_free, side="o", stateless=True, recheck_seed=1).verdict == "can lose"
    assert len(seen) < by_history


def test_equally_likely_and_weighted_choices():
    uniform = t.audit(lambda board, mark: [i + 1 for i, c in enumerate(board) if c == "."])
    weighted = t.audit(
        lambda board, mark: {i + 1: fractions.Fraction(1, board.count(".")) for i, c in
                             enumerate(board) if c == "."},
        stateless=True,
    )
    random = t.audit("random")
    assert uniform.sides[0].to_dict()["vs_random"] == random.sides[0].to_dict()["vs_random"]
    assert weighted.sides[1].vs_perfect == random.sides[1].vs_perfect


def test_a_declared_stateless_bot_that_is_not_is_caught():
    calls = []

    def moody(board, to_move):
        calls.append(board)
        free = [i + 1 for i, c in enumerate(board) if c == "."]
        return free[len(calls) % len(free)]

    report = t.audit(moody, stateless=True, side="x", recheck_seed=1)
    assert report.verdict == "answers differently"


def turns_after(calls):
    """A bot that plays perfectly for its first `calls` calls, then the first free cell."""
    made = []

    def turns(board, to_move):
        made.append(board)
        if len(made) <= calls:
            return perfect(board, to_move)
        return board.index(".") + 1

    return turns


@pytest.mark.parametrize("stateless", [True, False])
def test_a_bot_that_turns_once_audited_is_caught_by_what_the_audit_recorded(stateless):
    # Perfect for as many calls as the audit makes, then the first free cell: the audit sees
    # a bot that never loses; asked again, it answers otherwise, and that is the verdict.
    calls = []

    def counted(board, to_move):
        calls.append(board)
        return perfect(board, to_move)

    report = t.audit(counted, side="x", stateless=stateless, recheck_seed=1)
    assert report.never_loses
    # Every call but the re-ask's, which asks each of its requests once.
    audited = len(calls) - report.to_dict()["bots"][0]["sides"][0]["recheck"]["requests"]
    report = t.audit(turns_after(audited), side="x", stateless=stateless, recheck_seed=1)
    assert report.verdict == "answers differently", report.to_dict()
    difference = report.to_dict()["bots"][0]["sides"][0]["recheck"]["difference"]
    assert difference["recorded"] != difference["alone"]


def test_a_match_won_by_a_bot_that_turns_once_asked_enough_says_so():
    # Perfect for as many calls as the match makes, then the first free cell: the match's odds
    # are of a bot that never loses, and asked again one turn at a time in the order of a game,
    # it answers otherwise.
    calls = []

    def counted(board, to_move):
        calls.append(board)
        return perfect(board, to_move)

    honest = t.match(counted, "random", recheck_seed=1)
    assert honest.answers_differently is None
    assert honest.to_dict()["x_recheck"]["difference"] is None
    matched = len(calls) - honest.to_dict()["x_recheck"]["requests"]
    report = t.match(turns_after(matched), "random", recheck_seed=1)
    assert report.o_wins == 0
    assert report.answers_differently == "X"
    difference = report.to_dict()["x_recheck"]["difference"]
    assert difference["recorded"] != difference["alone"]
    assert report.to_dict()["o_recheck"] is None


def fickle():
    """A bot whose odds between the first free cell and the last turn round once it has seen a
    board: the cells it may play stay the same."""
    seen = set()

    def bot(board, to_move):
        free = [i + 1 for i, c in enumerate(board) if c == "."]
        if len(free) == 1:
            return free[0]
        first, last = ("999/1000", "1/1000") if board not in seen else ("1/1000", "999/1000")
        seen.add(board)
        return {free[0]: first, free[-1]: last}

    return bot


def test_a_bot_whose_odds_change_once_asked_is_caught():
    report = t.audit(fickle(), side="x", stateless=True, recheck_seed=1)
    assert report.verdict == "answers differently", report.to_dict()
    difference = report.to_dict()["bots"][0]["sides"][0]["recheck"]["difference"]
    assert difference["recorded"] == difference["alone"]
    assert difference["chances"]["recorded"] != difference["chances"]["alone"]
    assert t.match(fickle(), "random", recheck_seed=1).answers_differently == "X"


def test_a_taken_cell_is_a_forfeit():
    report = t.audit(lambda board, mark: 5, side="x")
    assert report.verdict == "breaks the rules"
    assert report.shortest_forfeit == [5, 1]


BAD = {
    "raises": (lambda b, m: 1 / 0, "ZeroDivisionError"),
    "string": (lambda b, m: "5", "'5' (str) is not a cell"),
    "none": (lambda b, m: None, "None (NoneType) is not a cell"),
    "float": (lambda b, m: 5.0, "5.0 (float) is not a cell"),
    "bool": (lambda b, m: True, "True (bool) is not a cell"),
    "off the board": (lambda b, m: 10, "10 (int) is not a cell"),
    "empty list": (lambda b, m: [], "an empty list"),
    "sum": (lambda b, m: {1: 0.5, 2: 0.25}, "add up to 3/4, not 1"),
    "nan": (lambda b, m: {1: float("nan")}, "nan (float)"),
    "negative": (lambda b, m: {1: -1, 2: 2}, "-1 (int)"),
}


@pytest.mark.parametrize("name", BAD)
def test_a_bad_answer_is_an_error_naming_the_bot_and_request(name):
    bot, says = BAD[name]
    with pytest.raises(t.BotError) as error:
        t.audit(bot, name="bad", side="x")
    message = str(error.value)
    assert 'Python bot "bad"' in message
    assert 'request "......... X"' in message
    assert says in message


def test_a_raising_bot_is_reported_with_its_traceback():
    def deep(board, to_move):
        raise RuntimeError("no idea")

    with pytest.raises(t.BotError) as error:
        t.audit(deep, side="o")
    assert "Traceback (most recent call last)" in str(error.value)
    assert "in deep" in str(error.value) and "RuntimeError: no idea" in str(error.value)


def test_a_bad_bot_changes_no_other_verdict():
    before = t.audit("smartbot").to_dict()
    with pytest.raises(t.BotError):
        t.audit(lambda b, m: None)
    assert t.audit("smartbot").to_dict() == before


def test_a_bot_that_never_returns_times_out():
    def spin(board, to_move):
        while True:
            pass

    started = time.monotonic()
    with pytest.raises(t.BotError, match="no answer within 200 ms"):
        t.audit(spin, side="x", timeout=0.2)
    assert time.monotonic() - started < 2


def test_a_bot_that_swallows_exceptions_still_times_out():
    def stubborn(board, to_move):
        while True:
            try:
                while True:
                    pass
            except Exception:
                pass

    with pytest.raises(t.BotError, match="no answer within"):
        t.audit(stubborn, side="x", timeout=0.1)


def test_a_call_blocked_in_c_is_seen_late():
    with pytest.raises(t.BotError, match="no answer within 100 ms"):
        t.audit(lambda b, m: time.sleep(0.3) or 5, side="x", timeout=0.1)


def test_the_default_timeout_is_the_command_lines():
    cli = ttt("audit", "--help")
    assert "2000" in cli.stdout
    slow_but_in_time = t.audit(lambda b, m: time.sleep(0.25) or perfect(b, m) if b == "." * 9
                               else perfect(b, m), side="x", stateless=True)
    assert slow_but_in_time.never_loses


class Looping:
    """An answer that never finishes being read: its __index__ spins."""

    def __index__(self):
        while True:
            pass


def test_an_answer_that_never_finishes_being_read_times_out():
    started = time.monotonic()
    with pytest.raises(t.BotError, match="no answer within 200 ms"):
        t.audit(lambda board, to_move: Looping(), side="x", timeout=0.2)
    assert time.monotonic() - started < 2
    with pytest.raises(t.BotError, match="no answer within 200 ms"):
        t.audit(lambda board, to_move: {Looping(): 1}, side="x", timeout=0.2)


class Five:
    """Cell 5 under another key than the int 5."""

    def __index__(self):
        return 5


def test_a_cell_named_twice_is_an_error():
    with pytest.raises(t.BotError, match=r"cell 5 is named twice \(by <"):
        t.audit(lambda board, to_move: {5: "1/2", Five(): "1/2"}, side="x")
    with pytest.raises(t.BotError, match=r"cell 5 is named twice in its list \(by 5 "):
        t.audit(lambda board, to_move: [5, 1, 5], side="x")


SCRIPT = textwrap.dedent(
    """
    import sys, time, ttt_oracle
    oracle = ttt_oracle.Oracle()
    def slow(board, to_move):
        time.sleep(0.01)
        return oracle.best_move(board)
    class Slow:
        def __init__(self, cell):
            self.cell = cell
        def __index__(self):
            time.sleep(0.01)
            return self.cell
    print("ready", flush=True)
    if sys.argv[1] == "python":
        ttt_oracle.audit(slow)
    elif sys.argv[1] == "reading":
        ttt_oracle.audit(lambda board, to_move: Slow(oracle.best_move(board)))
    else:
        ttt_oracle.audit("casual:0.3", game="4x4", side="x")
    print("finished", flush=True)
    """
)


@pytest.mark.parametrize("bot", ["python", "reading", "builtin"])
def test_ctrl_c_stops_an_audit_at_once(bot):
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, bot], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline() == "ready\n"
    time.sleep(1.0)
    assert process.poll() is None, "the audit ended before the signal"
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=10)
    took = time.monotonic() - sent
    assert "KeyboardInterrupt" in err, err
    assert "finished" not in out
    assert took < 0.5, f"{took:.2f} s after Ctrl-C"
