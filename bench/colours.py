"""How often Easel names an object's colour as a person would, on crops of real photos labelled by hand.

The crops (``bench/colour_labels.json``) are, for the first 215 of them, boxes on the real photos of
bench/photoset.py: scikit-image's astronaut, coffee, chelsea, both stereo motorcycle views, rocket
and camera man; scikit-learn's china and flower; the nature photos of the Debian package
mate-backgrounds (``apt-get install mate-backgrounds``). They are the hand-labelled boxes of
bench/photoset.py (things and regions) and segments of a Felzenszwalb segmentation at two scales
(objects and parts of objects: a helmet, a motorcycle's tank, a cup's handle, petals, a ladybird,
the cat's eye, a temple roof, leaves, sky, planks). Each crop was looked at on contact sheets (the
box alone, scaled to 190 pixels) before any colour code ran on it, and given the basic colour term a
person would use for the main thing in it, or two where it is between two ("brown"/"orange" for
the wooden table, "red"/"orange" for the marigold's petals); crops with no main thing or two
things of different colours were left out. Persons (``"label": "person"``) are labelled by their
clothes. The photos of the painting in mate-backgrounds (Elephants) were left out: not a photo.

Split by photo: chelsea, moto_right, china, Garden, RainDrops and Wood (74 crops) are held out and
never tuned on nor printed crop by crop; the other 141 crops are the development part.

A second, clean held-out part ("held2", 118 crops) was added when the first held-out part had
been seen too often to be clean: photos never used in Easel's colour or naming tuning, loaded by
bench/colour_sources.py (which says where they come from and their licences):

- 39 boxes drawn by hand on real photos: plasma-workspace-wallpapers' EveningGlow (rowing boats,
  gravel, sunset sky), ColorfulCups (blue, purple and red paper cups), FallenLeaf (maple leaves),
  Kite (sky, clouds), OneStandsOut (moss, an orange plant, soil), Path (a forest path, a trunk,
  the forest floor), BytheWater (planks, water), ColdRipple (a pier in fog), summer_1am (a
  lilac dusk sky and lake), and matplotlib's sample photo of Grace Hopper (her, by her
  uniform; the backdrop; her cap). Rendered art (most of ukui-wallpapers, Volna, goldfish, the
  plasma wallpapers that are drawings) was left out.
- 79 photo stamps of tuxpaint-stamps-default (real objects photographed and cut out: fruit,
  vegetables, flowers, birds, cattle, fish, a slug, household things, balls, two firemen in
  silver suits) laid on a plain grey canvas; the box is the stamp's own extent.

Boxes were drawn on each photo rendered with a 50-pixel grid; the crops were looked at on
contact sheets (the box alone, scaled to 190 pixels) and labelled with the basic colour term(s)
a person would use (two or three where it is between them: "purple"/"pink" for the cups' lilac
insides and purple sides, "grey"/"white" for the silver suits) before any Easel colour code ran
on them. This part is printed as a count only (its two kinds apart), never crop by crop, and is
not tuned on.

The development part has a second half ("dev2", 38 crops) made to tell object masks apart:
other photo stamps of tuxpaint-stamps-default (fruit, flowers, birds, mammals, insects, tools;
none of those in held2), each laid in the middle of a development photo (bench/colour_sources.py)
so that its box holds the photo's colours around it too, labelled in the same way.

A third clean held-out part ("held3", 115 crops) was added so that the clean held-out crops
(held2 and held3) number over 200: photos of the Debian package gcompris-qt-data
(``apt-get install gcompris-qt-data``; read out of its Qt resource files by
bench/colour_sources.py, which gives their licences), which no Easel tuning had used: the
animal photos of its erase, explore_farm_animals and explore_world_animals activities (alpaca,
calf, camel, gorilla, gosling, horses, a kitten, monkeys, owl, sheep, duck, polar bear, swans,
spoonbills, bison, koala, a scarlet macaw...; and the grass, sky, sea, snow and moss around
them), three musicians of explore_world_music (two actors in a red and a lilac robe, a mariachi
in black: labelled by their clothes), a guitar and a lute, and the categorization activity's
photos of things, tools, monuments, fish and windmills (a bucket, cups, a bulb, a chair, a
plate, a pan, hammers, pliers, scissors, tape measures, multimeters, a spray bottle, the Taj
Mahal, the Statue of Liberty, a pyramid, goldfish, solar panels). Boxes were drawn by hand on
each photo rendered with a 50-pixel grid, the crops looked at on contact sheets (the box alone,
scaled to 190 pixels) and labelled with the basic colour term(s) a person would use before any
Easel colour code ran on them; animals and things of two colours (a panda, a penguin's whole
body, a cow, a striped bee, a giraffe, a toucan, an eraser half red, half blue) were left out,
or only their one-coloured part boxed (the penguin's white front, the kingfisher's orange
breast). Printed as a count only, never crop by crop, and not tuned on.

Measured: :func:`agent.perception.naming.object_colour` (the colour a caption gives a thing in
that box) is right when it is one of the crop's words. Printed per part; for the development part
also the confusions, and with ``-v`` each wrong crop.

    OMP_NUM_THREADS=1 .venv/bin/python bench/colours.py [-v] [--dev] [--parts dev,dev2,held3]

Figures (dev, held-out): 0.652 (92/141), 0.378 (28/74) with the colour naming before
agent/perception/colour_terms.py (nearest of 13 reference colours to the largest k-means
cluster in OpenCV's 8-bit Lab: greens "yellow", blues "grey", yellows "orange"); 0.830 (117/141),
0.581 (43/74) with basic terms bounded in CIELAB's lightness, chroma and hue, a coloured cluster
weighted up and the white-patch balance. An intermediate setting (white patch up to chroma 20, a
coloured cluster weighted 1.5) scored 0.816 dev and 0.662 held-out; the choice was made on the
development figures (the sky was taken for a white patch there), and the held-out figure was
seen, not tuned on. Then 0.830, 0.554 with the white patch only from L* 85 up (chosen on
bench/trace.py's development set: a light wall behind a person was balanced away); and 0.844
(119/141), 0.662 (49/74) with orange needing chroma 35 (chosen on the development part: 117 with
no such bound, 119 at 35 and 40).

With the second development half (dev2, 38 stamps over photos): 119/141 and 20/38 with that code.
The object's mask (agent.perception.naming.object_mask: GrabCut on a 96-pixel copy of the box and
a margin, the inner half of the box when GrabCut keeps under 10% or over 95% of it) against the
whole box, with the dark-orange bound below: 121/141 and 22/38 against 121/141 and 15/38 (the inner
half of the box alone: 120/141 and 22/38, the stamps being in the middle of their boxes; the
stamps' own alpha as the mask: 21/38, so the mask is not what is left to gain on dev2). GrabCut
at 64 or 128 pixels, the whole box when GrabCut fails, or GrabCut only when it holds the box's
centre were no better (147-149 of the 179 against 150, with the median main colour below); u2netp on the box's crop scored 122/141 and 20/38 at about 0.5 s a crop
(GrabCut's mask: 23-32 ms an object on a 600 x 400 photo, 27-87 ms on a 12-megapixel one, the
2 cores loaded by other work, load average about 5). The mask stays as it was. Then 121/141 (0.858) and 22/38 (0.579) with dark oranges of chroma 50 and more
orange instead of brown; 123/141 (0.872) and 23/38 (0.605) with very dark, weakly coloured blues
black (a night sky). The median of the mask's pixels as the main colour instead of the
largest k-means cluster scored higher here (125/141 and 25/38 with the bound above) but was
dropped: in bench/describe_human.py's development captions it made a black motorcycle and a
brown dog grey (0/40 captions with a wrong colour went to 2/40); so was an achromatic bound of
chroma 10 (121/141, 24/38, but a brown dog "black" there).

Held-out parts, run once at the end of that work: the first held-out part 0.662 (49/74) before and
after it; the clean second one (held2) 0.805 (95/118; its photos 29/39, its stamps 66/79) before
and after it: the development gains did not carry over.

held3, run once with that code as soon as it was labelled (the blind baseline): 0.626 (72/115).

Then, tuned on dev and dev2 only (each change kept when dev + dev2 rose and bench/describe_human.py's
development captions with a wrong colour stayed 0/40), in agent/perception/colour_terms.py:
a light (L* 55 and more), nearly neutral (chroma under 12) thing whose light parts reach the photo's
whites (its 90th percentile of L* within 3 of the photo's 99th) is white: 123/141, 25/38; orange up
to hue 72 instead of 69, and dark orange-reds of chroma 65 and more orange: 127/141, 25/38; weakly
coloured yellows (chroma under 30) that are not light brown: 127/141, 27/38; dark, weakly coloured
red-oranges brown: 127/141, 28/38; purple from hue 310 instead of 315 (violet, indigo): 128/141
(0.908), 28/38 (0.737). Held-out parts, run once at the end: the first 0.649 (48/74, one fewer);
held2 0.831 (98/118; photos 29/39, stamps 69/79); held3 0.643 (74/115). The clean held-out crops
together (held2 + held3): 0.717 (167/233) before, 0.738 (172/233) after, far from the 0.85 aimed
at. Not tried or not kept: white under a warm light (the rocket lit at night, chroma 19) by
allowing chroma up to 20 turned a pale sky white on dev; a lower WHITE_ABOVE turned the camera
man's grey coat white; two-tone objects have no development crop to tune on (they were left out
when labelling).

Then (branch colour5, tuned on dev and dev2 only; every development failure looked at on contact
sheets of the crop, its mask and its clusters). Causes of the 23 development failures
(13 dev, 10 dev2) with the code above: the mask (GrabCut finding nothing and the inner half of the
box holding background, or GrabCut taking another segment or the background around a thin thing:
the launch tower, the mantis, the vulture's and the pliers' dahlia) 7; the main cluster chosen a
shaded side or a texture's dark part of one surface (the dahlia's and a yellow flower's petals in
shade, the lark, the pigeon, the cement mixer) 5; the colour-term boundary (light wood beige or
brown, pink or red, a grey of chroma 8, an orange at hue 72, a pale green squash, a white bird at
L* 79, a dark navy sky) 8; the white balance (the rocket lit at night) 1; a cup named by its coffee
and a spoon by what it reflects 2. GrabCut finds nothing in 109 of the 179 development crops
(most are segments of regions, where the inner half is right) and in 17 of the 34 detections of
bench/describe_human.py's development photos.

GrabCut's colour models start from random k-means, and the random state was whatever the code
run before had left: the same crop could get another mask from one run of a part to another.
Over five seeds of that state, with the colour naming above, dev scored 125-127/141 and dev2
27-28/38 (the 128/141 and 28/38 above were one of those draws); GrabCut is now seeded (0) before
each box, and the figures below are at that seed and, in brackets, the range over seeds 0-4.
Differences of one to three crops a part are within that noise.

Counting the lit and the shaded side of one hue as one cluster (colour_terms.main_colour: coloured
clusters within 20 degrees of hue merged, named by their median): dev 125 -> 128/141 (0.887 ->
0.908; range 125-127 -> 128-130), dev2 27 -> 28/38 (0.711 -> 0.737; range 27-28 -> 28-29); with
the stamps' own alpha as the mask, dev2 26 -> 30/38 (the merged cluster takes in background that
GrabCut leaves in the mask: a vulture and pliers over a dahlia). bench/describe_human.py's
development captions: wrong colours 0/40 as before (two region captions changed, CIDEr-D 0.380
-> 0.376). Not kept: the median of the merged group's lit half or its lightest cluster (117-126/141);
the median of a single cluster too (130/141, 28/38 at the old random state, but describe's brown
dog black, its mask being the inner half of the box); leaving out of GrabCut's mask the pixels
whose colour is commoner in a ring around the box than in the mask (over seeds 0-4: dev 128-130,
dev2 27-30, no better than without it, and worse without the merge: dev2 25-27); the same on the
inner half where GrabCut finds nothing (describe's yellow flower orange); GrabCut seeded with the
box's centre as the object (128/141, 27/38, and describe's red motorcycle brown); GrabCut again at
256 pixels or u2netp where GrabCut finds nothing (127-128/141, 29/38; u2netp 0.5 s a crop); a
linear-RGB or CIELAB mean of the mask (124-126/141, 26/38); an achromatic bound of chroma 10 for
colours of L* 40 and more (one crop more, a speckled guineafowl grey: too little to go on).

Held-out parts, run once at the end of that work (counts only): the first 0.676 (50/74; 48/74
before); held2 0.822 (97/118; photos 29/39, stamps 68/79; 98/118 before); held3 0.678 (78/115;
74/115 before). The clean held-out crops together (held2 + held3): 0.751 (175/233) against 0.738
(172/233) before (that figure at the old, unseeded random state), still far from the 0.85 aimed at.

Five of held2's photos (FallenLeaf, Path, OneStandsOut, BytheWater, ColorfulCups: 19 crops) are in
bench/describe_human.py's development part, whose ``-v`` prints their captions, colours included:
they are no longer clean, and are counted apart as "held2, seen" (:data:`SEEN`), out of held2's
figure. The clean held-out crops are then 214 (held2 99, held3 115).

With GrabCut run again from the box's centre where, started from the box, it gave everything to
the background (:func:`agent.perception.naming.grabcut_mask`; it had on 32 of the 66 detections
of bench/animals.py's development photos, and the box's inner half was named): dev 128/141 as
before, dev2 28/38 -> 29/38; bench/describe_human.py's development captions: the red motorcycle
(right view), "black" before, is red, 0/40 with a wrong colour as before. Held-out parts, run once
after: the first 50/74 -> 49/74, held2 81/99 as before, held3 78/115 -> 79/115.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

LABELS = Path(__file__).resolve().parent / "colour_labels.json"
# basic colour terms Easel may say that are the same as a labelled word
SAME = {"skyblue": "blue", "gray": "grey"}
DEV = ("dev", "dev2")  # the parts tuned on
# held2's photos that bench/describe_human.py's development part describes, and prints the captions
# of with -v (colours included): looked at, so no longer clean. Their 19 crops are counted apart
# ("held2, seen") and left out of held2's figure (held2 and held3 together keep 214 clean crops).
SEEN = {"wallpaper:FallenLeaf", "wallpaper:Path", "wallpaper:OneStandsOut", "wallpaper:BytheWater",
        "wallpaper:ColorfulCups"}


def crops() -> list[dict]:
    return json.loads(LABELS.read_text())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--dev", action="store_true", help="the development part only (while tuning)")
    ap.add_argument("--parts", help="these parts only, by name, comma-separated (dev,dev2,held-out,held2,held3)")
    args = ap.parse_args(argv)
    import colour_sources
    import cv2
    import photoset

    from agent.perception.naming import object_colour

    cv2.setNumThreads(1)
    if not photoset.photos2_present():
        print(f"skipped: {photoset.MATE_DIR} is missing (apt-get install mate-backgrounds)")
        return 1
    rows = [r for r in crops() if r["split"] in DEV or not args.dev]
    if args.parts:
        rows = [r for r in rows if r["split"] in args.parts.split(",")]
    if not colour_sources.present():
        print("held2 skipped: apt-get install plasma-workspace-wallpapers tuxpaint-stamps-default")
        rows = [r for r in rows if r["split"] not in ("held2", "dev2")]
    if not colour_sources.gcompris_present():
        print("held3 skipped: apt-get install gcompris-qt-data")
        rows = [r for r in rows if r["split"] != "held3"]
    cache: dict[str, np.ndarray] = {}
    results = collections.defaultdict(list)
    confusions: collections.Counter = collections.Counter()
    times = []
    for i, r in enumerate(rows):
        if r["photo"] not in cache:
            sourced = r["split"] in ("held2", "dev2", "held3")  # loaded by bench/colour_sources.py
            cache[r["photo"]] = colour_sources.load(r["photo"]) if sourced else photoset.load(r["photo"])
        img = cache[r["photo"]]
        t = time.perf_counter()
        said = object_colour(img, tuple(r["box"]), r["label"])
        times.append(time.perf_counter() - t)
        said = SAME.get(said, said)
        ok = said in r["words"]
        if r["split"] == "held2" and r["photo"] in SEEN:
            results["held2, seen"].append(ok)
            continue
        results[r["split"]].append(ok)
        if r["split"] == "held2":
            results["held2, " + ("stamps" if r["photo"].startswith("stamp:") else "photos")].append(ok)
        if r["split"] in DEV:
            results["dev, all"].append(ok)
        if r["split"] in DEV and not ok:
            confusions[(r["words"][0], said)] += 1
            if args.verbose:
                print(f"{r['split']} {i:3d} {r['photo']:12s} {r['box']} truth={'/'.join(r['words'])} said={said}")
    for split in ("dev", "dev2", "dev, all", "held-out", "held2", "held2, photos", "held2, stamps", "held3",
                  "held2, seen"):
        ok = results[split]
        if not ok:
            continue
        print(f"{'colour named right, ' + split:<40}{np.mean(ok):>8.3f}  ({sum(ok)}/{len(ok)})")
    print("development confusions (truth -> said):",
          ", ".join(f"{a}->{b} {n}" for (a, b), n in confusions.most_common()))
    print(f"median s a crop: {np.median(times):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
