"""The text of the templates that stand inside a sentence: a quantity ({{convert|1300|mi|km}}), a dash ({{ndash}}), a
wrapped phrase ({{nowrap|…}}, {{lang|fr|…}}). Stripped like other templates, they left sentences without their figures
("has a total area of ." in the enwiki excerpt's articles) and years run together ("(1775{{ndash}}1783)" read "(17751783)")."""

from __future__ import annotations

from mwparserfromhell.nodes import Template

_SPACES = {"nbsp": " ", "thinsp": " ", "ndash": "–", "mdash": "—", "snd": " – ", "snds": " – ", "spaced ndash": " – ",
           "mdashb": " — ", "spaced mdash": " — "}
_FIRST_ARGUMENT = frozenset({"nowrap", "nobr", "small", "smaller", "big", "larger"})
_LAST_ARGUMENT = frozenset({"lang", "transl", "transliteration"})
# {{convert|10|to|20|km}}: a range's word between its two values
_RANGE = {"-": "–", "–": "–", "to": "to", "and": "and", "or": "or", "to(-)": "to", "x": "×", "by": "by", "+/-": "±"}
_UNIT_NAMES = {"sqmi": "sq mi", "sqkm": "km²", "km2": "km²", "m2": "m²", "ft2": "sq ft", "sqft": "sq ft", "e6acre": "million acres",
               "e6km2": "million km²", "e6sqmi": "million sq mi", "e3acre": "thousand acres", "e6mi": "million mi",
               "e6km": "million km", "e9km": "billion km", "e6t": "million tonnes", "e6m3": "million m³", "m3": "m³",
               "cuft": "cu ft", "C": "°C", "F": "°F"}

_READ = _FIRST_ARGUMENT | _LAST_ARGUMENT | {"convert", "cvt", "as of", "circa", "c.", "frac"}


def inline_text(template: Template) -> str | None:
    """What the template reads as in its sentence, or None for a template that is not part of one (an infobox, a
    citation, a navigation box). Templates inside its arguments must have been read already."""
    name = str(template.name).strip().lower()
    if name in _SPACES:
        return _SPACES[name]
    if name not in _READ and not name.startswith("lang-"):
        return None  # before reading the arguments: an infobox has dozens
    arguments = [parameter.value.strip_code(normalize=True, collapse=True).strip() for parameter in template.params
                 if not parameter.showkey]
    if name in _FIRST_ARGUMENT:
        return arguments[0] if arguments else ""
    if name in _LAST_ARGUMENT or name.startswith("lang-"):
        return arguments[-1] if arguments else ""
    if name in ("convert", "cvt") and len(arguments) >= 2:
        return _quantity(arguments)
    if name == "as of" and arguments:
        return f"As of {arguments[0]}"
    if name in ("circa", "c.") and arguments:
        return f"c. {arguments[0]}"
    if name == "frac" and arguments:
        whole, fraction = (arguments[0], arguments[1:]) if len(arguments) == 3 else ("", arguments)
        return f"{whole} {'/'.join(fraction)}".strip() if len(fraction) == 2 else "/".join(arguments)
    return None


def _quantity(arguments: list[str]) -> str:
    """{{convert|1300|mi|km}} -> "1300 mi"; {{convert|10|to|20|km}} -> "10 to 20 km"; the first value and unit only."""
    if len(arguments) >= 4 and arguments[1] in _RANGE:
        value, unit = f"{arguments[0]} {_RANGE[arguments[1]]} {arguments[2]}".replace(" – ", "–"), arguments[3]
    else:
        value, unit = arguments[0], arguments[1]
    return f"{value} {_UNIT_NAMES.get(unit, unit)}".strip()

