"""Every size a user controls has a cap, checked before the work starts.

A typing slip (``--samples 1e10``, ``BJ99999999999:1``, a ``--vary`` product of
4*10^9 cells) must be one error line naming the value and the cap, not an
allocation of terabytes or a run that never ends.  The caps are far past any
real use; each is checked where the input is read, with the caps defined
elsewhere for historical reasons listed too:

=====================================  ===========================================
what                                   cap
=====================================  ===========================================
digits of one number typed             :data:`analyzer.core.numbers.MAX_DIGITS`
decks; cards of one value              ``core.shoe.MAX_DECKS``, ``MAX_COUNT``
simulated rounds                       ``sim.config.MAX_ROUNDS`` (``bja certify``:
                                       :data:`MAX_CHECK_ROUNDS`; Bust It played:
                                       :data:`MAX_PLAYED_ROUNDS`)
a counter's bet spread; round records  ``sim.shoe_study.MAX_SPREAD``, ``MAX_RECORDS``
worker processes or threads            :data:`MAX_JOBS`
seeds                                  :data:`MAX_SEED` (side bets: :data:`MAX_SIDEBET_SEED`)
rows of a comparison (grid cells)      :data:`MAX_GRID_CELLS`
games of an explained comparison       :data:`MAX_EXPLAIN_GAMES`
rules attributed one by one            :data:`MAX_PLAYERS` (2^12 intermediate games)
shoe states analysed (``bja edge``)    :data:`MAX_STATES`
decisions of one shoe-state command    :data:`MAX_DECISIONS`
count-only samples (``bja edge``)      :data:`MAX_COUNT_SAMPLES`
side-bet pays; rule pays; target RTPs  :data:`MAX_PAY`, :data:`MAX_RULE_PAY`,
                                       :data:`MAX_TARGET_RTP`
a distribution's result units          ``engine.dist_blocks.check_units`` (64 bits)
``--split exact`` shoes                ``oracle.exact_dealer.MAX_CARDS``, ``MAX_SUB_SHOES``
a side bet's counter (shoes x cards)    :data:`MAX_SIDEBET_SHOES`, ``sidebets.protection.MAX_DEALT``
simulator histogram width              :data:`MAX_RESULT_BINS`
simulator arrays and sums              ``sim.config.MAX_JOB_BYTES``, 64-bit counters
                                       (``sim.config.check_size``)
input files (charts, pay tables, ...)  :data:`MAX_INPUT_BYTES`, regular files only
TOML nesting                           :data:`MAX_TOML_DEPTH`
=====================================  ===========================================
"""

from __future__ import annotations

MAX_JOBS = 256  # more workers than any machine this runs on has cores
MAX_SEED = 2**128 - 1  # numpy's SeedSequence draws 128 bits of entropy
MAX_SIDEBET_SEED = 2**63 - 1  # the side bets' simulations (a counter, Bust It played)
MAX_SIDEBET_SHOES = 10_000_000  # shoes a side bet's counter is dealt
MAX_PLAYED_ROUNDS = 100_000_000  # Bust It's played reading, simulated
MAX_CHECK_ROUNDS = 10**10  # a certificate's cross-check: a tenth of the simulator's cap
MIN_CHECK_ROUNDS = 1_000  # fewer leave its chi-square no groups of 5 expected rounds to test
MAX_GRID_CELLS = 10_000  # each cell is an exact analysis of a rule set
MAX_EXPLAIN_GAMES = 32  # each explained pair analyses up to 2^players rule sets
MAX_PLAYERS = 12  # 4,096 intermediate games per explained pair (Harsanyi: 3^12 subsets)
MAX_STATES = 10_000  # shoe states analysed exactly, one full analysis each
MAX_COUNT_SAMPLES = 1_000_000  # count-only shoe states: ten counts each, held at once
MAX_DECISIONS = 100  # --decision options of one command: each is analysed on every shoe
MAX_PAY = 10**9  # a side-bet pay, "to 1": a billion to one is past any jackpot
# A rule's pay, "to 1" (BJ, B5C-B7C, B678, B777, SB, BSBJ): ten times a Super Bonus of 1,000 on
# the smallest bet.  The float engine's figures carry about 16 significant digits and print
# nine decimals of a percent: a blackjack paid 10^9:1 printed round EVs of 5 x 10^9 percent
# whose last four digits were not the exact ones (10^5:1, the last one); 10^4:1 keeps them.
MAX_RULE_PAY = 10**4
MAX_TARGET_RTP = 1_000  # a target RTP (1 = 100%)
MAX_RESULT_BINS = 1 << 16  # the simulator's histogram of round results (one per job)
MAX_INPUT_BYTES = 1 << 20  # far above any chart, pay table or grid file
MAX_TOML_DEPTH = 32  # arrays and tables nested; the files the project reads use 3

__all__ = ["MAX_CHECK_ROUNDS", "MAX_COUNT_SAMPLES", "MAX_DECISIONS", "MAX_EXPLAIN_GAMES",
           "MAX_GRID_CELLS", "MAX_INPUT_BYTES", "MAX_JOBS", "MAX_PAY", "MAX_PLAYED_ROUNDS",
           "MAX_PLAYERS", "MAX_RESULT_BINS", "MAX_RULE_PAY", "MAX_SEED", "MAX_SIDEBET_SEED",
           "MAX_SIDEBET_SHOES", "MAX_STATES", "MAX_TARGET_RTP", "MAX_TOML_DEPTH",
           "MIN_CHECK_ROUNDS"]
