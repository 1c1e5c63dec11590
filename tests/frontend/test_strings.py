"""Every word of the site exists in every language: the play page's string catalogue (the keys
the game screen's scripts ask for, with the same placeholders), and every string that the
templates and the frontend's Python code mark for translation, which must have a French and a
Russian translation in the compiled catalogues (frontend/locale/*/LC_MESSAGES/django.mo, built
from the .po files by `manage.py compilemessages` and committed with them)."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation.template import templatize

from frontend.catalogue import frontend_strings
from frontend.languages import SITE_LANGUAGE_CODES

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
GAME_SCRIPTS = FRONTEND / "static" / "frontend" / "game"
PAGE_SCRIPTS = FRONTEND / "static" / "frontend" / "pages"
LOCALE = FRONTEND / "locale"
OTHER_LANGUAGES = [code for code in SITE_LANGUAGE_CODES if code != "en"]
# t("key"), t('key') or t(`key`) with a literal key; `rank_${...}`-style keys are checked below.
KEY = re.compile(r"""\bt\(\s*["'`]([a-z_]+)["'`]""")
PLACEHOLDER = re.compile(r"\{(\w+)\}")

# A message: (context or None, msgid, plural msgid or None).
Message = tuple[str | None, str, str | None]


def keys_used(*scripts: Path) -> set[str]:
    """The catalogue keys that `t("...")` calls of the scripts ask for."""
    used: set[str] = set()
    for script in scripts or GAME_SCRIPTS.glob("*.js"):
        text = "\n".join(
            line for line in script.read_text().splitlines() if not line.lstrip().startswith("//")
        )
        used |= set(KEY.findall(text))
    return used


def catalogue(language: str) -> dict[str, str]:
    with translation.override(language):
        return frontend_strings()


# -- what the templates and the Python code ask to translate ----------------------------------

# The calls Django's `templatize` writes for {% translate %} and {% blocktranslate %}.
TEMPLATE_CALL = re.compile(r"\b(n?p?gettext)\(((?:\s*u?'(?:[^'\\]|\\.)*'\s*,?)+)")
LITERAL = re.compile(r"u?'(?:[^'\\]|\\.)*'")
PYTHON_CALLS = {
    "_": "gettext",
    "gettext": "gettext",
    "gettext_lazy": "gettext",
    "pgettext": "pgettext",
    "pgettext_lazy": "pgettext",
    "ngettext": "ngettext",
    "ngettext_lazy": "ngettext",
    "npgettext": "npgettext",
    "npgettext_lazy": "npgettext",
}


def message(kind: str, args: list[str]) -> Message:
    context = args.pop(0) if kind.startswith("np") or kind == "pgettext" else None
    return context, args[0], args[1] if kind.startswith(("n", "np")) and len(args) > 1 else None


def template_messages(source: str) -> set[Message]:
    found: set[Message] = set()
    for kind, args in TEMPLATE_CALL.findall(templatize(source)):
        found.add(message(kind, [ast.literal_eval(text) for text in LITERAL.findall(args)]))
    return found


def python_messages(source: str) -> set[Message]:
    found: set[Message] = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        kind = PYTHON_CALLS.get(node.func.id)
        # As makemessages: only calls whose arguments are all literal strings.
        texts = [arg.value for arg in node.args if isinstance(arg, ast.Constant)]
        literal = len(texts) == len(node.args) and all(isinstance(t, str) for t in texts)
        if kind and texts and literal:
            found.add(message(kind, list(texts)))
    return found


def site_messages() -> set[Message]:
    found: set[Message] = set()
    for path in sorted((FRONTEND / "templates").rglob("*.html")):
        found |= template_messages(path.read_text())
    for path in sorted(FRONTEND.rglob("*.py")):
        if "migrations" not in path.parts:
            found |= python_messages(path.read_text())
    return found


def compiled(language: str) -> dict[object, str]:
    with (LOCALE / language / "LC_MESSAGES" / "django.mo").open("rb") as mo:
        return gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]


def untranslated(messages: set[Message], language: str) -> list[Message]:
    """The messages the language's compiled catalogue has no (or an empty) translation of."""
    catalog = compiled(language)
    missing = []
    for context, msgid, plural in messages:
        key = f"{context}\x04{msgid}" if context else msgid
        forms = [catalog.get((key, 0)), catalog.get((key, 1))] if plural else [catalog.get(key)]
        if not all(forms):
            missing.append((context, msgid, plural))
    return sorted(missing, key=lambda m: (m[1], m[0] or ""))


def po_translations(language: str) -> dict[object, str]:
    """The translated, non-fuzzy entries of the language's .po file, keyed as in a .mo."""
    entries: dict[object, str] = {}
    text = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        field = None
        fuzzy = False
        for line in block.splitlines():
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            elif line.startswith("#"):
                continue
            elif line.startswith('"') and field:
                fields[field] += ast.literal_eval(line)
            elif " " in line:
                field, _, value = line.partition(" ")
                fields[field] = ast.literal_eval(value)
        if fuzzy or not fields.get("msgid"):
            continue
        context = fields.get("msgctxt")
        key = f"{context}\x04{fields['msgid']}" if context else fields["msgid"]
        if "msgid_plural" in fields:
            for name, value in fields.items():
                if name.startswith("msgstr[") and value:
                    entries[(key, int(name[7:-1]))] = value
        elif fields.get("msgstr"):
            entries[key] = fields["msgstr"]
    return entries


# -- the play page's catalogue ------------------------------------------------------------------


def test_every_key_the_game_scripts_use_is_in_the_catalogue():
    used = keys_used()
    assert used, f"no t(...) call found under {GAME_SCRIPTS}"

    assert used <= set(catalogue("en")), sorted(used - set(catalogue("en")))


@pytest.mark.parametrize(
    ("script", "path"),
    [
        ("home.js", "/"),
        ("board.js", "/board/munger/{today}/"),
        ("me.js", "/me/"),
        ("account.js", "/account/"),
        ("analysis.js", "/analysis/1/"),
        ("report.js", "/analysis/1/"),
        ("opens.js", "/archive/"),
        ("opens.js", "/me/"),
    ],
)
def test_every_key_a_page_script_uses_is_in_its_pages_strings(client, db, script, path):
    from games import clock

    strings = client.get(path.format(today=clock.today().isoformat())).context["strings"]
    used = keys_used(PAGE_SCRIPTS / script)

    assert used, f"no t(...) call found in {script}"
    assert used <= set(strings), sorted(used - set(strings))


def test_card_words_for_every_rank_and_suit():
    english = catalogue("en")

    for rank in "A23456789TJQK":
        assert english[f"rank_{rank}"]
    for suit in "CDHS":
        assert english[f"suit_{suit}"]


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_translations_keep_the_placeholders(language):
    english, other = catalogue("en"), catalogue(language)

    assert set(other) == set(english)
    for key, text in english.items():
        # A plural entry (a dict of forms): every form keeps the placeholders.
        for form, translated in forms(other[key]).items():
            english_form = forms(text).get(form, forms(text)["other"])
            assert sorted(PLACEHOLDER.findall(translated)) == sorted(
                PLACEHOLDER.findall(english_form)
            ), (key, form)


def forms(entry: str | dict[str, str]) -> dict[str, str]:
    """A catalogue entry's forms: a plural entry's own, a plain one as its one form."""
    return entry if isinstance(entry, dict) else {"other": entry}


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_card_and_pile_names_are_translated(language):
    english, other = catalogue("en"), catalogue(language)
    names = [key for key in english if key.startswith(("rank_", "suit_", "pile_", "card_"))]

    assert len(names) > 20
    # A French word may be spelt as in English ("six"); most must differ.
    same = [key for key in names if other[key] == english[key]]
    assert len(same) <= 1, same


# -- templates and Python code --------------------------------------------------------------------


def test_the_strings_of_every_template_and_module_are_found():
    messages = site_messages()
    msgids = {msgid for _context, msgid, _plural in messages}

    assert len(messages) > 300
    assert "Under review" in msgids  # a template's {% translate %} (and the play catalogue)
    assert "Playing as <strong>%(name)s</strong>." in msgids  # a {% blocktranslate %}
    assert (None, "%(moves)s move", "%(moves)s moves") in messages  # a plural
    assert ("rank, in a sentence", "king", None) in messages  # a card word, with its context


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_template_and_module_string_is_translated(language):
    missing = untranslated(site_messages(), language)

    assert not missing, f"no {language} translation (add it to the .po, compile the .mo): {missing}"


def test_a_string_without_translation_is_caught():
    template = "{% load i18n %}<p>{% translate 'A sentence nobody translated' %}</p>"

    assert untranslated(template_messages(template), "fr") == [
        (None, "A sentence nobody translated", None)
    ]


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_the_compiled_catalogues_are_up_to_date(language):
    mo = {key: value for key, value in compiled(language).items() if key != ""}

    assert mo == po_translations(language), "run manage.py compilemessages and commit the .mo"


# -- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize("language", SITE_LANGUAGE_CODES)
def test_every_refusal_the_engine_can_raise_has_a_sentence(language):
    """Each code of `REFUSALS` (tests/engine/test_refusals.py meets every one in play) has a
    sentence in every language, translated, whose placeholders are among the code's facts
    (game/refusal.js fills them in words)."""
    from games.engine.errors import REFUSALS

    words, english = catalogue(language), catalogue("en")
    for code, facts in REFUSALS.items():
        sentence = words.get(f"refusal_{code}")
        assert sentence, (language, code)
        assert set(PLACEHOLDER.findall(sentence)) <= set(facts) | {"direction"}, (code, sentence)
        if language != "en":
            assert sentence != english[f"refusal_{code}"], (language, code)
    for colour in ("red", "black"):
        assert words[f"colour_{colour}"]
