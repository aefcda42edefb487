"""Each game's observation encoding (``encode.py``): fixed size, values in [0, 1], built from
a view alone, each slice saying what docs/RESEARCH.md says it does."""

import random
import re
from pathlib import Path

import pytest

import quarkade
from quarkade import SPECTATOR
from quarkade.adapters import encoding
from quarkade.agents.registry import game_agents, make_agent
from quarkade.core.agent import turn_for
from quarkade.core.rng import random_playout, sample_chance
from tests.adapters.cases import CASES, IDS

RESEARCH = Path(__file__).parents[2] / "docs" / "RESEARCH.md"


def part(values, coding, name):
    """The slice ``name`` of an encoded view."""
    at = 0
    for slice_name, length in coding.slices:
        if slice_name == name:
            return values[at:at + length]
        at += length
    raise KeyError(name)


def states_along(game, seed):
    """Every state of one random game, in order."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state.clone()
    while not state.is_terminal():
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
        yield state.clone()


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_every_view_encodes_to_the_fixed_size_in_the_unit_interval(name, options):
    game = quarkade.load_game(name, **options)
    coding = encoding(game)
    assert coding.size == sum(length for _, length in coding.slices)
    assert len({slice_name for slice_name, _ in coding.slices}) == len(coding.slices)
    for seed in range(3):
        for state in states_along(game, seed):
            for seat in [*range(game.num_players), SPECTATOR]:
                values = coding.encode(state.view(seat))
                assert len(values) == coding.size
                assert all(type(v) is float and 0.0 <= v <= 1.0 for v in values)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_games_stay_within_the_decision_bound(name, options):
    game = quarkade.load_game(name, **options)
    bound = encoding(game).max_decisions
    if bound is None:
        assert name == "hadronize" and not options.get("max_turns")
        return
    for seed in range(4):
        final = random_playout(game.new_initial_state(), random.Random(seed))
        assert sum(1 for _ in _decisions(game, final.history())) <= bound
    # Bots play longer, more deliberate games than random moves: one of those too.
    agents = [make_agent("greedy" if "greedy" in game_agents(name) else "random", name)
              for _ in range(game.num_players)]
    rng = random.Random(0)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        turn = turn_for(state)
        state.apply_action(agents[turn.player].act(turn, rng))
        decisions += 1
    assert decisions <= bound


def test_a_hadronize_turn_cap_bounds_the_decisions():
    game = quarkade.load_game("hadronize", players=3, max_turns=7)
    assert encoding(game).max_decisions == 7
    final = random_playout(game.new_initial_state(), random.Random(1))
    assert sum(1 for _ in _decisions(game, final.history())) <= 7


def test_hadronize_counts_seats_from_the_viewer():
    game = quarkade.load_game("hadronize", players=3)
    coding = encoding(game)
    state = next(s for s in states_along(game, 5) if s.current_player() >= 0)
    for seat in range(3):
        view = state.view(seat)
        values = coding.encode(view)
        chambers = part(values, coding, "chambers")
        own = [min(c / 12, 1.0) for c in view["chambers"][seat]]
        following = [min(c / 12, 1.0) for c in view["chambers"][(seat + 1) % 3]]
        assert chambers[:6] == own and chambers[6:12] == following
        active = part(values, coding, "active")
        assert active[(view["active"] - seat) % 3] == 1.0 and sum(active) == 1.0
        assert sum(part(values, coding, "superposition")) == 3.0  # awaiting its observer


def test_dead_cat_shows_a_peeked_card_to_its_peeker_only():
    game = quarkade.load_game("dead-cat", players=3)
    coding = encoding(game)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])  # the die roll: seat 0 starts
    state.apply_action(state.string_to_action("peek"))
    state.apply_action(state.string_to_action("draw dead"))
    width = 3 + 3  # drawn, alive, dead, then the peeker per seat
    for seat in range(3):
        deck = part(coding.encode(state.view(seat)), coding, "time_deck")
        bottom = deck[:width]
        assert bottom[0] == 1.0  # a card lies there
        assert bottom[3 + (0 - seat) % 3] == 1.0  # seat 0 peeked it
        assert bottom[1:3] == ([0.0, 1.0] if seat == 0 else [0.0, 0.0])
        assert not any(deck[width:])


def test_card_commons_marks_the_viewers_cards_on_the_field():
    game = quarkade.load_game("card-commons")
    coding = encoding(game)
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("opener 1"))
    state.apply_action(state.string_to_action("3D b2"))  # level 3, red, seat 1's
    cell = 5  # b2
    for seat in (0, 1):
        values = coding.encode(state.view(seat))
        card = part(values, coding, "field_top")[cell * 10:(cell + 1) * 10]
        assert card[:2] == [1.0, 1.0]  # present, face up
        assert card[2:8] == [0.0, 0.0, 1.0, 0.0, 0.0, 0.0]  # level 3
        assert card[8] == 1.0  # red
        assert card[9] == (1.0 if seat == 1 else 0.0)  # the viewer's own card
        assert part(values, coding, "seat") == ([1.0, 0.0] if seat == 0 else [0.0, 1.0])
        hands = part(values, coding, "hands")
        assert sum(hands[:12]) == (12 if seat == 0 else 11)  # the viewer's hand first


def test_decoherence_shows_a_seat_its_own_hand_and_nobody_elses():
    game = quarkade.load_game("decoherence")
    coding = encoding(game)
    state = next(s for s in states_along(game, 3) if s.view(0)["phase"] == "play")
    for seat in (0, 1):
        view = state.view(seat)
        hand = part(coding.encode(view), coding, "hand")
        assert sum(hand) * 4 == pytest.approx(len(view["hand"]))
    spectator = coding.encode(state.view(SPECTATOR))
    assert not any(part(spectator, coding, "hand"))
    assert not any(part(spectator, coding, "decklists"))


@pytest.mark.parametrize("name", quarkade.list_games())
def test_research_doc_names_every_slice(name):
    text = RESEARCH.read_text(encoding="utf-8")
    title = quarkade.core.game_class(name).title
    section = re.search(rf"^### {title}\n(.*?)(?=^### |^## |\Z)", text, re.S | re.M)
    assert section, f"docs/RESEARCH.md has no section '### {title}'"
    game = quarkade.load_game(name)
    for slice_name, _ in encoding(game).slices:
        assert f"`{slice_name}`" in section.group(1), f"{title}: slice {slice_name} undocumented"


def _decisions(game, history):
    state = game.new_initial_state()
    for action in history:
        if not state.is_chance_node():
            yield action
        state.apply_action(action)


def test_decoherence_encodes_a_random_deck_while_it_is_being_drawn():
    game = quarkade.load_game("decoherence", deck0="random")
    coding = encoding(game)
    state = game.new_initial_state()
    assert not any(part(coding.encode(state.view(0)), coding, "decklists")[:12])
    state.apply_action(state.legal_actions()[-1])  # seat 0's verbs; no qualifiers yet
    view = state.view(0)
    assert "|  |" in view["decklists"][0]  # the list so far: verbs only
    values = coding.encode(view)
    verbs = part(values, coding, "decklists")[:5]
    assert sum(verbs) * 4 == 10 and not any(part(values, coding, "decklists")[5:12])
    assert part(values, coding, "decklists_known") == [1.0, 0.0]
