"""What a removal takes that the subject mask left out (agent.edits.attached): a white bird's
orange feet on grass are taken; a branch across its box, a twig before its body and a post it
stands on, which go on past the box, are not."""

import cv2
import numpy as np

from agent.edits.attached import attached_parts

ORANGE = (235, 120, 25)
BROWN = (120, 72, 40)
BOX = (110, 110, 290, 276)


def _scene(seed: int = 0):
    """Grass (green noise) under a dark wood, a white ellipse (the bird, and its mask)."""
    rng = np.random.default_rng(seed)
    img = np.empty((400, 400, 3), np.uint8)
    img[:] = (40, 60, 30)
    grass = np.clip(rng.normal((70, 140, 50), 18, (200, 400, 3)), 0, 255).astype(np.uint8)
    img[200:] = grass
    body = np.zeros((400, 400), np.uint8)
    cv2.ellipse(body, (200, 180), (88, 60), 0, 0, 360, 1, -1)
    img[body > 0] = (245, 245, 240)
    return img, body > 0


def _feet(img):
    img[238:272, 168:182] = ORANGE
    img[238:274, 216:232] = ORANGE
    img[268:274, 150:182] = ORANGE  # toes cut by the box's lower side (276) a few pixels on
    return (img == ORANGE).all(-1)


def test_feet_left_out_of_the_mask_are_taken():
    img, body = _scene()
    feet = _feet(img)
    taken = attached_parts(img, body, BOX)
    assert (taken & feet).sum() > 0.9 * feet.sum()
    assert (taken & ~feet).sum() < 0.02 * feet.sum()  # a few grass pixels of rare green beside them


def test_nothing_is_taken_when_the_mask_has_it_all():
    img, body = _scene()
    feet = _feet(img)
    assert not attached_parts(img, body | feet, BOX).any()


def test_a_branch_out_of_the_box_is_left():
    img, mask = _scene()
    img[222:230, 98:152] = BROWN  # from under the bird's flank out past its box's left side
    assert not attached_parts(img, mask, BOX).any()


def test_a_twig_before_the_body_is_left():
    img, body = _scene()
    img[172:182, 185:215] = BROWN  # within the box, the bird above and below it
    mask = body & ~(img == BROWN).all(-1)
    assert not attached_parts(img, mask, BOX).any()


def test_a_post_that_goes_on_below_the_box_is_left_the_feet_taken():
    img, body = _scene()
    feet = _feet(img)
    img[230:302, 250:253] = BROWN  # a post under the bird, running on past its box
    post = (img == BROWN).all(-1)
    taken = attached_parts(img, body, BOX)
    assert not (taken & post).any()
    assert (taken & feet).sum() > 0.9 * feet.sum()


def test_a_scene_in_the_box_is_no_missed_part():
    img, body = _scene()
    img[236:276, 112:288] = ORANGE  # a rug as wide as the box under the bird: more than a foot
    assert not attached_parts(img, body, BOX).any()
