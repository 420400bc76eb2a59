"""Tic-tac-toe and its m,n,k family, solved: the oracle, audits of a Python bot, the data.

Games are named as on the command line (``"3x3"``, ``"4x4"``, ``"4x4k3"``); positions are
board strings (``"XO..X...."``) or move lists (``"5 1"`` or ``[5, 1]``), cells numbered from 1
row by row. See ``docs/python.md`` in the project for a tour.
"""

from ._native import (
    AuditFailed,
    AuditReport,
    BotError,
    BotTimeout,
    Export,
    MatchReport,
    Oracle,
    SideReport,
    analyze,
    audit,
    best_move,
    best_moves,
    bots,
    export,
    match,
    review,
)


def export_frame(game="3x3", *, canonical=False):
    """Every position of ``game`` as a pandas DataFrame, one row a record of ``export``.

    Needs pandas, which this package does not depend on: ``ImportError`` without it.
    """
    try:
        import pandas
    except ImportError as error:
        raise ImportError(
            "export_frame needs pandas (pip install pandas); export() gives the same records "
            "as dicts without it"
        ) from error
    return pandas.DataFrame.from_records(export(game, canonical=canonical))


__all__ = [
    "AuditFailed",
    "AuditReport",
    "BotError",
    "BotTimeout",
    "Export",
    "MatchReport",
    "Oracle",
    "SideReport",
    "analyze",
    "audit",
    "best_move",
    "best_moves",
    "bots",
    "export",
    "export_frame",
    "match",
    "review",
]
