"""Checks on the paths a command will write, made before any work: a folder under
/proc or /sys, a path through a regular file, a file where a folder is expected, or a
folder that cannot be written (its permissions, or a read-only file system) is refused
with one line naming the option, the path and the problem (click usage errors: exit
status 2). Shared by both command lines, `robinwood` and `python -m robin_des_bois`."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import click

# Kernel file systems: they take no new files (creating one fails late and obscurely).
KERNEL_TREES = ("/proc", "/sys")


def _shown(path) -> str:
    return f"'{os.fsdecode(path)}'"


def _probe(folder: str) -> str | None:
    """Why nothing can be created in the existing `folder`, or None. Root passes
    os.access on read-only permission bits, and nothing but trying finds a read-only
    file system, so a temporary file is created and removed."""
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{_shown(folder)} is not writable (permission denied)"
    try:
        fd, name = tempfile.mkstemp(prefix=".robinwood-write-check-", dir=folder)
    except OSError as e:
        if e.errno == errno.EROFS:
            return f"{_shown(folder)} is on a read-only file system"
        if e.errno in (errno.EACCES, errno.EPERM):
            return f"{_shown(folder)} is not writable (permission denied)"
        return f"nothing can be created in {_shown(folder)} ({e.strerror or e})"
    os.close(fd)
    try:
        os.unlink(name)
    except OSError:
        pass
    return None


def write_problem(path, *, folder: bool = True) -> str | None:
    """Why `path` cannot be written, or None: as a folder that files are written into
    (created with its parents if missing), or, with folder=False, as a file that is
    written (replaced if it exists). Only a temporary file is created, and removed."""
    target = Path(os.fsdecode(path))  # relative stays relative, as the user wrote it
    real = os.path.realpath(target)
    for tree in KERNEL_TREES:
        if real == tree or real.startswith(tree + os.sep):
            return f"{_shown(path)} is under {tree}, the kernel's own files"
    node = target
    while not os.path.lexists(node) and node != node.parent:
        node = node.parent
    if not os.path.lexists(node):  # not even the root: nothing sensible to say
        return None
    if not os.path.exists(node):
        return (f"{_shown(path)} is a link to nothing" if node == target else
                f"{_shown(path)} goes through {_shown(node)}, a link to nothing")
    is_dir = os.path.isdir(node)
    if node == target:
        if folder and not is_dir:
            return f"{_shown(path)} is a file, not a folder"
        if not folder and is_dir:
            return f"{_shown(path)} is a folder, not a file"
        return _probe(str(target if folder else target.parent))
    if not is_dir:
        return f"{_shown(path)} goes through {_shown(node)}, which is a file, not a folder"
    return _probe(str(node))


def check_writable(path, param_hint: str, *, what: str | None = None,
                   fix: str | None = None) -> None:
    """Raise click's BadParameter (one line, exit status 2) if files cannot be written
    into the folder `path`; `what` says where the path came from when the user did not
    type it, `fix` what to do (default: choose another `param_hint`)."""
    problem = write_problem(path)
    if problem is not None:
        where = f" ({what})" if what else ""
        raise click.BadParameter(f"{problem}{where}: {fix or 'choose another ' + param_hint}",
                                 param_hint=f"'{param_hint}'")


class WritableDir(click.Path):
    """A folder the command writes into (created if missing), checked when parsed.

    writes: a file the command writes inside an existing folder (a run directory it
    also reads); then a folder that does not exist is left to the command's own
    loader to refuse, and the file itself is checked.
    """

    def __init__(self, writes: str | None = None):
        super().__init__(file_okay=False)
        self.writes = writes

    def convert(self, value, param, ctx):
        if param is None:
            hint = "the path"
        elif param.param_type_name == "option":
            hint = param.opts[0]
        else:
            hint = param.human_readable_name
        if self.writes is None:
            problem = write_problem(value)
            if problem is not None:
                self.fail(f"{problem}: choose another {hint}", param, ctx)
        elif os.path.isdir(value):
            problem = write_problem(os.path.join(value, self.writes), folder=False)
            if problem is not None:
                self.fail(f"the results go to {hint}/{self.writes}, but {problem}: "
                          f"choose another {hint} (a copy of the run in a folder that "
                          f"can be written)", param, ctx)
        return super().convert(value, param, ctx)
