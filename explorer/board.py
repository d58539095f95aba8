"""A round's state as a player sees it: the positions (face-up cards, what the viewer
holds or has seen), strikes, whose turn, the pending announcement or power; and the
round so far as lines a person reads. JSON-ready dicts for the front end and the
terminal."""

from __future__ import annotations

from game_def import kernels as k
from game_def.characters import NAMES, ROBIN_CAMP, SHERIFF_CAMP, Character

_VERB_LABEL = {"peek": "Peek at", "use": "Use", "reveal": "Reveal", "pick": "Pick"}


def camp(card: str | None) -> str | None:
    """'robin', 'sheriff', 'traitor' or 'neutral' (the card's colour on the board)."""
    if card is None:
        return None
    c = Character[card.upper()]
    if c in ROBIN_CAMP:
        return "robin"
    if c in SHERIFF_CAMP:
        return "sheriff"
    return "traitor" if c == Character.TRAITOR else "neutral"


def seat_name(seat: int, names: dict[int, str] | None) -> str:
    return (names or {}).get(seat, f"P{seat}")


def teams_of(variant) -> list[list[int]] | None:
    """The two teams in team mode (seats 0+2 against 1+3), else None."""
    return [[0, 2], [1, 3]] if variant.teams else None


def partner(seat: int) -> int:
    """The seat opposite `seat`: its partner in team mode (docs/rules.md)."""
    return (seat + 2) % 4


def action_label(text: str, state=None) -> str:
    """A readable label for an action string ('use 2' -> 'Use the Monk at 2')."""
    verb, _, rest = text.partition(" ")
    if verb in _VERB_LABEL and rest.isdigit():
        if verb == "use" and state is not None:
            card = state.cards[int(rest)]
            return f"Use the {card} at {rest}" if card else f"Use {rest}"
        return f"{_VERB_LABEL[verb]} {rest}"
    if verb == "announce":
        return f"Announce {rest}"
    return {"silent": "Stay silent", "challenge": "Challenge", "pass": "Pass",
            "keep": "Keep (put back as they were)", "swap": "Swap the two cards"}.get(
        text, text[:1].upper() + text[1:])


def _seen_tokens(info: str) -> list[str]:
    return info.split("; ")[1:] if info else []


def _signals(info: str, n: int) -> list[dict | None]:
    """Per position: the last Innkeeper signal the viewer's team made about it (team
    mode: `s:pick p` then `s:name C`, seen by the Innkeeper's team only), with whether
    the card may have moved since; None where there is none."""
    out: list[dict | None] = [None] * n
    last_pick: tuple[str, int] | None = None
    for token in _seen_tokens(info):
        seat, colon, action = token.partition(":")
        verb, _, where = action.partition(" ")
        if not colon:
            continue
        if verb == "name" and last_pick is not None and last_pick[0] == seat:
            out[last_pick[1]] = {"seat": int(seat), "card": where, "stale": False}
        elif verb == "pick" and where.isdigit():
            p = int(where)
            if out[p] is not None:
                out[p] = {**out[p], "stale": True}
            last_pick = (seat, p)
            continue
        last_pick = None
    return out


def _memory(info: str, n: int) -> list[tuple[str | None, bool]]:
    """Per position: the last card the viewer saw there, and whether it may have moved
    since (a later Deputy or Witch pick on that position, or a Deputy pick of it)."""
    seen: list[tuple[str | None, bool]] = [(None, False)] * n
    for token in _seen_tokens(info):
        pos, eq, card = token.partition("=")
        if eq and pos.isdigit():
            seen[int(pos)] = (card, False)
            continue
        _, colon, action = token.partition(":")
        verb, _, where = action.partition(" ")
        if colon and verb == "pick" and where.isdigit():
            p = int(where)
            if seen[p][0] is not None:
                seen[p] = (seen[p][0], True)
    return seen


def board(state, viewer: int | None, *, truth: list[str] | None = None,
          names: dict[int, str] | None = None) -> dict:
    """The board for `viewer` (a seat; None = the designer, who sees every card).

    truth: every position's card (the deal, kept up to date); shown for face-down cards
    when viewer is None. Cards not dealt yet are otherwise unknown to everyone."""
    s = state.core_state
    game = state.get_game()
    variant = game.variant
    n = variant.num_positions
    cards = state.cards
    face_up = state.face_up
    phase = int(s[k.S_PHASE])
    actor = int(s[k.S_ACTOR])
    info = state.information_state_string(viewer) if viewer is not None else ""
    memory = _memory(info, n) if viewer is not None else [(None, False)] * n
    signals = _signals(info, n)
    holding = {}
    if viewer is not None and viewer == actor:
        if phase in (k.PH_AFTER_PEEK,) and s[k.S_PEEK_POS] >= 0:
            p = int(s[k.S_PEEK_POS])
            holding[p] = cards[p]
        if phase == k.PH_WITCH_CHOICE:
            for p in (int(s[k.S_POWER_POS]), int(s[k.S_PICK])):
                holding[p] = cards[p]
    positions = []
    for p in range(n):
        up = face_up[p]
        hidden = None
        if not up and viewer is None:
            hidden = cards[p] if cards[p] is not None else (truth[p] if truth else None)
        seen, stale = memory[p]
        shown = cards[p] if up else None
        positions.append({
            "pos": p, "face_up": up, "card": shown, "camp": camp(shown),
            "hidden": hidden, "hidden_camp": camp(hidden),
            "holding": holding.get(p), "holding_camp": camp(holding.get(p)),
            "seen": None if up or p in holding else seen, "seen_stale": stale,
            "signal": None if up else signals[p],
            "peeked": phase in (k.PH_AFTER_PEEK, k.PH_RESPOND) and int(s[k.S_PEEK_POS]) == p,
            "picked": p in (int(s[k.S_PICK]), int(s[k.S_PICK2])) and phase in (
                k.PH_PICK, k.PH_WITCH_CHOICE, k.PH_SHUFFLE),
            "power_card": int(s[k.S_POWER_POS]) == p and int(s[k.S_POWER]) >= 0
            and phase != k.PH_TURN,
        })
    strikes = list(state.strikes)
    over = state.is_terminal()
    mover = None if over else state.current_player()
    announced = int(s[k.S_ANNOUNCED])
    power = int(s[k.S_POWER])
    out = {
        "positions": positions, "columns": 4 if n > 4 else n,
        "strikes": strikes, "strikes_to_lose": variant.strikes,
        "eliminated": [x >= variant.strikes for x in strikes],
        "turn": int(s[k.S_TURN]) + (0 if over else 1), "max_turns": variant.max_turns,
        "actor": actor, "mover": mover, "over": over,
        "phase": _phase_text(state, phase, actor, announced, power, names),
        "announced": NAMES[announced] if announced >= 0 and not over
        and phase != k.PH_TURN else None,
        "power": NAMES[power] if power >= 0 and phase in (
            k.PH_REVEAL, k.PH_PICK, k.PH_WITCH_CHOICE, k.PH_SHUFFLE) else None,
        "viewer": viewer, "players": variant.players, "teams": teams_of(variant),
    }
    if over:
        returns = state.returns()
        winner = int(s[k.S_WINNER])
        out.update(returns=returns, winner=winner if winner >= 0 else None,
                   result=result_text(state, names))
    return out


def result_text(state, names=None) -> str:
    """Who won the round and how (in team mode the winning team), or the draw."""
    s = state.core_state
    winner = int(s[k.S_WINNER])
    ev = state.events
    variant = state.get_game().variant
    if winner < 0:
        return f"Draw: the turn cap ({variant.max_turns} turns) was reached"
    if variant.teams:
        return _team_result_text(state, winner, names)
    if variant.players > 2 and "elimination" in ev and "unmask_win" not in ev:
        return f"{seat_name(winner, names)} is the last player left and won the round"
    how = "unmasked the other camp" if "unmask_win" in ev else \
        "eliminated the opponent" if "elimination" in ev else "won"
    return f"{seat_name(winner, names)} {how} and won the round"


def team_name(seat: int, names=None) -> str:
    """The team of `seat` by its two seats' names, the human's first ('You and
    Partner', 'AI 1 and AI 3', 'P0 and P2')."""
    two = sorted((seat_name(s, names) for s in (seat, partner(seat))),
                 key=lambda name: (name != "You", name != "Partner", name))
    return " and ".join(two)


def _team_result_text(state, winner: int, names) -> str:
    """The winning team, and the unmasking that won it (its ender unmasked)."""
    team = team_name(winner, names)
    if "unmask_win" in state.events:
        ender = int(state.core_state[k.S_ENDER])
        return f"{seat_name(ender, names)} unmasked the other camp: {team} won the round"
    return f"{team} are the last team left and won the round"


def _says(who: str, base: str, third: str) -> str:
    """`who` with the verb agreeing ('You peek', 'AI peeks')."""
    return f"{who} {base if who == 'You' else third}"


def _phase_text(state, phase, actor, announced, power, names) -> str:
    who = seat_name(actor, names)
    s = state.core_state
    if phase == k.PH_TERMINAL:
        return result_text(state, names)
    if phase == k.PH_TURN:
        return f"{who} to play: peek at a face-down card or use a face-up one"
    if phase == k.PH_AFTER_PEEK:
        return f"{who} peeked at {int(s[k.S_PEEK_POS])}: stay silent or announce"
    if phase == k.PH_RESPOND:
        owner = "your" if who == "You" else f"{who}'s"
        return (f"{seat_name(int(s[k.S_RESPONDER]), names)}: challenge or pass "
                f"{owner} claim ({NAMES[announced]} at {int(s[k.S_PEEK_POS])})")
    if phase == k.PH_REVEAL:
        target = "the Sheriff's" if NAMES[power] == "Robin" else "Robin's"
        return (f"{_says(who, 'unmask', 'unmasks')} {target} camp with the {NAMES[power]}: "
                f"pick a card to reveal")
    if phase == k.PH_PICK:
        return f"{_says(who, 'run', 'runs')} the {NAMES[power]}'s power: pick a position"
    if phase == k.PH_WITCH_CHOICE:
        return f"{_says(who, 'hold', 'holds')} two cards (Witch): keep or swap"
    if phase == k.PH_SHUFFLE:
        return "The Deputy's two cards are shuffled blind"
    if phase == k.PH_NAME:
        # only the Innkeeper's team sees the position picked: not named here
        return (f"{_says(who, 'signal', 'signals')} a card to the partner (Innkeeper): "
                f"name a character")
    if phase == k.PH_ORDER:
        return "Who reacts next to the claim is drawn"
    if phase == k.PH_DEAL:
        return "A face-down card is looked at"
    return ""


def history_lines(state, names: dict[int, str] | None = None) -> list[dict]:
    """The whole round, every action as its string (the designer's log); `actions` is
    what `game_def.play(game, *actions)` replays."""
    game = state.get_game()
    replay = game.new_initial_state()
    lines = []
    for i, a in enumerate(state.history()):
        mover = replay.current_player()
        text = replay.action_to_string(mover, a)
        lines.append({"step": i, "seat": mover, "text": text,
                      "who": "chance" if mover < 0 else seat_name(mover, names)})
        replay.apply_action(a)
    return lines


def action_strings(state) -> list[str]:
    return [line["text"] for line in history_lines(state)]


def viewer_lines(state, viewer: int, names: dict[int, str] | None = None) -> list[dict]:
    """The round as `viewer` saw it: their information-state tokens as sentences,
    private ones marked."""
    mine = _seen_tokens(state.information_state_string(viewer))
    public = _seen_tokens(state.public_observation_string())
    j = 0
    lines = []
    for token in mine:
        private = not (j < len(public) and public[j] == token)
        if not private:
            j += 1
        lines.append({"text": _sentence(token, viewer, names, private), "private": private})
    return lines


def _sentence(token: str, viewer: int, names, private: bool) -> str:
    pos, eq, card = token.partition("=")
    if eq and pos.isdigit():
        return f"you see the {card} at {pos}" if private else f"{pos} is face up: {card}"
    verb, _, rest = token.partition(" ")
    if verb == "fastest" and rest.isdigit():   # challenge_order=random: who reacts next
        return f"{seat_name(int(rest), names)} is asked next"
    seat, colon, action = token.partition(":")
    if colon and seat.isdigit():
        who = seat_name(int(seat), names)
        verb, _, rest = action.partition(" ")
        you = who == "You"
        text = {"peek": f"peek{'' if you else 's'} at {rest}",
                "use": f"use{'' if you else 's'} the card at {rest}",
                "reveal": f"reveal{'' if you else 's'} {rest}",
                "pick": f"pick{'' if you else 's'} {rest}",
                "announce": f"announce{'' if you else 's'} {rest}",
                "silent": "stay silent" if you else "stays silent",
                "challenge": "challenge" if you else "challenges",
                "pass": "pass" if you else "passes",
                "keep": "keep the cards" if you else "keeps the cards",
                "swap": "swap the cards" if you else "swaps the cards",
                "name": f"signal{'' if you else 's'} {rest} (Innkeeper)"}.get(verb, action)
        return f"{who} {text}"
    return token
