"""The one lexicon: every word list that more than one part of Easel reads.

The request reader (:mod:`agent.language`), the command model's rules
(:mod:`agent.command_model.rules`), the referent-colour ranker (:mod:`agent.learned.referent_colour`),
the phrase reader of things the detector finds (:mod:`agent.perception.things`) and the object edits
all take their colour words, directions, sizes and default amounts from here, so a word means the
same thing wherever it is read. It sits at the bottom of agent/ (beside the grammar) so that every
layer can import it. Plain data and one helper (:func:`noun_key`); no torch, no models.
"""

from __future__ import annotations

import re

from editor.colors import COLORS

# -- colours ------------------------------------------------------------------------------------

# Colour words a search may carry (the concepts also say white, black, gray...).
SEARCH_PALETTE = tuple(COLORS) + ("white", "black", "gray", "grey", "silver", "golden", "gold", "beige", "maroon")
EDIT_PALETTE = tuple(COLORS)
SEARCH_COLOURS = frozenset(SEARCH_PALETTE)
# The concepts say gray, CAISE's queries grey.
CAISE_SPELLING = {"gray": "grey"}
# Words by which a request names a colour without saying it ('the colour of the sky').
COLOUR_NOUNS = {"color", "colour", "colors", "colours", "colored", "coloured", "shade"}

# Colour words of edit requests and what each means among CAISE's nine colours (reddish, teal, golden...).
COLOUR_WORD = {**{c: c for c in COLORS}, "sky blue": "skyblue", "light blue": "skyblue", "violet": "purple",
               "magenta": "pink", "gold": "yellow", "golden": "orange", "sepia": "brown", "teal": "skyblue",
               "cyan": "skyblue", "redder": "red", "bluer": "blue", "greener": "green", "yellower": "yellow",
               "pinker": "pink", "reddish": "red", "bluish": "blue", "greenish": "green", "yellowish": "yellow",
               "pinkish": "pink", "orangey": "orange", "orangish": "orange", "purplish": "purple", "brownish": "brown"}
# Colour words that describe a thing in a caption or a phrase ("the red car", "a person in beige").
THING_COLOURS = frozenset(COLORS) | {"black", "white", "grey", "gray", "beige"}

# -- directions and amounts ---------------------------------------------------------------------

CLOCKWISE = {"clockwise", "cw", "right", "rightward", "rightwards"}
COUNTERCLOCKWISE = {"anticlockwise", "counterclockwise", "ccw", "left", "leftward", "leftwards"}
DOWN = {"decrease", "decreased", "reduce", "reduced", "lower", "lowered", "darker", "darken", "dim",
        "dimmer", "less", "lessen", "down", "darkness", "minus", "dull", "duller"}
UP = {"increase", "increased", "raise", "brighten", "brighter", "boost", "more", "up", "lighter",
      "lighten", "plus", "add", "enhance", "higher"}
AGAIN = {"more", "again", "further", "another", "same", "repeat", "once", "keep", "continue", "even"}
# Size words, one list for the request reader (as a pattern, with its phrases) and the command
# model's rules (as tokens). Once two lists that disagreed ("subtle", "mild" were small for one only).
SMALL = {"bit", "little", "slightly", "slight", "touch", "tad", "somewhat", "subtle", "subtly", "mild", "mildly",
         "small"}
SMALL_PHRASES = ("a few",)
LARGE = {"much", "lot", "lots", "very", "really", "way", "significantly", "considerably", "heavily", "strongly",
         "greatly", "dramatic", "dramatically", "super", "extremely", "drastically", "highly"}
LARGE_PHRASES = ("a ton", "more and more")
# (small, normal, large) amounts when a request gives none: "a bit brighter", "brighter", "much brighter".
# adjust_attr points for each attribute, and adjust_color's intensity for a tint.
DEFAULT_AMOUNTS = {
    "brightness": (10, 20, 40), "contrast": (10, 20, 40), "saturation": (15, 30, 60),
    "sharpness": (20, 40, 80), "warmth": (12, 25, 50), "hue": (10, 20, 40), "tint": (0.1, 0.2, 0.35),
}

# -- the thing a colour refers to ---------------------------------------------------------------

REFERENT_STOP = {"the", "a", "an", "of", "in", "on", "at", "by", "this", "that", "these", "those", "image",
                 "picture", "photo", "pic", "above", "previous", "last", "it", "its", "is", "which", "with",
                 "and", "one", "me", "as", "same", "to", "matches", "match", "matching", "similar", "like",
                 "color", "colour", "seen", "have", "has", "there", "their", "his", "her", "first", "second",
                 "worn"}
NOUN_SYNONYMS = {"tshirt": "shirt", "top": "shirt", "tee": "shirt", "jumper": "sweater", "cap": "hat",
                 "puppy": "dog", "kitten": "cat", "lady": "woman", "guy": "man", "kid": "child",
                 "automobile": "car", "leaves": "leaf", "shoes": "shoe"}
DETERMINERS = {"the", "a", "an", "this", "that", "these", "those", "his", "her", "their", "its", "my", "your"}


def noun_key(word: str) -> str:
    """A noun reduced for matching: possessive and plural dropped, synonyms merged ('girl's' ->
    'girl', 'tops' -> 'shirt', 'berries' -> 'berry')."""
    w = NOUN_SYNONYMS.get(word.split("'")[0], word.split("'")[0])
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        w = w[:-1]
    return NOUN_SYNONYMS.get(w, w)


# -- where a noun phrase ends, and the phrase a search asks for ---------------------------------

# Words that end a noun phrase: the thing a colour refers to ('the fork | kept inside the bowl',
# 'the handle | of the kettle') and the thing a search asks for ('an image of a dog | which ...').
# Once two lists; merged as their union, every validation prediction stayed the same (train: the
# same 2,906 right, two wrong searches lose a trailing 'sitting' / 'seen').
PHRASE_BREAK = {"above", "again", "also", "and", "applied", "are", "around", "as", "at", "behind", "being",
                "below", "beside", "besides", "between", "but", "by", "can", "color", "colored", "colors",
                "colour", "coloured", "could", "for", "found", "from", "hanging", "has", "have", "having",
                "here", "holding", "i", "image", "images", "in", "inline", "inside", "instead", "is", "it",
                "kept", "like", "lying", "match", "matched", "matches", "matching", "me", "my", "near",
                "now", "of", "on", "or", "over", "photo", "photos", "pic", "pics", "picture", "pictures",
                "placed", "please", "present", "quickly", "resemble", "resembles", "resembling", "same",
                "seen", "shown", "similar", "sitting", "so", "standing", "thanks", "that", "then", "there",
                "to", "today", "too", "under", "used", "visible", "wearing", "where", "which", "while",
                "who", "whom", "whose", "will", "with", "worn", "would", "you", "!", ",", ".", "?"}
ARTICLES = {"a", "an", "the", "some", "any"}
# Words CAISE's annotators never keep in a query ('an image of nice anklet' -> search anklet).
EVALUATIVE = {"nice", "beautiful", "cute", "good", "lovely", "attractive", "cool", "pretty", "awesome", "great",
              "delicious", "gorgeous", "yummy", "fancy"}
# A phrase naming no thing (only these words and colours): the query must come from elsewhere ('an image of the object which ...').
VAGUE = {"object", "objects", "thing", "things", "something", "item", "items", "stuff"}
# 'a pair of shoes' asks for shoes
QUANTITY = {"pair", "pairs", "bunch", "set", "group", "couple", "piece", "pieces", "kind", "type", "variety"}
# 'can' ends a phrase ('a dog can you...') unless it is the thing ('a water can')
CAN_NOUNS = {"water", "watering", "trash", "garbage", "paint", "soda", "tin", "beer", "oil", "milk", "spray"}
PICTURE_NOUNS = {"image", "images", "picture", "pictures", "photo", "photos", "pic", "pics"}


def word_pattern(words, phrases=()) -> str:
    """A regular expression matching any of ``words`` or ``phrases`` as whole words (longest first)."""
    alternatives = sorted({*words, *phrases}, key=len, reverse=True)
    return r"\b(?:" + "|".join(re.escape(a) for a in alternatives) + r")\b"
