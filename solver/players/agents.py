"""Agents: the baseline bots and abstracted (Monte Carlo CFR) strategies, usable in
numba tournaments and, through `AgentPolicy`, as OpenSpiel policies and bots.

Baseline bots (docs/bots.md):
  uniform   every legal action equally likely;
  honest    peeks at cards it has not seen, announces what it saw (silent on a Peasant;
            the Trickster forces Robin or Sheriff), never challenges;
  paranoid  plays like honest but challenges every announcement;
  heuristic tracks what it has seen, claims Robin or Sheriff with another card at rate
            `bluff` (default 0.3), and challenges when the claim is impossible or less
            likely than `challenge_below` (default 0.3) given the cards it has located.
Every bot unmasks cards it knows to be in the target camp first, then unknown ones,
and keeps after a Witch look.

League players (solver.scripted._league, solver.evaluation.league; docs/bots.md): truthful_challenger,
silent, counter, leader_bluffer, threshold_challenger[:t=0.5], baiter, tempo; held out for
evaluation only (HELD_OUT_BOTS): mirror, careful, late_bluffer, peek_hoarder, proportional,
prover, disruptor, unmasker.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python import policy as os_policy

from game_def import kernels as k
from game_def.core import rules_array
from game_def.errors import RobinWoodError
from game_def.variant import Variant

from solver.players import _kernels as ka
from solver.scripted import (BASIC_NAMES, DEFAULT_THRESHOLD, FALLBACK_RULE_KINDS,
                             FALLBACK_RULE_NAMES, HELD_OUT_KINDS, HELD_OUT_NAMES,
                             LEAGUE_KINDS, LEAGUE_NAMES)
from solver.scripted import kernels as lg
from solver.mccfr import kernels as mc
from solver.decisions import compile_locks, parse_locks
from solver.mccfr.table_file import read_table

BOTS = BASIC_NAMES
LEAGUE_BOTS = LEAGUE_NAMES
BOT_NAMES = BOTS + LEAGUE_BOTS
# Scripted players held out for evaluation (docs/bots.md, "Held out"): loadable by name
# like the others, never training opponents nor fallback rules, and not in BOT_NAMES.
HELD_OUT_BOTS = HELD_OUT_NAMES
_BOT_KIND = {"uniform": ka.UNIFORM, "honest": ka.HONEST, "paranoid": ka.PARANOID,
             "heuristic": ka.HEURISTIC, **LEAGUE_KINDS, **HELD_OUT_KINDS,
             **FALLBACK_RULE_KINDS}
# the options each bot takes (`name:option=value,...` in load_agent; defaults in bot())
_BOT_OPTIONS = {"heuristic": ("bluff", "challenge_below"), "threshold_challenger": ("t",),
                "sound": ("claim_weight", "tempo", "power", "bluff_caught", "deter",
                          "bluff_share", "bluff_worth", "bluff_exposure",
                          "claim_weight_many", "trickster")}
# the sound default's options, in its settings' order (solver.scripted.kernels.P_*)
SOUND_OPTIONS = {"claim_weight": lg.P_CLAIM_WEIGHT, "tempo": lg.P_TEMPO,
                 "power": lg.P_POWER_VALUE, "bluff_caught": lg.P_BLUFF_CAUGHT,
                 "deter": lg.P_DETER, "bluff_share": lg.P_BLUFF_SHARE,
                 "bluff_worth": lg.P_BLUFF_WORTH, "bluff_exposure": lg.P_BLUFF_EXPOSURE,
                 "claim_weight_many": lg.P_CLAIM_WEIGHT_MANY,
                 "trickster": lg.P_TRICKSTER_LIE}


class AgentError(RobinWoodError):
    """An agent that cannot be built or does not fit the game."""


# League players whose rules take no option, and the fallback rules (the claim counter),
# so they can move for a table (Fallback).
FALLBACK_PLAYERS = (tuple(name for name in LEAGUE_BOTS if name != "threshold_challenger")
                    + FALLBACK_RULE_NAMES)


# A fallback threshold meaning "the rules at every such decision, learned or not".
EVERY = "all"


@dataclasses.dataclass(frozen=True)
class Fallback:
    """Rules that move where a table has not learned (docs/mccfr.md, "Where the table
    has not learned").

    At a decision whose entry is missing, or has fewer training updates than the
    threshold, the league player `player` moves instead of the table: an entry with few
    updates is still close to uniform, and a uniform unmasking or peek throws the round
    away. `visits` is the threshold for announcements and responses, `turn_visits` for
    turn starts and powers; None is the table's own learned threshold (its
    `fine_visits`, the one coverage counts as learned), EVERY ("all") the rules at every
    such decision. Such decisions count as thin or unlearned in coverage: a decision is
    learned only where the table moves."""

    player: str = "sound"
    visits: int | str | None = None
    turn_visits: int | str | None = None

    def __post_init__(self):
        if self.player not in FALLBACK_PLAYERS:
            raise AgentError(f"fallback player {self.player!r} is not one of "
                             f"{', '.join(FALLBACK_PLAYERS)} (or 'none' for uniform play "
                             f"where the table has no entry)")
        for name in ("visits", "turn_visits"):
            value = getattr(self, name)
            if value is not None and value != EVERY and (
                    isinstance(value, bool) or not isinstance(value, (int, np.integer))
                    or value < 0):
                raise AgentError(f"fallback {name}={value!r} must be a whole number of "
                                 f"training updates, 0 or more, or {EVERY!r} (the rules "
                                 f"at every such decision)")


    def __str__(self) -> str:
        """The --fallback form, which parse_fallback reads back."""
        opts = ",".join(f"{name}={getattr(self, name)}" for name in ("visits", "turn_visits")
                        if getattr(self, name) is not None)
        return f"{self.player}:{opts}" if opts else self.player


# What a two-player run's strategy plays by default: the sound default (docs/sound-play.md)
# at every announcement and response, the table at a turn start or a power whose entry
# has 1,000 updates, the sound default elsewhere. The table's learned announcements and
# responses lose to the sound default's (docs/mccfr.md, "Where the table has not
# learned": -0.127 against it with them, -0.007 without, on the demo's table).
DEFAULT_FALLBACK = Fallback("sound", visits=EVERY, turn_visits=1000)
# ... and at three or four seats and in teams (docs/nplayer.md, "Where the table has not
# learned, beyond two seats").
TABLE_FALLBACK = Fallback("sound", visits=EVERY, turn_visits=1000)
# The fallback argument that means "the default for the strategy's table size".
AUTO_FALLBACK = "auto"


def default_fallback(variant: Variant) -> Fallback:
    """The fallback a strategy of `variant` plays by default: DEFAULT_FALLBACK at two
    seats, TABLE_FALLBACK at three or four seats and in teams."""
    return DEFAULT_FALLBACK if variant.players == 2 else TABLE_FALLBACK


def parse_fallback(text: str) -> Fallback | str | None:
    """`auto` (AUTO_FALLBACK: the default for the strategy's table size), `none`, a
    player name, or `player:visits=N,turn_visits=M` (the CLI's --fallback; N or M
    `all` for the rules at every such decision)."""
    name, _, opts = text.strip().partition(":")
    if name == AUTO_FALLBACK:
        if opts:
            raise AgentError(f"--fallback auto takes no options, got {text!r}")
        return AUTO_FALLBACK
    if name == "none":
        if opts:
            raise AgentError(f"--fallback none takes no options, got {text!r}")
        return None
    return Fallback(name, **_options(opts, text, "fallback", ("visits", "turn_visits"),
                                     lambda v: EVERY if v == EVERY else int(v),
                                     f"a whole number or {EVERY!r}"))


def _options(opts: str, spec: str, what: str, allowed, convert, noun: str) -> dict:
    """`key=value,...` options of `spec` (a bot or a fallback): each key one of `allowed`,
    given once, its value read by `convert` (a clear error naming `noun` otherwise)."""
    kwargs = {}
    for item in filter(None, opts.split(",")):
        key, _, value = item.partition("=")
        if key not in allowed:
            hint = (f"use {' or '.join(o + '=' for o in allowed)}" if allowed
                    else f"{spec.partition(':')[0]} takes no options")
            raise AgentError(f"unknown {what} option {key!r} in {spec!r}: {hint}")
        if key in kwargs:
            raise AgentError(f"{what} option {key!r} is given twice in {spec!r}; give it "
                             f"once")
        try:
            kwargs[key] = convert(value)
        except ValueError:
            raise AgentError(f"{key}={value!r} in {spec!r} is not {noun}") from None
    return kwargs


@dataclasses.dataclass
class Agent:
    """A strategy for every seat. Bots have an empty table; `variant` is None for bots
    (they play any variant, at any table size) and the training variant for tables."""

    name: str
    kind: int
    params: np.ndarray
    tables: tuple  # per seat: (slots, keys, offset, nact, probs)
    variant: Variant | None = None
    visit_counts: tuple = None   # per seat: training updates of each entry (int64)
    min_visits: int = 1          # coverage: an entry with this many updates is learned
    fallback: Fallback | None = None   # a table's rules where it has not learned
    locks: tuple = ()            # locked decisions it plays as locked (solver.decisions)

    def table(self, seat: int):
        return self.tables[seat]

    def visits(self, seat: int) -> np.ndarray:
        if self.visit_counts is None:
            return np.zeros(max(len(self.tables[seat][1]), 1), dtype=np.int64)
        return self.visit_counts[seat]

    def rules_move(self, seat: int, phase: int, entry: int) -> bool:
        """Whether the fallback's rules, not the table, move at a decision of core phase
        `phase` whose table entry in `seat` is `entry` (-1: none): the test of
        solver.players._kernels._agent_probs on this agent's parameters."""
        if self.fallback is None:
            return False
        claims = phase in (k.PH_AFTER_PEEK, k.PH_RESPOND)
        below = self.params[ka.P_FALLBACK_VISITS_CLAIMS if claims else ka.P_FALLBACK_VISITS]
        return entry < 0 or self.visits(seat)[entry] < below

    def player(self, seat: int) -> ka.Player:
        """The agent in `seat` as the kernels take it (solver.players.kernels.Player),
        built once per seat."""
        players = self.__dict__.setdefault("_players", {})
        if seat not in players:
            slots, keys, offset, nact, probs = self.tables[seat]
            players[seat] = ka.Player(
                np.int64(self.kind), np.ascontiguousarray(self.params, dtype=np.float64),
                np.ascontiguousarray(slots, dtype=np.int64),
                np.ascontiguousarray(keys, dtype=np.int64),
                np.ascontiguousarray(offset, dtype=np.int64),
                np.ascontiguousarray(nact, dtype=np.int64),
                np.ascontiguousarray(probs, dtype=np.float32),
                np.ascontiguousarray(self.visits(seat), dtype=np.int64),
                compile_locks(self.locks))
        return players[seat]

    def seats(self) -> ka.Seats:
        """Both seats following this agent (self-play, exact projection)."""
        return ka.Seats(self.player(0), self.player(1))


def seated(a: Agent, b: Agent, a_seat: int) -> ka.Seats:
    """Agent `a` in seat `a_seat` and agent `b` in the other, as the kernels take them."""
    if a_seat == 0:
        return ka.Seats(a.player(0), b.player(1))
    return ka.Seats(b.player(0), a.player(1))


def _empty_table():
    return (np.full(1, -1, dtype=np.int64), np.zeros(1, dtype=np.int64),
            np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
            np.zeros(1, dtype=np.float32))


def bot(name: str, bluff: float = lg.DEFAULT_BLUFF,
        challenge_below: float = lg.DEFAULT_CHALLENGE_BELOW,
        t: float = DEFAULT_THRESHOLD, **sound: float) -> Agent:
    """A baseline bot or league player by name (BOT_NAMES), a held-out player or a
    fallback player (the claim counter, the sound default). `bluff` and
    `challenge_below` are the heuristic bot's rates, `t` the threshold_challenger's
    threshold, `sound` the sound default's settings (SOUND_OPTIONS: claim_weight, a
    likelihood ratio of at least 1, at two seats, and claim_weight_many the same beyond
    two seats; trickster, from 0 to 1, the share of a claim's weight that also counts for
    the Trickster at its position beyond two seats, for the claim a forced lie names
    most (the Companion's at the defaults); tempo and power, values in payoff units
    from 0 to 1;
    bluff_caught, a probability; deter and bluff_share, the shares of the deterring challenge
    rate and of the equilibrium bluff rate it plays, from 0 to 1; bluff_worth, the most a
    card's own best announcement may be worth for it to bluff, and bluff_exposure, the
    most of a character's copies the responder may be able to place for a bluff of it,
    both gating nothing at their defaults, 1e6 and 1: docs/sound-play.md); the other bots
    ignore them."""
    if name not in _BOT_KIND:
        raise AgentError(f"unknown bot {name!r}: choose one of "
                         f"{', '.join(BOT_NAMES + HELD_OUT_BOTS + FALLBACK_RULE_NAMES)}")
    if name == "sound":
        return _sound_bot(**sound)
    if sound:
        raise AgentError(f"{name} takes no option {', '.join(sound)}")
    for key, value in (("bluff", bluff), ("challenge_below", challenge_below), ("t", t)):
        if not 0 <= value <= 1:  # nan fails too
            raise AgentError(f"bot option {key}={value!r} of {name} must be a probability "
                             f"in [0, 1]")
    params = np.zeros(ka.NUM_PARAMS)
    label = name
    if name == "heuristic":
        params[ka.P_BLUFF] = bluff
        params[ka.P_CHALLENGE] = challenge_below
        if (bluff, challenge_below) != (lg.DEFAULT_BLUFF, lg.DEFAULT_CHALLENGE_BELOW):
            label = f"heuristic(bluff={bluff:g},challenge_below={challenge_below:g})"
    elif name == "threshold_challenger":
        params[lg.P_THRESHOLD] = t
        if t != DEFAULT_THRESHOLD:
            label = f"threshold_challenger(t={t:g})"
    # an empty table for every seat a table can have: bots play any table size
    return Agent(label, _BOT_KIND[name], params,
                 tuple(_empty_table() for _ in range(k.MAX_PLAYERS)))


def table_agent(name: str, variant: Variant, seat_arrays, visits=None,
                min_visits: int = 1, sure_wins: bool = False,
                fallback: Fallback | None = None, coarse_letters: bool = False,
                fine_classes: bool = False, locks=()) -> Agent:
    """An agent from per-seat (keys, offset, nact, probabilities) arrays; `visits`:
    per seat, each entry's training updates (for coverage counts and the fallback's
    thresholds); `sure_wins`: take sure wins by rule, as a trainer with
    MCCFRConfig.sure_wins did; `fallback`: rules where the table has not learned (None:
    uniform where it has no entry); `coarse_letters`: its coarse entries act on letters
    (MCCFRConfig.coarse_actions="letters"); `fine_classes`: its fine entries of position
    decisions are keyed by their class set (MCCFRConfig.fine_key="classes"); `locks`:
    the run's locked decisions (Lock objects or texts), played as locked."""
    tables = []
    for keys, offset, nact, probs in seat_arrays:
        keys = np.ascontiguousarray(keys, dtype=np.int64)
        slots = np.full(1 << max(4, int(2 * len(keys) - 1).bit_length()), -1, dtype=np.int64)
        mc.rehash(keys, len(keys), slots)
        tables.append((slots, keys, np.ascontiguousarray(offset, dtype=np.int64),
                       np.ascontiguousarray(nact, dtype=np.int64),
                       np.ascontiguousarray(probs, dtype=np.float32)))
    if visits is not None:
        visits = tuple(np.ascontiguousarray(v, dtype=np.int64) for v in visits)
    params = np.zeros(ka.NUM_PARAMS)
    params[ka.P_SURE_WINS] = 1.0 if sure_wins else 0.0
    params[ka.P_COARSE_LETTERS] = 1.0 if coarse_letters else 0.0
    params[ka.P_FINE_CLASSES] = 1.0 if fine_classes else 0.0
    if fallback is not None:
        params[ka.P_FALLBACK] = _BOT_KIND[fallback.player]
        if visits is not None:   # without visit counts only missing entries fall back
            claims = min_visits if fallback.visits is None else fallback.visits
            turns = claims if fallback.turn_visits is None else fallback.turn_visits
            params[ka.P_FALLBACK_VISITS_CLAIMS] = np.inf if claims == EVERY else claims
            params[ka.P_FALLBACK_VISITS] = np.inf if turns == EVERY else turns
    return Agent(name, ka.TABLE, params, tuple(tables), variant, visits, min_visits,
                 fallback, parse_locks(locks))


def trained_agent(trainer, name: str = "mccfr") -> Agent:
    """The average strategy of a Monte Carlo CFR trainer (solver.mccfr.trainer.MCCFRSolver)
    as a table agent: what its run's table file would load."""
    seats, visits = trainer.average_strategy()
    return table_agent(name, trainer.config.variant, seats, visits,
                       trainer.config.fine_visits, trainer.config.sure_wins,
                       coarse_letters=trainer.config.coarse_actions == "letters",
                       fine_classes=trainer.config.fine_key == "classes",
                       locks=trainer.config.locks)


def _sound_bot(**options: float) -> Agent:
    """The sound default with `options` (SOUND_OPTIONS) over its defaults."""
    params = np.zeros(ka.NUM_PARAMS)
    params[:lg.NUM_SOUND_PARAMS] = lg.SOUND_DEFAULTS
    for key, value in options.items():
        if key not in SOUND_OPTIONS:
            raise AgentError(f"unknown sound option {key!r}: use "
                             f"{', '.join(SOUND_OPTIONS)}")
        low, high = {"claim_weight": (1.0, 1e6), "claim_weight_many": (1.0, 1e6),
                     "bluff_worth": (0.0, 1e6)}.get(key, (0.0, 1.0))
        if not low <= value <= high:   # nan fails too
            raise AgentError(f"sound option {key}={value!r} must be from {low:g} to "
                             f"{high:g}")
        params[SOUND_OPTIONS[key]] = value
    label = "sound" if not options else "sound(" + ",".join(
        f"{key}={value:g}" for key, value in options.items()) + ")"
    return Agent(label, lg.SOUND, params, tuple(_empty_table() for _ in range(k.MAX_PLAYERS)))


def load_agent(spec: str, fallback: Fallback | str | None = AUTO_FALLBACK) -> Agent:
    """A bot name (optionally with options: `heuristic:bluff=0.2,challenge_below=0.4`,
    `threshold_challenger:t=0.7`) or a run directory holding a Monte Carlo CFR
    strategy (played with `fallback`, as load_table_agent)."""
    if not spec.strip():
        raise AgentError(f"an empty agent name: give a bot ({', '.join(BOT_NAMES)}) or a "
                         f"run directory")
    name, _, opts = spec.partition(":")
    if name in _BOT_KIND:
        return bot(name, **_options(opts, spec, "bot", _BOT_OPTIONS.get(name, ()), float,
                                    "a number"))
    path = Path(spec)
    if not path.is_dir():
        raise AgentError(f"{spec!r} is neither a bot ({', '.join(BOT_NAMES)}) nor a run "
                         f"directory")
    return load_table_agent(path, fallback)


def load_table_agent(run_dir, fallback: Fallback | str | None = AUTO_FALLBACK) -> Agent:
    """The strategy of a Monte Carlo CFR run directory: its average strategy table,
    with `fallback`'s rules where the table has not learned (AUTO_FALLBACK: the default
    for its table size, default_fallback; None: the table alone, uniform where it has no
    entry)."""
    stored = read_table(run_dir)
    if isinstance(fallback, str):
        if fallback != AUTO_FALLBACK:
            raise AgentError(f"fallback {fallback!r} is not a Fallback, None or "
                             f"{AUTO_FALLBACK!r}: read a text with parse_fallback")
        fallback = default_fallback(stored.variant)
    agent = table_agent(Path(run_dir).name, stored.variant, stored.seats, stored.visits,
                        stored.min_visits, stored.sure_wins, fallback,
                        coarse_letters=stored.coarse_letters,
                        fine_classes=stored.fine_classes, locks=stored.locks)
    agent.metadata = stored.metadata
    return agent


class AgentPolicy(os_policy.Policy):
    """An agent as an open_spiel Policy on `robin_wood` states of its variant: the
    history is replayed through the numba core to rebuild what the seat knows.

    `table_decisions` counts the calls a table agent answered and `unlearned` those
    that found no table entry (answered uniformly): a table never plays a situation it
    did not learn without it being counted."""

    def __init__(self, game: pyspiel.Game, agent: Agent):
        super().__init__(game, list(range(game.num_players())))
        variant = getattr(game, "variant", None)
        if variant is None:
            raise AgentError(f"{game} is not a robin_wood game")
        if agent.variant is not None and agent.variant != variant:
            raise AgentError(f"agent {agent.name} was trained on {agent.variant}, not "
                             f"{variant}")
        self.agent = agent
        self.rules = rules_array(variant)
        self._actions = np.empty(k.MAX_LEGAL, dtype=np.int64)
        self._probs = np.empty(k.MAX_LEGAL, dtype=np.float64)
        self.table_decisions = 0
        self.unlearned = 0

    def action_probabilities(self, state, player_id=None):
        player = state.current_player()
        if player_id is not None and player_id != player:
            raise AgentError(f"it is seat {player}'s decision, not seat {player_id}'s")
        history = np.array(state.history(), dtype=np.int64)
        m, entry = ka._replay_probs(self.rules, history, self.agent.player(player),
                                    self._actions, self._probs)
        if entry != ka.NO_TABLE:
            self.table_decisions += 1
            self.unlearned += entry < 0
        return {int(a): float(p) for a, p in zip(self._actions[:m], self._probs[:m])}


def agent_bot(game: pyspiel.Game, player: int, agent: Agent, seed: int = 0) -> pyspiel.Bot:
    """The agent as an OpenSpiel bot for one seat (samples from AgentPolicy)."""
    from open_spiel.python.bots.policy import PolicyBot

    return PolicyBot(player, np.random.RandomState(seed), AgentPolicy(game, agent))

