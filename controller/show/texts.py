"""Every text the product shows, by message key, in English, Danish and Swedish.

The scene carries a message key and parameters (`content.Prompt`), never a finished
sentence, so the language is chosen at drawing time from the settings and a test can
check every key in every language. The Danish and Swedish words follow the rule pages
in shared/seeds: brik / bricka, terninger / tärningar, dobbeltkube / dubblingstärning,
doble / dubbla, tage imod / acceptera, baren, sidde over, revanche / revansch; the whole
glossary and the synonyms the texts avoid are in tests/test_texts_languages.py, which
also keeps a line that fits the display in English on one line in every language.

Parameters are filled with `str.format`; some are translated first:
- `side`, `winner`, `loser` ("white"/"black") become the side's name ("Hvid", "Vit");
- `colour` ("white"/"black") becomes the adjective, plural when `n` is not 1
  ("hvid"/"hvide"), and `colour_def` its definite form ("den slåede hvide brik");
- `cell` and `to`/`from` cells: "bar", "off-white", "off-black" become words;
- `result` ("single"/"gammon"/"backgammon") becomes its word;
- `dice` given as a sequence of dice becomes "5-3";
- a parameter `X_key` holding a message key puts that message's text in `{X}`.
A message may be a pair (one, other): the second is used when `n` (or `points`) is not 1.
"""
from __future__ import annotations

import string
from typing import Mapping, Union

LANGUAGES: tuple[str, ...] = ("en", "da", "sv")
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "da": "Dansk", "sv": "Svenska"}

Text = Union[str, tuple[str, str]]

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "side.white": "White", "side.black": "Black",
        "colour.white": "white", "colour.black": "black",
        "colour.white.pl": "white", "colour.black.pl": "black",
        "cell.bar": "the bar", "cell.off-white": "White's tray",
        "cell.off-black": "Black's tray",
        "result.single": "single game", "result.gammon": "gammon",
        "result.backgammon": "backgammon",
    },
    "da": {
        "side.white": "Hvid", "side.black": "Sort",
        "colour.white": "hvid", "colour.black": "sort",
        "colour.white.pl": "hvide", "colour.black.pl": "sorte",
        "cell.bar": "baren", "cell.off-white": "Hvids bakke",
        "cell.off-black": "Sorts bakke",
        "result.single": "almindeligt spil", "result.gammon": "gammon",
        "result.backgammon": "backgammon",
    },
    "sv": {
        "side.white": "Vit", "side.black": "Svart",
        "colour.white": "vit", "colour.black": "svart",
        "colour.white.pl": "vita", "colour.black.pl": "svarta",
        "cell.bar": "baren", "cell.off-white": "Vits fack",
        "cell.off-black": "Svarts fack",
        "result.single": "enkelt spel", "result.gammon": "gammon",
        "result.backgammon": "backgammon",
    },
}

#: message key -> language -> text. Keep prompts short: the display has two lines of
#: 25 characters; longer ones scroll.
MESSAGES: dict[str, dict[str, Text]] = {
    # --- labels drawn on the display itself
    "label.white": {"en": "White", "da": "Hvid", "sv": "Vit"},
    "label.black": {"en": "Black", "da": "Sort", "sv": "Svart"},
    "label.length": {"en": "to {n}", "da": "til {n}", "sv": "till {n}"},
    "label.crawford": {"en": "Crawford", "da": "Crawford", "sv": "Crawford"},
    "label.pips": {"en": "pip", "da": "pip", "sv": "pip"},
    # --- the turn
    "opening_roll": {"en": "Each side rolls one die", "da": "Slå én terning hver",
                     "sv": "Slå var sin tärning"},
    "opening_roll_verifiable": {"en": "Dice {code}: each rolls one die",
                                "da": "Terninger {code}: slå én hver",
                                "sv": "Tärningar {code}: slå var sin"},
    "opening_won": {"en": "{side} starts with {dice}", "da": "{side} begynder med {dice}",
                    "sv": "{side} börjar med {dice}"},
    "opening_tie": {"en": "Both rolled {dice}: roll again", "da": "Begge slog {dice}: slå igen",
                    "sv": "Båda slog {dice}: slå igen"},
    "roll": {"en": "{side} to roll", "da": "{side} skal slå", "sv": "{side} ska slå"},
    "roll_or_double": {"en": "{side}: roll or double", "da": "{side}: slå eller dobl",
                       "sv": "{side}: slå eller dubbla"},
    "move": {"en": "{side} to play {dice}", "da": "{side} spiller {dice}",
             "sv": "{side} spelar {dice}"},
    "done": {"en": "{side}: done? Press the button", "da": "{side}: færdig? Tryk på knappen",
             "sv": "{side}: klar? Tryck på knappen"},
    "no_move": {"en": "{side} cannot move {dice}: pass",
                "da": "{side} kan ikke flytte {dice}: sidder over",
                "sv": "{side} kan inte flytta {dice}: står över"},
    # --- the cube
    "double_offered": {"en": "{side} doubles to {value}. Take or drop?",
                       "da": "{side} dobler til {value}. Tage imod eller afvise?",
                       "sv": "{side} dubblar till {value}. Acceptera eller avböja?"},
    "double_taken": {"en": "{side} takes: cube on {value}",
                     "da": "{side} tager imod: kube {value}",
                     "sv": "{side} accepterar: nu {value}"},
    "double_dropped": {"en": "{side} drops", "da": "{side} afviser", "sv": "{side} avböjer"},
    "crawford": {"en": "Crawford game: no doubling", "da": "Crawford-spil: ingen dobbeltkube",
                 "sv": "Crawfordspel: utan dubblingstärning"},
    # --- resignations and the end
    "resign_offered": {"en": "{side} resigns {result}. Accept or decline?",
                       "da": "{side} opgiver: {result}. Acceptér eller afvis?",
                       "sv": "{side} ger upp {result}. Tacka ja eller nej?"},
    "resign_declined": {"en": "{side} plays on", "da": "{side} spiller videre",
                        "sv": "{side} spelar vidare"},
    "game_won": {"en": ("{side} wins: {result}, {points} point",
                        "{side} wins: {result}, {points} points"),
                 "da": "{side} vinder: {result}, {points} point",
                 "sv": "{side} vinner: {result}, {points} poäng"},
    "game_won_drop": {"en": ("{side} wins on a drop: {points} point", "{side} wins on a drop: {points} points"),
                      "da": "{side} vinder (afvist): {points} point",
                      "sv": "{side} vinner (avböjt): {points} poäng"},
    "game_won_resign": {"en": ("{side} wins by resignation: {points} point",
                               "{side} wins by resignation: {points} points"),
                        "da": "{side} vinder (opgivet): {points} point",
                        "sv": "{side} vinner (uppgivet): {points} poäng"},
    "match_won": {"en": "{side} wins the match {score_white}-{score_black}",
                  "da": "{side} vinder matchen {score_white}-{score_black}",
                  "sv": "{side} vinner matchen {score_white}-{score_black}"},
    "forfeit": {"en": "{side} gives up the match", "da": "{side} opgiver matchen",
                "sv": "{side} ger upp matchen"},
    "rematch": {"en": "Rematch? {side} offers: press to accept",
                "da": "Revanche? {side} tilbyder: tryk for ja",
                "sv": "Revansch? {side} erbjuder: tryck för ja"},
    "new_match": {"en": "New match to {length}", "da": "Ny match til {length}",
                  "sv": "Ny match till {length}"},
    # --- the clock
    "time_warning": {"en": "{side}: time is running out", "da": "{side}: tiden løber ud",
                     "sv": "{side}: tiden håller på att ta slut"},
    "time_out": {"en": "{side}: out of time, match lost",
                 "da": "{side}: tiden er gået, matchen er tabt",
                 "sv": "{side}: tiden är slut, matchen förlorad"},
    # --- the physical board
    "put_back": {"en": "Put {n} {colour} back on {cell}", "da": "Sæt {n} {colour} tilbage på {cell}",
                 "sv": "Ställ tillbaka {n} {colour} på {cell}"},
    "on_full_point": {"en": "{side}: on {cell}? Press the button",
                      "da": "{side}: på {cell}? Tryk på knappen",
                      "sv": "{side}: på {cell}? Tryck på knappen"},
    "too_many": {"en": ("One {colour} too many on {from}: put it on {to}",
                        "{n} {colour} too many on {from}: put them on {to}"),
                 "da": ("Én {colour} for meget på {from}: sæt den på {to}",
                        "{n} {colour} for mange på {from}: sæt dem på {to}"),
                 "sv": ("En {colour} för mycket på {from}: ställ den på {to}",
                        "{n} {colour} för många på {from}: ställ dem på {to}")},
    "take_off": {"en": "Take {n} {colour} off {cell}", "da": "Tag {n} {colour} væk fra {cell}",
                 "sv": "Ta {n} {colour} från {cell}"},
    "move_checker": {"en": "Move {n} {colour} from {from} to {to}",
                     "da": "Flyt {n} {colour} fra {from} til {to}",
                     "sv": "Flytta {n} {colour} från {from} till {to}"},
    "hit_to_bar": {"en": "Put the hit {colour} checker on the bar",
                   "da": "Sæt den slåede {colour_def} brik på baren",
                   "sv": "Lägg den utslagna {colour_def} brickan på baren"},
    "computer_move": {"en": "Play the computer's move: {notation}",
                      "da": "Flyt computerens træk: {notation}",
                      "sv": "Flytta datorns drag: {notation}"},
    "remote_move": {"en": "Play {side}'s move: {notation}", "da": "Flyt for {side}: {notation}",
                    "sv": "Flytta för {side}: {notation}"},
    "computer_opening": {"en": "The computer starts with {dice}: play {notation}",
                         "da": "Computeren begynder med {dice}: flyt {notation}",
                         "sv": "Datorn börjar med {dice}: flytta {notation}"},
    "remote_opening": {"en": "{side} starts with {dice}: play {notation}",
                       "da": "{side} begynder med {dice}: flyt {notation}",
                       "sv": "{side} börjar med {dice}: flytta {notation}"},
    "setup": {"en": "Set up the board", "da": "Stil brikkerne op", "sv": "Ställ upp brickorna"},
    "setup_cell": {"en": "Set up: {n} {colour} on {cell}", "da": "Opstil: {n} {colour} på {cell}",
                   "sv": "Ställ upp: {n} {colour} på {cell}"},
    "board_offline": {"en": "Board offline: check the cable",
                      "da": "Brættet er offline: tjek kablet",
                      "sv": "Brädet är offline: kontrollera kabeln"},
    "cannot_save_full": {"en": "Cannot save: disk full. Play goes on in memory",
                         "da": "Kan ikke gemme: disken er fuld. Spillet fortsætter",
                         "sv": "Kan inte spara: disken är full. Spelet fortsätter"},
    "cannot_save_readonly": {"en": "Cannot save: read-only disk. Play goes on",
                             "da": "Kan ikke gemme: disken er låst. Spillet fortsætter",
                             "sv": "Kan inte spara: disken är låst. Spelet fortsätter"},
    "cannot_save_other": {"en": "Cannot save: disk error. Play goes on in memory",
                          "da": "Kan ikke gemme: diskfejl. Spillet fortsætter",
                          "sv": "Kan inte spara: diskfel. Spelet fortsätter"},
    "watching": {"en": "Watching {text}", "da": "Ser {text}", "sv": "Tittar på {text}"},
    "watching_board_idle": {"en": "The board is not used: leave the checkers",
                            "da": "Brættet bruges ikke: lad brikkerne stå",
                            "sv": "Brädet används inte: låt brickorna stå"},
    "server_lost": {"en": "Connection lost, rejoining", "da": "Forbindelsen er tabt, forbinder igen",
                    "sv": "Anslutningen bröts, ansluter igen"},
    "club_seats": {"en": "White: {white_name} / Black: {black_name}",
                   "da": "Hvid: {white_name} / Sort: {black_name}",
                   "sv": "Vit: {white_name} / Svart: {black_name}"},
    "online_connecting": {"en": "Connecting to {text}", "da": "Forbinder til {text}",
                          "sv": "Ansluter till {text}"},
    "online_waiting": {"en": "Waiting for an opponent: match {text}",
                       "da": "Venter på en modstander: match {text}",
                       "sv": "Väntar på en motståndare: match {text}"},
    "online_failed": {"en": "Online: {text}", "da": "Online: {text}", "sv": "Online: {text}"},
    "board_back": {"en": "Board back online", "da": "Brættet er online igen",
                   "sv": "Brädet är online igen"},
    # the board session's own states and reports (controller.link.board_session)
    "board_mismatch": {"en": "Wrong board: profile {profile}, board {board}",
                       "da": "Forkert bræt: profil {profile}, bræt {board}",
                       "sv": "Fel bräde: profil {profile}, bräde {board}"},
    "board_protocol": {"en": "Board firmware is protocol {version}: flash it",
                       "da": "Brættets firmware er protokol {version}: flash den",
                       "sv": "Brädets firmware är protokoll {version}: flasha den"},
    "board_protocol_newer": {"en": "Board speaks protocol {version}: update bgboard",
                             "da": "Brættet taler protokol {version}: opdatér bgboard",
                             "sv": "Brädet talar protokoll {version}: uppdatera bgboard"},
    "board_scan_failed": {"en": "Board cannot read its sensors",
                          "da": "Brættet kan ikke læse sensorerne",
                          "sv": "Brädet kan inte läsa sensorerna"},
    "board_error": {"en": "Board error {code}: {text}", "da": "Brætfejl {code}: {text}",
                    "sv": "Brädfel {code}: {text}"},
    "sensor_fault": {"en": "Sensor fault at {cell}: check it",
                     "da": "Sensorfejl på {cell}: tjek den",
                     "sv": "Sensorfel på {cell}: kontrollera den"},
    "ambiguous": {"en": "Cannot tell the count on {cell}: check it",
                  "da": "Uklart antal på {cell}: tjek brikkerne",
                  "sv": "Oklart antal på {cell}: kontrollera"},
    "confirm_move": {"en": "Was it {notation}? Main: yes, cube: no",
                     "da": "Var det {notation}? Hoved: ja, kube: nej",
                     "sv": "Var det {notation}? Huvud: ja, kub: nej"},
    "level_unavailable": {"en": "Computer level {level} is not available",
                          "da": "Computerniveau {level} findes ikke",
                          "sv": "Datornivå {level} finns inte"},
    # --- the menu (each item's entry in controller/play/menu_items.py names its label's key)
    "menu": {"en": "Menu: {item}", "da": "Menu: {item}", "sv": "Meny: {item}"},
    "menu.resign_single": {"en": "resign single game", "da": "opgiv spillet",
                           "sv": "ge upp enkelt spel"},
    "menu.resign_gammon": {"en": "resign gammon", "da": "opgiv gammon", "sv": "ge upp gammon"},
    "menu.resign_backgammon": {"en": "resign backgammon", "da": "opgiv backgammon",
                               "sv": "ge upp backgammon"},
    "menu.forfeit": {"en": "give up the match", "da": "opgiv hele matchen",
                     "sv": "ge upp matchen"},
    "menu.new_match": {"en": "new match", "da": "ny match", "sv": "ny match"},
    "menu.rematch": {"en": "rematch", "da": "revanche", "sv": "revansch"},
    "menu.dice_entry": {"en": "enter real dice", "da": "indtast terninger",
                        "sv": "ange tärningar"},
    "menu.reveal_dice": {"en": "reveal the dice seed", "da": "afslør terningefrøet",
                         "sv": "avslöja tärningsfröet"},
    "menu.hint": {"en": "hint", "da": "tip", "sv": "tips"},
    "menu.play_online": {"en": "play online", "da": "spil online", "sv": "spela online"},
    "menu.leave_online": {"en": "leave online play", "da": "forlad onlinespil",
                          "sv": "lämna onlinespel"},
    "menu.watch_online": {"en": "watch online", "da": "se med online", "sv": "titta på online"},
    "menu.leave_watching": {"en": "leave watching", "da": "stop med at se", "sv": "sluta titta"},
    "menu.close": {"en": "close", "da": "luk", "sv": "stäng"},
    "menu.practise": {"en": "practise a marked move", "da": "øv et markeret træk", "sv": "öva ett markerat drag"},
    "menu.back_to_match": {"en": "back to the match", "da": "tilbage til matchen", "sv": "åter till matchen"},
    # the board's pages (controller/show/pairing.py): a link shown as a QR code, or both revoked
    "menu.phone_link": {"en": "phone page", "da": "telefonside", "sv": "telefonsida"},
    "menu.spectators_link": {"en": "spectators' page", "da": "tilskuernes side", "sv": "åskådarnas sida"},
    "menu.new_links": {"en": "new page links", "da": "nye sidelinks", "sv": "nya sidlänkar"},
    "link_shown": {"en": "{item}: scan the code", "da": "{item}: skan koden", "sv": "{item}: skanna koden"},
    "pairing.title": {"en": "Phone", "da": "Telefon", "sv": "Telefon"},
    "pairing.spectators": {"en": "Watch", "da": "Se med", "sv": "Titta"},
    "pairing.local_only": {"en": "Pi only", "da": "Kun Pi", "sv": "Bara Pi"},
    # the marked decisions to practise, one at a time (controller.show.review_notes.MarkedLine)
    "menu_marked": {"en": "G{game} M{move} {mark} {loss}", "da": "S{game} T{move} {mark} {loss}",
                    "sv": "S{game} D{move} {mark} {loss}"},
    # --- hints (controller.analysis.board_hint): gnubg's n-th best move and its equity
    "hint": {"en": "Hint {rank}/{of}: {notation} {equity}", "da": "Tip {rank}/{of}: {notation} {equity}",
             "sv": "Tips {rank}/{of}: {notation} {equity}"},
    "hint_cube": {"en": "Hint: {action}", "da": "Tip: {action}", "sv": "Tips: {action}"},
    # no judgement installed (no gnubg weights): the command that installs it (INSTALL_HINT)
    "hint_missing": {"en": "Hint needs: {command}", "da": "Tip kræver: {command}", "sv": "Tips kräver: {command}"},
    "tutor_missing": {"en": "Tutor needs: {command}", "da": "Træner kræver: {command}",
                      "sv": "Tränare kräver: {command}"},
    "hint.no_double": {"en": "no double", "da": "ingen dobling", "sv": "ingen dubbling"},
    "hint.double_take": {"en": "double, take", "da": "dobl, tag imod", "sv": "dubbla, acceptera"},
    "hint.double_pass": {"en": "double, pass", "da": "dobl, afvis", "sv": "dubbla, avböj"},
    "hint.too_good": {"en": "too good to double", "da": "for god til at doble", "sv": "för bra att dubbla"},
    "tutor": {"en": "{mark}: {loss}. Undo?", "da": "{mark} {loss}. Fortryd?", "sv": "{mark}: {loss}. Ångra?"},
    "tutor.doubtful": {"en": "Doubtful", "da": "Tvivlsomt", "sv": "Tveksamt"},
    "tutor.bad": {"en": "Bad", "da": "Dårligt", "sv": "Dåligt"},
    "tutor.very_bad": {"en": "Very bad", "da": "Bommert", "sv": "Grovt fel"},
    # the tutor on a cube action (controller.play.tutor): "Bad double: -0.13 (no double). Undo?"
    # Every warning fits the display's two lines (tests/test_tutor_display_fit.py): hence
    # Danish "Elendig" and Swedish "Usel" for very bad, the tutor's own short names of the
    # right action (XG's "too good"; Swedish "dubbla/acceptera") and no full stop in da/sv
    "tutor_cube": {"en": "{mark}: {loss} ({right}). Undo?", "da": "{mark}: {loss} ({right}) Fortryd?",
                   "sv": "{mark}: {loss} ({right}) Ångra?"},
    "tutor.double.doubtful": {"en": "Doubtful double", "da": "Tvivlsom dobling", "sv": "Tveksam dubbling"},
    "tutor.double.bad": {"en": "Bad double", "da": "Dårlig dobling", "sv": "Dålig dubbling"},
    "tutor.double.very_bad": {"en": "Very bad double", "da": "Elendig dobling", "sv": "Usel dubbling"},
    "tutor.take.doubtful": {"en": "Doubtful take", "da": "Tvivlsomt at tage imod",
                            "sv": "Tveksamt att acceptera"},
    "tutor.take.bad": {"en": "Bad take", "da": "Dårligt at tage imod", "sv": "Dåligt att acceptera"},
    "tutor.take.very_bad": {"en": "Very bad take", "da": "Elendigt at tage imod", "sv": "Uselt att acceptera"},
    "tutor.drop.doubtful": {"en": "Doubtful pass", "da": "Tvivlsomt at afvise", "sv": "Tveksamt att avböja"},
    "tutor.drop.bad": {"en": "Bad pass", "da": "Dårligt at afvise", "sv": "Dåligt att avböja"},
    "tutor.drop.very_bad": {"en": "Very bad pass", "da": "Elendigt at afvise", "sv": "Uselt att avböja"},
    "tutor.roll.doubtful": {"en": "Doubtful no double", "da": "Tvivlsomt at slå", "sv": "Tveksamt att slå"},
    "tutor.roll.bad": {"en": "Bad no double", "da": "Dårligt at slå", "sv": "Dåligt att slå"},
    "tutor.roll.very_bad": {"en": "Very bad no double", "da": "Elendigt at slå", "sv": "Uselt att slå"},
    "tutor.right.take": {"en": "take", "da": "tag imod", "sv": "acceptera"},
    "tutor.right.pass": {"en": "pass", "da": "afvis", "sv": "avböj"},
    "tutor.right.no_double": {"en": "no double", "da": "ingen dobling", "sv": "ingen dubbling"},
    "tutor.right.double_take": {"en": "double, take", "da": "dobl, tag imod", "sv": "dubbla/acceptera"},
    "tutor.right.double_pass": {"en": "double, pass", "da": "dobl, afvis", "sv": "dubbla/avböj"},
    "tutor.right.too_good": {"en": "too good", "da": "for god", "sv": "för bra"},
    # --- the review after a game and the match (controller.show.review_notes): gnubg's ratings
    "review_rating": {"en": "{side}: {rating}", "da": "{side}: {rating}", "sv": "{side}: {rating}"},
    "label.pr": {"en": "PR {pr}", "da": "PR {pr}", "sv": "PR {pr}"},
    "rating.supernatural": {"en": "supernatural", "da": "overnaturlig", "sv": "övernaturlig"},
    "rating.world_class": {"en": "world class", "da": "verdensklasse", "sv": "världsklass"},
    "rating.expert": {"en": "expert", "da": "ekspert", "sv": "expert"},
    "rating.advanced": {"en": "advanced", "da": "øvet", "sv": "avancerad"},
    "rating.intermediate": {"en": "intermediate", "da": "mellemniveau", "sv": "medelgod"},
    "rating.casual": {"en": "casual player", "da": "hyggespiller", "sv": "hobbyspelare"},
    "rating.beginner": {"en": "beginner", "da": "begynder", "sv": "nybörjare"},
    "rating.awful": {"en": "awful!", "da": "elendig!", "sv": "usel!"},
    "rating.none": {"en": "not rated", "da": "uden vurdering", "sv": "utan betyg"},
    "confirm_forfeit": {"en": "{side}: give up the match? Main: yes",
                        "da": "{side}: opgiv matchen? Hoved: ja",
                        "sv": "{side}: ge upp matchen? Huvud: ja"},
    "confirm_reveal": {"en": "{side}: reveal seed, end dice proof? Main: yes",
                       "da": "{side}: afslør frø, slut terningbevis? Hoved: ja",
                       "sv": "{side}: avslöja frö, slut tärningsbevis? Huvud: ja"},
    "dice_entry": {"en": "{side}: dice {dice}? Cube: change",
                   "da": "{side}: terninger {dice}? Kube: skift",
                   "sv": "{side}: tärningar {dice}? Kub: byt"},
    "dice_entry_opening": {"en": "{side}: your die {die}? Cube: change",
                           "da": "{side}: din terning {die}? Kube: skift",
                           "sv": "{side}: din tärning {die}? Kub: byt"},
    "setting.length": {"en": "Match to {length}? Cube: change",
                       "da": "Match til {length}? Kube: skift",
                       "sv": "Match till {length}? Kub: byt"},
    # --- why an action is refused (controller `Refused.why`; the match's MatchStateError.key)
    "refused.practice_refused": {"en": "That position cannot be practised now",
                                 "da": "Den stilling kan ikke øves nu", "sv": "Den ställningen kan inte övas nu"},
    "refused.too_many": {"en": ("One {colour} checker too many on {from}: put it on {to}",
                                "{n} {colour} checkers too many on {from}: put them on {to}"),
                         "da": ("Én {colour} brik for meget på {from}: sæt den på {to}",
                                "{n} {colour} brikker for mange på {from}: sæt dem på {to}"),
                         "sv": ("En {colour} bricka för mycket på {from}: ställ den på {to}",
                                "{n} {colour} brickor för många på {from}: ställ dem på {to}")},
    "refused.online_match": {"en": "Online the server starts the match: leave online play first",
                             "da": "Online starter serveren matchen: forlad onlinespillet først",
                             "sv": "Online startar servern matchen: lämna onlinespelet först"},
    "refused.no_hint": {"en": "No hint now: it is for whoever moves, doubles or answers a double",
                        "da": "Intet tip nu: det gælder den, der flytter, dobler eller svarer på en dobling",
                        "sv": "Inget tips nu: det gäller den som flyttar, dubblar eller svarar på en dubbling"},
    "refused.not_now": {"en": "That cannot be done now", "da": "Det kan ikke gøres nu",
                        "sv": "Det går inte nu"},
    "refused.unknown_action": {"en": "There is no such action", "da": "Den handling findes ikke",
                               "sv": "Den handlingen finns inte"},
    "refused.main_idle": {"en": "{side}'s main button does nothing now",
                          "da": "{side}s hovedknap gør intet nu", "sv": "{side}s huvudknapp gör inget nu"},
    "refused.cube_idle": {"en": "{side}'s cube button does nothing now",
                          "da": "{side}s kubeknap gør intet nu", "sv": "{side}s kubknapp gör inget nu"},
    "refused.computer_plays": {"en": "{side} is played by the computer", "da": "{side} spilles af computeren",
                               "sv": "{side} spelas av datorn"},
    "refused.not_remote": {"en": "{side} is not a remote player", "da": "{side} er ikke en fjernspiller",
                           "sv": "{side} är ingen fjärrspelare"},
    "refused.watching": {"en": "Watching online: the board plays nothing (the menu leaves)",
                         "da": "Ser med online: brættet spiller ikke (menuen afslutter)",
                         "sv": "Tittar på online: brädet spelar inte (menyn avslutar)"},
    "refused.computer_missing": {"en": "The computer level {level} cannot play here",
                                 "da": "Computerniveauet {level} kan ikke spille her",
                                 "sv": "Datornivån {level} kan inte spela här"},
    "refused.computer_failed": {"en": "The computer playing {side} ({level}) failed",
                                "da": "Computeren, der spiller {side} ({level}), fejlede",
                                "sv": "Datorn som spelar {side} ({level}) misslyckades"},
    "refused.no_buttons": {"en": "This table has no buttons", "da": "Bordet har ingen knapper",
                           "sv": "Bordet har inga knappar"},
    "refused.board_cannot": {"en": "The board cannot do that: {text}", "da": "Brættet kan ikke gøre det: {text}",
                             "sv": "Brädet kan inte göra det: {text}"},
    "refused.carrying_out": {"en": "First carry out the move shown on the board",
                             "da": "Flyt først det viste træk på brættet",
                             "sv": "Flytta först draget som visas på brädet"},
    "refused.board_not_ready": {"en": "Put the board right first", "da": "Ret brættet først",
                                "sv": "Rätta till brädet först"},
    "refused.undo_by_hand": {"en": "Undo the move by moving the checkers back",
                             "da": "Fortryd trækket ved at flytte brikkerne tilbage",
                             "sv": "Ångra draget genom att flytta tillbaka brickorna"},
    "refused.tutor_holds_none": {"en": "The tutor holds nothing back now", "da": "Træneren holder intet tilbage nu",
                                 "sv": "Tränaren håller inget tillbaka nu"},
    "refused.board_not_right": {"en": "The board is not right: the turn cannot end",
                                "da": "Brættet står forkert: turen kan ikke slutte",
                                "sv": "Brädet står fel: turen kan inte avslutas"},
    "refused.dice_not_now": {"en": "Dice are entered only before a roll",
                             "da": "Terninger indtastes kun før et slag",
                             "sv": "Tärningar anges bara före ett slag"},
    "refused.dice_verifiable": {"en": "The dice are verifiable: nobody can choose a roll",
                                "da": "Efterprøvelige terninger: ingen kan vælge et slag",
                                "sv": "Verifierbara tärningar: ingen kan välja ett slag"},
    "refused.dice_server": {"en": "Online the server rolls the dice", "da": "Online slår serveren terningerne",
                            "sv": "Online slår servern tärningarna"},
    "refused.phrase_needs_verifiable": {"en": "A dice phrase needs verifiable dice",
                                        "da": "En terningefrase kræver efterprøvelige terninger",
                                        "sv": "En tärningsfras kräver verifierbara tärningar"},
    "refused.phrase_computer": {"en": "The computer gives no dice phrase", "da": "Computeren giver ingen terningfrase",
                                "sv": "Datorn ger ingen tärningsfras"},
    "refused.phrase_revealed": {"en": "The dice seed is revealed: a phrase changes nothing",
                                "da": "Terningefrøet er afsløret: en frase ændrer intet",
                                "sv": "Tärningsfröet är avslöjat: en fras ändrar inget"},
    "refused.phrase_fixed": {"en": "The dice phrases are fixed once the first roll is made",
                             "da": "Terningefraserne ligger fast efter første slag",
                             "sv": "Tärningsfraserna är låsta efter första slaget"},
    "refused.bad_phrase": {"en": "That dice phrase cannot be used: no quotes, at most {n} characters",
                           "da": "Den terningefrase kan ikke bruges: ingen anførselstegn, højst {n} tegn",
                           "sv": "Den tärningsfrasen går inte: inga citattecken, högst {n} tecken"},
    "refused.no_secret": {"en": "This match has no verifiable dice to reveal",
                          "da": "Matchen har ingen terninger at afsløre",
                          "sv": "Matchen har inga tärningar att avslöja"},
    "refused.seed_revealed": {"en": "The dice seed is already revealed", "da": "Terningefrøet er allerede afsløret",
                              "sv": "Tärningsfröet är redan avslöjat"},
    "refused.phase_opening": {"en": "Game {n} waits for the opening roll",
                              "da": "Spil {n} venter på åbningsslaget",
                              "sv": "Spel {n} väntar på öppningsslaget"},
    "refused.phase_roll": {"en": "{side} is to roll", "da": "{side} skal slå", "sv": "{side} ska slå"},
    "refused.phase_doubled": {"en": "{side} must take or drop the double",
                              "da": "{side} skal tage imod eller afvise doblingen",
                              "sv": "{side} måste acceptera eller avböja dubblingen"},
    "refused.phase_move": {"en": "{side} is moving {dice}", "da": "{side} flytter {dice}",
                           "sv": "{side} flyttar {dice}"},
    "refused.phase_resigning": {"en": "{side} must accept or decline the resignation ({result})",
                                "da": "{side} skal acceptere eller afvise opgivelsen ({result})",
                                "sv": "{side} måste svara på uppgivandet ({result})"},
    "refused.phase_over": {"en": "The match is over: {side} won", "da": "Matchen er slut: {side} vandt",
                           "sv": "Matchen är slut: {side} vann"},
    "refused.not_your_turn": {"en": "It is {side}'s turn", "da": "Det er {side}s tur", "sv": "Det är {side}s tur"},
    "refused.bad_dice": {"en": "Dice show 1 to 6", "da": "Terninger viser 1 til 6", "sv": "Tärningar visar 1 till 6"},
    "refused.cube_off": {"en": "The cube is off in this match", "da": "Matchen spilles uden dobbeltkube",
                         "sv": "Matchen spelas utan dubblingstärning"},
    "refused.cube_one_point": {"en": "No cube in a 1-point match", "da": "Ingen dobbeltkube i en 1-pointsmatch",
                               "sv": "Ingen dubblingstärning i en 1-poängsmatch"},
    "refused.cube_crawford": {"en": "No doubling in the Crawford game", "da": "Ingen dobling i Crawford-spillet",
                              "sv": "Ingen dubbling i Crawfordspelet"},
    "refused.cube_cap": {"en": "The cube is at {value}, as high as it goes",
                         "da": "Kuben står på {value}, højere kommer den ikke",
                         "sv": "Dubblingstärningen står på {value}, högre går den inte"},
    "refused.cube_owned": {"en": "{side} owns the cube", "da": "{side} ejer kuben", "sv": "Bara {side} får dubbla"},
    "refused.cube_auto_roll": {"en": "{side} plays with auto-roll: no doubling",
                               "da": "{side} slår automatisk: ingen dobling",
                               "sv": "{side} slår automatiskt: ingen dubbling"},
    "refused.answers_double": {"en": "{side} answers the double", "da": "{side} svarer på doblingen",
                               "sv": "{side} besvarar dubblingen"},
    "refused.bad_resignation": {"en": "Resign a single game, a gammon or a backgammon",
                                "da": "Opgiv spillet, gammon eller backgammon",
                                "sv": "Ge upp ett enkelt spel, gammon eller backgammon"},
    "refused.resign_before_roll": {"en": "A resignation is offered before rolling",
                                   "da": "Man opgiver før man slår", "sv": "Man ger upp innan man slår"},
    "refused.resign_higher": {"en": "A {result} was declined: offer more or play on",
                              "da": "Opgivelsen ({result}) blev afvist: tilbyd mere eller spil videre",
                              "sv": "Uppgivandet ({result}) avböjdes: erbjud mer eller spela vidare"},
    "refused.no_rematch_offer": {"en": "{side} has offered no rematch", "da": "{side} har ikke tilbudt revanche",
                                 "sv": "{side} har inte erbjudit revansch"},
    "refused.answers_resignation": {"en": "{side} answers the resignation", "da": "{side} svarer på opgivelsen",
                                    "sv": "{side} svarar på uppgivandet"},
    "refused.answers_rematch": {"en": "{side} answers the rematch offer", "da": "{side} svarer på revanchen",
                                "sv": "{side} svarar på revanschen"},
    "refused.match_over": {"en": "The match is already over", "da": "Matchen er allerede slut",
                           "sv": "Matchen är redan slut"},
    "refused.illegal_step": {"en": "That step is not legal with {dice}", "da": "Det træk er ikke lovligt med {dice}",
                             "sv": "Det steget är inte tillåtet med {dice}"},
    "refused.move_complete": {"en": "The move is complete: done or undo", "da": "Trækket er komplet: færdig eller fortryd",
                              "sv": "Draget är komplett: klar eller ångra"},
    "refused.nothing_to_undo": {"en": "There is no step to take back", "da": "Der er intet at fortryde",
                                "sv": "Det finns inget att ångra"},
    "refused.steps_played": {"en": "Checkers are already moved: finish or take them back",
                             "da": "Der er allerede flyttet: gør færdigt eller fortryd",
                             "sv": "Brickor är redan flyttade: gör klart eller ångra"},
    "refused.illegal_move": {"en": "{notation} is not legal with {dice}", "da": "{notation} er ikke lovligt med {dice}",
                             "sv": "{notation} är inte tillåtet med {dice}"},
    "refused.move_incomplete": {"en": "The move is not complete yet", "da": "Trækket er ikke komplet endnu",
                                "sv": "Draget är inte komplett än"},
}

_SIDE_PARAMS = ("side", "winner", "loser")
_CELL_PARAMS = ("cell", "from", "to")


def _count(params: Mapping[str, object]) -> int | None:
    for name in ("n", "points"):
        value = params.get(name)
        if isinstance(value, int):
            return value
    return None


def _word(language: str, key: str) -> str:
    return _WORDS[language][key]


def _localise(params: Mapping[str, object], language: str) -> dict[str, object]:
    """The parameters as the message's fields: sides, colours, cells and results in words."""
    fields: dict[str, object] = dict(params)
    plural = _count(params) not in (None, 1)
    for name, value in params.items():
        if name.endswith("_key"):
            fields[name[:-4]] = render(str(value), {}, language)
        elif name in _SIDE_PARAMS:
            fields[name] = _word(language, f"side.{_side(name, value)}")
        elif name == "colour":
            side = _side(name, value)
            fields["colour"] = _word(language, f"colour.{side}" + (".pl" if plural else ""))
            fields["colour_def"] = _word(language, f"colour.{side}.pl")
        elif name in _CELL_PARAMS:
            cell = str(value)
            fields[name] = _word(language, f"cell.{cell}") if not cell.isdigit() else cell
        elif name == "result":
            fields[name] = _word(language, f"result.{value}") if f"result.{value}" in \
                _WORDS[language] else _unknown(name, value)
        elif name == "dice" and isinstance(value, (tuple, list)):
            fields[name] = "-".join(str(die) for die in value)
    return fields


def _side(name: str, value: object) -> str:
    if value not in ("white", "black"):
        raise ValueError(f"message parameter {name} must be 'white' or 'black', not {value!r}")
    return str(value)


def _unknown(name: str, value: object) -> str:
    raise ValueError(f"message parameter {name} has an unknown value {value!r}")


def fields_of(key: str) -> frozenset[str]:
    """The parameter names the message `key` uses, in any language (for tests and callers)."""
    names: set[str] = set()
    for text in message(key).values():
        for variant in (text if isinstance(text, tuple) else (text,)):
            names.update(f for _, f, _, _ in string.Formatter().parse(variant) if f)
    return frozenset(names)


def message(key: str) -> Mapping[str, Text]:
    """The texts of `key` by language; an unknown key is a KeyError naming it."""
    try:
        return MESSAGES[key]
    except KeyError:
        raise KeyError(f"unknown message key {key!r}") from None


def render(key: str, params: Mapping[str, object] | None = None, language: str = "en") -> str:
    """The text of message `key` in `language` with `params` filled in.

    Fails loudly: an unknown key is a KeyError, an unknown language, a missing parameter
    or a parameter value that has no word (a side other than white/black) a ValueError.
    """
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    params = dict(params or {})
    text = message(key)[language]
    if isinstance(text, tuple):
        text = text[0] if _count(params) in (None, 1) else text[1]
    fields = _localise(params, language)
    try:
        return text.format(**fields)
    except KeyError as missing:
        raise ValueError(f"message {key!r} needs the parameter {missing.args[0]}") from None
