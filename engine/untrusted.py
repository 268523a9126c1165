"""Untrusted input: a JSON value read from a log line or a request body, checked before
anything uses it (`json_problem`), and text kept by older versions made showable.

A lone UTF-16 surrogate (which JSON's `\\ud800` escape can carry) cannot be written as
UTF-8: it is refused where text comes in, and in text stored before that was checked it
is shown as the replacement character (`displayable`, `displayable_json`). Nesting and
whole numbers are bounded too, so nothing downstream meets a value no table needs.
`shorten` bounds how much of an input a refusal quotes back.
"""
from __future__ import annotations

import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"
MAX_DEPTH = 32              # nesting of lists and objects; a log line needs 4
MAX_WHOLE = 2 ** 53         # whole numbers beyond this (JavaScript's exact range) are refused


def encodable(text: str) -> bool:
    """Whether `text` can be written as UTF-8 (it holds no lone surrogate)."""
    return _SURROGATE.search(text) is None


def json_problem(value: Any, max_depth: int = MAX_DEPTH) -> str | None:
    """What is wrong with a parsed JSON value, in English words naming where
    ("seats[1].name"), or None (see json_fault)."""
    fault = json_fault(value, max_depth)
    if fault is None:
        return None
    code, where = fault
    return {
        "text_not_unicode": f"the text {_at(where)}is not valid Unicode (it holds a lone surrogate)",
        "number_too_large": f"the number {_at(where)}is too large",
        "too_deep": f"the value is nested more than {max_depth} deep",
        "key_not_unicode": f"a key {_at(where)}is not valid Unicode (it holds a lone surrogate)",
    }[code]


def json_fault(value: Any, max_depth: int = MAX_DEPTH) -> tuple[str, str] | None:
    """What is wrong with a parsed JSON value, as a code and where ("seats[1].name", ""
    at the top), or None: "text_not_unicode" / "key_not_unicode" (text that cannot be
    written as UTF-8), "too_deep" (nesting deeper than `max_depth`), "number_too_large"
    (a whole number beyond ±2**53). Walks without recursion."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, str):
            if not encodable(item):
                return "text_not_unicode", where
        elif isinstance(item, bool) or item is None or isinstance(item, float):
            continue
        elif isinstance(item, int):
            if not -MAX_WHOLE <= item <= MAX_WHOLE:
                return "number_too_large", where
        elif isinstance(item, (dict, list)):
            if depth >= max_depth:
                return "too_deep", where
            if isinstance(item, dict):
                for key, inner in item.items():
                    if not encodable(key):
                        return "key_not_unicode", where
                    stack.append((inner, f"{where}.{key}" if where else key, depth + 1))
            else:
                stack.extend((inner, f"{where}[{i}]", depth + 1) for i, inner in enumerate(item))
    return None


def _at(where: str) -> str:
    return f"at {shorten(where, 60)} " if where else ""


def displayable(text: str) -> str:
    """`text` with every lone surrogate replaced by U+FFFD, so it can be shown."""
    return _SURROGATE.sub(REPLACEMENT, text)


def displayable_json(value: Any) -> Any:
    """A parsed JSON value with every text (keys too) made `displayable`."""
    if isinstance(value, str):
        return displayable(value)
    if isinstance(value, dict):
        return {displayable(k): displayable_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [displayable_json(v) for v in value]
    return value


def shorten(text: str, limit: int = 200) -> str:
    """`text` cut to at most `limit` characters, its middle replaced by "…" when cut
    (the end of a refusal says what is wrong: "'xxxx…xxxx' is not a Flip 7 card")."""
    if len(text) <= limit:
        return text
    tail = (limit - 1) // 3
    return text[:limit - 1 - tail] + "…" + text[len(text) - tail:]
