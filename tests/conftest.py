"""Test-wide setup: keep the on-disk memo of ``bja ev`` in a temporary folder, and send the
default run's heaviest cases to the slow run."""

from __future__ import annotations

from pathlib import Path

import pytest

# The heaviest cases of the default run (each measured at 3 s or more on 2 cores), run
# under ``-m slow`` instead so that the default run stays near three minutes.  Each test
# named here keeps a lighter case in the default run (another rule set, shoe or
# parameter of the same test), or is a regression check the slow run repeats; CI runs
# both.  A name here that matches no collected test fails the run, so the list cannot
# drift from the tests it names.
HEAVY = frozenset({
    "tests/test_readme.py::test_python_block_runs[README.md:190]",
    "tests/test_api_results.py::test_to_dict_is_the_cli_json[ev-exact-game]",
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
})


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects: the list is checked whole
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    found = {item.nodeid for item in items}
    # Checked where whole files were collected (not when a test is named by its node id).
    files = set() if any("::" in arg for arg in config.args) else {
        nodeid.split("::")[0] for nodeid in found}
    missing = sorted(n for n in HEAVY if n.split("::")[0] in files and n not in found)
    if missing:
        raise pytest.UsageError("tests/conftest.py HEAVY names no collected test: "
                                + ", ".join(missing))
    for item in items:
        if item.nodeid in HEAVY:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.getbasetemp() / "bja-cache"
    monkeypatch.setenv("BJA_CACHE_DIR", str(folder))
    return folder
