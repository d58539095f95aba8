"""Scripted players that play on their own information only: the league (docs/bots.md).
Kernels only, behind `solver.scripted.kernels`; `solver.players` makes them agents
(names, parameters, OpenSpiel bots), and Monte Carlo CFR can train against them. Below
both in the layering, so that training can play them without an import cycle.
"""
