"""The words of a `reason` conclusion: the condition of an ordinance's reach it names, whether it holds, and
the numbers compared, in the sentence encodings/vocabulary.yaml gives that condition."""
from __future__ import annotations

import re
from typing import Any

from reasoner.law.vocabulary import vocabulary

_PLACE = re.compile(r"\{(actual|stated)(?::(hours|clock))?\}")


def _hours(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    whole = f"{hours:,} hour{'s' if hours != 1 else ''}"
    return whole if not rest else f"{whole} {rest} minute{'s' if rest != 1 else ''}"


def _clock(minute: int) -> str:
    hour, rest = divmod(minute % 1440, 60)
    if hour == 0 and rest == 0:
        return "midnight"
    return f"{(hour % 12) or 12}:{rest:02d} {'a.m.' if hour < 12 else 'p.m.'}"


def reason_text(item: dict[str, Any]) -> str:
    """The sentence of one reason conclusion ({"kind": "reason", "name", "holds", "actual", "stated"})."""
    words = vocabulary().get("reasons", {}).get(item["name"])
    if not words:
        return f"{item['name'].replace('_', ' ')}: {'holds' if item['holds'] else 'does not hold'}"

    def show(value: int, form: str | None) -> str:
        return _hours(value) if form == "hours" else _clock(value) if form == "clock" else f"{value:,}"

    def fill(match: re.Match) -> str:
        value, form = item.get(match.group(1)), match.group(2)
        if match.group(1) == "actual" and item.get("range"):  # unknown facts: the number over the completions
            low, high = item["range"]
            return f"{show(low, form)} to {show(high, form)}"
        return show(value, form) if isinstance(value, int) else "(not stated)"

    return _PLACE.sub(fill, words["holds" if item["holds"] else "fails"])
