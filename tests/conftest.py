"""Test-wide setup: keep the on-disk memo of ``bja ev`` in a temporary folder, and send the
default run's heaviest cases to the slow run."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.register_assert_rewrite("tests.distribution_checks")  # its asserts explain themselves

# The heaviest cases of the default run (``benchmarks/bench_tests.py`` lists them), run
# under ``-m slow`` instead so that the default run stays short (issue 26: at most three
# minutes on two cores).  Each test named here keeps a lighter case in the default run
# (another rule set, shoe or parameter of the same test), or is a regression check the
# slow run repeats; CI runs both.  An entry ending in ``*`` names every case whose id
# starts with it.  A name here that matches no collected test fails the run, so the list
# cannot drift from the tests it names.
HEAVY = frozenset({
    "tests/test_readme.py::test_python_block_runs[README.md:*",  # the README's one block
    "tests/test_api_results.py::test_to_dict_is_the_cli_json[counts]",
    "tests/test_api_results.py::test_to_dict_is_the_cli_json[distribution]",
    "tests/test_oracle_agreement.py::test_round_ev_without_splits"
    "[1D H17 D10 NDAS NSPL LS-16 cards]",
    "tests/test_oracle_agreement.py::test_round_ev_without_splits"
    "[1D S17 DOA NDAS NSPL NS-16 cards]",
    "tests/test_threads.py::test_threads_give_the_figures_of_an_analysis_alone",
    "tests/test_player_wins.py::test_round_and_every_two_card_hand_equal_the_oracle[BJW]",
    "tests/test_split_exactness.py::test_farmer_splits_are_exact[1D S17 DOA DAS SPL3 NS]",
    "tests/test_oracle_seed_rules.py::test_round_and_every_two_card_hand[CH5]",
    "tests/test_oracle_seed_rules.py::test_round_and_every_two_card_hand[P22]",
    "tests/test_oracle_seed_rules.py::test_round_and_every_two_card_hand[A21]",
    "tests/test_oracle_seed_rules.py::test_round_and_every_two_card_hand[PEEKA-OBO]",
    "tests/test_progress.py::test_a_bar_with_an_eta_on_a_terminal_and_none_in_json[ev --exact]",
    "tests/test_progress.py::test_a_bar_with_an_eta_on_a_terminal_and_none_in_json[simulate]",
    "tests/test_progress.py::test_a_bar_with_an_eta_on_a_terminal_and_none_in_json[eor]",
    "tests/test_one_card_removed.py::test_one_card_removed_identity[1D H17 D10 NDAS NSPL ES ENHC]",
    "tests/test_spots.py::test_exact_covariance_is_the_brute_force[ENHC-OBO]",
    "tests/test_spots.py::test_exact_covariance_is_the_brute_force[split-DAS-LS]",
    "tests/test_exact_splits.py::test_whole_round_against_card_by_card_simulation[case4]",
    "tests/test_exact_splits.py::test_whole_round_against_card_by_card_simulation[case5]",
    "tests/test_oracle_selfcheck.py::test_card_by_card_round_matches_belief_level[rules3-counts3]",
    "tests/test_oracle_selfcheck.py::test_card_by_card_round_matches_belief_level[rules8-counts8]",
    "tests/test_oracle_selfcheck.py::test_unsplit_hands_match_farmer_one_deck[1-cards2-expected2]",
    "tests/test_oracle_selfcheck.py::test_hole_card_drawn_first_or_last_agree[rules1-counts1]",
    "tests/test_oracle_selfcheck.py::test_hole_card_drawn_first_or_last_agree[rules4-counts4]",
    "tests/test_sidebets_oracle.py::test_bust_it_matches_oracle[1deck-removed-H17]",
    "tests/test_sidebets_oracle.py::test_bust_it_matches_oracle[1deck-removed-S17]",
    "tests/test_sidebets_oracle.py::test_hand_bets_match_oracle"
    "[1deck-21+3-options0-21+3/standard]",
    "tests/test_shoestate_eor.py::test_zero_sum_identity_fixed_strategy"
    "[1D H17 DOA NDAS NSPL NS ENHC]",
    "tests/test_engine_invariants.py::test_upcards_in_forked_processes_give_the_same_bits[True]",
    "tests/test_errors.py::test_ctrl_c_at_any_import_after_the_entry_point_is_one_line[module]",
    # the next heaviest, once the oracles count in GMP rationals
    "tests/test_oracle_agreement.py::test_every_two_card_hand[1D S17 DOA NDAS NSPL NS]",
    "tests/test_oracle_agreement.py::test_every_two_card_hand[1D H17 D10 NDAS NSPL LS]",
    "tests/test_oracle_agreement.py::test_every_two_card_hand[1D S17 DOA NDAS NSPL ES BJ6:5]",
    "tests/test_oracle_agreement.py::test_round_ev_without_splits"
    "[1D H17 DOA NDAS NSPL LS ENHC-16 cards]",
    "tests/test_api_results.py::test_to_dict_is_the_cli_json[eor]",
    "tests/test_api_results.py::test_to_dict_is_the_cli_json[simulate]",
    "tests/test_api_results.py::test_to_dict_is_the_cli_json[grid]",
    "tests/test_api_results.py::test_to_dict_is_the_cli_json[edge]",
    "tests/test_oracle_selfcheck.py::test_card_by_card_round_matches_belief_level[rules7-counts7]",
    "tests/test_oracle_selfcheck.py::test_card_by_card_round_matches_belief_level[rules0-counts0]",
    "tests/test_oracle_selfcheck.py::test_card_by_card_round_matches_belief_level[rules4-counts4]",
    "tests/test_oracle_selfcheck.py::test_card_by_card_round_matches_belief_level[rules1-counts1]",
    "tests/test_oracle_selfcheck.py::test_card_by_card_round_matches_belief_level[rules2-counts2]",
    "tests/test_double_any.py::test_round_and_every_hand_equal_the_oracle[RD3-DDR]",
    "tests/test_sidebets_oracle.py::test_hand_bets_match_oracle[1deck-21+3-options1-21+3/wrap]",
    "tests/test_sidebets_oracle.py::test_buster_matches_oracle[1deck-removed-S17]",
    "tests/test_sidebets_oracle.py::test_buster_matches_oracle[1deck-removed-H17]",
    "tests/test_oracle_seed_rules.py::test_round_and_every_two_card_hand[LS-SNA]",
    "tests/test_fast_paths.py::test_frozen_hit_policy_is_decide_for_every_hand"
    "[1D H17 DOA NDAS NSPL LS ENHC-shoe2-True]",
    "tests/test_fast_paths.py::test_a_lone_hand_has_the_values_it_has_among_all_hands"
    "[1D H17 DOA NDAS SPL1 LS-shoe4-True]",
    "tests/test_memo.py::test_a_damaged_entry_gives_the_no_cache_figures[eor-swap]",
    "tests/test_sidebets_oracle.py::test_bust_it_matches_oracle[depleted-removed-S17]",
    "tests/test_exact_splits.py::test_whole_round_against_card_by_card_simulation[case3]",
    "tests/test_exact_splits.py::test_whole_round_against_card_by_card_simulation[case8]",
    "tests/test_spanish21_published.py::test_single_rule_effects_round_to_the_published_ones"
    "[S17- HSA- NHSA-published1-precision1]",
    "tests/test_spanish21_published.py::test_single_rule_effects_round_to_the_published_ones"
    "[H17- HSA- NHSA-published2-precision2]",
    "tests/test_oracle_selfcheck.py::test_hole_card_drawn_first_or_last_agree[rules3-counts3]",
    "tests/test_oracle_selfcheck.py::test_hole_card_drawn_first_or_last_agree[rules0-counts0]",
    "tests/test_sidebets_oracle.py::test_new_hand_bets_match_oracle[1deck-perfect-pairs]",
    "tests/test_double_any.py::test_the_simulator_agrees_with_the_exact_ev[NDAS-FD-CH6]",
    "tests/test_infinite.py::test_every_rule_converges[6D S17 DOA DAS SPL3 LS ENHC]",
    "tests/test_infinite.py::test_every_rule_converges[6D H17 DOA DAS SPL3 RSA HSA ES]",
    "tests/test_simulate.py::test_simulation_agrees_with_the_exact_ev[privilege]",
    "tests/test_simulate.py::test_simulation_agrees_with_the_exact_ev[classic-6d]",
    "tests/test_simulate.py::test_simulation_agrees_with_the_exact_ev[four-jacks]",
    "tests/test_kernel.py::test_the_cli_gives_the_same_figures_with_either_kernel[cdp]",
    "tests/test_kernel.py::test_the_cli_gives_the_same_figures_with_either_kernel[optimal]",
    "tests/test_sidebets_protection.py::test_effects_of_removal_eight_decks[buster-blackjack]",
    "tests/test_sidebets_protection.py::test_simulator_agrees_with_the_exact_return_off_the_top"
    "[bust-it]",
    "tests/test_wrong_figures.py::test_a_chart_row_the_rules_never_use_is_refused"
    "[6D NSA-<lambda>-never split aces]",
    "tests/test_wrong_figures.py::test_a_chart_row_the_rules_never_use_is_refused"
    "[6D-<lambda>-free splits]",
    "tests/test_progress.py::test_a_bar_with_an_eta_on_a_terminal_and_none_in_json[distribution]",
    "tests/test_spanish21_published.py::test_house_edges_round_to_the_published_ones[key0]",
    "tests/test_spanish_decks.py::test_a_full_deck_figure_changes_only_where_sp_is_given"
    "[6D H17 LS]",
    "tests/test_player_wins.py::test_the_distribution_mean_is_the_ev"
    "[1D H17 DOA DAS SPL1 LS ENHC BJW P21W]",
    "tests/test_sidebets_protection.py::test_effects_of_removal_are_exact[depleted-*",
    # 2026-12-06: the default run had grown to 236 s with the new rules' tests; the next
    # heaviest cases, each beside a sibling that stays (the simulator cross-checks that
    # run two processes beside a default exact oracle of the same rules)
    "tests/test_postsplit_rules.py::test_cdp1_equals_the_oracle_as_fractions[plain]",
    "tests/test_sim_suits.py::test_the_simulator_meets_the_exact_ev_played_by_suits_and_by_ranks",
    "analyzer/api/studies.py::analyzer.api.studies.certify",
    "tests/test_distribution_suits.py::test_floats_agree_with_the_fractions",
    "tests/test_web_browser.py::test_shoe_page_removes_cards",
    "tests/test_fixed_strategy_rules.py::test_one_card_removed_identity"
    "[1D H17 DOA DAS SPL1 NS DAN DDR P21W B5C=3:2]",
    "tests/test_charts_doubling_rules.py::test_the_simulator_playing_the_chart_meets_its_exact_ev*",
    "tests/test_fixed_strategy_rules.py::"
    "test_the_simulator_meets_the_exact_ev_of_another_shoes_optimum",
    "tests/test_spots.py::test_exact_covariance_is_the_brute_force[card-bonuses]",
    "tests/test_exact_type.py::test_every_exact_job_hands_out_fractions[eor]",
    "tests/test_exact_type.py::test_every_exact_job_hands_out_fractions[distribution]",
    "tests/test_sidebets_oracle.py::test_hand_bets_match_oracle[1deck-21+3-options2-21+3/ace-low]",
    "tests/test_distribution_suits.py::test_two_simulated_spots_play_and_are_paid_by_suits[spec0]",
    "tests/test_postsplit_rules.py::test_the_levels_order_on_spanish21[spanish21]",
    "tests/test_distribution_suits.py::test_more_split_hands_and_stakes_against_the_oracle"
    "[2-hands2]",
    "tests/test_distribution_doubling_rules.py::test_the_mean_is_the_exact_ev"
    "[1D S17 DOA DAS SPL1 LS RD2]",
    "tests/test_index_page.py::test_the_index_renders_in_chromium_without_overflow[1280]",
    "tests/test_sidebets_protection.py::test_simulator_agrees_with_the_exact_return_off_the_top"
    "[buster-blackjack]",
    "tests/test_sidebets_protection.py::test_simulator_agrees_with_the_exact_return_off_the_top"
    "[match-the-dealer]",
    "tests/test_sidebets_protection.py::test_effects_of_removal_are_exact[1deck-match-the-dealer]",
    "tests/test_sidebets_protection.py::test_effects_of_removal_are_exact[1deck-lucky-lucky]",
    "tests/test_sidebets_protection.py::test_effects_of_removal_are_exact[1deck-bust-it]",
    "tests/test_web_api.py::test_api_is_the_cli_json[chart-5]",
    "tests/test_api_results.py::test_cli_text_is_the_result_text",
    "tests/test_oracle_agreement.py::test_round_ev_without_splits"
    "[1D S17 DOA NDAS NSPL ES BJ6:5-16 cards]",
    "tests/test_engine_invariants.py::"
    "test_bja_hand_marks_early_surrender_best_where_the_engine_makes_it[INF H17 DOA DAS SPL3 ES]",
    "tests/test_oracle_selfcheck.py::test_split_round_matches_every_deck_order"
    "[rules6-10-2-None-rest6]",
    # the engine's EV under suit bonuses stays checked against the distribution oracle
    # (tests/test_distribution_suits.py); the rule-effect frame against compare's
    "tests/test_suit_bonus.py::test_round_equals_the_oracle",
    "tests/test_api_results.py::test_effects_frame",
    # session 57: the default run at 165-189 s here, 207 s in CI on a slow day; the
    # heaviest cases left that have a sibling in the default run
    "tests/test_spots.py::test_exact_covariance_is_the_brute_force[BJW]",
    "tests/test_kernel.py::test_pair_residues_is_the_modular_sum[sizes1]",
    "tests/test_engine_invariants.py::"
    "test_bja_hand_marks_early_surrender_best_where_the_engine_makes_it[6D S17 DOA DAS SPL3 ES]",
    "tests/test_distribution_doubling_rules.py::"
    "test_the_brute_force_oracle_gives_the_same_fractions[DAN-DDR]",
    "tests/test_oracle_selfcheck.py::test_card_by_card_round_matches_belief_level[rules6-counts6]",
    "tests/test_memo.py::test_tasks_run_in_other_processes_in_order_and_raise_at_their_turn[0]",
    "tests/test_kernel.py::test_joint_fill_residues_is_the_modular_sum[3000]",
    "tests/test_api_results.py::test_no_numpy_scalar_in_a_result[counts]",
    "tests/test_exact_splits.py::test_whole_round_against_card_by_card_simulation[case2]",
    "tests/test_api_results.py::test_no_numpy_scalar_in_a_result[eor]",
})


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects: the list is checked whole
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    found = {item.nodeid for item in items}
    # Checked where whole files were collected (not when a test is named by its node id).
    files = set() if any("::" in arg for arg in config.args) else {
        nodeid.split("::")[0] for nodeid in found}
    missing = sorted(n for n in HEAVY if n.split("::")[0] in files
                     and not any(_names(n, nodeid) for nodeid in found))
    if missing:
        raise pytest.UsageError("tests/conftest.py HEAVY names no collected test: "
                                + ", ".join(missing))
    for item in items:
        if any(_names(n, item.nodeid) for n in HEAVY):
            item.add_marker(pytest.mark.slow)


def _names(entry: str, nodeid: str) -> bool:
    """A HEAVY entry names a test by its node id, or every case whose id starts with it
    when it ends in ``*`` (a group of parameters: ``test_x[depleted-*``)."""
    return nodeid.startswith(entry[:-1]) if entry.endswith("*") else nodeid == entry


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.getbasetemp() / "bja-cache"
    monkeypatch.setenv("BJA_CACHE_DIR", str(folder))
    return folder
