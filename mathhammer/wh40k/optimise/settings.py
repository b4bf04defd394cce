"""The optimiser's defaults, in a module that loads nothing numeric (the command tree reads
them before numpy is needed)."""

DEFAULT_OPTIMISE_TRIALS = 20_000
"""Monte Carlo trials per plan when plans cannot be scored exactly (a first pass uses an
eighth of them)."""
