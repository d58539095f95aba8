"""What both card games and the command lines share, at the bottom of the layering
(docs/architecture.md): it imports no other package of the project, so `game_def`,
`robin_des_bois` and everything above may use it.

- `common.jit`: a numba `jit` decorator whose on-disk cache is keyed by a digest of
  the sources it compiles, and whose index updates are locked between processes;
- `common.stats`: the Wilson interval of a binomial proportion;
- `common.paths`: checks that an output folder can be written, made before any work.

Nothing is imported here, so using one module does not import numba or click.
"""
