"""The Python surface: games, positions, the oracle, reviews, exports, matches and bots."""

import fractions
import json
import os
import random
import subprocess

import pytest

import ttt_oracle as t

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def ttt(*args):
    """The project's own binary (the release build .ci/test makes first), for output to
    compare with."""
    binary = os.path.join(ROOT, "target", "release", "ttt")
    if not os.path.exists(binary):
        subprocess.run(["cargo", "build", "-q", "--release", "--bin", "ttt"], cwd=ROOT, check=True)
    return subprocess.run([binary, *args], cwd=ROOT, capture_output=True, text=True)


def test_positions_as_boards_or_move_lists():
    oracle = t.Oracle()
    assert oracle.best_move("XO..X....") == 9
    assert oracle.best_move("XO./.X./...") == 9
    assert oracle.best_move("5 1") == 2
    assert oracle.best_move([5, 1]) == 2
    assert oracle.best_move((5, 1)) == 2
    assert oracle.best_move("") == 1
    assert t.best_moves("5 1") == [2, 3, 4, 6, 7, 8, 9]
    assert oracle.best_move("XXXOO....") is None
    assert oracle.best_moves("XXXOO....") == []


def test_other_games_by_name():
    assert t.best_move("XXX./OOO./..../....", game="4x4") == 4
    four = t.Oracle("4x4k3")
    assert four.game == "4x4k3"
    assert t.analyze("", game="3x4")["value"] == "win"


def test_analyze_has_every_part():
    analysis = t.analyze("5 1 9")
    assert analysis["value"] == "draw"
    assert analysis["remoteness"] == 6
    assert analysis["best"] == [3, 7]
    assert analysis["line"] == [3, 2, 8, 4, 6, 7]
    assert {m["cell"]: m["value"] for m in analysis["moves"]}[2] == "loss"


@pytest.mark.parametrize(
    "call",
    [
        lambda: t.best_move("XO..X...", game="3x3"),
        lambda: t.best_move("XXXXX....", game="3x3"),
        lambda: t.best_move("5 5"),
        lambda: t.best_move([5, 10]),
        lambda: t.best_move([0]),
        lambda: t.best_move("", game="3x"),
        lambda: t.Oracle("20x20"),
        lambda: t.audit("nosuchbot"),
        lambda: t.audit("casual:2"),
        lambda: t.audit("perfect", side="z"),
        lambda: t.review("5 5"),
        lambda: t.export("3x3x"),
    ],
)
def test_bad_input_is_a_value_error_with_the_crates_message(call):
    with pytest.raises(ValueError) as error:
        call()
    assert str(error.value)


def test_the_crates_message_says_what_is_wrong():
    with pytest.raises(ValueError, match="has 9 cells, this has 8"):
        t.best_move("XO..X...")
    with pytest.raises(ValueError, match="4x4"):
        t.best_move("XO..X....", game="4x4")
    cli = ttt("best", "--game", "4x4", "XO..X....")
    with pytest.raises(ValueError) as error:
        t.best_move("XO..X....", game="4x4")
    assert str(error.value) in cli.stderr


def test_a_position_of_another_type_is_a_type_error():
    with pytest.raises(TypeError):
        t.best_move(5)
    with pytest.raises(TypeError):
        t.audit(42)


def test_no_input_makes_the_rust_side_panic():
    rng = random.Random(7)
    alphabet = "XO./ 0123456789x,-é\x00"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
        game = rng.choice(["3x3", "4x4", "3x4", "4x4k3", text[:5]])
        for call in (t.best_move, t.best_moves, t.analyze):
            try:
                call(text, game=game)
            except (ValueError, TypeError):
                pass
        moves = [rng.randrange(-3, 20) for _ in range(rng.randrange(0, 12))]
        for call in (t.best_move, t.review):
            try:
                call(moves, game=game)
            except (ValueError, TypeError):
                pass


def test_review_judges_every_move():
    review = t.review("5 3 9 1 4 2")
    assert review["status"] == "o_wins"
    assert [p["verdict"] for p in review["plies"]][4] == "draw_to_loss"


def test_review_is_the_command_lines_json():
    cli = json.loads(ttt("review", "--moves", "5 3 9 1 4 2", "--format", "json").stdout)
    # The command line also reads games that end in a forfeit; a move list has none.
    assert cli["forfeit"] is None
    assert t.review([5, 3, 9, 1, 4, 2]) == cli


def test_export_is_every_position_as_the_jsonl_export():
    records = list(t.export())
    assert len(records) == 5478
    assert len(list(t.export(canonical=True))) == 765
    cli = ttt("export", "--format", "jsonl", "--canonical")
    assert list(t.export(canonical=True)) == [json.loads(l) for l in cli.stdout.splitlines()]


def test_export_frame_needs_pandas_only_when_called():
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="pandas"):
            t.export_frame()
    else:
        assert len(t.export_frame(canonical=True)) == 765


def test_match_has_the_command_lines_exact_odds():
    report = t.match("perfect", "smartbot")
    assert report.games == 784
    assert report.x_wins == fractions.Fraction(107, 567)
    assert report.draws == fractions.Fraction(460, 567)
    cli = ttt("match", "perfect", "smartbot", "--format", "json")
    assert report.to_dict() == json.loads(cli.stdout)["matches"][0]


def test_match_of_python_functions():
    oracle = t.Oracle()
    report = t.match(lambda board, mark: oracle.best_move(board), "random")
    assert report.o_wins == 0
    assert report.x_wins + report.draws == 1


def test_bots_lists_the_catalogue():
    names = [bot["name"] for bot in t.bots()]
    assert {"perfect", "smartbot", "marcelo", "casual:P"} <= set(names)
    assert all(set(bot) == {"name", "summary", "source"} for bot in t.bots())


def test_help_shows_docstrings():
    import pydoc

    def shown(thing):
        return pydoc.render_doc(thing, renderer=pydoc.plaintext)

    assert "best move" in shown(t.Oracle)
    assert "audit(bot, game='3x3', side='both', *, name=None, stateless=False" in shown(t.audit)
    assert "callable `f(board, to_move)`" in shown(t.audit)
    assert "ttt audit --format json" in shown(t.AuditReport)
    for name in t.__all__:
        thing = getattr(t, name)
        assert thing.__doc__, f"{name} has no docstring"
        for attribute, value in vars(thing).items() if isinstance(thing, type) else []:
            if not attribute.startswith("_") and not isinstance(value, type):
                assert value.__doc__, f"{name}.{attribute} has no docstring"
