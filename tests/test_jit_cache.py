"""The numba cache under concurrent imports and source changes (game_def._jit).

Each test copies game_def (self-contained: it imports no other project package) into a
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

import pytest
from numba.core import caching

import game_def
from game_def import _jit

PACKAGE = Path(game_def.__file__).resolve().parent

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
    """A copy of game_def under `root`, without any compiled or cached file."""
    shutil.copytree(PACKAGE, root / "game_def",
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
        if _jit.fcntl is not None:
            assert result["cache_files"] == ["_LockedIndexDataCacheFile"]
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


# Two processes save many overloads of one kernel into one index at once, each its own
# keys; afterwards every key must be in the index and name its own data.
SAVE = r"""
import sys
from numba.core import caching
from game_def import _jit
cls = _jit._LockedIndexDataCacheFile if sys.argv[1] == "locked" else caching.IndexDataCacheFile
cache_file = cls(sys.argv[2], "kernel", "stamp")
for i in range(int(sys.argv[4])):
    cache_file.save((sys.argv[3], i), (sys.argv[3], i))
"""


def _concurrent_saves(tmp_path: Path, kind: str, count: int) -> int:
    """How many of the two processes' saved keys are lost or name the wrong data."""
    cache = tmp_path / kind
    cache.mkdir()
    env = _env(PACKAGE.parent, tmp_path / "home")
    procs = [subprocess.Popen([sys.executable, "-c", SAVE, kind, str(cache), name, str(count)],
                              cwd=PACKAGE.parent, env=env) for name in ("a", "b")]
    assert [proc.wait(timeout=600) for proc in procs] == [0, 0]
    reader = caching.IndexDataCacheFile(str(cache), "kernel", "stamp")
    keys = [(name, i) for name in ("a", "b") for i in range(count)]
    return sum(reader.load(key) != key for key in keys)


@pytest.mark.skipif(_jit.fcntl is None, reason="no fcntl: numba's unlocked saving")
def test_concurrent_saves_of_one_kernel_keep_the_index_whole(tmp_path):
    assert _concurrent_saves(tmp_path, "locked", 150) == 0
