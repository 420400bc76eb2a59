"""Reads a bincode export of `ttt export` as docs/formats.md specifies it, with nothing but
Python's standard library, and checks that it holds the records of a JSON Lines export of the
same game, in the same order, field for field.

    python3 tests/read_bincode.py EXPORT.bin EXPORT.jsonl

Written from docs/formats.md alone, not from the Rust code: if the page and the files
disagree, this fails. Prints the game and the number of records on success.
"""

import json
import struct
import sys


class Reader:
    """The bytes of a file and a place in them; each method reads one value and moves on."""

    def __init__(self, data):
        self.data = data
        self.at = 0

    def take(self, size):
        if self.at + size > len(self.data):
            raise ValueError(f"the file ends at byte {len(self.data)}, inside a value at {self.at}")
        chunk = self.data[self.at : self.at + size]
        self.at += size
        return chunk

    def u8(self):
        return self.take(1)[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def string(self):
        return self.take(self.u64()).decode("utf-8")

    def seq(self, element):
        return [element() for _ in range(self.u64())]


def record(reader, cell, with_game):
    """One record, as (key, value) pairs in the order of the page's table; `cell` reads a
    cell number (u8 on tic-tac-toe, u64 on the other games)."""
    pairs = []
    if with_game:
        pairs.append(("game", reader.string()))

    def move():
        return [("cell", cell()), ("value", reader.string()), ("remoteness", reader.u8())]

    pairs += [
        ("board", reader.string()),
        ("to_move", reader.string()),
        ("ply", reader.u8()),
        ("status", reader.string()),
        ("value", reader.string()),
        ("remoteness", reader.u8()),
        ("best", reader.seq(cell)),
        ("moves", reader.seq(move)),
        ("canonical", reader.string()),
        ("symmetry", reader.string()),
    ]
    return pairs


def records(data):
    """The game's name and its records, read from the bytes of a bincode export."""
    reader = Reader(data)
    magic = reader.take(8)
    version = reader.u32()
    if version != 1:
        raise ValueError(f"version {version}, not 1")
    found = []
    if magic == b"TTTEXPRT":
        game = "3x3"
        for _ in range(reader.u64()):
            found.append(record(reader, reader.u8, with_game=False))
    elif magic == b"TTTMNKEX":
        game = reader.string()
        while True:
            tag = reader.u8()
            if tag == 0:
                break
            if tag != 1:
                raise ValueError(f"byte {reader.at - 1}: {tag}, neither 1 (a record) nor 0 (the end)")
            found.append(record(reader, reader.u64, with_game=True))
    else:
        raise ValueError(f"magic {magic!r}")
    if reader.at != len(data):
        raise ValueError(f"{len(data) - reader.at} bytes after the end, at byte {reader.at}")
    return game, found


def as_pairs(value):
    """A JSON value with every object as its list of (key, value) pairs, in the file's order."""
    if isinstance(value, list) and value and isinstance(value[0], tuple):
        return [(key, as_pairs(inner)) for key, inner in value]
    if isinstance(value, list):
        return [as_pairs(inner) for inner in value]
    return value


def main():
    binary, lines = sys.argv[1:]
    with open(binary, "rb") as file:
        game, read = records(file.read())
    with open(lines, encoding="utf-8") as file:
        expected = [as_pairs(json.loads(line, object_pairs_hook=list)) for line in file]
    for number, (ours, theirs) in enumerate(zip(read, expected), start=1):
        if ours != theirs:
            sys.exit(f"record {number} differs:\n  bincode:     {ours}\n  JSON Lines: {theirs}")
    if len(read) != len(expected):
        sys.exit(f"{len(read)} records in {binary}, {len(expected)} in {lines}")
    if game != dict(read[0]).get("game", "3x3"):
        sys.exit(f"the header names {game}, the records {dict(read[0]).get('game')}")
    print(f"{game}: {len(read)} records")


if __name__ == "__main__":
    main()
