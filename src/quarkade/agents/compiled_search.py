"""mcts and ismcts on a compiled engine: the same search as ``search.py``, in numba.

``search.py``'s bots hand their whole search here (``run``, then ``search``) when the game
has a compiled engine (and numba is installed) and their playouts have a compiled form
(``rollout=random`` or ``greedy``, to the end of the game).

The tree lives in arrays, one row a node, children in a list sorted by key. Selection
(UCB1 over the children, with their availability counts), expansion, chance sampling, the
playout and the backup are ``search.py``'s, step for step; only the random draws differ
(the compiled streams). Where nothing is hidden (Hadronize, Card Commons) ``mcts`` and
``ismcts`` walk the same tree. ``ismcts`` on Dead Cat draws the hidden cards again at every
iteration (``dead_cat.compiled.resample``: from what its seat knows only) and keys another
seat's draw by what its seat sees of it (``REDACTED``: one node whatever the card), as
``ISMCTSAgent`` keys by ``action_string_for``. On Decoherence it draws the other seat's
hand, deck, private decklist and face-down nouns (``decoherence.compiled.resample``, what
``knowledge`` deduces respected, the hand's odds taken from the reference at the root),
keys the other seat's draws as one, and its face-down noun plays by chain (one node for
"noun -> chain 2", the noun played drawn uniformly among those it holds, as
``ISMCTSAgent`` does for moves its seat cannot tell apart).

The compiled engines are reached through small dispatchers on a game number (``GAMES``),
not passed as functions: numba cannot keep a function that takes other functions as
arguments in its disk cache. A new compiled game adds a branch to each dispatcher.
"""

from __future__ import annotations

import time

import numpy as np

from quarkade.core.jit import below, copy_into, njit, shared_returns
from quarkade.core.protocol import CHANCE, TERMINAL
from quarkade.games.card_commons import compiled as card_commons
from quarkade.games.dead_cat import compiled as dead_cat
from quarkade.games.decoherence import compiled as decoherence
from quarkade.games.decoherence.notation import CLOSE_BASE as NOUN_END
from quarkade.games.decoherence.notation import NOUN_BASE
from quarkade.games.hadronize import compiled as hadronize

GAMES = {"hadronize": 0, "dead-cat": 1, "card-commons": 2, "decoherence": 3}
MODULES = {"hadronize": hadronize, "dead-cat": dead_cat, "card-commons": card_commons,
           "decoherence": decoherence}
HADRONIZE, DEAD_CAT, CARD_COMMONS, DECOHERENCE = 0, 1, 2, 3
MAX_ACTIONS = max(module.MAX_ACTIONS for module in MODULES.values())

# A node's columns in the tree (``new_tree``); its reward sum is kept apart, as a float.
MOVER, VISITS, AVAILABLE, KEY, FIRST_CHILD, NEXT = range(6)
NO_NODE = -1
REDACTED = -2  # the key of a chance outcome the searching seat does not see


# -- the engines, by game number -------------------------------------------------------------

@njit
def _player(game: int, s: np.ndarray) -> int:
    if game == HADRONIZE:
        return hadronize.current_player(s)
    if game == DEAD_CAT:
        return dead_cat.current_player(s)
    if game == DECOHERENCE:
        return decoherence.current_player(s)
    return card_commons.current_player(s)


@njit
def _legal(game: int, s: np.ndarray, out: np.ndarray) -> int:
    if game == HADRONIZE:
        return hadronize.legal_actions(s, out)
    if game == DEAD_CAT:
        return dead_cat.legal_actions(s, out)
    if game == DECOHERENCE:
        return decoherence.legal_actions(s, out)
    return card_commons.legal_actions(s, out)


@njit
def _sample(game: int, s: np.ndarray, streams: np.ndarray) -> int:
    if game == HADRONIZE:
        return hadronize.sample_chance(s, streams)
    if game == DEAD_CAT:
        return dead_cat.sample_chance(s, streams)
    if game == DECOHERENCE:
        return decoherence.sample_chance(s, streams)
    return card_commons.sample_chance(s, streams)


@njit
def _copy_root(game: int, state: np.ndarray, root: np.ndarray) -> None:
    """``state`` set to the search's root (Decoherence: the part the rules read and the
    proofs; a playout never reads the root's odds, which ``_resample`` takes from it)."""
    if game == DECOHERENCE:
        decoherence.copy_root(state, root)
    else:
        copy_into(state, root)


@njit
def _resample(game: int, s: np.ndarray, seat: int, streams: np.ndarray, root: np.ndarray
              ) -> None:
    """A state ``seat`` cannot tell from ``s`` (a copy of ``root``), drawn in place
    (nothing to do where nothing is hidden)."""
    if game == DEAD_CAT:
        dead_cat.resample(s, seat, streams)
    elif game == DECOHERENCE:
        decoherence.resample(s, seat, streams, 0, root)


@njit
def _chance_key(game: int, s: np.ndarray, seat: int, action: int) -> int:
    """The key of a chance outcome as ``seat`` sees it: another seat's draw is hidden."""
    if game == DEAD_CAT and s[dead_cat.PHASE] == dead_cat.DRAW and s[dead_cat.MOVER] != seat:
        return REDACTED
    if game == DECOHERENCE:
        phase = s[decoherence.PHASE]
        if phase == decoherence.DRAW and s[decoherence.ACTIVE] != seat:
            return REDACTED
        if phase == decoherence.OPENING and s[decoherence.STEP] // 5 != seat:
            return REDACTED
        if phase == decoherence.DECKS_PHASE and not s[decoherence.OPEN_LISTS]:
            return REDACTED  # a random deck: its seat's own draws are still its own
    return action


@njit
def _decision_key(game: int, action: int) -> int:
    """The key of another seat's decision as the searching seat sees it: a face-down noun
    played by the other seat reads only its chain (``noun -> chain 2``)."""
    if game == DECOHERENCE and NOUN_BASE <= action < NOUN_END:
        return action - (action - NOUN_BASE) % 3
    return action


@njit
def _apply(game: int, s: np.ndarray, action: int) -> None:
    if game == HADRONIZE:
        hadronize.apply_action(s, action)
    elif game == DEAD_CAT:
        dead_cat.apply_action(s, action)
    elif game == DECOHERENCE:
        decoherence.apply_action(s, action)
    else:
        card_commons.apply_action(s, action)


@njit
def _candidates(game: int, legal: np.ndarray, count: int) -> int:
    """The game's candidate moves among the ``count`` legal ones, in place, still
    ascending (Card Commons: one discard per inversion, ``candidate_actions``)."""
    if game == CARD_COMMONS:
        return card_commons.candidate_actions(legal, count, legal)
    return count


@njit
def _play_out(game: int, s: np.ndarray, streams: np.ndarray, policies: np.ndarray,
              work: np.ndarray, lines: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                         np.ndarray]) -> int:
    """Play ``s`` to the end with each seat's policy; the winners as a bit mask
    (``lines``: Decoherence's scratch, ``decoherence.compiled.new_scratch``)."""
    if game == HADRONIZE:
        return hadronize.play_one(s, streams, policies)[0]
    if game == DEAD_CAT:
        return dead_cat.play_one(s, streams, policies)[0]
    if game == DECOHERENCE:
        world, rows, moves, frames, values = lines
        return decoherence.play_with(s, streams, policies, world, rows, moves, frames,
                                     values)[0]
    return card_commons.play(s, streams, policies, work[0, :0], work)[0]


# -- the tree ---------------------------------------------------------------------------------

def new_tree(capacity: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty tree for ``capacity`` nodes: its integer columns and its reward sums."""
    tree = np.full((max(2, capacity), 6), NO_NODE, np.int64)
    tree[:, VISITS] = 0
    tree[:, AVAILABLE] = 0
    return tree, np.zeros(max(2, capacity), np.float64)


def grow(tree: np.ndarray, rewards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The same tree with room for twice as many nodes."""
    more, more_rewards = new_tree(2 * len(tree))
    more[:len(tree)] = tree
    more_rewards[:len(rewards)] = rewards
    return more, more_rewards


@njit
def _add_child(tree: np.ndarray, used: int, parent: int, key: int, mover: int) -> int:
    """A new node ``used`` under ``parent``, kept in the children's ascending key order."""
    tree[used, MOVER] = mover
    tree[used, KEY] = key
    tree[used, FIRST_CHILD] = NO_NODE
    previous = NO_NODE
    child = tree[parent, FIRST_CHILD]
    while child != NO_NODE and tree[child, KEY] < key:
        previous, child = child, tree[child, NEXT]
    tree[used, NEXT] = child
    if previous == NO_NODE:
        tree[parent, FIRST_CHILD] = used
    else:
        tree[previous, NEXT] = used
    return used


@njit
def _find_child(tree: np.ndarray, parent: int, key: int) -> int:
    child = tree[parent, FIRST_CHILD]
    while child != NO_NODE and tree[child, KEY] < key:
        child = tree[child, NEXT]
    return child if child != NO_NODE and tree[child, KEY] == key else NO_NODE


@njit
def search(game: int, root: np.ndarray, seat: int, hidden: bool, iterations: int, c: float,
           policy: int, streams: np.ndarray, tree: np.ndarray, rewards: np.ndarray,
           used: int, work: np.ndarray, candidates: bool,
           lines: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
           spread: bool = False) -> int:
    """Run ``iterations`` more iterations from ``root``, where ``seat`` is to move, on the
    tree (``used`` nodes so far, node 0 the root); returns the nodes used.

    As ``MCTSAgent._iterate`` (``ISMCTSAgent._iterate`` when ``hidden``: the root's hidden
    part drawn again first, and chance keyed by what ``seat`` sees): walk down (a sampled
    outcome at a chance node; at a decision, the untried actions first, one of them at
    random, else UCB1 over the children, counting each child's availability), add one
    node, play out with ``policy`` for every seat, and back each seat's reward up the
    path. With ``candidates`` a decision's children are the game's candidate moves only
    (``_candidates``). When ``hidden``, another seat's decisions are keyed as ``seat`` sees
    them (``_decision_key``): moves it cannot tell apart share a node, and the move played
    for it is drawn uniformly among them. With ``spread`` the root spreads its iterations
    evenly over its moves (``estimate._RootSpread``: the first untried, else the least
    tried). The caller leaves room for ``iterations`` more nodes.
    """
    if used == 0:
        tree[0, MOVER] = CHANCE
        tree[0, FIRST_CHILD] = NO_NODE
        used = 1
    players = root[0]
    state = np.zeros_like(root)
    path = np.empty(4096, np.int64)
    legal = np.empty(MAX_ACTIONS, np.int64)
    keys = np.empty(MAX_ACTIONS, np.int64)
    untried = np.empty(MAX_ACTIONS, np.int64)
    values = np.empty(players, np.float64)
    policies = np.full(players, policy, np.int64)
    if game == DECOHERENCE:
        decoherence.seat_policies(policies, policy, seat)
    for _ in range(iterations):
        _copy_root(game, state, root)
        if hidden:
            _resample(game, state, seat, streams, root)
        node = 0
        depth = 0
        path[0] = 0
        expanded = False
        while not expanded:
            player = _player(game, state)
            if player == TERMINAL or depth + 1 >= path.shape[0]:
                break
            if player == CHANCE:
                action = _sample(game, state, streams)
                key = _chance_key(game, state, seat, action) if hidden else action
                child = _find_child(tree, node, key)
                if child == NO_NODE:
                    child = _add_child(tree, used, node, key, CHANCE)
                    used += 1
                    expanded = True
            else:
                count = _legal(game, state, legal)
                if candidates:
                    count = _candidates(game, legal, count)
                if spread and node == 0:
                    action, child, expanded = _spread_choose(tree, node, legal, count, player,
                                                             untried, used)
                elif hidden and player != seat:
                    distinct = _keyed(game, legal, count, keys)
                    key, child, expanded = _choose(tree, rewards, node, keys, distinct,
                                                   player, c, untried, streams, used)
                    action = _one_of(game, key, legal, count, streams, player)
                else:
                    action, child, expanded = _choose(tree, rewards, node, legal, count,
                                                      player, c, untried, streams, used)
                used += expanded
            _apply(game, state, action)
            node = child
            depth += 1
            path[depth] = node
        shared_returns(_play_out(game, state, streams, policies, work, lines), players, values)
        for step in range(depth + 1):
            visited = path[step]
            tree[visited, VISITS] += 1
            mover = tree[visited, MOVER]
            if mover >= 0:
                rewards[visited] += (values[mover] + 1.0) / 2.0
    return used


@njit
def _count_available(tree: np.ndarray, node: int, legal: np.ndarray, count: int,
                     untried: np.ndarray) -> int:
    """Count the availability of ``node``'s children among the ``count`` legal actions and
    write the untried ones into ``untried``; how many there are. Children and legal actions
    both ascend: one merged walk."""
    open_count = 0
    child = tree[node, FIRST_CHILD]
    for i in range(count):
        while child != NO_NODE and tree[child, KEY] < legal[i]:
            child = tree[child, NEXT]
        if child != NO_NODE and tree[child, KEY] == legal[i]:
            tree[child, AVAILABLE] += 1
        else:
            untried[open_count] = legal[i]
            open_count += 1
    return open_count


@njit
def _spread_choose(tree: np.ndarray, node: int, legal: np.ndarray, count: int, player: int,
                   untried: np.ndarray, used: int) -> tuple[int, int, bool]:
    """``_RootSpread._choose``: count the availability of the children there, then add the
    first untried move, or take the least tried (the first of them on a tie)."""
    open_count = _count_available(tree, node, legal, count, untried)
    if open_count:
        added = _add_child(tree, used, node, untried[0], player)
        tree[added, AVAILABLE] = 1
        return untried[0], added, True
    fewest = -1
    best_action = legal[0]
    best_child = NO_NODE
    child = tree[node, FIRST_CHILD]
    for i in range(count):
        while tree[child, KEY] < legal[i]:
            child = tree[child, NEXT]
        if fewest < 0 or tree[child, VISITS] < fewest:
            fewest, best_action, best_child = tree[child, VISITS], legal[i], child
    return best_action, best_child, False


@njit
def _keyed(game: int, legal: np.ndarray, count: int, keys: np.ndarray) -> int:
    """The distinct keys of the ``count`` legal moves into ``keys``, ascending as the moves
    are (a key is never above its move's id, and moves sharing one are neighbours)."""
    distinct = 0
    for i in range(count):
        key = _decision_key(game, legal[i])
        if distinct == 0 or keys[distinct - 1] != key:
            keys[distinct] = key
            distinct += 1
    return distinct


@njit
def _one_of(game: int, key: int, legal: np.ndarray, count: int, streams: np.ndarray,
            player: int) -> int:
    """A legal move with this key, uniformly (``ISMCTSAgent``: ``rng.choice(group)``)."""
    members = 0
    for i in range(count):
        members += _decision_key(game, legal[i]) == key
    if members == 1:
        for i in range(count):
            if _decision_key(game, legal[i]) == key:
                return legal[i]
    pick = below(streams, 1 + player, members)
    for i in range(count):
        if _decision_key(game, legal[i]) == key:
            if pick == 0:
                return legal[i]
            pick -= 1
    return key


@njit
def _choose(tree: np.ndarray, rewards: np.ndarray, node: int, legal: np.ndarray, count: int,
            player: int, c: float, untried: np.ndarray, streams: np.ndarray, used: int
            ) -> tuple[int, int, bool]:
    """``_Search._choose``: count the availability of the children already there, then
    add one of the untried actions at random, or take the UCB1 best; (action, child, added)."""
    open_count = _count_available(tree, node, legal, count, untried)
    if open_count:
        action = untried[below(streams, 1 + player, open_count)]
        added = _add_child(tree, used, node, action, player)
        tree[added, AVAILABLE] = 1
        return action, added, True
    best = -1.0
    best_action = legal[0]
    best_child = NO_NODE
    child = tree[node, FIRST_CHILD]
    for i in range(count):
        while tree[child, KEY] < legal[i]:
            child = tree[child, NEXT]
        visits = tree[child, VISITS]
        score = rewards[child] / visits + c * np.sqrt(np.log(tree[child, AVAILABLE]) / visits)
        if score > best:
            best, best_action, best_child = score, legal[i], child
    return best_action, best_child, False


# -- what search.py calls ------------------------------------------------------------------

def run(game_name: str, root_state: object, seat: int, hidden: bool, turn_actions: list[int],
        iterations: int, seconds: float, clock: object, c: float, rollout: str, rng: object,
        candidates: bool = False, spread: bool = False
        ) -> tuple[int, int, dict[int, tuple[int, float]]]:
    """A whole search from ``root_state`` (a reference state): the action played (the
    most visited root child, then the most rewarded, as ``_Search.act``), the iterations
    run, and each root child's (visits, reward sum).

    Budgets as ``_Search``: ``iterations`` (0: none), ``seconds`` of ``clock`` (0: none),
    whichever runs out first, at least one iteration. The clock is read once to set the
    deadline and then after each batch of iterations: a batch is one iteration unless
    the clock is ``time.perf_counter`` (a clock whose pace is known), when batches grow
    to about a tenth of the time left. With ``spread``, the root's iterations are spread
    evenly over its moves (``estimate_moves``), each tried at least once.
    """
    from quarkade.core import jit

    game = GAMES[game_name]
    module = MODULES[game_name]
    if spread and iterations:
        iterations = max(iterations, len(turn_actions))
    root = module.to_compiled(root_state)
    if game == DECOHERENCE and hidden:
        decoherence.with_odds(root, root_state, seat)  # type: ignore[arg-type]
    lines = decoherence.search_scratch(game == DECOHERENCE and rollout != "random")
    streams = np.zeros(root[0] + 1, np.uint64)
    jit.seed_streams(streams, rng.getrandbits(62))  # type: ignore[attr-defined]
    policy = getattr(module, "ROLLOUTS", module.AGENTS)[rollout]
    work = card_commons.new_work() if game == CARD_COMMONS else np.zeros((1, 1), np.int64)
    tree, rewards = new_tree(iterations + 2 if iterations else 4096)
    now = clock
    deadline = now() + seconds if seconds else 0.0  # type: ignore[operator]
    measured = now is time.perf_counter
    done = used = 0
    batch = iterations if iterations and not seconds else 1
    previous = deadline - seconds
    while True:
        if iterations:
            batch = min(batch, iterations - done)
        while used + batch + 1 > len(tree):
            tree, rewards = grow(tree, rewards)
        used = search(game, root, seat, hidden, batch, c, policy, streams, tree, rewards, used,
                      work, candidates, lines, spread)
        done += batch
        if spread and done < len(turn_actions):
            continue  # every move is tried once whatever the budget
        if iterations and done >= iterations:
            break
        if seconds:
            reading = now()  # type: ignore[operator]
            if reading >= deadline:
                break
            if measured:
                each = max((reading - previous) / batch, 1e-7)
                batch = max(1, min(4 * batch, int((deadline - reading) / each / 10)))
            previous = reading
    children = {}
    child = tree[0, FIRST_CHILD]
    while child != NO_NODE:
        children[int(tree[child, KEY])] = (int(tree[child, VISITS]), float(rewards[child]))
        child = tree[child, NEXT]
    best = max(turn_actions, key=lambda a: children.get(a, (-1, 0.0)))
    return best, done, children



def warm_up() -> None:
    """Compile (or load from the disk cache) the search: one small search of each kind
    (the search is one compiled function whatever the game; ``quarkade compile``)."""
    import random

    from quarkade.core.registry import load_game

    for name in GAMES:
        state = load_game(name).new_initial_state()
        rng = random.Random(0)
        while state.current_player() < 0:
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        legal = state.legal_actions()
        hidden = not state.game.perfect_information
        rollouts = ["random", "greedy", *(["lines"] if name == "decoherence" else [])]
        for rollout in rollouts:
            run(name, state, state.current_player(), hidden, legal, 2, 0.0, time.perf_counter,
                1.4, rollout, rng)
        run(name, state, state.current_player(), hidden, legal, 2, 0.0, time.perf_counter,
            1.4, "random", rng, spread=True)
