"""Join command-model checkpoints into one ensemble file:
``python -m training ensemble-commands A.safetensors B.safetensors ... [--out PATH]``.

The members must come from ``train-commands`` runs that differ only in ``--model-seed`` (same data,
vocabulary and encoder inputs); :class:`agent.command_model.CommandEnsemble` decodes them as one, with
the mean of their next-word probabilities. The default output is the shipped weights' path.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_args(p: argparse.ArgumentParser) -> None:
    from agent.command_model import DEFAULT_WEIGHTS

    p.add_argument("checkpoints", nargs="+", help="best.safetensors of each train-commands run")
    p.add_argument("--out", default=str(DEFAULT_WEIGHTS))


def main(args: argparse.Namespace) -> int:
    from agent.command_model import load_checkpoint, save_ensemble

    try:
        save_ensemble(args.checkpoints, args.out)
        load_checkpoint(args.out)  # proves the file rebuilds
    except (OSError, ValueError) as exc:
        print(f"ensemble-commands: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out)
    print(f"wrote {out}: {len(args.checkpoints)} members, {out.stat().st_size / 1e6:.1f} MB")
    return 0
