"""Decoherence's tutorial: its rulebook map (seeds 000_f21bea9f3b6d9580.txt, the full rules,
and 001_89ac9a7346c2d312.txt, the player aid) and its lessons.

Lesson -> rules taught (``tests/games/test_lessons.py`` checks that every rule below is
taught and that every id a lesson names is in the map):

================  ========================================================================
lesson            rules
================  ========================================================================
first-sentence    D.words, D.nouns, D.deck, D.verve, D.setup, D.draw, D.chains, D.play,
                  D.states, D.hidden
leak              D.leak
discard           D.discard, D.public_discards
bood              D.bood
tapped            D.tapped, D.size_n, D.no_target
verved            D.verved
close             D.close
riffed            D.riffed, D.bunching
twigged           D.twigged, D.links, D.break
exclusion         D.exclusion
classical         D.classical
decoherence       D.decohere, D.both_lose
final             a real game against ``easy``
================  ========================================================================

The learner is seat 0; both decks hold the same even spread of words (written out, so that
a change to the presets cannot move a lesson). Every card drawn is a chance action of the
setup, so each position is played through the protocol.
"""

from __future__ import annotations

from dataclasses import replace

from quarkade.core.lessons import ANY, Lesson, Rule, Task, Trap, Tutorial

SEEDS = ("000_f21bea9f3b6d9580.txt", "001_89ac9a7346c2d312.txt")

DECK = ("tapped 2, verved 2, boo'd 2, twigged 2, riffed 2 | up 3, down 3, through 2, out 2 | "
        "kiki 3, bouba 4, lulu 3")

RULES = (
    Rule("D.words", "Words and sentences",
         "There are five verbs (tapped, verved, boo'd, twigged, riffed), four qualifiers "
         "(up, down, through, out) and three nouns; a sentence is a verb, a qualifier and a "
         "noun, always in that order.", "000 1. The words; 001 The words"),
    Rule("D.nouns", "Nouns and their sizes",
         "A kiki has size 3, a bouba 2 and a lulu 2; a bouba grows with its holder's other "
         "boubas of the same spin, and lulus feed verved through.", "000 1. The words"),
    Rule("D.deck", "Your deck",
         "Each deck has thirty cards: ten verbs, ten qualifiers and ten nouns, with no word "
         "more than four times.", "000 2. Deck and setup"),
    Rule("D.verve", "Verve",
         "Both players begin with 10 verve, shown to everyone. Verve measures your "
         "coherence, and it is your life.", "000 2. Deck and setup"),
    Rule("D.setup", "Setting up",
         "A coin picks the first player. Each opening hand of five holds at least a verb, "
         "a qualifier and a noun.", "000 2. Deck and setup"),
    Rule("D.draw", "Drawing",
         "Each turn begins with drawing one card; with nothing left to draw, you have lost.",
         "000 4. Turn; 000 7. Winning"),
    Rule("D.chains", "Open chains",
         "A sentence under way (a verb, or a verb and a qualifier) is an open chain, face "
         "up; you may have three at most.", "000 3. The table"),
    Rule("D.play", "Playing cards",
         "Play as many cards as you like, one at a time: a verb opens a chain, a qualifier "
         "goes onto a chain whose only card is its verb, and a noun completes a chain, which "
         "then takes effect. You may stop whenever you like.", "000 4. Turn"),
    Rule("D.states", "States and bare particles",
         "A finished sentence with up or down leaves a state, which has a spin; with through "
         "or out it leaves a bare particle, without spin.", "000 3. The table; 000 5"),
    Rule("D.hidden", "Hidden, known, measured",
         "Nouns arrive face down. To the opponent each is hidden until seen, known once "
         "seen, and measured after a boo'd.", "000 3. The table"),
    Rule("D.close", "Closing their chain",
         "When the opponent's chain has its verb and qualifier, you may finish it with a "
         "noun of yours, paying verve equal to its printed size. The sentence is theirs, "
         "with your noun, face up.", "000 4. Turn"),
    Rule("D.discard", "Discarding",
         "When you stop playing, discard until you hold seven cards.", "000 4. Turn"),
    Rule("D.leak", "Leak",
         "At the end of your turn you lose 1 verve for every chain still open; a verved up "
         "adds 1 to that, a verved down cancels it.", "000 4. Turn"),
    Rule("D.size_n", "N and revealing",
         "N is the size of the sentence's own noun when it takes effect. The seven "
         "sentences that use N turn their noun face up.", "000 5. Resolving"),
    Rule("D.no_target", "No target",
         "A sentence with nothing it may choose has no effect, yet its noun stays on the "
         "table; a tapped still costs its 1.", "000 5. Resolving; 001"),
    Rule("D.tapped", "Tapped",
         "Costs 1. Up or down pushes one of their states to that spin; through flips a coin "
         "that on heads costs them N; out examines one of their unlinked things and discards "
         "it if it is no bigger than N.", "000 5. Resolving; 001 The sixty sentences"),
    Rule("D.verved", "Verved",
         "Up gains N but leaks 1 more; down gains 1 and stops your leak this turn; through "
         "gains N plus 1 per lulu of yours on the table; out costs them N and you 1.",
         "000 5. Resolving; 001 The sixty sentences"),
    Rule("D.bood", "Boo'd",
         "Up or down measures one of their hidden, unlinked things and sets its spin; "
         "through measures all their hidden unlinked bare particles (else one hidden "
         "state); out turns one of their hidden unlinked things face up and discards it.",
         "000 5. Resolving; 001 The sixty sentences"),
    Rule("D.twigged", "Twigged",
         "Up or down links the new state to an unmeasured, unlinked thing of yours, which "
         "takes the opposite spin; through links a spinless state to one of theirs; out "
         "links like up, but fatally.", "000 5. Resolving; 001 The sixty sentences"),
    Rule("D.riffed", "Riffed",
         "Up or down picks one of their states with a spin: the same spin makes both grow "
         "by N, the opposite discards both. Through does nothing; out discards one of their "
         "things together with this noun.", "000 5. Resolving; 001 The sixty sentences"),
    Rule("D.links", "Entanglement",
         "A link joins two things. While it holds neither can be measured, examined by a "
         "tapped out or twigged again, and two spins on it are always opposite.",
         "000 6. Entanglement"),
    Rule("D.break", "Broken links",
         "A link breaks when one half leaves the table: a fatal link takes the other half "
         "too, otherwise the survivor goes dark, a hidden bare particle again.",
         "000 6. Entanglement"),
    Rule("D.decohere", "Decoherence",
         "A player whose verve falls to 0 or below loses at once.", "000 7. Winning"),
    Rule("D.classical", "Made classical",
         "From the third turn, a player who ends a turn with no hidden noun on the table, no "
         "live link and no open chain loses when the opponent's turn starts.",
         "000 7. Winning"),
    Rule("D.both_lose", "Both at once",
         "If both players would lose at the same moment, whoever keeps more face-down nouns "
         "in play wins; the same number is a draw.", "000 7. Winning"),
    Rule("D.exclusion", "Exclusion",
         "Nobody may hold two kikis of the same spin: a kiki entering a taken spin takes the "
         "other, and with both taken it is discarded.", "000 8. Edge cases"),
    Rule("D.bunching", "Bunching",
         "A bouba's size counts the other boubas its holder has in the same spin at that "
         "moment.", "000 8. Edge cases"),
    Rule("D.public_discards", "Public discards",
         "Discarded cards, the words of finished sentences included, lie face up for both "
         "players.", "000 8. Edge cases"),
)


def _opening(mine: str, theirs: str, first: int, draw: str) -> tuple[str, ...]:
    """The coin, both opening hands (each a verb, a qualifier and a noun first, then two
    more, space-separated), then the first player's first draw."""
    return (f"first seat {first}", *(f"draw {word}" for word in mine.split()),
            *(f"draw {word}" for word in theirs.split()), f"draw {draw}")


def _sentence(verb: str, qualifier: str, noun: str, chain: int = 1) -> tuple[str, ...]:
    return (f"verb {verb} -> chain {chain}", f"qualifier {qualifier} -> chain {chain}",
            f"noun {noun} -> chain {chain}")


def _chain(verb: str, qualifier: str, chain: int = 1) -> tuple[str, ...]:
    return f"verb {verb} -> chain {chain}", f"qualifier {qualifier} -> chain {chain}"


def _turn_ends(draw: str) -> tuple[str, ...]:
    """Pass, and the other player draws ``draw``."""
    return "pass", f"draw {draw}"


_LESSONS = (
    Lesson(
        key="first-sentence",
        title="Your first sentence",
        teaches=("D.words", "D.nouns", "D.deck", "D.verve", "D.setup", "D.draw", "D.chains",
                 "D.play", "D.states", "D.hidden"),
        intro=("Your deck is thirty words: ten verbs, ten qualifiers and ten nouns. Both of "
               "you start with 10 verve, which is your life and is public. The coin made you "
               "first; you drew five cards (a verb, a qualifier and a noun among them) and "
               "then one more, as every turn begins. A sentence is a verb, then a "
               "qualifier, then a noun: let us build verved down lulu."),
        setup=_opening("verved down lulu riffed kiki", "tapped up bouba boo'd through", 0,
                       "twigged"),
        tasks=(
            Task(
                say="Open a chain with the verb verved.",
                goal=("verb verved -> chain 1",),
                rule="D.words",
                why=("This task opens the sentence verved down lulu: its first word, the "
                     "verb verved, goes down first."),
                traps=(
                    Trap("qualifier down -> chain 1", "D.play",
                         "A chain starts with a verb; a qualifier joins a chain that holds "
                         "only a verb."),
                ),
                done=("Chain 1 is open: a verb lying face up. You may have up to three open "
                      "chains."),
            ),
            Task(
                say="Add the qualifier down to chain 1.",
                goal=("qualifier down -> chain 1",),
                rule="D.words",
                why=("Chain 1 holds verved; the sentence verved down lulu needs its "
                     "qualifier, down, next."),
                traps=(
                    Trap("noun lulu -> chain 1", "D.play",
                         "A noun completes a chain that already holds a verb and a "
                         "qualifier; chain 1 has only its verb."),
                ),
                done="Chain 1 reads verved down.",
            ),
            Task(
                say="Complete the sentence with your lulu.",
                goal=("noun lulu -> chain 1",),
                rule="D.words",
                why=("Chain 1 reads verved down; the lulu completes the sentence this "
                     "lesson builds."),
                done=("Verved down lulu: you gain 1 verve and leak nothing this turn. The "
                      "lulu stays on your table as a state with spin down, face down: to "
                      "your opponent it is hidden. Up and down leave states; through and out "
                      "leave bare particles without spin."),
            ),
            Task(
                say="That is enough for one turn: pass.",
                goal=("pass",),
                rule="D.play",
                why="This lesson ends here; you may stop playing whenever you like.",
                done="Your turn is over.",
            ),
        ),
    ),
    Lesson(
        key="leak",
        title="The leak",
        teaches=("D.leak",),
        intro=("Open chains cost verve: when your turn ends you lose 1 for each chain still "
               "open. Verved up raises that by 1, verved down cancels it. You have opened "
               "chain 1 with twigged (you cannot finish it yet) and built verved up in "
               "chain 2."),
        setup=(*_opening("verved up bouba twigged kiki", "tapped down lulu boo'd through", 0,
                         "riffed"),
               "verb twigged -> chain 1", *_chain("verved", "up", 2)),
        tasks=(
            Task(
                say="Complete chain 2 with your bouba: verved up bouba gains 2.",
                goal=("noun bouba -> chain 2",),
                rule="D.leak",
                why="Finish verved up in chain 2 with the bouba.",
                done="You gain 2 verve, and your leak this turn grows by 1.",
            ),
            Task(
                say="Pass, and watch the leak.",
                goal=("pass",),
                rule="D.leak",
                why="Another open chain would leak one more verve when your turn ends.",
                done=("You lose 2 verve: 1 for chain 1, still open, and 1 more for verved "
                      "up."),
            ),
        ),
    ),
    Lesson(
        key="discard",
        title="Seven cards",
        teaches=("D.discard", "D.public_discards"),
        intro=("You have drawn for several turns without playing, keeping chain 1 open, and "
               "now hold eight cards. When you stop playing you must come down to seven."),
        setup=(*_opening("tapped up kiki boo'd down", "riffed through lulu verved out", 0,
                         "twigged"),
               "verb tapped -> chain 1", *_turn_ends("kiki"),
               "verb riffed -> chain 1", *_turn_ends("bouba"),
               *_turn_ends("up"), *_turn_ends("lulu"), *_turn_ends("down"), *_turn_ends("out")),
        tasks=(
            Task(
                say="Pass: you will then discard down to seven.",
                goal=("pass",),
                rule="D.discard",
                why="This lesson is about the discard at the end of a turn: pass.",
                done="You hold eight cards, one too many.",
            ),
            Task(
                say="Discard any card.",
                goal=ANY,
                rule="D.discard",
                why="Any card will do.",
                done=("Discarded. Discards lie face up: both of you can see them, the words "
                      "of finished sentences too."),
            ),
        ),
    ),
    Lesson(
        key="bood",
        title="Boo'd: measuring",
        teaches=("D.bood",),
        intro=("Your opponent's riffed through lulu left a bare particle on their table, face "
               "down: you do not know what it is. A boo'd sentence measures hidden things; "
               "boo'd out turns one face up and discards it. You built boo'd out last turn."),
        setup=(*_opening("boo'd out kiki tapped up", "riffed through lulu verved down", 0,
                         "bouba"),
               *_chain("boo'd", "out"), *_turn_ends("twigged"),
               *_sentence("riffed", "through", "lulu"), *_turn_ends("lulu")),
        tasks=(
            Task(
                say="Complete boo'd out with your kiki.",
                goal=("noun kiki -> chain 1",),
                rule="D.bood",
                why="Finish chain 1 (boo'd out) with the kiki.",
                done="Now choose what it measures.",
            ),
            Task(
                say="Target their hidden thing.",
                goal=("target: their hidden #1",),
                rule="D.bood",
                why="Boo'd out picks one of their hidden, unlinked things.",
                done=("It was a lulu: turned face up and discarded. Boo'd up and down would "
                      "have measured it and set its spin instead."),
            ),
        ),
    ),
    Lesson(
        key="tapped",
        title="Tapped, N, and no target",
        teaches=("D.tapped", "D.size_n", "D.no_target"),
        intro=("N is the size of a sentence's own noun when it takes effect; the sentences "
               "that use N turn their noun face up. Tapped always costs you 1. Tapped out "
               "examines one of their things and discards it if it is no bigger than N. "
               "Last turn you built tapped out in chain 1 and tapped up in chain 2; your "
               "opponent has one face-down bare particle."),
        setup=(*_opening("tapped out kiki tapped up", "riffed through lulu verved down", 0,
                         "bouba"),
               *_chain("tapped", "out"), *_chain("tapped", "up", 2), *_turn_ends("boo'd"),
               *_sentence("riffed", "through", "lulu"), *_turn_ends("twigged")),
        tasks=(
            Task(
                say="Complete tapped out with your kiki (N will be 3).",
                goal=("noun kiki -> chain 1",),
                rule="D.tapped",
                why="Finish chain 1 with the kiki, so that N is 3.",
                done="You pay 1; your kiki is face up, since tapped out uses N.",
            ),
            Task(
                say="Examine their hidden thing.",
                goal=("target: their hidden #1",),
                rule="D.tapped",
                why="Tapped out picks one of their unlinked things.",
                done="A lulu, size 2: no bigger than N = 3, so it is discarded.",
            ),
            Task(
                say=("Now complete tapped up with your bouba. It would push one of their "
                     "states to up, but they have none left."),
                goal=("noun bouba -> chain 2",),
                rule="D.no_target",
                why="Finish chain 2 with the bouba to see a sentence without a target.",
                done=("Nothing to push: the sentence has no effect, yet you still pay its 1 "
                      "and the bouba stays on your table as an up state, face down."),
            ),
        ),
    ),
    Lesson(
        key="verved",
        title="Verved: gaining verve",
        teaches=("D.verved",),
        intro=("Verved sentences change verve. Verved through gains N plus 1 for every lulu "
               "on your table, the new one included. A lulu of yours already lies on your "
               "table, and chain 1 holds verved through."),
        setup=(*_opening("riffed through lulu verved lulu", "tapped up kiki boo'd down", 0,
                         "through"),
               *_sentence("riffed", "through", "lulu"), *_chain("verved", "through"),
               *_turn_ends("up"), "verb tapped -> chain 1", *_turn_ends("bouba")),
        tasks=(
            Task(
                say="Complete verved through with your second lulu.",
                goal=("noun lulu -> chain 1",),
                rule="D.verved",
                why="Finish chain 1 with the lulu: each lulu on your table adds 1.",
                done=("You gain 4: N = 2, plus 1 for each of your two lulus. Verved out "
                      "would instead cost them N and you 1."),
            ),
        ),
    ),
    Lesson(
        key="close",
        title="Closing their chain",
        teaches=("D.close",),
        intro=("Your kiki lies face down on your table. Your opponent has built tapped out in "
               "their chain 1: finished with their own kiki, N = 3 would discard yours. You "
               "may close their chain yourself, paying your noun's printed size in verve: "
               "the sentence is then theirs, with your noun."),
        setup=(*_opening("riffed through kiki verved bouba", "tapped out lulu boo'd up", 0,
                         "down"),
               *_sentence("riffed", "through", "kiki"), *_turn_ends("kiki"),
               *_chain("tapped", "out"), *_turn_ends("lulu")),
        tasks=(
            Task(
                say=("Close their chain 1 with your bouba or your lulu: N will be 2, too "
                     "small to discard your kiki."),
                goal=("close their chain 1 with bouba", "close their chain 1 with lulu"),
                rule="D.close",
                why=("This lesson asks you to close their tapped out with a noun of size 2, "
                     "before they finish it themselves."),
                traps=(
                    Trap("close their chain 1 with kiki", "D.size_n",
                         "With your kiki N would be 3, big enough to discard your own kiki."),
                ),
                then=("target: their kiki #1",),
                done=("You paid 2. Their tapped out took effect with your noun: they paid 1 "
                      "and examined your kiki, but 3 is bigger than N = 2, so it stays "
                      "(face up now). Your noun lies on their table, face up."),
            ),
        ),
    ),
    Lesson(
        key="riffed",
        title="Riffed, and bunching",
        teaches=("D.riffed", "D.bunching"),
        intro=("The rulebook's example. Your opponent has a face-down bouba in a down state. "
               "You already hold a down bouba, and chain 1 reads riffed down. A bouba's size "
               "counts its holder's other boubas in the same spin, so your new one will be "
               "size 3."),
        setup=(*_opening("verved down bouba riffed bouba", "boo'd down bouba tapped through", 1,
                         "lulu"),
               *_sentence("boo'd", "down", "bouba"), *_turn_ends("down"),
               *_sentence("verved", "down", "bouba"), *_chain("riffed", "down")),
        tasks=(
            Task(
                say="Complete riffed down with your bouba.",
                goal=("noun bouba -> chain 1",),
                rule="D.riffed",
                why="Finish chain 1 (riffed down) with the bouba.",
                done="Your new bouba is a down state of size 3 (bunching): N = 3.",
            ),
            Task(
                say="Target their down state.",
                goal=("target: their hidden #1",),
                rule="D.riffed",
                why="Riffed down picks one of their states that has a spin.",
                done=("Same spin: both boubas grow by 3 for good. Had their state been up, "
                      "both would have been discarded."),
            ),
        ),
    ),
    Lesson(
        key="twigged",
        title="Twigged: entanglement",
        teaches=("D.twigged", "D.links", "D.break"),
        intro=("Twigged links things. Twigged up makes an up state and links it to an "
               "unmeasured, unlinked thing of yours, which takes the down spin. Your bare "
               "lulu lies on your table, and chain 1 reads twigged up."),
        setup=(*_opening("riffed through lulu twigged up", "riffed out bouba verved kiki", 0,
                         "kiki"),
               *_sentence("riffed", "through", "lulu"), *_chain("twigged", "up"),
               *_turn_ends("down"), "verb riffed -> chain 1", "qualifier out -> chain 1",
               *_turn_ends("bouba")),
        tasks=(
            Task(
                say="Complete twigged up with your kiki.",
                goal=("noun kiki -> chain 1",),
                rule="D.twigged",
                why="Finish chain 1 (twigged up) with the kiki.",
                done="Now choose the thing of yours it links to.",
            ),
            Task(
                say="Link it to your lulu.",
                goal=("target: your lulu #1",),
                rule="D.twigged",
                why="Twigged up links to one of your own things.",
                then=("pass", "draw up", "noun bouba -> chain 1", "target: their kiki #2"),
                done=("Linked: kiki up, lulu down. While the link holds neither can be "
                      "measured, examined or twigged again. Then your opponent's riffed out "
                      "discarded your kiki: the link broke and your lulu went dark, a hidden "
                      "bare particle again (a fatal link would have taken it too)."),
            ),
        ),
    ),
    Lesson(
        key="exclusion",
        title="Exclusion",
        teaches=("D.exclusion",),
        intro=("You already hold a kiki in an up state. Nobody may hold two kikis of the "
               "same spin. Chain 1 reads verved up."),
        setup=(*_opening("twigged up kiki verved kiki", "tapped down bouba boo'd through", 0,
                         "up"),
               *_sentence("twigged", "up", "kiki"), *_chain("verved", "up")),
        tasks=(
            Task(
                say="Complete verved up with your second kiki.",
                goal=("noun kiki -> chain 1",),
                rule="D.exclusion",
                why="Finish chain 1 with the kiki.",
                done=("The up spin was taken, so the new kiki took the down spin. With kikis "
                      "in both spins, a third would be discarded as it arrived."),
            ),
        ),
    ),
    Lesson(
        key="classical",
        title="Stay quantum",
        teaches=("D.classical",),
        intro=("Your only noun on the table is known (verved up turned it face up), and you "
               "have no open chain and no link. From the third turn on, ending a turn like "
               "that loses."),
        setup=(*_opening("verved up bouba riffed down", "tapped through lulu boo'd up", 0,
                         "twigged"),
               *_sentence("verved", "up", "bouba"), *_turn_ends("out"),
               "verb tapped -> chain 1", *_turn_ends("kiki")),
        tasks=(
            Task(
                say="Give yourself cover before you stop: open a chain, or play a sentence.",
                goal=ANY,
                rule="D.classical",
                why="Anything that leaves a hidden noun or an open chain will do.",
                traps=(
                    Trap("pass", "D.classical",
                         "With no hidden noun, no link and no open chain you would be made "
                         "classical when your opponent's turn starts, and lose."),
                ),
                done="Covered.",
            ),
            Task(
                say="Now pass.",
                goal=("pass",),
                rule="D.leak",
                why="This lesson ends here: pass.",
                done="You are still in the game.",
            ),
        ),
    ),
    Lesson(
        key="decoherence",
        title="Decoherence",
        teaches=("D.decohere", "D.both_lose"),
        intro=("Many turns of open chains have drained you both to 1 verve. At 0 or below a "
               "player decoheres and loses; drawing from an empty deck loses too. Verved out "
               "costs them N and you 1, so both of you would fall together: then the player "
               "with more hidden nouns on the table wins. Your riffed through lulu is hidden; "
               "they have none."),
        setup=(*_opening("verved out kiki riffed tapped", "tapped up kiki boo'd twigged", 0,
                         "twigged"),
               "verb verved -> chain 1", "verb riffed -> chain 2", "verb tapped -> chain 3",
               *_turn_ends("bouba"),
               "verb tapped -> chain 1", "verb boo'd -> chain 2", "verb twigged -> chain 3",
               *_turn_ends("through"), *_turn_ends("down"), *_turn_ends("lulu"),
               "qualifier through -> chain 2", "noun lulu -> chain 2",
               "verb twigged -> chain 2", *_turn_ends("lulu"), *_turn_ends("up"),
               "qualifier out -> chain 1"),
        tasks=(
            Task(
                say="Complete verved out with your kiki.",
                goal=("noun kiki -> chain 1",),
                rule="D.both_lose",
                why=("Finish verved out with the kiki: both of you drop to 0 or below, and "
                     "your hidden lulu decides it."),
                done=("They lose 3 and you lose 1: both decohere at once. You have one hidden "
                      "noun and they have none, so you win."),
            ),
        ),
    ),
    Lesson(
        key="final",
        title="A real game",
        teaches=("D.decohere",),
        intro="Now a whole game against the easy bot, both of you with an even deck.",
        final=True,
    ),
)

LESSONS = tuple(replace(lesson, options={"deck0": DECK, "deck1": DECK, **lesson.options})
                for lesson in _LESSONS)

# Pieces of the engine's refusals, and the rule each one quotes.
REFUSALS = (
    ("a qualifier goes on a chain", "D.play"),
    ("a noun goes on a chain", "D.play"),
    ("you may close only", "D.close"),
    ("closing with", "D.close"),
    ("open chains", "D.chains"),
    ("discard a card", "D.discard"),
)

TUTORIAL = Tutorial(game="decoherence", seeds=SEEDS, rules=RULES, lessons=LESSONS,
                    refusals=REFUSALS)
