"""Containment: a plug-in bot that raises, answers an illegal action or overruns its time is
stopped with a message naming it, its seat plays random from then on, the game goes on to
its end and is flagged. Time is an injected clock the rogue bots move, so nothing sleeps."""

import json
import threading

import pytest

from quarkade import load_game
from quarkade.agents import contained, make_agent
from quarkade.agents.contained import ContainedAgent
from quarkade.core.records import Fault, GameRecord
from quarkade.sim import play_match, run_plan, simulation_plan
from tests import rogues


def contained_bot(spec, game="hadronize", move_time=5.0):
    agent = make_agent(spec, game, move_time=move_time)
    assert isinstance(agent, ContainedAgent)
    agent.clock = rogues.CLOCK  # the rogues' own clock: time passes only when they move it
    agent.poll = 0.001
    return agent


def play_against_random(agent, seed=4):
    game = load_game("hadronize", players=2)
    heard = []
    agent.on_fault = heard.append
    final, record = play_match(game, [agent, make_agent("random", "hadronize")], seed)
    assert final.is_terminal()  # the game went on to its end
    assert record.faults == heard  # told at once, and kept in the record
    return final, record


@pytest.mark.parametrize(("spec", "kind", "move", "what", "detail"), [
    ("raiser:at=3", "raised", 3, "raised ZeroDivisionError",
     "ZeroDivisionError: the bot divided by zero"),
    ("cheater", "illegal", 1, "answered something other than one of its 2 legal actions",
     "answered 1021"),
    ("dawdler", "time", 1, "took 60.00 s, over its 5 s per move (the move was not played)",
     ""),
    ("hanger", "time", 1, "gave no answer within its 5 s per move (stopped)", ""),
])
def test_a_misbehaving_bot_is_stopped_and_its_seat_plays_random(rogue_bots, spec, kind, move,
                                                                 what, detail):
    agent = contained_bot(spec)
    final, record = play_against_random(agent)
    [fault] = record.faults
    assert (fault.seat, fault.agent, fault.kind, fault.move) == (0, spec, kind, move)
    # The sentence anyone may read names no value the bot produced; the detail does.
    assert fault.message == what
    assert fault.sentence(["Rogue bot", "Random bot"]) == (
        f"At its move {move}, Rogue bot {what}; its seat plays random moves from here.")
    assert fault.detail == detail and fault.public().detail == ""
    assert agent.moves == move  # never asked again
    decisions = sum(1 for a in record.actions if a.player == 0)
    assert decisions > move  # the seat went on playing (random)
    again = GameRecord.from_json(record.to_json())
    assert again.faults == record.faults and again.replay().history() == final.history()


def test_a_hung_bot_is_stopped_not_left_spinning(rogue_bots):
    agent = contained_bot("hanger")
    runner = contained._runner()  # the thread the hung move runs in
    play_against_random(agent)
    runner.thread.join(timeout=30)
    assert not runner.thread.is_alive()  # BotStopped ended its loop
    assert contained._runner() is not runner  # later moves get a fresh thread
    steady = contained_bot("steady")
    assert steady.act(_a_turn(), rogues.random.Random(1)) in _a_turn().legal_actions


def test_a_well_behaved_plugin_is_never_flagged(rogue_bots):
    agent = contained_bot("steady")
    _, record = play_against_random(agent)
    assert record.faults == [] and "faults" not in record.to_dict()
    assert agent.moves == sum(1 for a in record.actions if a.player == 0)


@pytest.mark.parametrize("answer", [-1, "3", 3.0, True, None])
def test_anything_but_a_legal_action_id_is_illegal(answer):
    agent = ContainedAgent(type("Odd", (), {"act": lambda self, turn, rng: answer})(), "odd")
    turn = _a_turn()
    played = agent.act(turn, rogues.random.Random(1))
    assert played in turn.legal_actions
    [fault] = agent.faults
    assert fault.kind == "illegal" and fault.detail == f"answered {answer!r}"
    assert repr(answer) not in fault.message


def test_a_bot_calling_exit_is_stopped_too():
    def leave(turn, rng):
        raise SystemExit(3)

    agent = ContainedAgent(type("Leaver", (), {"act": staticmethod(leave)})(), "leaver")
    assert agent.act(_a_turn(), rogues.random.Random(1)) in _a_turn().legal_actions
    assert agent.faults[0].message == "raised SystemExit"
    assert agent.faults[0].detail == "SystemExit: 3"


def test_the_simulator_flags_games_whose_bot_was_stopped(rogue_bots):
    plan = simulation_plan("hadronize", {"players": 2, "goal": 10, "max_turns": 0},
                           ["raiser:at=4", "random"], games=4, seed=2)
    results = run_plan(plan).results
    flagged = [r for r in results if "faults" in r]
    assert len(flagged) == 4  # every game lasts more than four of its moves
    for result in flagged:
        [fault] = result["faults"]
        seat = result["seats"].index("raiser:at=4")
        assert fault == {"seat": seat, "agent": "raiser:at=4", "move": 4, "kind": "raised",
                         "message": fault["message"],
                         "detail": "ZeroDivisionError: the bot divided by zero"}
        assert fault["message"] == "raised ZeroDivisionError"
    again = run_plan(plan).results  # a fault that is not about time repeats exactly
    assert json.dumps(again) == json.dumps(results)


def test_moves_from_several_threads_each_get_their_own_bot_thread(rogue_bots):
    answers = {}

    def play(name):
        agent = contained_bot("steady")
        answers[name] = (agent.act(_a_turn(), rogues.random.Random(1)), contained._runner())

    threads = [threading.Thread(target=play, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert answers[0][1] is not answers[1][1]


def _a_turn():
    from quarkade.core.agent import turn_for
    from quarkade.core.rng import sample_chance

    state = load_game("hadronize", players=2).new_initial_state()
    rng = rogues.random.Random(0)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    return turn_for(state)


def test_a_fault_stored_by_an_older_release_is_said_as_it_was():
    """Records of 0.2 or before keep the whole sentence in ``message``."""
    old = Fault(1, "cheater", 2, "illegal", "bot 'cheater' at seat 1, its move 2: answered "
                "something other than one of its 3 legal actions; seat 1 plays random from here")
    assert old.sentence(["Ann", "Cheater bot"]) == old.message[:1].upper() + old.message[1:] + "."
