"""Questions about the open picture, read from words: what colour is X (and is X red), is there a Y
(and is it a Y), how many Z, where is the W, is it too dark (or warm, blurry, crooked), and what
would you improve.

:func:`read_question` says which kind of question it is and what it is about; the answer comes from
perception and measurements (:mod:`agent.describe.questions`), never from an edit. The request
reader turns such a question into ``Describe(question=...)``, recorded as ``describe``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.language.words import clean_text, strip_polite


@dataclass(frozen=True)
class Question:
    kind: str  # colour | colour_is | present | count | where | what_at | what_in | measure | measure_part | extreme | critique | size | list
    #           | extent
    #           | holding | which_kind | else | doing
    about: str = ""  # the thing ("cup"), or the quality ("dark")
    value: str = ""  # the colour a colour_is question asks about ("is the cup red?": "red")


_THE = r"(?:(?:the|a|an|that|this|these|those|his|her|their|its|my|your|any|some)\s+)?"
# What a person wears, whose colour is the person's clothes (the caption's "a person in red"): "what
# colour is his shirt?" was "“shirt” is not one of the things my detector knows"
WORN = (r"(?:t-?shirt|shirt|top|blouse|dress|jacket|coat|sweater|jumper|hoodie|suit|uniform|robe|gown|clothes|"
        r"clothing|outfit|vest|cardigan|costume|jersey|tunic|kimono|sari)s?")
_WORN_BY = re.compile(rf"^(?:(?P<a>[a-z]+(?: [a-z]+){{0,3}}?) ?'?s |(?:his|her|their) )?{WORN}(?: (?:of|on|worn by) "
                      rf"(?:the |that |this )?(?P<b>[a-z]+(?: [a-z]+){{0,4}}))?$")


def wearer(about: str) -> str:
    """Whose clothes a colour question's thing is, or ``about`` itself when it is not clothes.

    >>> wearer("shirt"), wearer("the man's jacket"), wearer("dress of the woman on the left"), wearer("cup")
    ('person', 'man', 'woman on the left', 'cup')
    """
    m = _WORN_BY.fullmatch(re.sub(r"^(?:the|a|an|that|this) ", "", about.strip()))
    if m is None:
        return about
    return (m.group("a") or m.group("b") or "person").strip()
# What a question is about: a short noun phrase, not "any way to make it pop" or "someone who could ..."
_THING = (r"(?!(?:any ?)?ways?\b|chance\b|someone\b|anyone\b|anybody\b|somebody\b|possib\w*|hope\b|something\b|"
          r"anything\b|too\b|enough\b|much\b|no\b|not\b|more\b|other\b|others\b|another\b|"
          r"(?:\w+ )?(?:pictures?|photos?|images?|pics?|shots?|ones?)\b)[a-z]+(?:'s|s')?(?: [a-z]+){0,3}?(?: on the far (?:left|right))?")
_IN_IT = r"(?:\s+(?:in|on|of) (?:it|the (?:photo|picture|image|pic)|this (?:photo|picture|image|pic)))?"
QUALITY_WORDS = (
    r"dark|bright|light|overexposed|underexposed|exposed|warm|cold|cool|blue|yellow|orange|red|green|pink|purple|"
    r"blurry|blurred|sharp|soft|in focus|out of focus|crooked|tilted|straight|level|saturated|oversaturated|"
    r"dull|flat|washed out|contrasty|vivid|colorful|noisy|grainy")
# The whole photo as the object of a critique ("improve it", "what's wrong with this photo"): a
# question about one thing ("how can you fix the red eye") is a request for the rules instead.
_PHOTO = (r"(?:\s+(?:it|this|that|(?:the|my|this|that) (?:photo|picture|image|shot|pic|one|edit)))?"
          r"(?:\s+(?:in|about|on|with|of) (?:it|this|that|(?:the|my|this|that) (?:photo|picture|image|shot|pic|one)))?"
          r"(?:\s+(?:more|further|a bit|at all|here|now|then|overall|even more|next))?$")
_CRITIQUE = re.compile(
    r"^(?:what|how) (?:would|could|should|can|do|might) (?:you|i|we) (?:do to |change to )?(?:improve|change|fix|"
    r"enhance|edit|tweak|adjust|do (?:to|with|differently|better))" + _PHOTO
    + r"|^how (?:can|could|should|would|do|might) (?:i|we|you) (?:make|get) (?:it|this|that|(?:the|my|this) "
    r"(?:photo|picture|image|shot|pic|one))(?: look)? (?:better|nicer|look better|look good|more appealing)$"
    r"|^how (?:can|could|should|would|do|might) (?:i|we|you) (?:improve|enhance)" + _PHOTO
    + r"|^what(?:'s|s| is| would be) wrong with" + _PHOTO + r"|^what(?:'s|s| is) (?:the problem|bad) with" + _PHOTO
    + r"|^(?:any|some|give me|do you have any|got any|what are (?:your|some)) (?:suggestions?|tips|advice|ideas|"
    r"feedback|improvements?|recommendations?)(?: (?:for|on|about) (?:it|this|that|(?:the|my|this) (?:photo|picture|"
    r"image|shot|pic|one)))?$"
    r"|^what do you (?:think|suggest|recommend)(?: (?:of|about) (?:it|this|that|(?:the|my|this) (?:photo|picture|"
    r"image|shot|pic|one)))?$|^how does (?:it|this|my (?:photo|picture)|the (?:photo|picture)) look(?: to you)?$"
    r"|^(?:critique|rate|review|judge|assess|evaluate|analy[sz]e)" + _PHOTO
    + r"|^(?:is|does) (?:this|it|the (?:photo|picture|image)|my (?:photo|picture)) (?:need|look like it needs) "
    r"(?:any )?(?:improvement|improving|work|editing|fixing|changes)$"
    r"|^what (?:can|could|should) (?:be|i) (?:improved?|better|fix(?:ed)?|change[d]?)" + _PHOTO
    + r"|^what needs (?:fixing|improving|to be (?:fixed|improved|changed))" + _PHOTO
    # "what's left to fix?" ran an automatic enhancement
    + r"|^(?:what(?:'s|s| is)|is there(?: anything)?|anything|is anything|what else is(?: there)?) (?:still )?"
    r"(?:left|else|more)? ?(?:to |that "
    r"(?:needs|should be) )?(?:fix(?:ed)?|improve[d]?|do|change[d]?)(?: (?:here|now|still))?$"
    r"|^what else (?:would|could|should|can) (?:you|i|we) (?:improve|change|fix|do)" + _PHOTO)
_COLOUR = re.compile(
    rf"^(?:what|which) colou?r (?:is|are|'s|was|were|do you see (?:on|for)) {_THE}(?P<x>{_THING}){_IN_IT}$"
    rf"|^what(?:'s| is| are) the colou?rs? of {_THE}(?P<y>{_THING}){_IN_IT}$"
    rf"|^what colou?r {_THE}(?P<z>{_THING}) (?:is|are) (?:it|they|this|there)$"
    # "what is the person on the left wearing?": the colour of their clothes, as describe says it
    rf"|^what(?: colou?r)?(?:'s| is| are| does| do) {_THE}(?P<w>{_THING}) (?:wearing|dressed in|have on|got on)$")
_COUNT = re.compile(
    r"^how many (?P<x>(?!(?:are|is|do|can|remain)\b)(?![a-z ]*\b(?:did|have|has) (?:you|easel)\b)[a-z ]+?)(?:\s+(?:are there|is there|are in (?:it|the \w+|this \w+)|"
    r"do you see|can you see|are visible|(?:are|is|do you see) in (?:it|the \w+|this \w+)|in (?:it|the \w+|this \w+)|"
    r"there are|(?:are|is) (?:still )?(?:left|remaining|there)|(?:still )?remain|do (?:i|we) have(?: left)?))?"
    r"(?: now| still| after that| any more| anymore)?$")
_PRESENT = re.compile(
    rf"^(?:is|are) there {_THE}(?P<x>{_THING}){_IN_IT}$"
    rf"|^(?:do|can) you see {_THE}(?P<y>{_THING}){_IN_IT}$"
    rf"|^(?:does|do) (?:it|this|the (?:photo|picture|image)|this (?:photo|picture|image)) (?:have|contain|show|include) "
    rf"{_THE}(?P<z>{_THING})(?: in it)?$"
    rf"|^any (?P<w>[a-z]+s)$"
    rf"|^see {_THE}(?P<v>{_THING}){_IN_IT}$")  # "can you see the dog?" once "can you" is taken as politeness
# "is the sky blue?", "is the horse brown": a question, never a tint (it was read as "make it blue")
COLOUR_ASKED = (r"red|orange|yellow|green|blue|purple|violet|pink|brown|black|white|grey|gray|beige|cream|tan|"
                r"gold|golden|silver|cyan|turquoise|teal|navy|maroon")
_COLOUR_IS = re.compile(
    rf"^(?:is|are|isn't|aren't) {_THE}(?P<x>{_THING}) (?:(?:wearing|dressed in|in) (?:an? )?)?"
    rf"(?:(?:a bit|kind of|rather|quite|really|very|all|mostly) )?"
    rf"(?:(?:light|dark|pale|bright|deep) )?(?P<c>{COLOUR_ASKED})(?:ish)?(?P<or> or (?:{COLOUR_ASKED}))?"
    rf"(?: {WORN})?{_IN_IT}$")  # "is the man wearing a red shirt?"
# "how blue is the sky?", "how red is the car": its colour (it was read as "make the sky bluer", and a
# second tint made)
_HOW_COLOUR = re.compile(rf"^how (?P<c>{COLOUR_ASKED})(?:ish)? (?:is|are|does) {_THE}(?P<x>{_THING})(?: look)?$")
# "is it a dog?", "is this a cat": whether the thing is there
_IS_IT = re.compile(rf"^(?:is|isn't) (?:it|this|that) (?:a|an) (?P<x>{_THING})$")
# "is the joey gone?", "is it still there?" after a removal: whether it is still found
_GONE = re.compile(rf"^(?:is|are) {_THE}(?P<x>{_THING}) (?:(?P<gone>gone|removed|away)|(?:still )?(?:there|visible)|"
                   rf"still (?:in (?:it|the (?:photo|picture|image))|showing))(?: now)?$")
# "what is on the left?", "what's at the top right": what is in that part of the picture
_WHAT_AT = re.compile(r"^(?:what|who)(?:'s|s| is| are| do you see| can you see)? (?:there |that |this )?(?:on|at|in) the (?:far )?"
                      r"(?P<x>left|right|top|bottom|middle|centre|center)(?: (?P<y>left|right))?(?: (?:side|corner|"
                      r"of the (?:picture|photo|image)))?$")
# "what's in the water?", "what is on the grass?", "what's next to the dog?": what is in, on or beside a part
# or a thing (agent.describe.what_in; it was "I can't answer that")
_WHAT_IN = re.compile(r"^(?:what|who)(?:'s|s| is| are| do you see| can you see)? (?:there |that )?"
                      r"(?P<prep>in|on|inside|on top of|over|above|next to|beside|near|by|around) "
                      r"(?P<x>(?:the|this|that|my) [a-z]+(?: [a-z]+){0,4})$")  # ("the man on the far right")
# "what is the camel standing on?", "what's the bird sitting on?": what is under a thing (agent.describe.what_in,
# as "under"; it was "I can't answer that")
_STANDING_ON = re.compile(rf"^what(?:'s|s| is| are| does| do)? {_THE}(?P<x>{_THING}) (?:standing|sitting|lying|perched|"
                          r"resting|sleeping|walking|stand|sit|lie|perch|rest)(?: up)? (?:on|in|upon|on top of)$")
# "what is the man on the left holding?", "what is she playing?": a thing in their hands, or an instrument
_HOLDING = re.compile(rf"^what(?:'s| is| are| does| do)? {_THE}(?P<x>{_THING}) (?:holding|carrying|playing|hold|carry|play"
                      rf"|(?:got|have) in (?:his|her|their|its) hands?)(?: in (?:his|her|their|its) hands?)?$")
_PERSON_WORDS = {"he", "she", "they", "him", "her", "them", "someone", "somebody"}
_WHERE = re.compile(rf"^where(?:'s| is| are| was| were) {_THE}(?P<x>{_THING}){_IN_IT}$")
# "which one is the biggest?", "which horse is bigger?", "which of them is the smallest?"
SIZE_WORDS = {"biggest": "biggest", "bigger": "biggest", "largest": "biggest", "larger": "biggest",
              "smallest": "smallest", "smaller": "smallest", "tallest": "tallest", "taller": "tallest",
              "shortest": "shortest", "shorter": "shortest"}
_WHICH_SIZE = re.compile(rf"^which (?:one|of (?:them|these|those)|(?P<x>{_THING}))(?: of (?:them|these|those|the \w+))? "
                         rf"(?:is|looks|seems) (?:the )?(?P<s>{'|'.join(SIZE_WORDS)})(?: one)?{_IN_IT}$")
# "how big is the owl?", "how big is it?": its share of the picture (it was "I can't answer that")
_HOW_BIG = re.compile(rf"^how (?:big|large|small|tall) (?:is|are) {_THE}(?P<x>{_THING}){_IN_IT}$")
# "what animals are in the picture?", "which vehicles do you see?": the things of a kind, listed (it was
# refused, and after "what changed?" read as a question about the change)
LIST_KINDS = {"animal": "animal", "creature": "animal", "vehicle": "vehicle", "thing": "thing", "object": "thing",
              "people": "person", "person": "person"}
_LIST = re.compile(r"^(?:what|which) (?:(?:kinds?|sorts?|types?) of )?(?P<x>animals?|creatures?|vehicles?|things|objects|"
                   r"people|persons) (?:are|is|do you see|can you see|can you find|can you spot|do you recognise|"
                   r"do you recognize)(?: there)?(?: (?:in|on) (?:it|the (?:photo|picture|image|pic)|this (?:photo|"
                   r"picture|image|pic)))?(?: now)?$")
# "what animal is it?", "what kind of bird is this?", "which animal is that": which species (it was read
# as "describe", and repeated "a black animal" where the species was not known)
_KIND_OF = r"(?P<x>animal|creature|bird|fish|insect|dog|cat|snake|monkey|bear)"
_WHICH_KIND = re.compile(
    rf"^(?:what|which)(?: (?:kinds?|sorts?|types?|species|breeds?) of)? {_KIND_OF} (?:is|are|'s) "
    rf"(?:it|this|that|they|these|those|there|this one|that one|(?:in )?(?:the|this) (?:photo|picture|image|pic))$"
    rf"|^what(?:'s| is) (?:this|that|the) (?P<y>animal|creature|bird|insect|fish)$"
    rf"|^what (?:kind|sort|type|species|breed) (?:is|'s) (?:it|this|that)$"
    rf"|^what (?:kind|sort|type|species|breed) (?:of (?:animal|dog|cat|bird) )?(?:is|'s) (?:the|this|that) "
    rf"(?P<z>animal|creature|bird|fish|insect|dog|cat|snake|monkey|bear)$")  # "what breed is the dog?": refused
# "what kind of owl is it?", "which species of penguin is this?": any animal's name (it was "I can't
# answer that"); the word must be one WordNet knows as an animal (:func:`_an_animal`)
_KIND_OF_ANIMAL = re.compile(
    r"(?:what|which) (?:kinds?|sorts?|types?|species|breeds?) of (?P<x>[a-z]+) (?:is|are|'s) "
    r"(?:it|this|that|they|these|those|there|this one|that one|the \w+|(?:in )?(?:the|this) (?:photo|picture|image|pic))")



def _an_animal(word: str) -> bool:
    from agent.perception.animals import COCO_ANIMALS
    from agent.perception.things import animal_noun  # (loads no model)
    from agent.perception.vocabulary import singular

    return singular(word) in COCO_ANIMALS or animal_noun(singular(word)) is not None


_NO_APOSTROPHE = re.compile(r"\b(is|does|do|are|was|were|did|has|have)nt\b")
_EXTREME = re.compile(r"^(?:what|which|where)(?:'s| is)? (?:the )?(?P<y>brightest|darkest|lightest)(?: (?:part|area|spot|bit|"
                      r"region|place))?(?: of (?:the|this|my) (?:picture|photo|image))?"
                      r"|^where (?:is|'s) (?:it|the (?:picture|photo|image)) (?P<z>brightest|darkest|lightest)$"
                      r"|^which (?:part|area|bit|side|corner)(?: of (?:the|this|my) (?:picture|photo|image))? (?:is|looks) "
                      r"(?:the )?(?P<w>brightest|darkest|lightest)$")
_MEASURE = re.compile(
    rf"^(?:is|does|do|are|was|isn't|doesn't|don't|aren't|wasn't) (?:it|this|that|the (?:photo|picture|image|pic|colors?|horizon|exposure|light)|"
    rf"my (?:photo|picture|image)|this (?:photo|picture|image)) (?:look |seem |appear |feel )?(?:to be )?"
    rf"(?:a bit |too |very |a little |slightly |rather |quite |kind of |overly |a little bit |way )*"
    rf"(?P<x>{QUALITY_WORDS})(?: enough)?{_IN_IT}$"
    rf"|^how (?P<y>dark|bright|sharp|warm|cold|cool|saturated|colorful|straight|crooked|blurry) is "
    rf"(?:it|this|the (?:photo|picture|image)|my (?:photo|picture))$"
    rf"|^(?:is|are) there (?:too much|too little|enough|not enough) (?P<z>contrast|light|color|saturation|noise|blur)"
    rf"{_IN_IT}$")
# "is the horse facing left?", "which way is the dog looking?", "where is it looking?": where it is, not
# which way it faces (a rotation was proposed; "where is it looking?" was "The looking is on the right")
_FACING = re.compile(rf"^(?:(?:is|are|was|were|isn't|aren't) {_THE}(?P<x>{_THING})|(?:which (?:way|direction|side)|where) "
                     rf"(?:is|are) {_THE}(?P<y>{_THING})) (?:facing|looking|pointing|turned|heading|walking|running|moving|"
                     r"going|turning|gazing|staring)(?: (?:to(?:wards?)? |at |in )?(?:the )?(?:left|right|up|down|away|"
                     r"forwards?|camera|us|me|viewer|front|back|sun|sky|ground|same way|same direction|other way))?"
                     r"(?: side)?(?: (?:or|and) (?:the )?(?:left|right|up|down|away))?$")
# "how bright is the sky?", "how warm is the horse?": a part measured against the whole (it brightened the sky)
# "is the sky too blue?", "is the penguin a bit too white?" were colour questions about "the sky too"
# ("“sky too” is not one of them") and "the too": a quality asked of a part is measured there, a
# colour is the part's colour
_TOO_PART = re.compile(rf"^(?:is|are) {_THE}(?P<x>{_THING}) (?:(?:a bit|a little|a tad|way|much|far|maybe|still|now|"
                       rf"not) )*too (?P<y>dark|bright|light|warm|cold|cool|saturated|colorful|vivid|sharp|blurry|"
                       rf"{COLOUR_ASKED})(?: (?:now|still))?$")
# "is the penguin in focus?" proposed "Sharper +40 in the penguin in focus"
_PART_FOCUS = re.compile(rf"^(?:is|are) {_THE}(?P<x>{_THING}) (?:(?:still|now|really) )*(?P<y>in focus|sharp|blurry|blurred|"
                         rf"out of focus|focused|soft)(?: (?:now|enough))?$")
_HOW_PART = re.compile(rf"^how (?P<y>dark|bright|light|warm|cold|cool|saturated|colorful|vivid|sharp|blurry) "
                       rf"(?:is|are|does) {_THE}(?P<x>{_THING})(?: look)?$")
# "what is the brightness?", "how much contrast is there": the measure of that quality (it was read as
# "increase the brightness")
_AMOUNT = re.compile(
    r"^(?:what(?:'s| is| are)|how (?:much|high|strong|good) is|how much) (?:the |its )?(?P<x>brightness|exposure|contrast|"
    r"saturation|colou?r temperature|warmth|sharpness|tilt)(?: (?:is there|does it have))?(?: (?:of|in) (?:it|this|"
    r"the (?:photo|picture|image)|this (?:photo|picture|image)))?(?: like)?$")
_AMOUNT_ABOUT = {"brightness": "bright", "exposure": "bright", "contrast": "contrast", "saturation": "saturation",
                 "color temperature": "warm", "colour temperature": "warm", "warmth": "warm", "sharpness": "sharp",
                 "tilt": "tilted"}


# "is there anything else?", "what else can you see?": what the description did not say
_ELSE = re.compile(
    r"^(?:(?:is|are) there |(?:do|can) you see |did you (?:see|miss|notice) )?(?:anything|something) (?:else|more)"
    r"(?: (?:in it|there|in (?:the|this) (?:photo|picture|image|pic)|you can see|you see|to see))?"
    r"|what else(?: (?:is there|is in it|is in (?:the|this) (?:photo|picture|image|pic)|(?:can|do) you see|"
    r"is there to see|do you notice))?$"
    # "what's in the background?" was "I can't answer that", "what is around the dog?" an explanation of
    # changes: what is there besides the main thing
    r"|what(?:'s|s| is| can you see| do you see| else is) (?:in the background|behind (?:it|him|her|them|the \w+)|"
    r"around (?:it|him|her|them|the \w+)|in the back)$")
# "what is the dog doing?": what it does, which no model here can tell (said so, and where it is)
_DOING = re.compile(rf"^what(?:'s| is| are) {_THE}(?P<x>{_THING}) (?:doing|up to)(?: (?:there|here|in (?:the|this) "
                    r"(?:photo|picture|image|pic)))?$")

# "is the cat sleeping?", "are they dancing?": the same, asked of one thing it might be doing (it was
# "I can't answer that")
_DOING_IS = re.compile(rf"^(?:is|are) (?:{_THE}(?P<x>{_THING})|(?P<x2>(?:any|some) ?(?:one|body))) (?P<v>(?:sleeping|asleep|awake|running|eating|drinking|"
                       r"sitting|standing|lying down|lying|walking|flying|swimming|playing|dancing|singing|"
                       r"hunting|resting|yawning|looking at (?:me|the camera|us))(?: (?:there|here|now))?)$")  # (not "smiling": an expression)


def read_question(text: str) -> Question | None:
    """The question ``text`` asks about the picture, if it is one of the kinds Easel answers.

    >>> read_question("what colour is the cup?"), read_question("is there a spoon?").about
    (Question(kind='colour', about='cup', value=''), 'spoon')
    >>> read_question("what colour is the woman wearing?").about
    'woman'
    >>> read_question("is the man wearing a red shirt?")
    Question(kind='colour_is', about='man', value='red')
    >>> read_question("What would you improve in this photo?").kind, read_question("make it brighter")
    ('critique', None)
    >>> read_question("isnt it too dark now?"), read_question("doesnt it look too warm")
    (Question(kind='measure', about='dark', value=''), Question(kind='measure', about='warm', value=''))
    >>> read_question("is the sky blue?"), read_question("is it a dog?").kind
    (Question(kind='colour_is', about='sky', value='blue'), 'present')
    >>> read_question("how blue is the sky?")
    Question(kind='colour', about='sky', value='')
    >>> read_question("what is the person on the left wearing?")
    Question(kind='colour', about='person on the left', value='')
    >>> read_question("what animals are in the picture?"), read_question("which vehicles can you see").about
    (Question(kind='list', about='animal', value=''), 'vehicle')
    >>> read_question("what animal is it?"), read_question("what kind of bird is this").about
    (Question(kind='which_kind', about='animal', value=''), 'bird')
    >>> read_question("is there anything else?").kind, read_question("what's the dog doing?")
    ('else', Question(kind='doing', about='dog', value=''))
    """
    c = strip_polite(clean_text(text).strip(" ?!.")).strip(" ?!.")
    c = re.sub(r"^(?:and|so|ok|okay|hmm|also|now|then|but)[\s,]+", "", c)
    c = _NO_APOSTROPHE.sub(r"\1n't", c)  # "isnt it too dark now?" is typed as often as "isn't"
    # "the man's jacket", "the shirt of the man on the left": the man (his clothes' colour is his)
    c = re.sub(rf"\b([a-z]+)'s {WORN}\b", r"\1", c)
    c = re.sub(rf"\b(?:the )?{WORN} (?:of|on|worn by) ", "", c)
    if _CRITIQUE.fullmatch(c):
        return Question("critique")
    if _ELSE.fullmatch(c):
        return Question("else")
    doing = _DOING.fullmatch(c) or _DOING_IS.fullmatch(c)
    if doing:
        who = doing.group("x") or "" if doing.re is _DOING else doing.group("x") or doing.group("x2")
        who = re.sub(r"^(?:every|any|some) ?(?:one|body)$", "the people", who.strip())  # ("the everyones")
        return Question("doing", who, doing.group("v") if doing.re is _DOING_IS else "")
    at = _WHAT_AT.fullmatch(c)
    if at:
        return Question("what_at", " ".join(g for g in at.groups() if g).replace("centre", "middle").replace("center", "middle"),
                        "who" if c.startswith("who") else "")  # "who is on the left?": the people there
    extreme = _EXTREME.fullmatch(c)
    if extreme:  # "what's the brightest part of the picture?" (it asked to point at "the brightest")
        return Question("extreme", "picture", "dark" if "darkest" in extreme.groups() else "bright")
    amount = _AMOUNT.fullmatch(c)
    if amount:
        return Question("measure", _AMOUNT_ABOUT[amount.group("x")], "amount")
    too = None if _MEASURE.fullmatch(c) else _TOO_PART.fullmatch(c)
    if too and too.group("x").strip() not in ("it", "this", "that", "photo", "picture", "image", "pic", "everything",
                                              "background", "foreground", "subject", "edges", "corners"):
        # (the background is no part found by name: "is the background too dark?" proposes brightening it)
        quality = too.group("y")
        if re.fullmatch(COLOUR_ASKED, quality) and quality not in ("dark", "light", "bright"):
            return Question("colour", too.group("x").strip())
        return Question("measure_part", too.group("x").strip(), quality)
    m = None if _MEASURE.fullmatch(c) else _COLOUR_IS.fullmatch(c)
    if m and m.group("x").split()[0] not in ("it", "this", "that", "they", "there"):
        if m.group("or"):  # "is the cup red or orange?": which colour it is
            return Question("colour", m.group("x").strip())
        return Question("colour_is", wearer(m.group("x").strip()),
                        {"gray": "grey", "golden": "gold"}.get(m.group("c"), m.group("c")))
    hue = _HOW_COLOUR.fullmatch(c)
    if hue and hue.group("x") not in ("it", "this", "that", "everything"):
        return Question("colour", hue.group("x").strip())
    listed = _LIST.fullmatch(c)
    if listed:
        return Question("list", LIST_KINDS[listed.group("x").rstrip("s") if listed.group("x") != "people" else "people"])
    under = _STANDING_ON.fullmatch(c)
    if under:
        x = under.group("x").strip()
        return Question("what_in", x if x in ("it", "this", "that", "he", "she", "they") or re.match(r"(?:the|this|that|my|his|her|their|its) ", x)
                        else f"the {x}", "under")
    inside = _WHAT_IN.fullmatch(c) if not at else None
    if inside and not re.search(r"\b(?:picture|photo|image|pic|background|foreground|world)\b", inside.group("x")):
        return Question("what_in", inside.group("x"), inside.group("prep"))
    kind_of = _WHICH_KIND.fullmatch(c) or _KIND_OF_ANIMAL.fullmatch(c)
    if kind_of and kind_of.re is _KIND_OF_ANIMAL and not _an_animal(kind_of.group("x")):
        kind_of = None
    if kind_of:
        word = kind_of.group("x") or kind_of.group("y") or kind_of.group("z") or "animal"
        return Question("which_kind", "animal" if word == "creature" else word)
    if re.fullmatch(r"how (?:big|large) is (?:the|this|my) (?:picture|photo|image|file|pic)|what(?:'s| is) the "
                    r"(?:size|resolution) of (?:the|this|my) (?:picture|photo|image|pic)|what (?:size|resolution) is "
                    r"(?:it|the (?:picture|photo|image))", c):
        return Question("extent", "picture")  # "how big is the picture?": its size in pixels
    if re.fullmatch(r"(?:is (?:there )?(?:anyone|anybody|someone|somebody)|are (?:there )?(?:any )?people)(?: still)? "
                    r"(?:left|there|in (?:it|the (?:picture|photo|image)))(?: now)?", c):
        # "is anyone left?" after "remove the people"; "is anyone there?" is whether there is
        return Question("present", "people", "still" if re.search(r"\b(?:left|still)\b", c) else "")
    gone = _GONE.fullmatch(c)
    if gone and gone.group("x").strip() not in ("it", "this", "that", "they"):
        return Question("present", gone.group("x").strip(), "gone" if gone.group("gone") else "still")
    big = _HOW_BIG.fullmatch(c)
    if big and big.group("x").strip() not in ("it", "this", "that"):
        return Question("extent", big.group("x").strip())
    size = _WHICH_SIZE.fullmatch(c)
    if size:  # (about "one": the things talked about, which the dialogue puts in)
        return Question("size", (size.group("x") or "one").strip(), SIZE_WORDS[size.group("s")])
    facing = _FACING.fullmatch(c)
    if facing:
        return Question("where", (facing.group("x") or facing.group("y")).strip(), "facing")
    focus = _PART_FOCUS.fullmatch(c)
    if focus and focus.group("x").strip() not in ("it", "this", "that", "photo", "picture", "image", "pic", "everything",
                                                  "background", "foreground", "subject", "edges", "corners"):
        return Question("measure_part", focus.group("x").strip(), "sharp" if focus.group("y") in ("in focus", "sharp", "focused")
                        else "blurry")
    part = _HOW_PART.fullmatch(c)
    if part and part.group("x") not in ("it", "this", "that", "photo", "picture", "image", "pic", "everything"):
        return Question("measure_part", part.group("x").strip(), part.group("y"))
    held = _HOLDING.fullmatch(c)
    if held:
        return Question("holding", "person" if held.group("x") in _PERSON_WORDS else held.group("x").strip())
    for kind, pattern in (("measure", _MEASURE), ("colour", _COLOUR), ("count", _COUNT), ("present", _PRESENT),
                          ("present", _IS_IT), ("where", _WHERE)):
        m = pattern.fullmatch(c)
        if m:
            about = next(g for g in m.groups() if g)
            if kind == "colour":  # "what colour is the woman wearing?": the woman (it said "the wearing")
                about = wearer(re.sub(r"\s+(?:wearing|dressed in|wear|in)$", "", about.strip()))
            # "how bright is it?" asks for the figure, not a yes or no; "where are the bison?" each one
            value = "amount" if kind == "measure" and c.startswith("how ") else \
                "each" if kind == "where" and re.match(r"where (?:are|were)\b", c) else ""
            return Question(kind, about.strip(), value)
    return None
