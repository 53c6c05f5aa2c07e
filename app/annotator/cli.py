"""The arguments of ``python main.py annotate MODE ...`` (argparse only: cheap to import).

Modes: solo, host, join (paired dialogues), narrate (trace narratives), pairs (image-pair
instructions), export, import, stats. :func:`app.annotator.run.run` carries them out.
"""

from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``annotate`` subcommands (added to main.py's parser)."""
    sub = p.add_subparsers(dest="mode", metavar="MODE", required=True)

    def common(q: argparse.ArgumentParser, images: bool = False) -> None:
        q.add_argument("--db", help="profile database (default: $EASEL_HOME/easel.db)")
        q.add_argument("--annotator", help="your name as recorded (default: the login name)")
        if images:
            q.add_argument("--images", help="folder of images to search and seed from "
                                            "(default: sample images in the profile)")
            q.add_argument("--new", action="store_true",
                           help="start a new dialogue instead of resuming the open one")
            q.add_argument("--no-detect", action="store_true",
                           help="search by file name only (default: also by the objects and colours "
                                "detected in each image, computed once and cached)")
            q.add_argument("--seeds", help="comma-separated seed image names (file names without "
                                           "extension) instead of random ones: pairs given the same "
                                           "seeds do the same item, and stats compares them")

    q = sub.add_parser("solo", help="one person plays both user and assistant (two windows)")
    common(q, images=True)

    q = sub.add_parser("host", help="host a paired dialogue; the partner joins over the network")
    common(q, images=True)
    q.add_argument("--port", type=int, default=8765, help="TCP port (default 8765; 0 picks a free one)")
    q.add_argument("--lan", action="store_true",
                   help="accept the partner from another machine: listen on all interfaces and print "
                        "a one-time session code the partner must give (default: this machine only)")
    q.add_argument("--bind", help="address to listen on (default 127.0.0.1; 0.0.0.0 with --lan); any "
                                  "address but loopback requires the session code")
    q.add_argument("--role", choices=["assistant", "user"], default="assistant",
                   help="the role played on this machine (default assistant)")

    q = sub.add_parser("join", help="join a hosted dialogue by address")
    q.add_argument("address", help="HOST:PORT of the host")
    q.add_argument("--role", choices=["user", "assistant"], required=True)
    q.add_argument("--annotator", help="your name as recorded (default: the login name)")
    q.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for the host")
    q.add_argument("--code", help="the session code the host printed (hosts started with --lan)")

    q = sub.add_parser("narrate", help="trace narratives: caption an image while tracing over it")
    common(q)
    q.add_argument("images_or_files", nargs="*", metavar="IMAGE_OR_FOLDER")
    q.add_argument("--dataset-id", default="easel", help="dataset_id written to the export")

    q = sub.add_parser("pairs", help="image-pair instructions: write the edit request for before/after pairs")
    common(q)
    q.add_argument("pairs", nargs="?", help="Image Editing Request-style JSON of {img0, img1, uid} "
                                            "(default: before/after pairs from your edit history)")
    q.add_argument("--images", help="folder the img0/img1 paths are relative to (default: the file's)")

    q = sub.add_parser("export", help="write collected data as CAISE JSON, LN JSONL or IER JSON")
    q.add_argument("--format", choices=["caise", "ln", "ier"], required=True)
    q.add_argument("output")
    q.add_argument("--db", help="profile database (default: $EASEL_HOME/easel.db)")
    q.add_argument("--overwrite", action="store_true",
                   help="replace OUTPUT (and --images/--concepts files) if they exist; the profile "
                        "folder and databases are never written over")
    q.add_argument("--done-only", action="store_true", help="leave out dialogues/narratives still open")
    q.add_argument("--all-commands", action="store_true",
                   help="CAISE: make every executed command an instance, crop/undo/flip included "
                        "(default: CAISE's target types; the others stay in the histories)")
    q.add_argument("--images", metavar="DIR",
                   help="CAISE: also write every image of the recorded dialogues as DIR/<image id>.png")
    q.add_argument("--concepts", action="store_true",
                   help="CAISE: also write the detected \"colour object\" phrases of every image beside "
                        "OUTPUT as CAISE does: image_concept.json (a list) and image_h5_id2idx.json "
                        "(image id -> index), which CAISE loaders pick up")

    q = sub.add_parser("import", help="read CAISE JSON, LN JSONL or IER JSON into the database")
    q.add_argument("--format", choices=["caise", "ln", "ier"], required=True)
    q.add_argument("input")
    q.add_argument("--db", help="profile database (default: $EASEL_HOME/easel.db)")
    q.add_argument("--annotator", help="annotator recorded for the imported data")

    q = sub.add_parser("stats", help="per-annotator items, time per item, command types, agreement")
    q.add_argument("--db", help="profile database (default: $EASEL_HOME/easel.db)")
    q.add_argument("--json", action="store_true")
