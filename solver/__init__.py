"""Equilibrium solvers for Robin Wood rounds (CFR family). See the open issues for scope."""
