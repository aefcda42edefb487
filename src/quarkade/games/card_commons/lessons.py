"""Card Commons' tutorial: its rulebook map (seed 002_8b86745f2dc15b3d.txt) and its lessons.

Lesson -> rules taught (``tests/games/test_lessons.py`` checks that every rule below is
taught and that every id a lesson names is in the map):

==============  ==========================================================================
lesson          rules
==============  ==========================================================================
open            C.cards, C.open_hands, C.field, C.opening
law             C.law, C.face_down, C.channel
invert          C.invert
tunnel          C.abilities, C.tunnel
repel           C.repel
anchor          C.anchor
polarize        C.polarize, C.face_down
pass            C.pass, C.score
tutorial-game   C.tutorial
torus           C.torus
final           a real game against ``easy``
==============  ==========================================================================

The learner is seat 0 (hearts and spades, below the field). Most lessons start from the
rulebook's worked example (RULINGS C-1 to C-7), reached by legal play.
"""

from __future__ import annotations

from quarkade.core.lessons import ANY, Lesson, Rule, Task, Trap, Tutorial

SEED = "002_8b86745f2dc15b3d.txt"

RULES = (
    Rule("C.cards", "The cards",
         "Each of you holds twelve cards, Ace to 6 in two suits: you hearts and spades, "
         "your opponent diamonds and clubs. Red cards carry a plus charge, black a minus "
         "one, and the rank is the level (the Ace is 1).", "002 Cards"),
    Rule("C.open_hands", "Open hands",
         "Both hands are face up: each of you always knows all the other's cards.",
         "002 Starting hand"),
    Rule("C.field", "Your side of the field",
         "The field is a 4 by 4 grid. Your own side is the two rows farther from you: every "
         "card that lands there fills one of your cells.", "002 Setup"),
    Rule("C.opening", "The opening",
         "The opener lays a card of level 2 to 5 (never an Ace or a 6) in one of the four "
         "centre cells; then the other player moves first and turns alternate.",
         "002 Play 1, How this version differs"),
    Rule("C.law", "The Fundamental Law",
         "A card you place is compared with the top card on each cell directly beside it: "
         "beside a black card it must be lower, beside a red card higher.", "002 Play 2"),
    Rule("C.face_down", "Face-down cards",
         "A face-down card has no level and no charge: the Law ignores it and it cannot be "
         "inverted, though it still fills its cell.", "002 Play 2, Card abilities"),
    Rule("C.channel", "Channel",
         "Put a card on an empty cell directly above, below, left or right of a card on the "
         "field; the Law is the only limit on its level.", "002 Play 3"),
    Rule("C.invert", "Invert",
         "Put a card on a lone face-up card of the same level and the other colour, obeying "
         "the Law towards its neighbours, and throw away one other card from your hand. "
         "Two cards make a full stack.", "002 Play 4, How this version differs"),
    Rule("C.abilities", "Abilities",
         "Cards of level 2, 3, 4 and 5 each have an ability of their own.", "002 Play 5"),
    Rule("C.tunnel", "2: Tunnel",
         "A 2 may also be channelled to an empty cell that touches a card only by a corner.",
         "002 Card abilities"),
    Rule("C.repel", "3: Repel",
         "Once a 3 is placed you may push one card or stack next to it one cell straight "
         "away from it, onto an empty cell; the pushed cards ignore the Law.",
         "002 Card abilities"),
    Rule("C.anchor", "4: Anchor",
         "A 4 placed on a corner cell may disregard the Law with one of its neighbours.",
         "002 Card abilities"),
    Rule("C.polarize", "5: Polarize",
         "Once a 5 is placed you may turn it, or a card next to it, face down.",
         "002 Card abilities"),
    Rule("C.pass", "Passing",
         "You may pass instead of placing, and must when you cannot place. Two passes in a "
         "row end the game.", "002 Play 6"),
    Rule("C.score", "Who wins",
         "At the end count the empty cells on your own side: more wins. If level, fewer "
         "cards on your own side wins (a stack counts two); if still level, the opener "
         "wins.", "002 Scoring, Goal"),
    Rule("C.tutorial", "The Tutorial game",
         "In this variant there are no abilities and no passing: whoever cannot place a "
         "card on their turn loses.", "002 Variants"),
    Rule("C.torus", "The torus field",
         "In this variant the field wraps around, left edge to right and top to bottom, "
         "and the Law works across the edges.", "002 Variants"),
)

# The rulebook's worked example (seed 002, Examples): seat 0 to move with 5♣ on b2, the 3♦
# face down on c2, the 2♥ on d3 and the 4♦ on c3.
EXAMPLE = ("opener 1", "3D c2", "pass", "5C b2", "polarize c2", "2H d3", "4D c3")
# Seat 0's hand in the example: everything but the 2♥.
EXAMPLE_HAND = ("AH", "3H", "4H", "5H", "6H", "AS", "2S", "3S", "4S", "5S", "6S")

OPENINGS = tuple(f"{rank}{suit} {cell}" for rank in "2345" for suit in "HS"
                 for cell in ("b2", "c2"))

LESSONS = (
    Lesson(
        key="open",
        title="Open the field",
        teaches=("C.cards", "C.open_hands", "C.field", "C.opening"),
        intro=("You hold hearts and spades, Ace to 6; your opponent holds diamonds and "
               "clubs, and both hands lie face up. Red is a plus charge, black a minus one. "
               "You sit below the field, so your own side is the top two rows (3 and 4): "
               "you want them to stay empty. The coin says you open."),
        setup=("opener 0",),
        tasks=(
            Task(
                say=("Open with a card of level 2 to 5 on a centre cell of your opponent's "
                     "side: b2 or c2."),
                goal=OPENINGS,
                rule="C.field",
                why=("b3 and c3 are centre cells on your own side (rows 3 and 4): a card "
                     "there fills one of your own cells."),
                traps=(
                    Trap("AH b2", "C.opening", "An Ace may never open the field."),
                    Trap("6S c2", "C.opening", "A 6 may never open the field."),
                ),
                done=("Opened. Now your opponent takes the first turn, and from then on you "
                      "take turns."),
            ),
        ),
    ),
    Lesson(
        key="law",
        title="The Fundamental Law",
        teaches=("C.law", "C.face_down", "C.channel"),
        intro=("The rulebook's example table: 5♣ on b2, a face-down 3♦ on c2, your 2♥ on "
               "d3 and their 4♦ on c3. A card goes on an empty cell beside one already on "
               "the field. Beside a black card it must be lower, beside a red one higher; a "
               "face-down card counts for nothing."),
        setup=EXAMPLE,
        tasks=(
            Task(
                say="Put your 3♥ on one of the five cells the Law allows it.",
                goal=("3H b1", "3H c1", "3H a2", "3H d2", "3H d4"),
                rule="C.law",
                why="This task is about the 3♥: choose it and one of its cells.",
                traps=(
                    Trap("3H c4", "C.law",
                         "c4 is beside the red 4♦, so a card there must be higher than 4."),
                    Trap("3H b3", "C.law",
                         "b3 touches the red 4♦ too; being lower than the black 5♣ is not "
                         "enough, every neighbour must agree."),
                ),
                done=("Placed. Note c1: it touches the 3♦, but that card is face down, so "
                      "it sets no limit."),
            ),
        ),
    ),
    Lesson(
        key="invert",
        title="Invert a card",
        teaches=("C.invert",),
        intro=("The same example table. Instead of an empty cell, a card may go on top of a "
               "lone face-up card of the same level and the other colour. It still obeys "
               "the Law towards the cards beside it, and it costs you one more card from "
               "your hand, thrown out of the game."),
        setup=EXAMPLE,
        tasks=(
            Task(
                say="Invert their 4♦ on c3 with your 4♠, throwing away any other card.",
                goal=tuple(f"inv 4S c3 /{card}" for card in EXAMPLE_HAND if card != "4S"),
                rule="C.invert",
                why="This task asks you to put your 4♠ on the 4♦ on c3.",
                traps=(
                    Trap("inv 4H c3 /AH", "C.invert",
                         "The 4♥ is red like the 4♦: only a card of the other colour may "
                         "invert it."),
                    Trap("inv 5S b2 /AH", "C.invert",
                         "The 5♠ is black like the 5♣ on b2; an inversion needs the same "
                         "level and the other colour."),
                ),
                done=("Inverted: c3 holds a stack of two now, and a stack is full. The card "
                      "you threw away is out of the game."),
            ),
        ),
    ),
    Lesson(
        key="tunnel",
        title="2: Tunnel",
        teaches=("C.abilities", "C.tunnel"),
        intro=("Levels 2 to 5 each have an ability. A 2 tunnels: besides the usual cells it "
               "may go to an empty cell that touches a card only at a corner."),
        setup=EXAMPLE,
        tasks=(
            Task(
                say=("Tunnel your 2♠ to a cell that touches a card only diagonally "
                     "(a1, d1, a3 or b4)."),
                goal=("2S a1", "2S d1", "2S a3", "2S b4"),
                rule="C.tunnel",
                why="Pick the 2♠ and a cell it reaches only through a corner.",
                traps=(
                    Trap("AS a1", "C.tunnel",
                         "Only a 2 may tunnel; an Ace needs a card directly beside its "
                         "cell."),
                ),
                done="Tunnelled: the 2♠ reached a cell no other card could.",
            ),
        ),
    ),
    Lesson(
        key="repel",
        title="3: Repel",
        teaches=("C.repel",),
        intro=("A 3, once placed, may push one card or stack beside it one cell straight "
               "away, onto an empty cell. Pushed cards ignore the Law."),
        setup=EXAMPLE,
        tasks=(
            Task(
                say="Put your 3♥ on d4, above your 2♥.",
                goal=("3H d4",),
                rule="C.repel",
                why="This lesson needs the 3♥ on d4, right above your 2♥ on d3.",
                done="Placed. Now the 3♥ may repel a card beside it.",
            ),
            Task(
                say=("Push your 2♥ from d3 down to d2, off your side and onto your "
                     "opponent's."),
                goal=("repel d3>d2",),
                rule="C.repel",
                why=("Declining wastes the push: moving the 2♥ to d2 empties one of your own "
                     "cells and fills one of theirs."),
                done="Repelled: d3 is open again and d2, on their side, is filled.",
            ),
        ),
    ),
    Lesson(
        key="anchor",
        title="4: Anchor",
        teaches=("C.anchor",),
        intro=("Your opponent opened with 3♣ on b2; you put 2♠ on b1 and they passed. A 4 on "
               "a corner may ignore the Law with one of its neighbours."),
        setup=("opener 1", "3C b2", "2S b1", "pass"),
        tasks=(
            Task(
                say=("Anchor a 4 on corner a1, beside your 2♠, though a card beside a black "
                     "2 should be lower than 2."),
                goal=("4H a1", "4S a1"),
                rule="C.anchor",
                why="This task asks for a 4 on the corner a1.",
                traps=(
                    Trap("4H c1", "C.anchor",
                         "c1 is not a corner, so the 4 has no Anchor there and the black 2♠ "
                         "beside it forbids it."),
                ),
                done="Anchored: on a corner, the 4 ignored the 2♠ beside it.",
            ),
        ),
    ),
    Lesson(
        key="polarize",
        title="5: Polarize",
        teaches=("C.polarize", "C.face_down"),
        intro=("Back to the example table. A 5, once placed, may turn itself or a card "
               "beside it face down. A face-down card has no level and no charge: the Law "
               "ignores it and nothing can invert it, but it still fills its cell."),
        setup=EXAMPLE,
        tasks=(
            Task(
                say="Put your 5♥ on c4, beside their 4♦ (5 is higher than a red 4).",
                goal=("5H c4",),
                rule="C.polarize",
                why="This lesson needs the 5♥ on c4, next to the 4♦.",
                done="Placed. Now the 5♥ may polarize.",
            ),
            Task(
                say="Turn their 4♦ on c3 face down.",
                goal=("polarize c3",),
                rule="C.polarize",
                why=("This task asks you to turn the 4♦ face down (polarize c3), so it no "
                     "longer limits the cells around it."),
                done=("The 4♦ is face down: it still fills c3, but it sets no limit for the "
                      "cards around it any more."),
            ),
        ),
    ),
    Lesson(
        key="pass",
        title="Passing and the score",
        teaches=("C.pass", "C.score"),
        intro=("You opened with 3♥ on b2, on your opponent's side, and they passed. When a "
               "pass follows a pass, the game ends and each side's empty cells are counted."),
        setup=("opener 0", "3H b2", "pass"),
        tasks=(
            Task(
                say=("Pass too: the game ends with your side 8 cells open and theirs 7, so "
                     "you win."),
                goal=("pass",),
                rule="C.pass",
                why=("Placing another card lets the game go on, and any card you place now "
                     "can only cost someone a cell; a second pass ends it while you lead."),
                done=("The game is over: 8 open cells to 7. Had the cells been level, fewer "
                      "cards on your side would have won, and after that the opener."),
            ),
        ),
    ),
    Lesson(
        key="tutorial-game",
        title="The Tutorial game",
        teaches=("C.tutorial",),
        intro=("The Tutorial variant is simpler: no abilities and no passing. Whoever has no "
               "card to place on their turn loses at once."),
        setup=("opener 1", "3D c2"),
        options={"variant": "tutorial"},
        tasks=(
            Task(
                say="Place any card you like: passing is not allowed in this variant.",
                goal=ANY,
                rule="C.tutorial",
                why="Any placement will do here.",
                traps=(
                    Trap("pass", "C.tutorial", "The Tutorial game has no passing."),
                ),
                done="Placed. In this variant, running out of places to put a card loses.",
            ),
        ),
    ),
    Lesson(
        key="torus",
        title="The torus field",
        teaches=("C.torus",),
        intro=("On a torus the field wraps around: the bottom row touches the top row and "
               "the left column the right one. Your 4♥ sits on c1, at the bottom edge."),
        setup=("opener 1", "3D c2", "4H c1", "pass"),
        options={"torus": True},
        tasks=(
            Task(
                say=("Put a card on c4, at the top edge: across the edge it touches your "
                     "red 4♥, so it must be higher than 4."),
                goal=("5H c4", "6H c4", "5S c4", "6S c4"),
                rule="C.torus",
                why="This task asks for a card on c4, across the edge from c1.",
                traps=(
                    Trap("3S c4", "C.torus",
                         "Across the edge c4 touches the red 4♥ on c1, and the Law reaches "
                         "across: a 3 is not higher than 4."),
                ),
                done="Placed across the edge: on a torus every cell has four neighbours.",
            ),
        ),
    ),
    Lesson(
        key="final",
        title="A real game",
        teaches=("C.score",),
        intro=("Now a whole game against the easy bot: keep more of your own side open "
               "than it keeps of its side."),
        final=True,
    ),
)

# Pieces of the engine's refusals, and the rule each one quotes.
REFUSALS = (
    ("the law forbids", "C.law"),
    ("cannot open", "C.opening"),
    ("centre cell", "C.opening"),
    ("not next to any particle", "C.channel"),
    ("is taken", "C.channel"),
    ("can invert only", "C.invert"),
    ("stack of 2", "C.invert"),
    ("discard must be", "C.invert"),
    ("face down and cannot be inverted", "C.face_down"),
    ("no passing", "C.tutorial"),
    ("can slide", "C.repel"),
    ("turn face down only", "C.polarize"),
)

TUTORIAL = Tutorial(game="card-commons", seeds=(SEED,), rules=RULES, lessons=LESSONS,
                    refusals=REFUSALS)
