"""What a person says next about a real photo, found by typing it into the assistant (issue 30's
"questions answered"): each of these ran an edit or proposed a wrong one."""

from __future__ import annotations

from agent.language.followups import Recent, read_follow_up
from agent.language.questions import read_question
from agent.language.reader import read


def test_which_way_a_thing_faces_is_answered_with_where_it_is_not_a_rotation():
    """"is the horse facing left?" proposed "Rotate 1° CCW"."""
    for words in ("is the horse facing left?", "which way is the dog looking", "are the people facing the camera?"):
        question = read_question(words)
        assert question is not None and question.kind == "where" and question.value == "facing", words
        reading = read(words, model=lambda *a, **k: None, photo_open=True)
        assert not reading.proposal and [c.name for c in reading.commands] == ["describe"], words


def test_put_it_back_after_a_removal_undoes_the_removal_only():
    """"put it back" after "remove the horse" went back to the original, undoing every edit before it."""
    removal = Recent.of("remove the horse")
    for words in ("put it back", "put the horse back", "bring it back", "undo the removal"):
        follow = read_follow_up(words, removal)
        assert follow is not None and [c.format() for c in follow.commands] == ["undo"], words
    assert read_follow_up("put it back", Recent.of("adjust_attr brightness 20")).commands[0].original
