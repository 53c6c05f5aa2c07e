"""Explaining the difference between two images.

- :mod:`agent.explain.engine`: the exact relation engine, :func:`explain_images` (before, after) ->
  :class:`Explanation` (findings with measured parameters and boxes in both images, and the text).
- :mod:`agent.explain.chat`: the ``explain`` handler for :class:`agent.dialogue.manager.DialogueManager`
  ("what changed?", "where?", "how much brighter?", "anything else?", "what do they have in
  common?"); install it with :func:`register`.
"""

from __future__ import annotations

from agent.explain.chat import register
from agent.explain.engine import WORK_SIDE, explain_images
from agent.explain.types import GLOBAL_KINDS, KINDS, LOCAL_KINDS, Explanation, Finding

__all__ = [
    "GLOBAL_KINDS", "KINDS", "LOCAL_KINDS", "WORK_SIDE", "Explanation", "Finding", "explain_images",
    "register",
]
