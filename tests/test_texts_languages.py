"""Danish and Swedish next to English: complete catalogues, the display's width, one term
for one thing.

Both catalogues are checked: the display's (controller/show/texts.py) and the page's
(controller/web/static/i18n.js, and the dice panel's own words in controller/web/static/dice.js, read as text:
their literals are plain key: "value" pairs).
The glossary is the backgammon vocabulary of the rule pages the product was made from
(shared/seeds): where a seed names a thing, the texts use that name and none of the
synonyms other (machine-translated) pages use.
"""
from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from controller.show import texts
from controller.show.display import CENTRE_COLUMN, WHITE_COLUMN, WIDTH, wrap
from controller.show.fonts import MEDIUM, SMALL
from controller.show.texts import LANGUAGES, MESSAGES, Text, render

STATIC = Path(__file__).resolve().parents[1] / "controller" / "web" / "static"

#: concept -> (Danish term, Swedish term), as the seeds write them: the texts' glossary.
GLOSSARY: dict[str, tuple[str, str]] = {
    "checker": ("brik", "bricka"),
    "point": ("trekant", "tunga"),
    "bar": ("baren", "baren"),
    "home board": ("hjemmefelt", "hemmaplan"),
    "bear off": ("udbæring", "plocka av"),
    "dice / die": ("terninger / terning", "tärningar / tärning"),
    "roll (verb / noun)": ("slå / slag", "slå / slag"),
    "move (whole turn)": ("træk", "drag"),
    "step (one die's part of a move)": ("træk", "steg"),
    "doubling cube": ("dobbeltkube, kuben", "dubblingstärning"),
    "double (verb / noun)": ("doble / dobling", "dubbla / dubbling"),
    "take": ("tage imod", "acceptera"),
    "drop / pass": ("afvise", "avböja"),
    "resign a game": ("opgive", "ge upp"),
    "accept / decline a resignation": ("acceptere / afvise", "tacka ja / spela vidare"),
    "single game / gammon / backgammon": ("almindeligt spil / gammon / backgammon",
                                          "enkelt spel / gammon / backgammon"),
    "game (of a match)": ("spil", "spel"),
    "match / point(s)": ("match / point", "match / poäng"),
    "Crawford": ("Crawford-reglen, Crawford-spil", "Crawfordregeln, Crawfordspel"),
    "rematch": ("revanche", "revansch"),
    "undo": ("fortryd", "ångra"),
    "cannot move": ("sidde over", "stå över"),
    "pips": ("pip, piptal", "pip"),
    "verifiable dice": ("efterprøves / efterprøvelige", "verifierbara"),
}

#: synonyms the seeds' own pages do not use for these things (regex, at a word's start)
FORBIDDEN: dict[str, dict[str, str]] = {
    "da": {
        r"\bstang": "bar: baren", r"\bgærde": "bar: baren",
        r"\bdoblerterning": "cube: dobbeltkube", r"\bfordoblingsterning": "cube: dobbeltkube",
        r"fordobl": "double: doble, dobling (the seeds' doblerterning)", r"\btjekker": "checker: brik",
        r"\bchecker": "checker: brik", r"\bjeton": "checker: brik", r"\bdam(er)?\b": "checker: brik",
        r"\bfelt": "point: trekant", r"\bpunkt": "point: trekant",
        r"\bhjemmebræt": "home board: hjemmefelt", r"\bkast": "roll: slå, slag",
        r"\brull": "roll: slå", r"\bgiver op\b": "resign: opgive", r"\bomgang": "game: spil",
    },
    "sv": {
        r"\bkuben\b": "the cube itself: dubblingstärningen (the button is 'kub')",
        r"\bspets": "point: tunga", r"\bparti": "game: spel", r"\båtgärd": "action: handling",
        r"\bkontrollerbar": "verifiable: verifierbar", r"\bkasta": "roll: slå",
        r"\bpjäs": "checker: bricka", r"\bta(r)? emot": "take: acceptera (the seed's Accepterar)",
        r"\bdubbel(?!slag|klick)": "double: dubbla, dubbling",
    },
}


def _variants(text: Text) -> tuple[str, ...]:
    """A message's texts: one, or its (one, other) pair."""
    return text if isinstance(text, tuple) else (text,)


def _fields(text: Text) -> set[str]:
    return {name for variant in _variants(text)
            for _, name, _, _ in string.Formatter().parse(variant) if name}


def _page_strings(file: str, name: str) -> dict[str, dict[str, str]]:
    """A page catalogue, language -> key -> text, read from the literal `const name = {...}`."""
    source = (STATIC / file).read_text(encoding="utf-8")
    start = source.index(f"const {name} = {{")
    body = source[start:source.index("\n};", start)]
    blocks = re.split(r"^  (en|da|sv): \{$", body, flags=re.M)
    catalogue: dict[str, dict[str, str]] = {}
    for language, block in zip(blocks[1::2], blocks[2::2]):
        pairs = re.findall(r'(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_][\w.]*))\s*:\s*("(?:[^"\\]|\\.)*")', block)
        catalogue[language] = {}
        for quoted, bare, literal in pairs:
            key = quoted or bare
            assert key not in catalogue[language], f"{file} {language}: {key} twice"
            catalogue[language][key] = json.loads(literal)
    return catalogue


PAGE = _page_strings("i18n.js", "STRINGS")
DICE_PANEL = _page_strings("dice.js", "WORDS")


def _display_texts(language: str) -> list[tuple[str, str]]:
    """(what, text) for every text as the display draws it; a key that only fills another's
    field (a menu item, a tutor mark, a rating) is drawn inside that one, so it is rendered
    there with each of its values."""
    sample = {"side": "black", "winner": "black", "loser": "white", "colour": "black", "n": 2,
              "cell": "bar", "from": "13", "to": "off-white", "dice": (5, 3), "value": 64,
              "result": "backgammon", "points": 4, "score_white": 5, "score_black": 3,
              "notation": "bar/22 13/8", "level": "gnubg", "length": 7, "die": 4,
              "code": "630d cd29", "profile": "14x13", "board": "12x12", "version": 2,
              "text": "scan failed", "rank": 1, "of": 16, "equity": "-0.295", "loss": "-0.09",
              "pr": "14.2"}
    #: a field filled from a message key -> the keys that fill it
    nested = {"item": "menu.", "action": "hint.", "rating": "rating."}
    out: list[tuple[str, str]] = []
    for key in sorted(MESSAGES):
        if key.startswith(("menu.", "hint.", "tutor.", "rating.", "label.")):
            continue
        names = texts.fields_of(key) - {"colour_def"}
        # a field this sample does not know (a key added later) gets a short number
        params = {name: sample.get(name, 12) for name in names if not name.endswith("_key")}
        if "colour_def" in texts.fields_of(key):
            params["colour"] = "black"
        if key == "tutor":
            choices = [{"mark_key": f"tutor.{mark}"} for mark in ("doubtful", "bad", "very_bad")]
        elif key == "tutor_cube":
            choices = [{"mark_key": f"tutor.{action}.{mark}", "right_key": right}
                       for action, rights in (("double", ("tutor.right.no_double", "tutor.right.too_good")),
                                              ("roll", ("tutor.right.double_take", "tutor.right.double_pass")),
                                              ("take", ("tutor.right.pass",)),
                                              ("drop", ("tutor.right.take",)))
                       for mark in ("doubtful", "bad", "very_bad") for right in rights]
        else:
            fields = sorted(names & nested.keys())
            choices = [{f"{field}_key": k} for field in fields for k in MESSAGES
                       if k.startswith(nested[field]) and k.count(".") == 1] or [{}]
        for choice in choices:
            what = f"{key} {sorted(choice.values())}" if choice else key
            out.append((what, render(key, {**params, **choice}, language)))
    return out


@pytest.mark.parametrize("language", ("da", "sv"))
def test_a_display_line_in_english_is_one_line_in_every_language(language: str) -> None:
    """A prompt that is one line of the 128-pixel display in English is one line in Danish
    and Swedish too: the display shows two lines, and with the review's notes only the
    first one stays put while the second pages (display.pinned_lines)."""
    too_long = []
    for (what, english), (_, text) in zip(_display_texts("en"), _display_texts(language)):
        lines = wrap(text, SMALL, WIDTH)
        if len(wrap(english, SMALL, WIDTH)) == 1 and len(lines) > 1:
            too_long.append(f"{what}: {lines}")
    assert not too_long, "\n".join(too_long)


#: the tutor's cube warning names the mark, the loss and the right cube action; in Danish and
#: Swedish some of them take a third line (the prompt pages), the words being the glossary's
PAGES_MORE = {"tutor_cube"}


@pytest.mark.parametrize("language", ("da", "sv"))
def test_a_prompt_pages_no_more_than_in_english(language: str) -> None:
    """The display shows two lines at a time and pages longer prompts every 2.5 s: what is
    read at once in English is read at once in every language."""
    pages = []
    for (what, english), (_, text) in zip(_display_texts("en"), _display_texts(language)):
        count = -(-len(wrap(english, SMALL, WIDTH)) // 2)
        lines = wrap(text, SMALL, WIDTH)
        if -(-len(lines) // 2) > count and what.split()[0] not in PAGES_MORE:
            pages.append(f"{what}: {lines}")
    assert not pages, "\n".join(pages)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_displays_labels_fit_their_columns(language: str) -> None:
    column = WHITE_COLUMN[1] - WHITE_COLUMN[0]
    centre = CENTRE_COLUMN[1] - CENTRE_COLUMN[0]
    for side in ("white", "black"):
        assert MEDIUM.width(render(f"label.{side}", {}, language)) <= column
    assert SMALL.width(render("label.pips", {}, language) + " 167") <= column
    assert SMALL.width(render("label.pr", {"pr": "14.2"}, language)) <= column
    assert MEDIUM.width(render("label.length", {"n": 25}, language)) <= centre
    assert SMALL.width(render("label.crawford", {}, language)) + 4 <= centre


@pytest.mark.parametrize("catalogue", [PAGE, DICE_PANEL], ids=["i18n.js", "dice.js"])
def test_the_page_has_every_key_in_every_language_with_the_same_fields(
        catalogue: dict[str, dict[str, str]]) -> None:
    assert set(catalogue) == set(LANGUAGES)
    for language in ("da", "sv"):
        assert set(catalogue[language]) == set(catalogue["en"]), (
            language, sorted(set(catalogue["en"]) ^ set(catalogue[language])))
        for key, english in catalogue["en"].items():
            assert set(re.findall(r"\{(\w+)\}", catalogue[language][key])) == \
                set(re.findall(r"\{(\w+)\}", english)), (language, key)
            assert catalogue[language][key].strip(), (language, key)


def test_the_display_has_every_key_in_every_language_with_the_same_fields() -> None:
    for key, by_language in MESSAGES.items():
        assert set(by_language) == set(LANGUAGES), key
        english = by_language["en"]
        fields_en = _fields(english)
        for language in ("da", "sv"):
            text = by_language[language]
            fields = _fields(text)
            if "colour_def" in fields:  # the definite form of the same colour
                fields = fields - {"colour_def"} | {"colour"}
            assert fields == fields_en, (key, language)


def _all_texts(language: str) -> list[tuple[str, str]]:
    display = [(key, variant) for key, by_language in MESSAGES.items()
               for variant in _variants(by_language[language])]
    words = [(key, word) for key, word in texts._WORDS[language].items()]
    return display + words + [(f"page {key}", text) for key, text in PAGE[language].items()] + \
        [(f"dice panel {key}", text) for key, text in DICE_PANEL[language].items()]


@pytest.mark.parametrize("language", ("da", "sv"))
def test_the_glossarys_terms_are_used_not_their_synonyms(language: str) -> None:
    found = [f"{key}: {text!r} has {pattern} ({why})"
             for key, text in _all_texts(language)
             for pattern, why in FORBIDDEN[language].items()
             if re.search(pattern, text, flags=re.I)]
    assert not found, "\n".join(found)


def test_the_glossarys_terms_are_in_the_seeds() -> None:
    """Each term is one the seeds use (a term's stem: "acceptera" is the seed's
    "Accepterar"), so the glossary is not made up; the few where the seeds are silent
    are named."""
    seeds_dir = Path(__file__).resolve().parents[1] / ".." / "shared" / "seeds"
    seeds = " ".join(p.read_text(encoding="utf-8") for p in sorted(seeds_dir.glob("*.txt"))).lower()
    silent = {"steg", "stå över", "dubbling", "fortryd", "efterprøves", "efterprøvelige", "verifierbara",
              "pip", "opgive", "revanche", "Crawford-spil", "Crawfordspel"}
    missing = []
    for concept, (danish, swedish) in GLOSSARY.items():
        for term in re.split(r" / |, ", danish) + re.split(r" / |, ", swedish):
            stems = [word[:-1] if len(word) > 4 else word for word in term.lower().split()]
            if term not in silent and not all(stem in seeds for stem in stems):
                missing.append((concept, term))
    assert not missing


def test_the_sides_are_names_in_every_text() -> None:
    """White and Black are the players' names ("Hvids bakke", "Vits fack"), capitalised as
    the display's labels are; the lower-case colour is only the checkers' ("2 hvide")."""
    genitives = {"da": r"\b(hvids|sorts)\b", "sv": r"\b(vits|svarts)\b"}
    found = [(key, text) for language in ("da", "sv") for key, text in _all_texts(language)
             if re.search(genitives[language], text)]
    assert not found


def test_the_same_things_have_the_same_words_in_both_catalogues() -> None:
    """The page and the display name the sides, results and buttons alike."""
    for language in LANGUAGES:
        for side in ("white", "black"):
            assert PAGE[language][f"side.{side}"] == render(f"label.{side}", {}, language)
        for result in ("gammon", "backgammon"):
            assert PAGE[language][f"result.{result}"] == texts._WORDS[language][f"result.{result}"]
        assert PAGE[language]["review.rating.expert"] == render("rating.expert", {}, language)
