"""Exact strategy files: the average strategy of a FlatTree with its infoset layout and
the information-state keys (or the observation trie they are rebuilt from), enough to
check the strategy independently of the solver that made it."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from solver.exact.tree import FlatTree
from solver.store import (FORMAT_VERSION, METADATA, StrategyFileError, atomic_savez,
                          atomic_write_bytes, read_metadata)

STRATEGY = "strategy.npz"


def save_strategy(run_dir: str | os.PathLike, tree: FlatTree, strategy: np.ndarray,
                  metadata: dict[str, Any]) -> Path:
    """Write strategy.npz and metadata.json into run_dir (atomically, each)."""
    run_dir = Path(run_dir)
    arrays = {
        "strategy": strategy,
        "infoset_player": tree.infoset_player,
        "infoset_offset": tree.infoset_offset,
        "infoset_num_actions": tree.infoset_num_actions,
        "infoset_actions": tree.infoset_actions,
    }
    arrays.update(_keys_to_arrays(tree))
    atomic_savez(run_dir / STRATEGY, **arrays)
    meta = {"format_version": FORMAT_VERSION, **metadata,
            "tree": {"nodes": tree.num_nodes, "infosets": tree.num_infosets,
                     "action_slots": tree.num_action_slots}}
    atomic_write_bytes(run_dir / METADATA, json.dumps(meta, indent=2).encode())
    return run_dir


def _keys_to_arrays(tree: FlatTree) -> dict[str, np.ndarray]:
    builder = tree.infoset_key
    trie = getattr(builder, "trie_arrays", None)
    if trie is not None:
        return {f"trie_{name}": arr for name, arr in trie().items()}
    return {"keys": np.array(tree.keys(), dtype=object).astype(str)}


class StoredStrategy:
    """A strategy file's contents: the metadata, the per-slot probabilities and the keys."""

    def __init__(self, run_dir: str | os.PathLike):
        self.run_dir = Path(run_dir)
        self.metadata = read_metadata(run_dir)
        path = self.run_dir / STRATEGY
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except FileNotFoundError:
            raise StrategyFileError(f"{path} is missing; solve again") from None
        except Exception as e:  # zipfile.BadZipFile, ValueError, EOFError, ...
            raise StrategyFileError(f"{path} is corrupt ({type(e).__name__}); "
                                    f"solve again or restore it") from None
        try:
            self.strategy = arrays["strategy"]
            self.infoset_player = arrays["infoset_player"]
            self.infoset_offset = arrays["infoset_offset"]
            self.infoset_num_actions = arrays["infoset_num_actions"]
            self.infoset_actions = arrays["infoset_actions"]
        except KeyError as e:
            raise StrategyFileError(f"{path} lacks the array {e.args[0]}; solve again") from None
        self._arrays = arrays
        expected = self.metadata.get("tree", {}).get("infosets")
        if expected is not None and expected != len(self.infoset_player):
            raise StrategyFileError(f"{path} holds {len(self.infoset_player)} infosets but "
                                    f"{METADATA} says {expected}: the files do not belong "
                                    f"together")

    @property
    def num_infosets(self) -> int:
        return len(self.infoset_player)

    def keys(self) -> list[str]:
        if "keys" in self._arrays:
            return [str(k) for k in self._arrays["keys"]]
        from game_def import parse

        from solver.exact.robinwood_tree import KeyBuilder

        trie = {name[len("trie_"):]: arr for name, arr in self._arrays.items()
                if name.startswith("trie_")}
        build = KeyBuilder.from_arrays(parse(self.metadata["variant"]), trie)
        return [build(s) for s in range(self.num_infosets)]

    def probabilities(self, infoset: int) -> dict[int, float]:
        off, k = int(self.infoset_offset[infoset]), int(self.infoset_num_actions[infoset])
        return {int(a): float(p) for a, p in
                zip(self.infoset_actions[off:off + k], self.strategy[off:off + k])}

    def table(self) -> "Mapping[str, dict[int, float]]":
        """Information-state string -> {action: probability}.

        For Robin Wood trees a lookup walks the stored observation trie (no key strings
        are built until someone iterates over the whole table)."""
        if "keys" in self._arrays:
            return {key: self.probabilities(s) for s, key in enumerate(self.keys())}
        return _TrieTable(self)


class _TrieTable(Mapping):
    """A read-only mapping over a stored strategy, keyed through the observation trie."""

    def __init__(self, stored: StoredStrategy):
        from game_def import parse

        from solver.exact.robinwood_tree import TrieIndex

        self._stored = stored
        trie = {name[len("trie_"):]: arr for name, arr in stored._arrays.items()
                if name.startswith("trie_")}
        self._index = TrieIndex(parse(stored.metadata["variant"]), trie)

    def __getitem__(self, key: str) -> dict[int, float]:
        s = self._index.infoset(key)
        if s < 0:
            raise KeyError(key)
        return self._stored.probabilities(s)

    def __contains__(self, key) -> bool:
        return isinstance(key, str) and self._index.infoset(key) >= 0

    def __iter__(self) -> Iterator[str]:
        return iter(self._stored.keys())

    def __len__(self) -> int:
        return self._stored.num_infosets


def load_exact_run(run_dir, two_players: bool = False):
    """(variant, tree, strategy, symmetric) of the strategy `robinwood solve` stored in
    run_dir, its tree rebuilt as it was solved; a missing, corrupt or mismatched
    strategy file (or, with `two_players`, a variant of more players) is a one-line
    StrategyFileError, given before any tree is built."""
    import game_def
    from solver.exact.robinwood_tree import build_robinwood_tree

    stored = StoredStrategy(run_dir)
    try:
        variant = game_def.parse(stored.metadata["variant"])
    except ValueError as e:
        raise StrategyFileError(f"the metadata in {run_dir} names an unplayable variant: "
                                f"{e}") from None
    if two_players and variant.players != 2:
        raise StrategyFileError(f"the strategy in {run_dir} is for {variant}: statistics "
                                f"need a two-player variant")
    symmetric = bool(stored.metadata.get("symmetric"))
    tree = build_robinwood_tree(variant, symmetric=symmetric)
    if tree.num_action_slots != len(stored.strategy):
        raise StrategyFileError(f"the strategy in {run_dir} has {len(stored.strategy)} "
                                f"action slots but the tree of {variant} has "
                                f"{tree.num_action_slots}: was it made by another version?")
    return variant, tree, stored.strategy, symmetric
