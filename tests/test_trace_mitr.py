from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from agent.learned.mitr import BOS, EOS, MITR, MITRConfig, Vocab, load, save
from training.caption_metrics import caption_scores
from training.mitr_data import load_features, load_ln_jsonl, make_batch, synthetic_set


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    d = tmp_path_factory.mktemp("mitr")
    jsonl, npz = synthetic_set(d, 24, feat_dim=8, seed=0)
    exs, bad = load_ln_jsonl(jsonl, window=0.5)
    return d, jsonl, npz, exs, load_features(npz)


def _tiny(vocab, fdim, cycle=0.1):
    torch.manual_seed(0)
    return MITR(MITRConfig(vocab_size=len(vocab), feat_dim=fdim, d_model=32, n_heads=2, n_enc=1, n_dec=1,
                           d_ff=64, dropout=0.0, max_words=32, max_boxes=16, max_regions=4,
                           cycle_weight=cycle))


def test_vocab_round_trip():
    v = Vocab.build(["A cat, then a cup.", "a dog"])
    ids = v.encode("a cat, then a zebra.", 32)
    assert ids[0] == BOS and ids[-1] == EOS
    assert v.decode(ids) == "a cat, then a <unk>."
    assert len(v.encode("a " * 100, 10)) == 10


def test_data_loading(toy, tmp_path):
    _, jsonl, npz, exs, feats = toy
    assert len(exs) == 24 and all(e.boxes.shape[1] == 4 and len(e.boxes) >= 2 for e in exs)
    assert all(e.image_id in feats for e in exs)
    bad = tmp_path / "bad.jsonl"
    good = jsonl.read_text().splitlines()[0]
    bad.write_text(good + "\nnot json\n" + json.dumps({"image_id": "x", "caption": "a", "traces": "no"}) + "\n")
    got, nbad = load_ln_jsonl(bad)
    assert len(got) == 1 and nbad == 2
    (tmp_path / "f.txt").write_text("x")
    with pytest.raises(ValueError, match="npz"):
        load_features(tmp_path / "f.txt")
    np.savez(tmp_path / "mixed.npz", a=np.zeros((2, 3)), b=np.zeros((2, 4)))
    with pytest.raises(ValueError, match="one size"):
        load_features(tmp_path / "mixed.npz")
    np.savez(tmp_path / "badbox.npz", a=np.zeros((2, 3)), **{"a.boxes": np.zeros((3, 4))})
    with pytest.raises(ValueError, match="boxes"):
        load_features(tmp_path / "badbox.npz")


def test_forward_shapes_and_cycle_gradients(toy):
    _, _, _, exs, feats = toy
    vocab = Vocab.build(e.caption for e in exs)
    model = _tiny(vocab, 8)
    batch = make_batch(exs[:4], feats, vocab, 32, 4)
    logits, loss = model(batch)
    assert loss is None
    b, n = batch["boxes"].shape[:2]
    assert logits["words"].shape == (b, batch["words"].shape[1] - 1, len(vocab))
    assert logits["boxes"].shape == (b, n, 4) and logits["stop"].shape == (b, n)
    _, loss = model(batch, targets=True)
    assert torch.isfinite(loss) and {"cycle_l1", "cycle_ce"} <= set(model.last_losses)
    loss.backward()
    assert all(p.grad is not None for n_, p in model.named_parameters() if "stop_head" not in n_)
    no_cycle = _tiny(vocab, 8, cycle=0.0)
    _, l2 = no_cycle(batch, targets=True)
    assert "cycle_l1" not in no_cycle.last_losses and float(l2.detach()) < float(loss.detach())


def test_checkpoint_round_trip(toy, tmp_path, no_network):
    _, _, _, exs, feats = toy
    vocab = Vocab.build(e.caption for e in exs)
    model = _tiny(vocab, 8).eval()
    path = tmp_path / "m.safetensors"
    save(model, vocab, path, extra={"window": 0.5})
    again, v2, extra = load(path)
    assert v2.itos == vocab.itos and extra == {"window": 0.5} and again.config == model.config
    batch = make_batch(exs[:3], feats, vocab, 32, 4)
    a, _ = model(batch)
    b, _ = again(batch)
    assert torch.allclose(a["words"], b["words"], atol=1e-5)
    caps = again.generate_caption(batch["feats"], batch["feat_boxes"], batch["feat_mask"], batch["boxes"],
                                  batch["box_mask"], max_len=8)
    assert caps.shape[0] == 3 and caps.shape[1] <= 8
    traces = again.generate_trace(batch["feats"], batch["feat_boxes"], batch["feat_mask"], batch["words"],
                                  max_boxes=5)
    assert len(traces) == 3 and all(1 <= len(t) <= 5 and ((t >= 0) & (t <= 1)).all() for t in traces)
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "none.safetensors")
    (tmp_path / "junk.safetensors").write_bytes(b"\x00" * 64)
    with pytest.raises(ValueError):
        load(tmp_path / "junk.safetensors")


@pytest.mark.slow
def test_train_and_evaluate_tiny(tmp_path, no_network):
    import argparse

    from training.mitr_eval import evaluate
    from training.mitr_train import add_args, train

    p = argparse.ArgumentParser()
    add_args(p)
    out = tmp_path / "m.safetensors"
    args = p.parse_args(["--synthetic", str(tmp_path / "syn"), "--synthetic-size", "48", "--out", str(out),
                         "--steps", "60", "--batch-size", "16", "--d-model", "32", "--layers", "1",
                         "--heads", "2", "--lr", "3e-3", "--min-count", "1", "--dropout", "0",
                         "--eval-every", "30", "--max-boxes", "16", "--max-words", "32"])
    res = train(args)
    assert res["last_loss"] < 0.5 * res["first_loss"]
    s = evaluate(str(out), str(tmp_path / "syn" / "valid.jsonl"), str(tmp_path / "syn" / "valid_features.npz"),
                 meteor=False)
    assert s["n"] == 12 and s["METEOR"] is None
    assert 0 <= s["BLEU-1"] <= 1 and 0 <= s["LBM(k=0)"] <= 1 and 0 <= s["LBM(k=1)"] <= 1
    assert s["LBM(k=0)"] < s["LBM(k=0) centre-box baseline"]


def test_caption_scores():
    s = caption_scores({"a": ["a cat on a mat"], "b": ["a dog in a park"]},
                       {"a": "A cat on a mat.", "b": "a dog in a park"}, meteor=False)
    assert s["BLEU-4"] == pytest.approx(1.0, abs=1e-6) and s["ROUGE-L"] == pytest.approx(1.0)
    worse = caption_scores({"a": ["a cat on a mat"], "b": ["a dog in a park"]},
                           {"a": "a dog", "b": "a cat"}, meteor=False)
    assert all(worse[k] < s[k] for k in ("BLEU-1", "ROUGE-L", "CIDEr"))
    with pytest.raises(ValueError):
        caption_scores({"a": ["x"]}, {"b": "x"})


@pytest.mark.slow
def test_meteor_with_java():
    import shutil

    if not shutil.which("java"):
        pytest.skip("METEOR needs java")
    # one Java start (about 10-40 s on a busy machine): a perfect caption scores near 1
    s = caption_scores({"a": ["a cat sits on the mat"]}, {"a": "a cat sits on the mat"})
    assert s["METEOR"] > 0.9
