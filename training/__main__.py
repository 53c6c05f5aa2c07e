"""``python -m training SUBCOMMAND ...``: the offline training and evaluation commands.

Each subcommand lives in its own module; register it in ``SUBCOMMANDS`` as
``name: (module, help)``. A module either has ``add_args(parser)`` and ``main(args) -> int``, or
parses its own arguments with ``main(argv: list[str]) -> int``. Modules are imported only when their
subcommand runs, so one missing optional dependency does not break the others.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "train-commands": ("training.train_commands", "train the command model (CAISE + synthetic dialogues)"),
    "ensemble-commands": ("training.ensemble_commands", "join command models trained with several seeds into one file"),
    "evaluate-commands": ("training.evaluate_commands", "exact-match accuracy of the command model on a CAISE file"),
    "train-referent-colour": ("training.train_referent_colour",
                              "fit the ranker that reads 'the colour of the X' from the image's concepts"),
    "train-speaker": ("training.train_speaker", "train the relational speaker on synthesised edit pairs"),
    "evaluate-speaker": ("training.evaluate_speaker", "BLEU-4/METEOR/ROUGE-L/CIDEr of a speaker on held-out pairs"),
    "train-mitr": ("training.mitr_train", "train the mirrored transformer (trace <-> caption) on Localized Narratives"),
    "evaluate-mitr": ("training.mitr_eval", "caption metrics and LBM of a MITR checkpoint"),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="python -m training", description="Easel's offline training commands.")
    sub = parser.add_subparsers(dest="subcommand", metavar="SUBCOMMAND", required=True)
    chosen = argv[0] if argv and argv[0] in SUBCOMMANDS else None
    for name, (module, help_text) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_text, add_help=name != chosen)
        p.set_defaults(_module=module)
    if chosen is None:
        parser.parse_args(argv)  # prints usage or the error and exits
        return 2
    module = importlib.import_module(SUBCOMMANDS[chosen][0])
    if not hasattr(module, "add_args"):  # the module parses its own arguments
        return module.main(argv[1:])
    p = argparse.ArgumentParser(prog=f"python -m training {chosen}", description=SUBCOMMANDS[chosen][1])
    module.add_args(p)
    return module.main(p.parse_args(argv[1:]))


if __name__ == "__main__":
    sys.exit(main())
