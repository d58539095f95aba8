"""A decision as its mover sees it, read only from OpenSpiel's strings (the
information-state string and the legal actions' strings, never the core state): the
plain twin the lock tests (tests/test_decisions.py, tests/test_forbid.py) check the
decisions kernel against."""

from __future__ import annotations

import re


def twin_features(state) -> dict:
    """What the mover knows, read from its information-state string and legal actions:
    the decision kind, its seat, the card it just peeked, the claim it answers, the
    turn (peeks and uses so far, one per turn)."""
    seat = state.current_player()
    texts = [state.action_to_string(seat, a) for a in state.legal_actions()]
    verbs = {t.split()[0] for t in texts}
    kind = ("turn" if verbs & {"peek", "use"} else "announce" if verbs & {"silent", "announce"}
            else "respond" if verbs & {"challenge", "pass"} else "power")
    tokens = state.information_state_string(seat).split("; ")[1:]
    seen = [m.group(1) for t in tokens if (m := re.fullmatch(r"\d+=(\w+)", t))]
    claims = [m.group(1) for t in tokens if (m := re.fullmatch(r"\d+:announce (\w+)", t))]
    turns = sum(bool(re.fullmatch(r"\d+:(peek|use) \d+", t)) for t in tokens)
    return {"kind": kind, "seat": seat, "texts": texts,
            "peeked": seen[-1] if kind == "announce" else None,
            "claim": claims[-1] if kind == "respond" else None,
            "turn": turns + 1 if kind == "turn" else turns}


def twin_in_class(key: str, text: str, peeked) -> bool:
    verb, _, rest = text.partition(" ")
    if key == verb:
        return True
    if verb == "announce":
        return key == rest or (key == "truth" and rest == peeked) or (
            key == "bluff" and rest != peeked)
    return verb == "name" and key == rest
