"""Type stub of ttt_oracle: the oracle, audits of a Python bot, matches and the data."""

from fractions import Fraction
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

Position = Union[str, Sequence[int]]
Answer = Union[int, Sequence[int], Mapping[int, Union[int, float, str, Fraction]]]
Bot = Union[str, Callable[[str, str], Answer]]

class AuditFailed(Exception): ...
class BotError(AuditFailed): ...
class BotTimeout(BaseException): ...

class Oracle:
    def __init__(self, game: str = "3x3") -> None: ...
    @property
    def game(self) -> str: ...
    def best_move(self, position: Position) -> Optional[int]: ...
    def best_moves(self, position: Position) -> List[int]: ...
    def analyze(self, position: Position) -> Dict[str, Any]: ...

def best_move(position: Position, game: str = "3x3") -> Optional[int]: ...
def best_moves(position: Position, game: str = "3x3") -> List[int]: ...
def analyze(position: Position, game: str = "3x3") -> Dict[str, Any]: ...

class SideReport:
    side: str
    verdict: Optional[str]
    never_loses: bool
    shortest_loss: Optional[List[int]]
    shortest_forfeit: Optional[List[int]]
    decision_points: Optional[int]
    games: Optional[int]
    losing_games: Optional[int]
    forfeited_games: Optional[int]
    vs_random: Optional[Dict[str, Fraction]]
    vs_perfect: Optional[Dict[str, Fraction]]
    worst_case: Optional[Tuple[Fraction, List[int]]]
    mistakes: Optional[List[Dict[str, Any]]]
    mistakes_total: Optional[int]
    def to_dict(self) -> Dict[str, Any]: ...

class AuditReport:
    bot: str
    game: str
    sides: List[SideReport]
    verdict: Optional[str]
    never_loses: bool
    shortest_loss: Optional[List[int]]
    shortest_forfeit: Optional[List[int]]
    mistakes: List[Dict[str, Any]]
    def to_dict(self) -> Dict[str, Any]: ...

def audit(
    bot: Bot,
    game: str = "3x3",
    side: str = "both",
    *,
    name: Optional[str] = None,
    stateless: bool = False,
    timeout: Optional[float] = None,
    recheck_seed: Optional[int] = None,
    all_mistakes: bool = False,
) -> AuditReport: ...

class MatchReport:
    x: str
    o: str
    games: int
    x_wins: Fraction
    draws: Fraction
    o_wins: Fraction
    x_forfeits: Fraction
    o_forfeits: Fraction
    def to_dict(self) -> Dict[str, Any]: ...

def match(x: Bot, o: Bot, game: str = "3x3", *, timeout: Optional[float] = None) -> MatchReport: ...

class Export(Iterator[Dict[str, Any]]):
    def __next__(self) -> Dict[str, Any]: ...

def export(game: str = "3x3", *, canonical: bool = False) -> Export: ...
def export_frame(game: str = "3x3", *, canonical: bool = False) -> Any: ...
def review(moves: Position, game: str = "3x3") -> Dict[str, Any]: ...
def bots() -> List[Dict[str, Optional[str]]]: ...
