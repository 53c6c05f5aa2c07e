"""Synthetic dialogues for what CAISE lacks: crop, flip, undo, redo, explain, describe, requests the
agent cannot serve, and the ways people really type the CAISE commands (darker, clockwise, "a bit
more" after an earlier change, "decrease it by 30", ...).

Each dialogue ends with a user request and has the command it should produce; the histories look
like the dialogue manager's (``user_text:``, command lines, ``assistant_text:``) or like CAISE's
(acknowledgement, command, ``image_load: N``). Magnitudes for vague words are a fixed convention:
slightly/a little/a bit -> 10, plain -> 20, much/a lot -> 40 (brightness, contrast); 0.1/0.2/0.4
for colour; 90 degrees for an unspecified rotation.
"""

from __future__ import annotations

import random

from training.commands_data import Example

OBJECTS = """umbrella, red car, bicycle, golden retriever, kitten, birthday cake, mountain lake, sunset beach,
wooden chair, coffee mug, laptop, city skyline, snowy forest, sailboat, hot air balloon, pizza,
running shoes, leather bag, guitar, piano, strawberries, sunflower field, teddy bear, school bus,
fire truck, lighthouse, waterfall, desert road, bookshelf, kitchen table, blue jeans, wedding dress,
soccer ball, tennis racket, horse, elephant, giraffe, penguin, owl, butterfly, tulips, red rose,
apple pie, sushi, ice cream cone, cupcakes, wine glass, teapot, alarm clock, desk lamp, sofa,
pillow, bed, bathroom sink, skateboard, surfboard, motorcycle, train station, airplane, bridge,
castle, church, market stall, street food, farmers market, vintage camera, headphones, smartphone,
watch, sunglasses, hat, scarf, winter jacket, rain boots, backpack, notebook, pencils, paint brushes,
candles, christmas tree, fireworks, pumpkin, autumn leaves, cherry blossoms, cactus, palm tree,
tropical fish, dolphin, shark, turtle, frog, parrot, flamingo, zebra, lion, tiger, panda, koala,
puppy, black cat, white rabbit, hamster, cow, sheep, goat, chicken, duck, swan, eagle, fox, wolf,
bear, deer, squirrel, hedgehog, mushroom, broccoli, tomatoes, bananas, lemons, oranges, grapes,
watermelon, bread, cheese, pasta, burger, french fries, pancakes, coffee beans, tea cup, kids umbrella,
yellow raincoat, green tractor, red barn, old map, globe, telescope, microscope, robot, drone,
basketball, baseball glove, chess board, dice, playing cards, kite, swing set, see-saw, slide,
sandcastle, campfire, tent, hiking boots, fishing boat, canoe, bicycle helmet, traffic light,
stop sign, yellow taxi, double decker bus, subway, skyscraper, farmhouse, cottage, garden, fountain,
statue, museum, library, classroom, office desk, wooden door, blue window, spiral staircase,
t-shirt, dental chair, water bottle, flower pot, ceiling fan, wall clock, photo frame, mirror,
toothbrush, hair dryer, scissors, stapler, keyboard, mouse, monitor, printer, router""".replace("\n", " ")
OBJECTS_LIST = [o.strip() for o in OBJECTS.split(",") if o.strip()]
ADJECTIVES = ["red", "blue", "green", "yellow", "black", "white", "pink", "purple", "orange", "brown",
              "old", "small", "big", "vintage", "modern", "wooden", "cute", "colorful", "striped",
              "shiny", "tiny", "huge", "fluffy", "antique", "plastic", "metal", "glass", "leather"]

COLOR_WORDS = {
    "red": ["red", "crimson", "reddish"], "orange": ["orange", "amber"], "green": ["green", "greenish"],
    "blue": ["blue", "bluish", "deep blue"], "skyblue": ["sky blue", "light blue", "skyblue", "baby blue"],
    "purple": ["purple", "violet", "lilac"], "brown": ["brown", "sepia", "brownish"],
    "yellow": ["yellow", "golden", "yellowish"], "pink": ["pink", "pinkish", "rosy"],
}

REPLIES = {"search": "Here is what I found.", "rotate": "Rotated.", "adjust_color": "Tinted.",
           "adjust_attr": "Adjusted.", "image_cutout": "Cut out the main subject; the background is black.",
           "crop": "Cropped.", "flip": "Flipped.", "undo": "Undid it.", "redo": "Redid it."}
ACKS = ["Sure", "Okay", "Let me do that", "Sure, one moment", "I will do that", "On it", "Done"]
GREETINGS = ["How can I help you?", "How may I help you?", "What can I do for you today?", "Hi! What would you like to do?"]

POLITE_PRE = ["", "", "", "please ", "can you ", "could you ", "would you ", "now ", "ok ", "hey, ",
              "i'd like you to ", "let's ", "can you please ", "go ahead and ", "and ", "also "]
POLITE_POST = ["", "", "", " please", " thanks", "!", ".", " for me", " now", "?"]


def _polite(rng: random.Random, core: str) -> str:
    pre = rng.choice(POLITE_PRE)
    post = rng.choice(POLITE_POST)
    if pre in ("let's ", "i'd like you to ") and core.startswith(("make", "give", "turn", "rotate")):
        pass
    text = f"{pre}{core}{post}".strip()
    if rng.random() < 0.3:
        text = text[0].upper() + text[1:]
    return text


def _query(rng: random.Random) -> str:
    obj = rng.choice(OBJECTS_LIST)
    if rng.random() < 0.3 and " " not in obj:
        obj = f"{rng.choice(ADJECTIVES)} {obj}"
    return obj


def _n(rng: random.Random, lo: int = 5, hi: int = 100) -> int:
    if rng.random() < 0.7:
        return rng.choice(range(max(lo, 5), hi + 1, 5))
    return rng.randint(lo, hi)


# -- one request per generator: (utterance, command) given the previous command -------------------

def gen_search(rng, prev):
    q = _query(rng)
    art = "an" if q[0] in "aeiou" else "a"
    t = rng.choice([
        "find me a picture of {a} {q}", "show me {q}", "search for {q}", "i want to see some {q} photos",
        "can you look up {q}", "get me an image of {a} {q}", "i'm looking for a photo of {a} {q}",
        "any pictures of {q}?", "look for {q}", "pull up {a} {q} photo", "do you have photos of {q}",
        "now find {a} {q}", "next, show me {a} {q}", "i need an image with {a} {q}", "find {q}",
        "show me some pictures of {q}", "fetch {a} {q} image", "i would like to see {a} {q}",
        "search {q} images", "let me see {a} {q}", "could you find {a} {q} for me", "{q} pictures please",
        "give me a photo of {q}", "display an image of {a} {q}", "hunt down a picture of {a} {q}",
    ])
    return t.format(q=q, a=art), f"search {q}"


def _vague(rng):
    """(words, magnitude) for a vague amount."""
    return rng.choice([("slightly ", 10), ("a little ", 10), ("a bit ", 10), ("a touch ", 10),
                       ("", 20), ("", 20), ("much ", 40), ("a lot ", 40), ("way ", 40), ("a little bit ", 10)])


def gen_brightness(rng, prev):
    up = rng.random() < 0.5
    if rng.random() < 0.55:
        n = _n(rng, 5, 100)
        core = rng.choice([
            "increase the brightness by {n}", "boost the brightness by {n}", "raise brightness {n}%",
            "make it brighter by {n} percent", "turn up the brightness {n}", "brighten it by {n}",
            "add {n} to the brightness", "brightness up {n}", "lighten the image by {n}%",
            "up the brightness by {n} percent", "increase brightness {n}",
        ] if up else [
            "decrease the brightness by {n}", "reduce brightness {n}%", "lower the brightness by {n}",
            "make it darker by {n} percent", "darken it by {n}", "turn down the brightness {n}",
            "bring the brightness down by {n}", "brightness down {n}", "dim the image by {n}%",
            "take {n} off the brightness", "decrease brightness {n}", "reduce the brightness of the image by {n} percent",
        ]).format(n=n)
        return core, f"adjust_attr brightness {n if up else -n}"
    v, m = _vague(rng)
    core = rng.choice([
        f"make it {v}brighter", f"brighten it {v}", f"make the photo {v}lighter", f"{v}more light",
        f"increase the brightness {v}", f"it's {v}too dark", f"can it be {v}brighter", f"lighten it up {v}",
    ] if up else [
        f"make it {v}darker", f"darken it {v}", f"make the picture {v}dimmer", f"{v}less bright",
        f"reduce the brightness {v}", f"it's {v}too bright", f"tone down the brightness {v}", f"dim it {v}",
    ])
    return " ".join(core.split()), f"adjust_attr brightness {m if up else -m}"


def gen_contrast(rng, prev):
    up = rng.random() < 0.5
    if rng.random() < 0.55:
        n = _n(rng, 5, 100)
        core = rng.choice([
            "increase the contrast by {n}", "boost contrast {n}%", "raise the contrast by {n} percent",
            "add {n} contrast", "contrast up {n}", "more contrast, {n} percent", "bump the contrast up by {n}",
        ] if up else [
            "decrease the contrast by {n}", "reduce contrast {n}%", "lower the contrast by {n} percent",
            "contrast down {n}", "take {n} off the contrast", "less contrast by {n}", "tone the contrast down by {n}",
        ]).format(n=n)
        return core, f"adjust_attr contrast {n if up else -n}"
    v, m = _vague(rng)
    core = rng.choice([
        f"{v}more contrast", f"increase the contrast {v}", f"make it {v}punchier", f"make the colors pop {v}",
        f"boost the contrast {v}", f"it looks {v}flat, add contrast",
    ] if up else [
        f"{v}less contrast", f"reduce the contrast {v}", f"make it {v}softer", f"lower the contrast {v}",
        "too much contrast", f"flatten the contrast {v}",
    ])
    if core == "too much contrast":
        m = 20
    return " ".join(core.split()), f"adjust_attr contrast {m if up else -m}"


def gen_color(rng, prev):
    c = rng.choice(list(COLOR_WORDS))
    w = rng.choice(COLOR_WORDS[c])
    if rng.random() < 0.3:
        n = rng.choice([10, 15, 20, 25, 30, 40, 50])
        core = rng.choice(["add a {w} tint of {n}%", "tint it {w} by {n} percent", "make it {n}% more {w}",
                           "give it a {w} tone at {n} percent"]).format(w=w, n=n)
        return core, f"adjust_color {c} {n / 100:g}"
    lvl, i = rng.choice([("", 0.2), ("", 0.2), ("slightly ", 0.1), ("a bit ", 0.1), ("strongly ", 0.4), ("much ", 0.4)])
    core = rng.choice([
        f"make it {lvl}more {w}", f"give it a {lvl}{w} tint", f"tint it {lvl}{w}", f"add a {lvl}{w} tone",
        f"make the picture look {lvl}{w}", f"change the color to {w}", f"{w} filter", f"put a {w} wash over the image",
        f"color it {w}", f"i want it {lvl}{w}", f"shift the colors toward {w}", f"make the whole image {w}",
    ])
    return " ".join(core.split()), f"adjust_color {c} {i:g}"


def gen_rotate(rng, prev):
    r = rng.random()
    if r < 0.12:
        return rng.choice(["turn it upside down", "rotate it 180 degrees", "flip it around 180",
                           "spin it half a turn", "rotate by 180"]), "rotate 180"
    if r < 0.3:
        cw = rng.random() < 0.5
        core = rng.choice([
            "rotate it clockwise", "turn it to the right", "rotate right", "rotate a quarter turn clockwise",
            "it's sideways, rotate it clockwise", "turn the picture clockwise", "rotate it cw",
        ] if cw else [
            "rotate it counterclockwise", "turn it to the left", "rotate left", "rotate a quarter turn anticlockwise",
            "it's sideways, rotate it counter-clockwise", "turn the picture anti-clockwise", "rotate it ccw",
        ])
        return core, "rotate 270" if cw else "rotate 90"
    n = rng.choice([90, 90, 90, 45, 30, 15, 10, 20, 60, 120, 135, 150, 5, 25, 35, 40, 75, 100, 160, 200, 270])
    if rng.random() < 0.2:
        n = rng.randint(1, 179)
    d = rng.choice(["cw", "ccw", "none"])
    if d == "none":
        core = rng.choice(["rotate it {n} degrees", "rotate by {n}", "turn it {n} degrees", "rotate the image {n}°",
                           "spin it {n} degrees"]).format(n=n)
        return core, f"rotate {n}"
    dir_words = rng.choice(["clockwise", "cw", "to the right", "right"] if d == "cw" else
                           ["counterclockwise", "counter-clockwise", "anticlockwise", "anti-clockwise", "ccw",
                            "to the left", "left", "counter clockwise", "anti clockwise"])
    core = rng.choice(["rotate it {n} degrees {d}", "rotate {d} {n}", "turn it {d} by {n} degrees",
                       "rotate the image {n}° {d}", "tilt it {n} degrees {d}", "spin it {d} {n} degrees",
                       "rotate by {n} {d}", "can you turn the photo {n} degrees {d}"]).format(n=n, d=dir_words)
    deg = (360 - n) % 360 if d == "cw" else n
    return core, f"rotate {deg}"


def gen_cutout(rng, prev):
    return rng.choice([
        "remove the background", "cut out the subject", "isolate the main object", "get rid of the background",
        "keep only the main subject", "black out everything but the subject", "cut it out", "extract the foreground",
        "background removal", "erase the background", "delete the background", "remove everything except the subject",
        "separate the subject from the background", "black out the background", "cut out the person",
    ]), "image_cutout"


def gen_crop(rng, prev):
    x1, y1 = rng.randint(0, 400), rng.randint(0, 400)
    x2, y2 = x1 + rng.randint(20, 900), y1 + rng.randint(20, 900)
    t = rng.choice([
        "crop to {x1} {y1} {x2} {y2}", "crop the image from ({x1}, {y1}) to ({x2}, {y2})",
        "crop it to the box {x1},{y1},{x2},{y2}", "trim it to {x1} {y1} {x2} {y2}",
        "crop from {x1},{y1} to {x2},{y2}", "keep the region {x1} {y1} {x2} {y2}",
        "cut the picture down to x {x1} to {x2} and y {y1} to {y2}", "crop x from {x1} to {x2}, y from {y1} to {y2}",
        "crop the area between {x1},{y1} and {x2},{y2}", "crop to the rectangle {x1} {y1} {x2} {y2}",
    ])
    return t.format(x1=x1, y1=y1, x2=x2, y2=y2), f"crop {x1} {y1} {x2} {y2}"


def gen_flip(rng, prev):
    if rng.random() < 0.55:
        return rng.choice(["flip it horizontally", "mirror the image", "flip left to right", "mirror it",
                           "make a mirror image", "flip it sideways", "flip horizontal", "mirror it horizontally",
                           "flip the photo left-right", "reverse it left to right"]), "flip horizontal"
    return rng.choice(["flip it vertically", "flip it top to bottom", "mirror it vertically", "flip upside down",
                       "flip vertical", "flip the photo top-bottom", "mirror it top to bottom",
                       "flip it over vertically"]), "flip vertical"


def gen_undo(rng, prev):
    return rng.choice([
        "undo", "undo that", "go back", "revert that", "take that back", "i liked it better before",
        "cancel the last change", "back to how it was", "oops, undo", "that's worse, undo it",
        "revert the last edit", "step back", "undo the last step", "no, change it back", "reverse that",
        "put it back the way it was", "that was a mistake, go back", "undo the previous change",
    ]), "undo"


def gen_redo(rng, prev):
    return rng.choice([
        "redo", "redo that", "bring that change back", "actually, redo it", "reapply that",
        "redo the last change", "never mind, bring it back", "redo the edit", "apply it again after all",
        "restore the change i undid", "undo the undo", "actually i want that change back",
    ]), "redo"


def gen_explain(rng, prev):
    if rng.random() < 0.3:
        return rng.choice([
            "what changed compared to the original?", "how does it differ from the original",
            "what's different from the original photo?", "compare it with the original",
            "explain the difference to the original image", "what have we changed since the original?",
        ]), "explain original"
    return rng.choice([
        "what changed?", "what did you change?", "what's different now?", "explain the change",
        "what did you just do?", "how is it different from before?", "tell me what changed",
        "show me the difference", "what was modified?", "explain what you did", "what's the difference?",
        "describe the change", "what did that edit do?", "can you explain what changed",
    ]), "explain"


def gen_describe(rng, prev):
    return rng.choice([
        "describe the image", "what's in this picture?", "caption this photo", "what do you see?",
        "tell me what this image shows", "describe it", "give me a caption", "what is this a picture of?",
        "can you describe what's in the photo", "write a caption for it", "what does the picture show?",
        "describe this photo for me", "what's in the image", "give me a description of the image",
        "caption it", "what can you see in this one?",
    ]), "describe"


def gen_none(rng, prev):
    return rng.choice([
        "thanks", "thank you!", "hello", "hi there", "great job", "ok", "what's the weather today?",
        "tell me a joke", "who are you?", "that looks nice", "cool", "what time is it", "play some music",
        "send it to my mom", "print this", "how old are you", "good morning", "awesome, thanks a lot",
        "order me a pizza", "what's the capital of france", "set an alarm for 7", "book a flight to paris",
        "call my brother", "i love it", "bye", "never mind", "nothing", "hmm", "are you a robot?",
        "translate this into spanish",
    ]), "<none>"


def gen_followup(rng, prev):
    """A request that only makes sense after ``prev`` (an adjust_attr or rotate command)."""
    if prev is None:
        return None
    parts = prev.split()
    if parts[0] == "adjust_attr":
        attr, amount = parts[1], float(parts[2])
        sign = -1 if amount < 0 else 1
        r = rng.random()
        if r < 0.35:
            core = rng.choice(["a bit more", "more", "even more", "again", "do that again", "once more",
                               "a little more", "more please", "do it again", "same again", "one more time",
                               "keep going"])
            return core, prev
        if r < 0.5:
            core = rng.choice(["a bit less", "too much, less", "back off a little", "that's too much",
                               "a little less", "less"])
            return core, f"adjust_attr {attr} {int(-sign * 10)}"
        n = _n(rng, 5, 60)
        if rng.random() < 0.5:
            core = rng.choice(["decrease it by {n}", "lower it by {n}", "reduce it {n}", "bring it down {n}",
                               "decrease by {n}", "now reduce it by {n} percent", "take it down by {n}"]).format(n=n)
            return core, f"adjust_attr {attr} {-n}"
        core = rng.choice(["increase it by {n}", "{n} more", "up it by {n}", "raise it by {n}", "increase by {n} more",
                           "another {n} please", "now increase it by {n} percent"]).format(n=n)
        return core, f"adjust_attr {attr} {n}"
    if parts[0] == "rotate":
        deg = float(parts[1])
        cw = deg > 180
        mag = int((360 - deg) % 360 if cw else deg)
        r = rng.random()
        if r < 0.4:
            return rng.choice(["again", "do that again", "once more", "rotate it again", "same again",
                               "a bit more", "more"]), prev
        if r < 0.7:
            n = rng.choice([5, 10, 15, 20, 30, 45, 90])
            core = rng.choice(["{n} more degrees", "by {n} degrees more", "another {n} degrees",
                               "rotate {n} more", "{n} more"]).format(n=n)
            return core, f"rotate {(360 - n) % 360 if cw else n}"
        core = rng.choice(["now the other way", "the other direction", "rotate it the other way",
                           "other way round"])
        return core, f"rotate {mag if cw else (360 - mag) % 360}"
    return None


GENERATORS = {
    "search": (gen_search, 3), "brightness": (gen_brightness, 4), "contrast": (gen_contrast, 3),
    "adjust_color": (gen_color, 3), "rotate": (gen_rotate, 4), "image_cutout": (gen_cutout, 2),
    "crop": (gen_crop, 3), "flip": (gen_flip, 2), "undo": (gen_undo, 2), "redo": (gen_redo, 2.5),
    "explain": (gen_explain, 2), "describe": (gen_describe, 2), "none": (gen_none, 2),
    "followup": (gen_followup, 4),
}


def _context_turn(rng) -> tuple[str, str]:
    kind = rng.choice(["search", "search", "brightness", "brightness", "contrast", "adjust_color", "rotate",
                       "rotate", "image_cutout", "crop", "flip", "undo"])
    return GENERATORS[kind][0](rng, None)


def _render(rng: random.Random, turns: list[tuple[str, str]], request: str, caise_style: bool) -> list[str]:
    h = [f"assistant_text: {rng.choice(GREETINGS)}"]
    loads = 0
    for utt, cmd in turns:
        h.append(f"user_text: {_polite(rng, utt)}")
        if caise_style:
            h.append(f"assistant_text: {rng.choice(ACKS)}")
            h.append(cmd)
            loads += 1
            h.append(f"image_load: {loads}")
            if rng.random() < 0.5:
                h.append(f"user_text: {rng.choice(['Nice', 'Good', 'Great', 'Ok', 'Looks good'])}")
        else:
            h.append(cmd)
            h.append(f"assistant_text: {REPLIES.get(cmd.split()[0], 'Done.')}")
    h.append(f"user_text: {request}")
    if caise_style and rng.random() < 0.5:
        h.append(f"assistant_text: {rng.choice(ACKS)}")
    return h


def synthetic_examples(n: int, seed: int = 0, concept_pool: list[list[str]] | None = None) -> list[Example]:
    """``n`` synthetic requests with their commands, reproducible from ``seed``."""
    rng = random.Random(seed)
    names = list(GENERATORS)
    weights = [GENERATORS[k][1] for k in names]
    out: list[Example] = []
    while len(out) < n:
        kind = rng.choices(names, weights)[0]
        # Earlier edits with numbers of their own ('rotate 330', 'brightness 20') are where a crop or a
        # redo is easiest to misread, so histories run up to four turns.
        turns = [_context_turn(rng) for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 3, 4]))]
        prev = None
        if kind == "followup":
            first = rng.choice([gen_brightness, gen_contrast, gen_brightness, gen_rotate])(rng, None)
            turns.append(first)
            prev = first[1]
            got = gen_followup(rng, prev)
            if got is None:
                continue
            utt, cmd = got
        else:
            utt, cmd = GENERATORS[kind][0](rng, None)
        request = _polite(rng, utt) if kind not in ("none",) else utt
        if kind == "followup" and rng.random() < 0.5:
            request = utt  # follow-ups are often typed bare
        history = _render(rng, turns, request, caise_style=rng.random() < 0.35)
        concepts = list(rng.choice(concept_pool)) if concept_pool and rng.random() < 0.8 else []
        out.append(Example(history, concepts, cmd, f"syn_{len(out)}", "synthetic", {"kind": kind}))
    return out


# -- the edits real requests ask for beyond CAISE's six (issue 17) ---------------------------------
# Magnitudes follow the request rules' convention (agent/language/reader.py): slightly 15/20/12, plain 30/40/25,
# a lot 60/80/50 for saturation/sharpness/warmth.

_STEP = {"saturation": (15, 30, 60), "sharpness": (20, 40, 80), "warmth": (12, 25, 50)}
_ATTR_PHRASES = {
    "saturation": (["make the colours more vivid", "increase the saturation", "boost the colors",
                    "make it more colourful", "more saturation", "saturate it", "make the colors pop",
                    "richer colours please", "add some color", "enhance the colours"],
                   ["desaturate it", "reduce the saturation", "make the colours duller", "tone down the colors",
                    "less saturation", "mute the colours", "make it less colorful", "the colors are too strong"]),
    "sharpness": (["sharpen it", "make it sharper", "sharpen the photo", "make it crisper", "more detail",
                   "increase the sharpness", "make it clearer", "it's blurry, sharpen it", "add some clarity"],
                  ["blur it", "soften the image", "make it softer", "blur the whole picture", "smooth it out",
                   "make it a bit blurry", "reduce the sharpness", "give it a soft look"]),
    "warmth": (["make it warmer", "warm it up", "give it a warmer tone", "more warmth", "increase the warmth",
                "it looks too cold", "warmer colours please"],
               ["make it cooler", "cool it down", "give it a cooler tone", "less warm", "it looks too warm",
                "make the colours colder", "reduce the warmth"]),
}


def _sized(rng, attr: str) -> tuple[str, int]:
    small, normal, large = _STEP[attr]
    return rng.choice([("slightly ", small), ("a little ", small), ("a bit ", small), ("", normal), ("", normal),
                       ("a lot ", large), ("much ", large)])


def _gen_attr(attr: str):
    def gen(rng, prev):
        up = rng.random() < 0.6
        phrase = rng.choice(_ATTR_PHRASES[attr][0 if up else 1])
        if rng.random() < 0.3:
            n = _n(rng, 5, 100)
            return f"{phrase} by {n}", f"adjust_attr {attr} {n if up else -n}"
        words, m = _sized(rng, attr)
        core = f"{phrase} {words}".strip() if rng.random() < 0.5 else f"{words}{phrase}"
        return " ".join(core.split()), f"adjust_attr {attr} {m if up else -m}"
    return gen


def gen_hue(rng, prev):
    n = rng.choice([10, 15, 20, 30, 45, 60, 90, 120])
    sign = rng.choice([1, -1])
    core = rng.choice(["shift the hue by {n} degrees", "rotate the hues {n} degrees", "hue {n}",
                       "change the hue by {n}", "turn the hue {n} degrees"]).format(n=n)
    if sign < 0:
        core = core.replace("by ", "by minus ") if "by " in core else f"{core} backwards"
    return core, f"adjust_attr hue {sign * n}"


def gen_grayscale(rng, prev):
    return rng.choice(["make it black and white", "convert to grayscale", "black and white please",
                       "turn it greyscale", "make it monochrome", "remove all the colour", "make it b&w",
                       "I want it in black and white", "desaturate it completely", "grayscale"]), "grayscale"


def gen_enhance(rng, prev):
    return rng.choice(["make it look better", "fix the lighting", "enhance the photo", "auto enhance",
                       "improve the picture", "make it look nicer", "fix the colours", "touch it up",
                       "can you make this photo better", "fix the white balance", "correct the colors",
                       "make it look more professional", "clean up the image", "enhance it"]), "auto_enhance"


_REMOVABLE = ["person", "man", "woman", "people", "dog", "cat", "car", "bird", "bicycle", "bottle", "cup", "chair",
              "boat", "umbrella", "backpack", "truck", "horse", "bench", "girl", "boy", "kids"]
_WHERE = ["", "", "", " on the left", " on the right", " in the background", " in the middle", " at the back"]


def gen_remove(rng, prev):
    what = f"the {rng.choice(_REMOVABLE)}{rng.choice(_WHERE)}"
    core = rng.choice(["remove {w}", "get rid of {w}", "erase {w}", "take out {w}", "delete {w}",
                       "can you remove {w}", "edit {w} out", "remove {w} from the photo"]).format(w=what)
    return core, f"remove {what}"


def gen_background(rng, prev):
    r = rng.random()
    if r < 0.5:
        colour = rng.choice(["white", "white", "black", "grey", "blue", "green", "pink", "yellow"])
        core = rng.choice(["make the background {c}", "change the background to {c}", "put it on a {c} background",
                           "replace the background with {c}", "{c} background please", "give it a plain {c} background",
                           "set the background to {c}"]).format(c=colour)
        return core, f"background {colour}"
    if r < 0.8:
        return rng.choice(["blur the background", "make the background blurry", "background blur",
                           "blur everything behind the subject", "soften the background", "give it a blurred background"]), \
            "background blur"
    return rng.choice(["make the background transparent", "transparent background please", "remove the background and "
                       "make it transparent", "i need a transparent background"]), "background transparent"


def gen_crop_to(rng, prev):
    if rng.random() < 0.4:
        aspect = rng.choice(["square", "4:3", "16:9"])
        return rng.choice(["crop it {a}", "crop to {a}", "make it {a}", "crop the photo to {a}",
                           "square crop" if aspect == "square" else "crop to {a} please"]).format(a=aspect), \
            f"crop {aspect}"
    what = f"the {rng.choice(_REMOVABLE)}"
    return rng.choice(["crop to {w}", "crop around {w}", "zoom in on {w}", "crop {w}", "crop it to {w}",
                       "crop the picture to {w}"]).format(w=what), f"crop {what}"


EXTENSIONS = {
    "saturation": (_gen_attr("saturation"), 1.5), "sharpness": (_gen_attr("sharpness"), 1.5),
    "warmth": (_gen_attr("warmth"), 1), "hue": (gen_hue, 0.5), "grayscale": (gen_grayscale, 1),
    "auto_enhance": (gen_enhance, 1), "remove": (gen_remove, 1.5), "background": (gen_background, 1.5),
    "crop_to": (gen_crop_to, 1),
}


def extension_examples(n: int, seed: int = 1, concept_pool: list[list[str]] | None = None) -> list[Example]:
    """``n`` requests for the operations beyond CAISE's, with short histories; kept apart from
    :func:`synthetic_examples` so that its dialogues (and the shipped model's data) stay as they were."""
    rng = random.Random(seed)
    names = list(EXTENSIONS)
    weights = [EXTENSIONS[k][1] for k in names]
    out: list[Example] = []
    for i in range(n):
        kind = rng.choices(names, weights)[0]
        utt, cmd = EXTENSIONS[kind][0](rng, None)
        turns = [_context_turn(rng) for _ in range(rng.choice([0, 1, 1, 2]))]
        history = _render(rng, turns, _polite(rng, utt), caise_style=rng.random() < 0.35)
        concepts = list(rng.choice(concept_pool)) if concept_pool and rng.random() < 0.8 else []
        out.append(Example(history, concepts, cmd, f"ext_{i}", "synthetic", {"kind": kind}))
    return out
