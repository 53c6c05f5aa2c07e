"""The commands that retouch people: ``red_eye``.

They join the same registry as :mod:`agent.grammar.commands`, which imports this module after its
own classes (so the README's table lists them last); import the grammar from there, not from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.grammar.base import Command, command


@command
@dataclass(frozen=True)
class RedEye(Command):
    """Fix red eyes: the flash's red in the pupils of the faces the face detector finds."""

    name = "red_eye"
    usage = "red_eye"
    meaning = ("fix red eyes: in a circle around each eye of each face the face detector finds (a fifth of the "
               "face's width across), the pixels far redder than green and blue, in one piece with the pupil, "
               "take the mean of their green and blue as red (dark, as a pupil is); nothing else changes; no "
               "face, or no red eye, is said and changes nothing (Easel extension)")
    edits_image = True

    def reply(self) -> str:
        return "Fixed the red eyes."

    def label(self) -> str:
        return "Red-eye fix"
