"""Exact side-bet par sheets for any pay table and any shoe (full, Spanish or depleted decks).

The bets (:mod:`~analyzer.sidebets.bets`): 21+3, Hot 3, Any Pair, Bust It, Perfect
Pairs, Lucky Ladies, Royal Match, Match the Dealer, Lucky Lucky, Buster Blackjack,
21+3 XTreme, 21+3 Classic, Super Sevens, Over/Under 13, King's Bounty, Bet the Set.
Counting (:mod:`~analyzer.sidebets.outcomes` and one module per family of bets) is
kept apart from pricing (:mod:`~analyzer.sidebets.paytable`, whose shipped tables
live in ``paytables/``, and :mod:`~analyzer.sidebets.stats`), so one count serves
every pay table a lab wants to compare; :mod:`~analyzer.sidebets.protection` asks
whether a card counter can beat each one.
"""
