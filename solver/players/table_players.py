"""Scripted players for any table size (2-4 seats, teams), written from the rulebook as a
few rules each, reading only their own information: the information-state string (what
the seat has seen, in order) and the legal actions' strings.

They are plain Python, meant for exact evaluation on small trees
(solver.evaluation.table_strength writes them onto every infoset of an exact tree);
the numba bots of solver.players play two-player rounds at speed.

    honest      announces the card it peeked when it can, else keeps quiet; never
                challenges; peeks at a face-down card it has not seen
    paranoid    plays as honest, but challenges every claim
    bluffer     announces Robin after every peek (a bluff unless it peeked Robin); never
                challenges
    doubter     plays as honest; challenges the leaders' claims (Robin, Sheriff), which
                win at once when true and are the likeliest bluffs
    uniform     every legal action alike
Powers (unmasking, picks, the Witch, the Innkeeper's naming) are played uniformly by
all: the rules above are about bluffing and challenging.
"""

from __future__ import annotations

import re

import numpy as np

TABLE_PLAYERS = ("honest", "paranoid", "bluffer", "doubter", "uniform")
_SEEN = re.compile(r"^(\d+)=(\w+)$")
_PEEK = re.compile(r"^(\d+):peek (\d+)$")
_CLAIM = re.compile(r"^\d+:announce (\w+)$")


def _tokens(info_state: str) -> list[str]:
    return [t.strip() for t in info_state.split(";")]


def _peeked(info_state: str) -> str | None:
    """The card the seat just saw at its own peek (the last `pos=Card` after it)."""
    tokens = _tokens(info_state)
    me = tokens[0].removeprefix("P")
    for i in range(len(tokens) - 1, 0, -1):
        peek = _PEEK.match(tokens[i])
        if peek and peek.group(1) == me:
            for t in tokens[i + 1:]:
                seen = _SEEN.match(t)
                if seen and seen.group(1) == peek.group(2):
                    return seen.group(2)
            return None
    return None


def _claim(info_state: str) -> str | None:
    """The character of the last announcement the seat heard."""
    for t in reversed(_tokens(info_state)):
        m = _CLAIM.match(t)
        if m:
            return m.group(1)
    return None


def _seen_positions(info_state: str) -> set[int]:
    return {int(m.group(1)) for t in _tokens(info_state) if (m := _SEEN.match(t))}


def _one(texts: list[str], choice: str) -> np.ndarray:
    out = np.zeros(len(texts))
    out[texts.index(choice)] = 1.0
    return out


def _even(texts: list[str], keep) -> np.ndarray:
    mask = np.array([bool(keep(t)) for t in texts])
    if not mask.any():
        mask[:] = True
    return mask / mask.sum()


def table_player_probs(name: str, info_state: str, texts: list[str]) -> np.ndarray:
    """The probabilities scripted player `name` gives the legal actions `texts` (their
    action strings, in order) at the decision whose information state is `info_state`."""
    if name not in TABLE_PLAYERS:
        raise ValueError(f"unknown table player {name!r}: choose one of "
                         f"{', '.join(TABLE_PLAYERS)}")
    if name == "uniform":
        return np.full(len(texts), 1.0 / len(texts))
    if "challenge" in texts:  # a response to a claim
        if name == "paranoid":
            return _one(texts, "challenge")
        if name == "doubter" and _claim(info_state) in ("Robin", "Sheriff"):
            return _one(texts, "challenge")
        return _one(texts, "pass")
    if "silent" in texts:  # after a peek
        if name == "bluffer" and "announce Robin" in texts:
            return _one(texts, "announce Robin")
        card = _peeked(info_state)
        truth = f"announce {card}"
        return _one(texts, truth if truth in texts else "silent")
    peeks = [t for t in texts if t.startswith("peek ")]
    if peeks:  # a turn: peek at a card it has not seen (any, once it has seen them all)
        seen = _seen_positions(info_state)
        unseen = [t for t in peeks if int(t.split()[1]) not in seen]
        return _even(texts, lambda t: t in (unseen or peeks))
    return np.full(len(texts), 1.0 / len(texts))  # powers
