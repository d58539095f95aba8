"""The output-path checks of the command line (robinwood/cli.py): one implementation,
in common.paths, shared with `python -m robin_des_bois` (which may not import robinwood);
re-exported here under the names the command line uses."""

from common.paths import KERNEL_TREES, WritableDir, check_writable, write_problem  # noqa: F401
