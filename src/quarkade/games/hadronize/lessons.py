"""Hadronize's tutorial: its rulebook map (seed 003_c2aa2c0ad88b8bbf.txt) and its lessons.

Lesson -> rules taught (``tests/games/test_lessons.py`` checks that every rule below is
taught and that every id a lesson names is in the map):

==============  ==========================================================================
lesson          rules
==============  ==========================================================================
first-quark     H.flavours, H.chamber, H.order, H.superpose, H.observe, H.collapse,
                H.no_reaction
hadronize       H.hadronize, H.goal
tunnel          H.tunnel
final           a real game against ``easy``
==============  ==========================================================================

The learner is seat 0 of two; every position is dealt and played through the protocol.
"""

from __future__ import annotations

from quarkade.core.lessons import Lesson, Rule, Task, Tutorial

SEED = "003_c2aa2c0ad88b8bbf.txt"

RULES = (
    Rule("H.goal", "The goal",
         "Whoever first has hadronized ten or more quarks wins.", "003 Goal"),
    Rule("H.flavours", "Six flavours",
         "Every quark has one of six flavours: up, down, strange, charm, bottom, top.",
         "003 Quarks"),
    Rule("H.chamber", "Cloud chambers",
         "Each player keeps quarks in a cloud chamber with room for any number; each starts "
         "the game holding four quarks of random flavours.", "003 Setup"),
    Rule("H.order", "Turn order",
         "A random player goes first, then turns pass around the table seat by seat.",
         "003 Gameplay"),
    Rule("H.superpose", "A superposed quark",
         "Each turn starts with a new quark that could still become any one of three "
         "flavours, which everybody can see.", "003 Gameplay"),
    Rule("H.observe", "Choosing the observer",
         "The player whose turn it is names who observes the new quark: anybody, "
         "themself included.", "003 Gameplay"),
    Rule("H.collapse", "Collapse",
         "Observed, the quark settles on one of its three flavours and lands in the "
         "observer's chamber.", "003 Gameplay"),
    Rule("H.no_reaction", "No reaction",
         "If the observer held no quark of that flavour, nothing happens: the quark stays "
         "and the turn is over.", "003 Gameplay"),
    Rule("H.hadronize", "Hadronizing",
         "If you observed it yourself and already held that flavour, the new quark and all "
         "of yours of that flavour hadronize: they score for you and never react again.",
         "003 Gameplay"),
    Rule("H.tunnel", "Tunnelling",
         "If someone else observed it and held that flavour, the new quark and all of theirs "
         "of that flavour move into your chamber. They cannot hadronize on arrival, but from "
         "the next turn on they are ordinary quarks of yours.", "003 Gameplay"),
)


def _deal(mine: str, theirs: str) -> tuple[str, ...]:
    """The chance actions dealing these four quarks to each seat (space-separated)."""
    return tuple(f"deal {flavour}" for flavour in (*mine.split(), *theirs.split()))


LESSONS = (
    Lesson(
        key="first-quark",
        title="A quark appears",
        teaches=("H.flavours", "H.chamber", "H.order", "H.superpose", "H.observe",
                 "H.collapse", "H.no_reaction"),
        intro=("Quarks come in six flavours. You and your opponent each began with four "
               "random ones in your cloud chambers, and you were drawn to go first. A new "
               "quark has appeared: it could become up, strange or charm, and on your turn "
               "you decide who observes it."),
        setup=(*_deal("up up down bottom", "strange charm top top"), "first 0",
               "superpose u/s/c"),
        tasks=(
            Task(
                say="Observe the new quark yourself: choose the move that makes you the observer.",
                goal=("observe 0",),
                rule="H.observe",
                why=("That move makes your opponent the observer; this task asks you to "
                     "observe the quark yourself."),
                then=("collapse strange",),
                done=("It collapsed into strange and landed in your chamber. You held no "
                      "strange quark, so nothing reacted: it simply stays with you."),
            ),
        ),
    ),
    Lesson(
        key="hadronize",
        title="Hadronize your quarks",
        teaches=("H.hadronize", "H.goal"),
        intro=("You hold three charm quarks; your opponent holds three strange ones. This "
               "turn's quark could be up, strange or charm. Observed in your own chamber, a "
               "charm would join your three and all four would hadronize: hadronized quarks "
               "score, and ten of them win the game."),
        setup=(*_deal("charm charm charm bottom", "strange strange strange down"), "first 0",
               "superpose u/s/c"),
        tasks=(
            Task(
                say="Try to hadronize your charm quarks: observe the quark yourself.",
                goal=("observe 0",),
                rule="H.hadronize",
                why=("Only a quark you observe yourself can make your own quarks hadronize; "
                     "in your opponent's chamber a charm would find no partner."),
                then=("collapse charm",),
                done=("Charm! Your three charm quarks and the new one hadronized: four "
                      "points toward the ten you need, and they will never react again."),
            ),
        ),
    ),
    Lesson(
        key="tunnel",
        title="Tunnel their quarks to you",
        teaches=("H.tunnel",),
        intro=("The same table: three charm quarks for you, three strange for your "
               "opponent. Another way to use this quark is to make your opponent observe "
               "it: if it turns out strange, it reacts with their strange quarks and all "
               "four tunnel into your chamber."),
        setup=(*_deal("charm charm charm bottom", "strange strange strange down"), "first 0",
               "superpose u/s/c"),
        tasks=(
            Task(
                say="Make your opponent observe the quark.",
                goal=("observe 1",),
                rule="H.tunnel",
                why=("Observing it yourself cannot move your opponent's strange quarks; only "
                     "a reaction in their chamber sends quarks over to you."),
                then=("collapse strange", "superpose d/b/t", "observe 1", "collapse top",
                      "superpose u/s/t"),
                done=("Strange: four strange quarks tunnelled into your chamber. They could "
                      "not hadronize on the way in. Your opponent then observed a top "
                      "quark, and now it is your turn again."),
            ),
            Task(
                say=("The tunnelled strange quarks are ordinary quarks of yours now. This "
                     "quark could be up, strange or top: observe it yourself to try to "
                     "hadronize all of them."),
                goal=("observe 0",),
                rule="H.tunnel",
                why=("Your opponent has no strange quark left; to hadronize the four that "
                     "tunnelled to you, the quark must land in your own chamber."),
                then=("collapse strange",),
                done=("Strange again: the four tunnelled quarks and the new one hadronized "
                      "together. Five points!"),
            ),
        ),
    ),
    Lesson(
        key="final",
        title="A real game",
        teaches=("H.goal",),
        intro=("Now a whole game against the easy bot. Hadronize ten quarks before it "
               "does."),
        final=True,
    ),
)

TUTORIAL = Tutorial(game="hadronize", seeds=(SEED,), rules=RULES, lessons=LESSONS)
