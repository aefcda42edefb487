"""Dead Cat's tutorial: its rulebook map (seed 004_40da6d2f15ae9db5.txt) and its lessons.

Lesson -> rules taught (``tests/games/test_lessons.py`` checks that every rule below is
taught and that every id a lesson names is in the map):

===============  =========================================================================
lesson           rules
===============  =========================================================================
peek             DC.box, DC.first, DC.dice, DC.peek, DC.bet
announce         DC.announce, DC.score
same-number      DC.tie_announcer
no-dead-cat      DC.highest
lower-wins       DC.tie_lower
box-runs-out     DC.new_round, DC.box_out, DC.tie_cubes
last-cube        DC.end
final            a real game against ``easy``
===============  =========================================================================

The learner is seat 0 of two. Every card drawn is a chance action in the setup, so each
position is played through the protocol; the learner sees only the cards it peeked.
"""

from __future__ import annotations

from quarkade.core.lessons import Lesson, Rule, Task, Trap, Tutorial

SEED = "004_40da6d2f15ae9db5.txt"

RULES = (
    Rule("DC.box", "The box",
         "Each round shuffles four alive cats and one dead cat per player; as many cards as "
         "there are players are set aside unseen, and the rest is the box.",
         "004 Components, Set Up"),
    Rule("DC.first", "Who begins",
         "A die roll picks the player who takes the first turn of the game.",
         "004 First Player"),
    Rule("DC.dice", "Bets on dice",
         "Every player's die is their bet, in plain view, and it is set to 1 when a round "
         "begins.", "004 Set Up"),
    Rule("DC.peek", "Peeking",
         "On your turn you may take the top card of the box, look at it without showing "
         "anyone, and lay it face down on the time deck.", "004 A. Take a Peek"),
    Rule("DC.bet", "Changing your bet",
         "After a peek you must turn your die to a different number, 1 to 6.",
         "004 A. Take a Peek"),
    Rule("DC.announce", "Announcing",
         "Instead of peeking you may call Dead Cat: the time deck is turned over from the "
         "top until a dead cat shows, and the die nearest to the number of cards turned, "
         "the dead cat included, wins the round.", "004 B. Announce Dead Cat"),
    Rule("DC.highest", "No dead cat",
         "If the whole time deck turns over without a dead cat, the highest die wins the "
         "round.", "004 B. Announce Dead Cat"),
    Rule("DC.box_out", "The box runs out",
         "Whoever draws the box's last card still turns their die; then the time deck is "
         "turned over as if someone had announced.", "004 The Box Deck Runs Out"),
    Rule("DC.score", "Cubes",
         "The winner of a round takes a scoring cube.", "004 Scoring"),
    Rule("DC.tie_announcer", "Ties: the announcer",
         "If the winning number shows on several dice and one of them is the announcer's, "
         "the announcer wins.", "004 Tiebreaker"),
    Rule("DC.tie_cubes", "Ties: fewer cubes",
         "A tie between players who did not announce goes to the one with fewer cubes; "
         "with equal cubes each of them scores.", "004 Tiebreaker"),
    Rule("DC.tie_lower", "Ties: the lower number",
         "When two different numbers are equally near the count, the lower number wins.",
         "004 Tiebreaker"),
    Rule("DC.new_round", "A new round",
         "After scoring all cards are shuffled into a new box, every die goes back to 1, "
         "and the player to the right of the last round's first player begins.",
         "004 Set Up a New Round"),
    Rule("DC.end", "The end",
         "The first to collect four cubes wins; players who reach four together share the "
         "win.", "004 End of the Game"),
)


def _peek(card: str, bet: int) -> tuple[str, ...]:
    """The seat to move peeks, the box gives ``card`` and it bets ``bet``."""
    return ("peek", f"draw {card}", f"bet {bet}")


def _round_won_by(winner: int, starter: int) -> tuple[str, ...]:
    """A two-seat round: both peek an alive cat, the winner bets 6 and the other 2, and
    the starter announces: no dead cat turns up, so the 6 wins."""
    second = 1 - starter
    return (*_peek("alive", 6 if starter == winner else 2),
            *_peek("alive", 6 if second == winner else 2), "announce")


# Rounds alternate starters (seat 0, 1, 0, ... after "first 0"): you win three, they win two.
THREE_CUBES_TO_TWO = ("first 0", *_round_won_by(0, 0), *_round_won_by(1, 1),
                      *_round_won_by(0, 0), *_round_won_by(1, 1), *_round_won_by(0, 0))

LESSONS = (
    Lesson(
        key="peek",
        title="Peek and bet",
        teaches=("DC.box", "DC.first", "DC.dice", "DC.peek", "DC.bet"),
        intro=("Somewhere in the box a cat has died. The box holds eight alive cats and two "
               "dead ones, minus two cards set aside that nobody will see. Each of you has a "
               "die showing 1: it is your bet on where the first dead cat lies in the time "
               "deck. The die roll says you begin."),
        setup=("first 0",),
        tasks=(
            Task(
                say="Peek at the top card of the box.",
                goal=("peek",),
                rule="DC.peek",
                why=("Announcing now would end the round before anyone has seen a card; "
                     "this lesson is about peeking."),
                then=("draw dead",),
                done=("A dead cat! Only you saw it. It lies face down on the time deck, "
                      "which is empty apart from it."),
            ),
            Task(
                say=("Bet: your opponent will peek next and lay a card on top of yours, so "
                     "your dead cat will most likely be second from the top. Turn your die "
                     "to 2."),
                goal=("bet 2",),
                rule="DC.announce",
                why=("The die nearest to the count of cards turned over, up to the first "
                     "dead cat, wins; after your opponent's peek your cat should be second."),
                traps=(
                    Trap("bet 1", "DC.bet",
                         "Your die already shows 1, and a peek obliges you to change it."),
                ),
                then=_peek("alive", 5),
                done=("Your die shows 2. Your opponent peeked too (you cannot see their "
                      "card) and turned their die to 5."),
            ),
        ),
    ),
    Lesson(
        key="announce",
        title="Call Dead Cat",
        teaches=("DC.announce", "DC.score"),
        intro=("Where the last lesson stopped: your dead cat lies under your opponent's "
               "card, your die shows 2 and theirs 5."),
        setup=("first 0", *_peek("dead", 2), *_peek("alive", 5)),
        tasks=(
            Task(
                say="Call Dead Cat: announce.",
                goal=("announce",),
                rule="DC.bet",
                why=("Peeking again would make you turn your die away from 2 and bury your "
                     "dead cat one card deeper."),
                done=("Turned over from the top: alive, then your dead cat, a count of 2. "
                      "Your 2 is nearest, so you take a cube."),
            ),
        ),
    ),
    Lesson(
        key="same-number",
        title="A tie on the same number",
        teaches=("DC.tie_announcer",),
        intro=("You saw a dead cat and bet 3; your opponent peeked and bet 3 as well. If the "
               "count comes to 2 or 4, both dice are equally near."),
        setup=("first 0", *_peek("dead", 3), *_peek("alive", 3)),
        tasks=(
            Task(
                say="Announce: on a tie of the same number the announcer wins.",
                goal=("announce",),
                rule="DC.tie_announcer",
                why=("If you peek, your opponent may announce next, and then the tie on 3 "
                     "would be theirs."),
                done=("The count was 2: both dice show 3, one away. You announced, so the "
                      "cube is yours."),
            ),
        ),
    ),
    Lesson(
        key="no-dead-cat",
        title="When no dead cat turns up",
        teaches=("DC.highest",),
        intro=("If the time deck is turned over to the end without a dead cat, the dead "
               "cat is still in the box (or set aside), and the highest die wins."),
        setup=("first 0", "peek", "draw alive"),
        tasks=(
            Task(
                say="You saw an alive cat. Bet 6: if no dead cat turns up, the highest die wins.",
                goal=("bet 6",),
                rule="DC.highest",
                why="With no dead cat found, only the highest die wins; 6 is the highest.",
                then=_peek("alive", 3),
                done="Your die shows 6. Your opponent peeked and bet 3.",
            ),
            Task(
                say="Announce now.",
                goal=("announce",),
                rule="DC.highest",
                why=("Another peek would force your die off 6, the number that wins when no "
                     "dead cat shows."),
                done=("Alive and alive: no dead cat in the time deck, so the highest die, "
                      "your 6, takes the cube."),
            ),
        ),
    ),
    Lesson(
        key="lower-wins",
        title="Equally near: the lower number",
        teaches=("DC.tie_lower",),
        intro=("Your first peek found a dead cat; since then four cards lie on the time "
               "deck and yours is the bottom one, fourth from the top. Your die shows 3, "
               "your opponent's 5."),
        setup=("first 0", *_peek("dead", 4), *_peek("alive", 2), *_peek("alive", 3),
               *_peek("alive", 5)),
        tasks=(
            Task(
                say=("Announce: if the count is 4, your 3 and their 5 are equally near, and "
                     "then the lower number wins."),
                goal=("announce",),
                rule="DC.tie_lower",
                why=("Announce now: with the count at 4 the tie between 3 and 5 goes to the "
                     "lower number, yours."),
                done="A count of 4: 3 and 5 are both one away, and the lower 3 wins.",
            ),
        ),
    ),
    Lesson(
        key="box-runs-out",
        title="The box runs out",
        teaches=("DC.new_round", "DC.box_out", "DC.tie_cubes"),
        intro=("Your opponent won round 1 and has a cube. For round 2 the cards were "
               "shuffled into a new box, both dice went back to 1, and the first turn "
               "passed to the right, to your opponent. Seven cards have been peeked since, "
               "and you just drew the box's last card: a dead cat, now on top of the time "
               "deck. Your opponent's die shows 1."),
        setup=("first 0", *_round_won_by(1, 0), *_peek("alive", 3), *_peek("alive", 4),
               *_peek("alive", 5), *_peek("alive", 3), *_peek("alive", 2), *_peek("alive", 5),
               *_peek("alive", 1), "peek", "draw dead"),
        tasks=(
            Task(
                say=("Bet 1. After your bet the time deck is turned over as if someone had "
                     "announced, and the count stops at 1. Nobody announced, so a tie goes "
                     "to the player with fewer cubes: you."),
                goal=("bet 1",),
                rule="DC.tie_cubes",
                why=("The count will be 1, and your opponent's die already shows 1; only a "
                     "tie on 1 wins for you, through your fewer cubes."),
                done=("A count of 1: both dice show 1. Nobody announced, and you have fewer "
                      "cubes, so the cube is yours (with equal cubes you would both score)."),
            ),
        ),
    ),
    Lesson(
        key="last-cube",
        title="The fourth cube",
        teaches=("DC.end",),
        intro=("You have three cubes, your opponent two. In this round your dead cat lies "
               "second from the top, your die shows 2 and theirs 5."),
        setup=(*THREE_CUBES_TO_TWO, *_peek("alive", 4), *_peek("dead", 2),
               *_peek("alive", 5)),
        tasks=(
            Task(
                say="Win the game: announce.",
                goal=("announce",),
                rule="DC.end",
                why=("One more cube wins the game, and announcing now wins this round; a "
                     "peek would move your die off 2."),
                done="Your fourth cube: you win the game.",
            ),
        ),
    ),
    Lesson(
        key="final",
        title="A real game",
        teaches=("DC.end",),
        intro="Now a whole game against the easy bot: first to four cubes wins.",
        final=True,
    ),
)

# Pieces of the engine's refusals, and the rule each one quotes.
REFUSALS = (
    ("already shows", "DC.bet"),
    ("turn its die", "DC.bet"),
    ("must peek before anyone announces", "DC.peek"),
    ("must peek or announce", "DC.peek"),
)

TUTORIAL = Tutorial(game="dead-cat", seeds=(SEED,), rules=RULES, lessons=LESSONS,
                    refusals=REFUSALS)
