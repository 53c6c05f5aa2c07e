"""The relational speaker model (agent/learned/speaker.py), its training data and metrics."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agent.learned.speaker import RelationalSpeaker, SpeakerConfig, load_speaker, save_speaker
from editor.models import ModelMissingError

VOCAB = ["<pad>", "<bos>", "<eos>", "<unk>", "make", "it", "brighter", "darker", "flip", "the", "image"]


def tiny(**kw) -> RelationalSpeaker:
    torch.manual_seed(0)
    cfg = SpeakerConfig(feat_dim=16, grid=4, d_model=32, n_head=2, n_dec_layer=1, max_len=8, dropout=0.0,
                        vocab=list(VOCAB), **kw)
    return RelationalSpeaker(cfg)


def test_forward_shapes_and_loss():
    m = tiny()
    fb, fa = torch.randn(3, 4, 16), torch.randn(3, 4, 16)
    toks = torch.tensor([m.tokenize("make it brighter") + [0] * 3] * 3)
    logits, loss = m((fb, fa, toks[:, :-1]), toks[:, 1:])
    assert logits.shape == (3, 7, len(VOCAB))
    assert loss is not None and loss.item() > 0
    logits, loss = m((fb, fa, toks[:, :-1]))
    assert loss is None


def test_tokenize_round_trip_and_unknown_words():
    m = tiny()
    ids = m.tokenize("Make it BRIGHTER")
    assert ids[0] == 1 and ids[-1] == 2
    assert m.detokenize(ids[1:]) == "make it brighter"
    assert m.tokenize("make it purple")[3] == 3  # <unk>


@pytest.mark.slow
def test_learns_which_image_is_brighter():
    """Two sentences decided by the relation between the images, not by either image alone."""
    m = tiny()
    g = torch.Generator().manual_seed(1)
    base = torch.randn(48, 4, 16, generator=g)
    up = torch.rand(48, generator=g) > 0.5
    after = base + torch.where(up, 1.0, -1.0)[:, None, None]
    sent = ["make it brighter" if u else "make it darker" for u in up]
    toks = torch.tensor([m.tokenize(s) + [0] * (8 - len(m.tokenize(s))) for s in sent])
    opt = torch.optim.AdamW(m.parameters(), lr=3e-3)
    m.train()
    for _ in range(100):
        _, loss = m((base, after, toks[:, :-1]), toks[:, 1:])
        opt.zero_grad()
        loss.backward()
        opt.step()
    said = m.generate(base, after)
    assert sum(s == t for s, t in zip(said, sent)) >= 44


def test_checkpoint_round_trip_carries_config(tmp_path):
    m = tiny()
    path = tmp_path / "speaker.safetensors"
    save_speaker(m, path, extra={"note": "test"})
    back = load_speaker(path)
    assert back.cfg == m.cfg
    fb, fa = torch.randn(2, 4, 16), torch.randn(2, 4, 16)
    assert back.generate(fb, fa) == m.generate(fb, fa)


def test_missing_checkpoint_says_how_to_train(tmp_path):
    with pytest.raises(ModelMissingError, match="train-speaker"):
        load_speaker(tmp_path / "none.safetensors")


def test_instructions_follow_the_truth():
    from training.speaker_data import instructions

    refs = instructions({"rotate": {"degrees": 270}, "brightness": {"amount": 50}}, (100, 100), (100, 100))
    assert len(refs) == 3
    assert refs[0] == "rotate it 90 degrees clockwise and make it a lot brighter"
    refs = instructions({"object_added": {"after_box": [0, 0, 20, 20], "before_box": [0, 0, 20, 20]}},
                        (100, 100), (100, 100))
    assert "top left" in refs[0]


def test_generated_pairs_carry_their_truth():
    from training.speaker_data import edit_crop, edit_rotate

    rng = np.random.default_rng(0)
    img = np.random.default_rng(1).integers(0, 256, (60, 80, 3), dtype=np.uint8)
    out, truth = edit_crop(rng, img, [])
    x1, y1, x2, y2 = truth["crop"]["box"]
    assert np.array_equal(out, img[y1:y2, x1:x2])
    out, truth = edit_rotate(rng, img, [])
    assert 0 < truth["rotate"]["degrees"] < 360


def test_caption_metrics_perfect_and_wrong():
    from training.metrics import caption_scores

    refs = [["make the whole image a lot brighter", "brighten the image a lot"],
            ["flip the image from left to right", "mirror it left to right"]]
    good = caption_scores(refs, ["make the whole image a lot brighter", "flip the image from left to right"],
                          meteor=False)
    bad = caption_scores(refs, ["rotate it", "add a red tint"], meteor=False)
    assert good["BLEU-4"] > 0.6 and good["CIDEr"] > bad["CIDEr"]
    assert good["ROUGE-L"] == pytest.approx(1.0)
    assert bad["ROUGE-L"] < 0.5
    with pytest.raises(ValueError):
        caption_scores(refs, ["one"], meteor=False)


@pytest.mark.slow
def test_cnn_features_load_offline(no_network):
    from skimage import data

    from agent.learned.speaker import image_features

    f = image_features([data.astronaut(), data.coffee()[:, :, :3]])
    assert f.shape == (2, 49, 1280)
    assert torch.isfinite(f).all()


@pytest.mark.slow
def test_chat_can_phrase_with_the_speaker(tmp_path, monkeypatch):
    import agent.learned.speaker as sp
    from agent.dialogue.manager import DialogueManager
    from agent.explain import register
    from editor.document import Document
    from editor.store import Store

    torch.manual_seed(0)
    model = RelationalSpeaker(SpeakerConfig(vocab=list(VOCAB), max_len=4))
    with torch.no_grad():  # a "model" that always says "flip"
        model.head.weight.zero_()
        model.head.bias.fill_(-10)
        model.head.bias[VOCAB.index("flip")] = 10
    monkeypatch.setattr(sp, "load_speaker", lambda *a, **k: model)
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, (64, 64, 3), dtype=np.uint8)
    store = Store(tmp_path / "e.db")
    m = DialogueManager(Document.create(store, img))
    register(m)
    m.handle("flip horizontal")
    m.context.explain_phrasing = "speaker"
    r = m.handle("explain")
    assert r.ok and r.reply.startswith('In a sentence, someone asked to "flip flip flip"')
    assert "mirrored" in r.reply  # the engine's detail follows
    store.close()


@pytest.mark.slow
def test_committed_checkpoint_loads_offline(no_network):
    from agent.learned.speaker import DEFAULT_CHECKPOINT, describe_edit

    if not DEFAULT_CHECKPOINT.is_file():
        pytest.skip("no trained speaker in resources/speaker")
    model = load_speaker()
    assert model.cfg.feat_dim == 1280 and len(model.cfg.vocab) > 20
    img = np.random.default_rng(0).integers(0, 256, (120, 160, 3), dtype=np.uint8)
    said = describe_edit(img, img[:, ::-1].copy(), model)
    assert isinstance(said, str) and said and all(w in model.cfg.vocab for w in said.split())
