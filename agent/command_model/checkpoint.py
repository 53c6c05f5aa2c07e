"""Checkpoints: a safetensors file holding the LoRA weights and the decoder, with the model's config
(and the training record) in its metadata, so :func:`load_checkpoint` rebuilds the model without
``training/``. The base encoder's weights come from its package, not from the file."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import torch

from agent.command_model.model import CommandEnsemble, CommandModel, CommandModelConfig

DEFAULT_WEIGHTS = Path(__file__).resolve().parents[2] / "resources" / "command_model" / "command_model.safetensors"

def trainable_state(model: CommandModel) -> dict[str, torch.Tensor]:
    """The weights a checkpoint holds: LoRA and the decoder (the base encoder comes from its package)."""
    return {k: v.detach().contiguous() for k, v in model.state_dict().items()
            if "lora_" in k or not k.startswith("encoder.")}


def save_checkpoint(model: CommandModel, path: str | Path, extra: dict | None = None) -> None:
    from safetensors.torch import save_file

    meta = {"config": json.dumps(asdict(model.cfg)), "format": "easel-command-model-1"}
    if extra:
        meta["info"] = json.dumps(extra)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    save_file(trainable_state(model), str(path), metadata=meta)


def save_ensemble(paths: list[str | Path], out: str | Path, extra: dict | None = None) -> None:
    """One safetensors file holding the member checkpoints at ``paths`` (keys prefixed ``m0.``, ``m1.``...)."""
    from safetensors import safe_open
    from safetensors.torch import load_file, save_file

    state, infos, config = {}, [], None
    for i, p in enumerate(paths):
        with safe_open(str(p), framework="pt") as f:
            meta = f.metadata() or {}
        if meta.get("format") != "easel-command-model-1":
            raise ValueError(f"{p} is not a single command-model checkpoint")
        if config is not None and json.loads(meta["config"])["vocab"] != json.loads(config)["vocab"]:
            raise ValueError(f"{p} has another vocabulary than {paths[0]}")
        config = config or meta["config"]
        infos.append(json.loads(meta.get("info", "{}")))
        state.update({f"m{i}.{k}": v for k, v in load_file(str(p)).items()})
    meta = {"config": config, "format": "easel-command-ensemble-1", "members": str(len(paths)),
            "info": json.dumps({**(extra or {}), "members": infos})}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    save_file(state, str(out), metadata=meta)


def _load_member(cfg: CommandModelConfig, state: dict, path) -> CommandModel:
    model = CommandModel(cfg)
    missing, unexpected = model.load_state_dict(state, strict=False)
    bad = [k for k in missing if "lora_" in k or not k.startswith("encoder.")]
    if bad or unexpected:
        raise ValueError(f"{path} does not fit the model: missing {bad[:5]}, unexpected {unexpected[:5]}")
    return model.eval()


def load_checkpoint(path: str | Path) -> tuple[CommandModel | CommandEnsemble, dict]:
    """Rebuild the model (or the ensemble) from a checkpoint; returns (model in eval mode, training info)."""
    from safetensors import safe_open
    from safetensors.torch import load_file

    with safe_open(str(path), framework="pt") as f:
        meta = f.metadata() or {}
    if "config" not in meta:
        raise ValueError(f"{path} is not a command-model checkpoint (no config in its metadata)")
    cfg = CommandModelConfig(**json.loads(meta["config"]))
    state = load_file(str(path))
    info = json.loads(meta.get("info", "{}"))
    if meta.get("format") == "easel-command-ensemble-1":
        members = []
        for i in range(int(meta["members"])):
            prefix = f"m{i}."
            members.append(_load_member(cfg, {k[len(prefix):]: v for k, v in state.items() if k.startswith(prefix)},
                                        path))
        return CommandEnsemble(members).eval(), info
    return _load_member(cfg, state, path), info

