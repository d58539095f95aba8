"""`robinwood play`: a round or a best-of-3 match against the strategy in the terminal,
with the same rules, hidden information and end-of-round review as the web app's Play
tab (explorer.session.PlayGame)."""

from __future__ import annotations

from typing import Callable

from game_def.errors import IllegalActionError

from .run import ExploredRun
from .session import PlayGame


def _team_mark(board: dict, seat: int) -> str:
    """' [team 0+2]' in team mode, '' otherwise."""
    for team in board.get("teams") or ():
        if seat in team:
            return f" [team {'+'.join(map(str, team))}]"
    return ""


def board_text(board: dict, names: dict[int, str], truth: bool = False) -> str:
    """The board in a few lines: seats with strike sheets (■ a strike), the phase, the
    positions in rows ('?' face down, '*' the card in play, [Name] a hidden card when
    `truth`), then what the viewer holds and remembers."""
    def sheets(p):
        return "".join("■" if i < board["strikes"][p] else "□"
                       for i in range(board["strikes_to_lose"]))
    seats = "   ".join(f"{names[p]}{_team_mark(board, p)} {sheets(p)}"
                       f"{' (to act)' if board['mover'] == p else ''}"
                       for p in range(len(board["strikes"])))
    turn = (f"{board['turn']} turns" if board["over"]
            else f"turn {board['turn']}/{board['max_turns']}")
    cells, notes = [], []
    for p in board["positions"]:
        if p["face_up"]:
            text = p["card"]
        elif truth and p["hidden"]:
            text = f"[{p['hidden']}]"
        else:
            text = "?"
        if p["holding"]:
            notes.append(f"in your hand: the {p['holding']} at {p['pos']}")
        elif p["seen"]:
            moved = " (may have moved since)" if p["seen_stale"] else ""
            notes.append(f"you saw the {p['seen']} at {p['pos']}{moved}")
        signal = p.get("signal")
        if signal and not truth:   # team mode: what the Innkeeper named to the team
            who = names.get(signal["seat"], f"P{signal['seat']}")
            moved = " (may have moved since)" if signal["stale"] else ""
            notes.append(f"{who} signalled the {signal['card']} at {p['pos']}{moved}")
        mark = "*" if p["peeked"] or p["picked"] or p["power_card"] else " "
        cells.append(f"{mark}{p['pos']:>2}: {text}")
    width = max(len(c) for c in cells) + 2
    cols = board["columns"]
    grid = ["  " + "".join(c.ljust(width) for c in cells[i:i + cols]).rstrip()
            for i in range(0, len(cells), cols)]
    return "\n".join([f"{seats}   · {turn}", board["phase"], *grid,
                      *(f"  ({n})" for n in notes)])


def tally_text(view: dict) -> str:
    """Three or four players: who won the round (a team in team mode) and the round
    wins of each side so far, draws included."""
    sides = " · ".join(f"{t['side']}: {t['wins']}" for t in view["tally"])
    return (f"{view['round_result']['text']}\n"
            f"Tally after {view['round']} round{'s' if view['round'] > 1 else ''}: "
            f"{sides} · draws: {view['draws']}")


def review_text(reveal: dict, exact: bool, note: str | None = None) -> str:
    """The human's decisions against the strategy: its probabilities, and for exact
    two-player runs each action's EV and the EV given away; `note` says why EVs are
    missing where they are."""
    lines = ["", "Review: your decisions against the strategy"]
    if note:
        lines.append(f"  ({note})")
    if not reveal["review"]:
        lines.append("  you made no decision this round")
    for x in reveal["review"]:
        cost = "" if x["cost"] is None else f", EV cost {x['cost']:+.3f}"
        off = " [off the strategy's own path]" if x["on_path"] is False else ""
        lines.append(f"  turn {x['turn']}: {x['situation']}{off}")
        lines.append(f"    you chose {x['chosen']!r} (the strategy plays it "
                     f"{100 * x['chosen_prob']:.1f}%{cost})")
        for a in x["actions"]:
            ev = "" if a["ev"] is None else f"  EV {a['ev']:+.3f}"
            lines.append(f"      {'>' if a['chosen'] else ' '} {a['text']:<18} "
                         f"{100 * a['prob']:5.1f}%{ev}")
        if not exact:
            lines.append(f"    training visits here: "
                         f"{'n/a' if x['visits'] is None else x['visits']}")
    if exact and reveal["total_cost"] is not None:
        lines.append(f"  total EV given away this round: {reveal['total_cost']:+.3f}")
    lines.append(f"  deal: {' '.join(reveal['layout'])}")
    lines.append(f"  actions: {', '.join(reveal['actions'])}")
    return "\n".join(lines)


def play_in_terminal(run: ExploredRun, seat: int, match: bool, seed: int | None,
                     echo: Callable[[str], None],
                     prompt: Callable[..., str], search: bool = False) -> PlayGame:
    """Play until the round (or match) ends; returns the finished game. `prompt(text,
    default=None)` reads one answer (click.prompt in the command line)."""
    game = PlayGame(run, seat, match, seed, search=search)
    against = ("you against the strategy" if run.players == 2 else
               f"you in seat {seat} of {run.players}, the strategy in every other seat"
               + (f" (your partner in seat {(seat + 2) % 4} too)" if game.teams else ""))
    echo(f"{run.variant}: {against} in {run.run_dir}"
         f"{' with play-time search' if search else ''} "
         f"({'best of 3' if match else 'one round'}). Type the number of a move or its "
         f"text; q quits.")
    shown = 0
    while True:
        v = game.view()
        names = game.names
        log = v["log"]
        for line in log[shown:]:
            echo(f"  · {line['text']}")
        shown = len(log)
        if v["decision"]:
            echo("")
            echo(board_text(v["board"], names))
            actions = v["decision"]["actions"]
            for i, a in enumerate(actions, 1):
                echo(f"  {i:>2}. {a['label']}  ({a['text']})")
            answer = prompt("your move").strip()
            if answer.lower() in ("q", "quit", "exit"):
                echo("robinwood: game abandoned")
                return game
            text = answer
            if answer.isdigit():
                if not 1 <= int(answer) <= len(actions):
                    echo(f"  choose 1 to {len(actions)} (or type the move)")
                    continue
                text = actions[int(answer) - 1]["text"]
            try:
                game.move(text)
            except IllegalActionError as e:
                echo(f"  {e}")
            continue
        reveal = v["reveal"]
        echo("")
        echo("Round over. Every card revealed:")
        echo(board_text(reveal["board"], names, truth=True))
        echo(review_text(reveal, run.kind == "exact",
                         run.two_player_only.get("values") if run.kind == "exact" else None))
        if run.players > 2:
            echo(tally_text(v))
        elif game.match:
            echo(f"Score: you {v['wins']['you']} - {v['wins']['ai']} AI")
        if v["over"]:
            if v.get("match_result"):
                echo(v["match_result"])
            return game
        prompt("press Enter for the next round", "")
        game.next_round()
        shown = 0
