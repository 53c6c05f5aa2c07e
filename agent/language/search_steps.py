"""What people say after a search: stepping through its matches ("another one", "the next", "show me
the second one", "a different one") and going between the photos open beside each other ("go back
to the previous photo", "switch to coffee.jpg").

A step is the same search at another rank, ``search <words> #<rank>``: a command line that
round-trips and replays (the library ranks the same way each time), so it is CAISE-shaped data.
"""

from __future__ import annotations

import re

from agent.grammar.commands import Search, Switch
from agent.language.words import clean_text, strip_polite

_ORDINAL = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5,
            "5th": 5, "sixth": 6, "6th": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10}
_THING = r"(?: (?:one|match|result|photo|picture|image|pic|hit|option))?"
_NEXT = re.compile(rf"(?:(?:show|give|get|find|open) (?:me )?|(?:let's |let me )?(?:see|try) |(?:what about|how about) |"
                   rf"(?:i want|i'd like) |no,? |nah,? |not (?:this|that)(?: one)?,? )*(?:(?:the |a )?(?:next|another|"
                   rf"different|other)|one more|something else|a different){_THING}(?: (?:please|instead|then))?")
_NOT_THIS = re.compile(r"(?:no,? )?(?:not (?:this|that)(?: one)?|that's not it|that is not it|wrong (?:one|photo|picture)|"
                       r"try again|next|skip(?: it| this one)?)")
_RANK = re.compile(rf"(?:(?:show|give|get|open) (?:me )?|(?:let's |let me )?(?:see|try) |(?:i want|i'd like) )?"
                   rf"(?:the |number |#)?({'|'.join(_ORDINAL)}|\d{{1,2}}){_THING}(?: (?:please|instead|then))?")


def search_step(utterance: str, last: Search | None) -> Search | None:
    """The search ``last`` at the rank the words ask for, or None when they do not step through its
    matches.

    >>> search_step("another one", Search("red balloon")).format()
    'search red balloon #2'
    >>> search_step("show me the third one", Search("cat", rank=2)).format()
    'search cat #3'
    >>> search_step("make it brighter", Search("cat")) is None
    True
    """
    if last is None:
        return None
    c = strip_polite(clean_text(utterance)).strip(" .!?,") or clean_text(utterance).strip(" .!?,")  # "next"
    if _NEXT.fullmatch(c) or _NOT_THIS.fullmatch(c):
        rank = last.rank + 1
    elif (m := _RANK.fullmatch(c)) and (m.group(1) in _ORDINAL or re.search(r"#|\bnumber\b|\bone\b|match|result", c)):
        rank = _ORDINAL.get(m.group(1)) or int(m.group(1))
    elif re.fullmatch(rf"(?:(?:go )?back to |show me )?the previous{_THING}", c) and re.search(r"match|result", c):
        rank = max(1, last.rank - 1)
    else:
        return None
    if not 1 <= rank <= 99:
        return None
    return Search(last.words, rank=rank)


_PHOTO = r"(?:photo|picture|image|pic|one|file)"
_BACK = re.compile(rf"(?:(?:go|switch|get|take me|bring me|come|jump|return) )?(?:back )?(?:to )?(?:the )?"
                   rf"(?:previous|other|earlier|last|first|old|original)(?: {_PHOTO}| one i was (?:editing|working on))"
                   rf"(?: again)?|(?:go |switch )?back to (?:the )?(?:photo|picture|image|one) i was (?:editing|working on)|"
                   rf"(?:show|open) (?:me )?(?:the )?(?:previous|other|earlier) {_PHOTO}(?: again)?")


def read_switch(utterance: str, names: list[str]) -> Switch | None:
    """"Go back to the previous photo" -> ``switch previous``; "switch to coffee.jpg" (a name of one
    of the photos open, ``names``) -> ``switch coffee.jpg``; None for anything else ("go back" alone
    is undo, "go back to the original" the original of this photo).

    >>> read_switch("go back to the previous photo", ["a.jpg", "b.jpg"]).format()
    'switch previous'
    >>> read_switch("go back to the original", ["a.jpg", "b.jpg"]) is None
    True
    """
    c = strip_polite(clean_text(utterance)).strip(" .!?,")
    if _BACK.fullmatch(c) and not re.fullmatch(r".*\boriginal\b(?! (?:photo|picture|image|pic|file))", c):
        return Switch("previous")
    m = re.fullmatch(r"(?:(?:go |switch |get |jump |return )?(?:back )?to|show(?: me)?|open) (?:the )?(.+?)(?: again)?", c)
    if m:
        said = m.group(1).strip()
        for name in names:
            stem = name.lower().rsplit(".", 1)[0]
            if said in (name.lower(), stem, f"{stem} photo", f"{stem} picture", f"photo {stem}"):
                return Switch(name)
    return None
