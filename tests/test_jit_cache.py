"""The numba cache under concurrent imports and source changes (common.jit, through its
two users game_def._jit and robin_des_bois._jit).

Each test copies game_def and common (the one project package game_def imports) into a
temporary project root and runs fresh interpreters on it, so the cache, the sources and
the processes are all the test's own. A cold run compiles the core in a few seconds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numba
import pytest
from numba.core import caching

import common
import game_def
from common import jit as common_jit
from game_def import _jit

PACKAGE = Path(game_def.__file__).resolve().parent
COMMON = Path(common.__file__).resolve().parent

# Imports game_def, optionally waits for a line on stdin, plays one random round through
# OpenSpiel (so the kernels compile or load) and prints one JSON line: where game_def
# came from, the cache directory _jit chose, the cache hits/misses of the kernels and
# the directories numba caches them in ("None": not cached) and the class saving them.
PLAY = r"""
import json, random, sys
import numba, pyspiel
import game_def
from game_def import _jit
if "--wait" in sys.argv:
    print("imported", flush=True)
    sys.stdin.readline()
game = game_def.load_game("rspx:max_turns=4")
rng = random.Random(0)
state = game.new_initial_state()
while not state.is_terminal():
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))
kernels = {id(obj): obj for name, mod in list(sys.modules.items())
           if name.split(".")[0] == "game_def" for obj in vars(mod).values()
           if isinstance(obj, numba.core.registry.CPUDispatcher)}.values()
print(json.dumps(dict(
    file=game_def.__file__,
    cache_dir=None if _jit.CACHE_DIR is None else str(_jit.CACHE_DIR),
    hits=sum(sum(k.stats.cache_hits.values()) for k in kernels),
    misses=sum(sum(k.stats.cache_misses.values()) for k in kernels),
    cache_paths=sorted({str(k._cache.cache_path) for k in kernels}),
    cache_files=sorted({type(getattr(k._cache, "_cache_file", None)).__name__
                        for k in kernels}),
    returns=state.returns())))
"""

IMPORT = r"""
import json
from game_def import _jit
print(json.dumps(dict(cache_dir=None if _jit.CACHE_DIR is None else str(_jit.CACHE_DIR))))
"""


def _project(root: Path) -> Path:
    """A copy of game_def and common under `root`, without any compiled or cached file."""
    for package in (PACKAGE, COMMON):
        shutil.copytree(package, root / package.name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    return root


def _change_source(root: Path, mark: str) -> None:
    with open(root / "game_def" / "_core.py", "a") as f:
        f.write(f"# {mark}\n")


def _env(root: Path, cache_home: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(PYTHONPATH=str(root), XDG_CACHE_HOME=str(cache_home), HOME=str(cache_home))
    env.update(extra)
    return env


def _start(root: Path, env: dict, code: str = PLAY, *args: str, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code, *args], cwd=root, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **popen)


def _finish(proc: subprocess.Popen, stdin: str | None = None) -> dict:
    out, err = proc.communicate(stdin, timeout=600)
    assert proc.returncode == 0, err
    assert "Traceback" not in err, err
    return json.loads(out.strip().splitlines()[-1])


def _run(root: Path, env: dict, code: str = PLAY, **popen) -> dict:
    return _finish(_start(root, env, code, **popen))


def _snapshot(directory: Path) -> dict:
    """Every file under `directory` with its size and mtime: what "untouched" means."""
    return {str(p.relative_to(directory)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in directory.rglob("*") if p.is_file()}


def _assert_played(result: dict, root: Path) -> None:
    assert Path(result["file"]).resolve() == (root / "game_def" / "__init__.py").resolve()
    if result["cache_dir"] is not None:  # every kernel in the digest's directory
        assert all(Path(path).parent == Path(result["cache_dir"])
                   for path in result["cache_paths"]), result["cache_paths"]
    assert len(result["returns"]) == 2  # a terminal state of the two-player variant


def test_two_processes_importing_at_once_after_a_source_change(tmp_path):
    root = _project(tmp_path / "proj")
    env = _env(root, tmp_path / "home")
    before = _run(root, env)  # a cache of the unchanged sources, as a user would have
    old_dir = root / ".numba-cache" / _jit._sources_digest(root)
    assert before["cache_dir"] == str(old_dir) and before["misses"] > 0
    old_files = _snapshot(old_dir)
    assert any(name.endswith(".nbi") for name in old_files)

    _change_source(root, "a source change")
    new_dir = root / ".numba-cache" / _jit._sources_digest(root)
    assert new_dir != old_dir
    first, second = _start(root, env), _start(root, env)  # both import at once
    results = [_finish(first), _finish(second)]
    for result in results:
        _assert_played(result, root)
        assert result["cache_dir"] == str(new_dir)
        if common_jit.LOCKING:
            assert result["cache_files"] == ["LockedIndexDataCacheFile"]
        # nothing stale was loaded: the new digest's cache started empty, so every
        # kernel either compiled here or came from the other process's fresh write
        assert result["misses"] + result["hits"] > 0
    assert sum(result["misses"] for result in results) > 0

    new_files = _snapshot(new_dir)
    assert any(name.endswith(".nbi") for name in new_files)
    assert any(name.endswith(".nbc") for name in new_files)
    assert not [name for name in new_files if ".tmp." in name]  # renames all completed
    assert _snapshot(old_dir) == old_files  # the other digest's cache was left alone
    assert not list((root / "game_def").rglob("*.nb[ic]"))  # nothing beside the sources

    third = _run(root, env)
    _assert_played(third, root)
    assert third["cache_dir"] == str(new_dir)
    assert third["misses"] == 0 and third["hits"] > 0  # loaded, not recompiled
    assert _snapshot(new_dir) == new_files  # and wrote nothing


def test_a_process_keeps_its_cache_while_another_runs_changed_sources(tmp_path):
    root = _project(tmp_path / "proj")
    env = _env(root, tmp_path / "home")
    first_dir = Path(_run(root, env)["cache_dir"])
    first_files = _snapshot(first_dir)

    waiting = _start(root, env, PLAY, "--wait")  # imports the first sources, then waits
    assert waiting.stdout.readline().strip() == "imported"
    _change_source(root, "a second source change")
    changed = _run(root, env)
    _assert_played(changed, root)
    assert changed["cache_dir"] != str(first_dir)
    assert changed["misses"] > 0  # the changed sources never load the first kernels
    assert _snapshot(first_dir) == first_files

    # The waiting process now plays on the first sources: all its kernels load from the
    # first directory although the changed sources compiled meanwhile. (Under the old
    # scheme, deleting every cache file when the sources changed, they would recompile.)
    result = _finish(waiting, "\n")
    _assert_played(result, root)
    assert result["cache_dir"] == str(first_dir)
    assert result["misses"] == 0 and result["hits"] > 0
    assert _snapshot(first_dir) == first_files


def test_user_cache_dir_and_cleanup_of_unused_digests(tmp_path):
    root = _project(tmp_path / "proj")
    cache = root / ".numba-cache"
    week = 7 * 24 * 3600
    stale, recent, other = cache / ("a" * 40), cache / ("b" * 40), cache / "not-a-digest"
    for directory in (stale, recent, other):
        (directory / "sub").mkdir(parents=True)
        (directory / "sub" / "k.nbi").write_bytes(b"x")
    for directory, age in ((stale, week + 3600), (recent, week - 3600), (other, 2 * week)):
        os.utime(directory, (time.time() - age,) * 2)

    result = _run(root, _env(root, tmp_path / "home"), IMPORT)
    assert result["cache_dir"] == str(cache / _jit._sources_digest(root))
    assert not stale.exists()
    assert recent.exists() and other.exists()

    user = tmp_path / "user-cache"
    result = _run(root, _env(root, tmp_path / "home", NUMBA_CACHE_DIR=str(user)), IMPORT)
    assert result["cache_dir"] == str(user / f"robinwood-{_jit._sources_digest(root)}")


def test_digest_covers_subpackages(tmp_path):
    root = _project(tmp_path / "proj")
    digest = _jit._sources_digest(root)
    (root / "solver" / "exact").mkdir(parents=True)
    (root / "solver" / "exact" / "kernels.py").write_text("x = 1\n")
    assert _jit._sources_digest(root) != digest
    (root / "solver" / "exact" / "__pycache__").mkdir()
    with_sub = _jit._sources_digest(root)
    (root / "solver" / "exact" / "__pycache__" / "junk.py").write_text("y = 2\n")
    assert _jit._sources_digest(root) == with_sub


def _read_only(paths: list[Path]) -> list[str]:
    """Make `paths` read-only for the processes started with the returned argv prefix.
    Root ignores permissions, so as root they are bind-mounted read-only in a private
    mount namespace of that process (skipped where this is not permitted)."""
    if os.geteuid() != 0:
        for path in paths:
            for directory in [path, *[p for p in path.rglob("*") if p.is_dir()]]:
                directory.chmod(0o555)
        return []
    mounts = " && ".join(f'mount --bind "{p}" "{p}" && mount -o remount,bind,ro "{p}" "{p}"'
                         for p in paths)
    prefix = ["unshare", "--mount", "sh", "-c", f'{mounts} && exec "$@"', "sh"]
    try:
        probe = subprocess.run([*prefix, "touch", str(paths[0] / "probe")],
                               capture_output=True, text=True, timeout=60)
    except OSError:
        pytest.skip("running as root without unshare: cannot make a read-only tree")
    if probe.returncode == 0 or "Read-only" not in probe.stderr:
        pytest.skip(f"running as root and no read-only bind mount: {probe.stderr.strip()}")
    return prefix


@pytest.mark.parametrize("user_cache_writable", [True, False])
def test_read_only_install_still_plays(tmp_path, user_cache_writable):
    root = _project(tmp_path / "proj")
    home = tmp_path / "home"
    home.mkdir()
    prefix = _read_only([root] if user_cache_writable else [root, home])
    try:
        proc = subprocess.Popen([*prefix, sys.executable, "-c", PLAY], cwd=root,
                                env=_env(root, home), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        result = _finish(proc)
    finally:
        for directory in [tmp_path, *[p for p in tmp_path.rglob("*") if p.is_dir()]]:
            directory.chmod(0o755)
    _assert_played(result, root)
    assert not (root / ".numba-cache").exists()
    assert not list(root.rglob("*.nb[ic]"))
    if user_cache_writable:  # the user-wide cache, still keyed by the digest
        expected = home / "numba" / f"robinwood-{_jit._sources_digest(root)}"
        assert result["cache_dir"] == str(expected)
        assert list(expected.rglob("*.nbi"))
    else:  # nowhere to write: compiled in memory
        assert result["cache_dir"] is None
        assert result["cache_paths"] == ["None"] and result["hits"] == 0



# ----- the index lock: two processes saving overloads of one cached kernel at once ------
# A kernel package of the test's own, decorated by common.jit as both games do.
KERNEL = '''
from pathlib import Path
from common.jit import CachedJit

jit = CachedJit(Path(__file__).resolve().parent.parent, ("kern",), "kern-")


@jit
def double(x):
    return x + x
'''

# Imports the kernel, says "ready", waits for a line on stdin (so that both savers start
# at once), then compiles one overload per numpy type named in argv[3]; each compile
# saves an index entry and a data file. numba's read-modify-write of the index is
# widened by a pause of argv[2] seconds after each read, so that two unlocked savers
# surely overlap. argv[1] == "unlocked" plants the bug: the lock taken out of save.
SAVER = r"""
import json, sys, time
import numpy as np
from numba.core import caching
import common.jit as cj
mode, window, types = sys.argv[1], float(sys.argv[2]), sys.argv[3].split(",")
if mode == "unlocked":
    cj.LockedIndexDataCacheFile.save = caching.IndexDataCacheFile.save
read = caching.IndexDataCacheFile._load_index
def slow_read(self):
    overloads = read(self)
    time.sleep(window)
    return overloads
caching.IndexDataCacheFile._load_index = slow_read
from kern.kernel import double
print("ready", flush=True)
sys.stdin.readline()
for name in types:
    double(getattr(np, name)(3))
print(json.dumps(dict(cache_file=type(double._cache._cache_file).__name__,
                      misses=sum(double.stats.cache_misses.values()))))
"""

# A third process: every overload the savers compiled must load from the cache (no
# compile) and compute its own signature's result.
READER = r"""
import json, sys
import numpy as np
from kern.kernel import double
results = {name: double(getattr(np, name)(3)) for name in sys.argv[1].split(",")}
print(json.dumps(dict(hits=sum(double.stats.cache_hits.values()),
                      misses=sum(double.stats.cache_misses.values()),
                      results={k: [type(v).__name__, str(v)] for k, v in results.items()})))
"""

SAVER_TYPES = ("int8,int16,int32,int64,float32,float64",
               "uint8,uint16,uint32,uint64,complex64,complex128")


def _kernel_project(root: Path) -> Path:
    shutil.copytree(COMMON, root / "common", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "kern").mkdir()
    (root / "kern" / "__init__.py").write_text("")
    (root / "kern" / "kernel.py").write_text(KERNEL)
    return root


def _save_at_once(tmp_path: Path, mode: str, window: float = 0.3) -> dict:
    """Two savers at once, then the reader, in fresh interpreters on one cache folder."""
    root = _kernel_project(tmp_path / "proj")
    env = _env(root, tmp_path / "home", NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    savers = [_start(root, env, SAVER, mode, str(window), types) for types in SAVER_TYPES]
    for saver in savers:
        assert saver.stdout.readline().strip() == "ready", saver.stderr.read()
    for saver in savers:
        saver.stdin.write("go\n")
        saver.stdin.flush()
    saved = [_finish(saver) for saver in savers]
    assert [s["misses"] for s in saved] == [6, 6]  # each compiled (and saved) its six
    read = _finish(_start(root, env, READER, ",".join(SAVER_TYPES)))
    return dict(saved=saved, read=read)


def _lost(result: dict) -> list[str]:
    """The saved overloads the reader did not load whole: a lost index entry recompiles
    (a miss), an entry naming another overload's data computes the wrong kind of number."""
    kinds = {"int": "int", "uint": "int", "float": "float", "complex": "complex"}
    lost = [name for name, (kind, value) in result["read"]["results"].items()
            if kind != kinds[name.rstrip("0123456789")] or complex(value) != 6]
    if result["read"]["misses"]:
        lost.append(f"{result['read']['misses']} overloads recompiled")
    return lost


@pytest.mark.skipif(not common_jit.LOCKING, reason="no fcntl: numba's unlocked saving")
def test_two_processes_saving_overloads_of_one_kernel_keep_its_index_whole(tmp_path):
    """Catches the lock's removal from LockedIndexDataCacheFile.save (or robin_des_bois
    building its jit without it, as it did): with the read-modify-write of the index
    widened, two savers then lose entries and number two overloads' data alike."""
    result = _save_at_once(tmp_path, "locked")
    assert [s["cache_file"] for s in result["saved"]] == ["LockedIndexDataCacheFile"] * 2
    assert _lost(result) == []
    assert result["read"]["hits"] == 12


@pytest.mark.skipif(not common_jit.LOCKING, reason="no fcntl: numba's unlocked saving")
def test_without_the_lock_the_same_saves_lose_overloads(tmp_path):
    """The test above can fail: the same two savers with the lock taken out lose
    overloads (why the lock exists), so a lock that stopped working would be seen."""
    assert _lost(_save_at_once(tmp_path, "unlocked")) != []


@pytest.mark.skipif(not common_jit.LOCKING, reason="no fcntl: numba's unlocked saving")
def test_the_index_lock_is_held_while_the_index_is_written(tmp_path, monkeypatch):
    """Catches a save that no longer takes the lock (the flock call removed or made
    shared): while the index is written, another open file of the lock cannot take it."""
    import fcntl

    cache_file = common_jit.LockedIndexDataCacheFile(str(tmp_path), "kernel", "stamp")
    seen = []
    write = caching.IndexDataCacheFile._save_index

    def probing_write(self, overloads):
        with open(self._index_path + ".lock", "ab") as other:
            try:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
                seen.append("free")
            except BlockingIOError:
                seen.append("held")
        write(self, overloads)

    monkeypatch.setattr(caching.IndexDataCacheFile, "_save_index", probing_write)
    cache_file.save(("a",), "data of a")
    cache_file.save(("b",), "data of b")
    assert seen == ["held", "held"]
    reader = caching.IndexDataCacheFile(str(tmp_path), "kernel", "stamp")
    assert [reader.load(("a",)), reader.load(("b",))] == ["data of a", "data of b"]


def test_robin_des_bois_kernels_use_the_shared_locked_jit():
    """Catches robin_des_bois compiling without common.jit (its old copy had no lock,
    and parallel sweep workers compile its kernels at once), in a directory not keyed
    by its digest, or leaving numba's cache setting changed for game_def's kernels."""
    from robin_des_bois import _core as rdb_core
    from robin_des_bois import _jit as rdb_jit

    kernels = [obj for obj in vars(rdb_core).values()
               if isinstance(obj, numba.core.registry.CPUDispatcher)]
    assert len(kernels) > 5
    if rdb_jit.CACHE_DIR is not None:
        assert rdb_jit.CACHE_DIR.name == f"robin_des_bois-{rdb_jit._sources_digest()}"
        assert {Path(k._cache.cache_path).parent for k in kernels} == {rdb_jit.CACHE_DIR}
        if common_jit.LOCKING:
            assert {type(k._cache._cache_file) for k in kernels} == {
                common_jit.LockedIndexDataCacheFile}
    expected = str(_jit.CACHE_DIR) if _jit.CACHE_DIR is not None else numba.config.CACHE_DIR
    assert numba.config.CACHE_DIR == expected  # game_def's, untouched
