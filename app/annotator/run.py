"""``python main.py annotate ...``: start the annotator windows, export, import, statistics.

The export/import/stats commands never import Qt, so they run on a machine without a display.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import shutil
import signal
import sys
from pathlib import Path

from editor.annotations import AnnotationStore
from editor.files import default_profile_dir
from editor.store import Store

# Sample pictures shipped with scikit-image (no download), named for what they show, so a new
# annotator has something to search and to describe before pointing --images at a real collection.
SAMPLES = {"astronaut.png": "astronaut.png", "chelsea.png": "cat.png", "coffee.png": "coffee_cup.png",
           "rocket.jpg": "rocket.jpg", "motorcycle_left.png": "motorcycle.png",
           "hubble_deep_field.jpg": "galaxies_in_space.jpg", "camera.png": "man_with_camera.png",
           "coins.png": "coins.png"}


def _annotator(args) -> str:
    if args.annotator:
        return args.annotator
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "annotator"


def _annotations(args, synchronous: str | None = None) -> AnnotationStore:
    from sqlite_utils.utils import sqlite3  # the module sqlite-utils really uses (maybe pysqlite3)

    path = Path(args.db) if args.db else None
    try:
        return AnnotationStore(Store(path), synchronous=synchronous)
    except (sqlite3.DatabaseError, OSError) as exc:
        raise SystemExit(f"easel: cannot open the database {path or 'of the profile'}: {exc}") from exc


def default_library() -> Path:
    """A folder of sample images in the profile (copied from scikit-image's data once)."""
    folder = default_profile_dir() / "annotator_images"
    if not folder.is_dir() or not any(folder.iterdir()):
        import skimage.data

        src = Path(skimage.data.__file__).parent
        folder.mkdir(parents=True, exist_ok=True)
        for name, target in SAMPLES.items():
            if (src / name).exists():
                shutil.copyfile(src / name, folder / target)
    return folder


def _images(args) -> Path:
    if args.images:
        folder = Path(args.images)
        if not folder.is_dir():
            raise SystemExit(f"easel: --images {folder} is not a folder")
        return folder
    return default_library()


def _qt_app():
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Easel annotator")
    # Ctrl+C in the terminal closes the windows (everything is already committed)
    signal.signal(signal.SIGINT, lambda *_: app.quit())
    return app


def _hub_server(args, code: str | None = None):
    """A hub server whose hub (and database connection) lives in a worker thread."""
    from app.annotator.hub import DialogueHub, ImageLibrary
    from app.annotator.net import HubServer

    images = _images(args)  # resolved here, so a bad --images is reported before any window opens
    seeds = [s.strip() for s in args.seeds.split(",") if s.strip()] if args.seeds else None
    missing = [s for s in seeds or [] if s not in ImageLibrary(images).files]
    if missing:
        raise SystemExit(f"easel: seed image(s) {', '.join(missing)} not found in {images}")
    _annotations(args).store.close()  # a database that cannot be opened is reported here, not in the thread

    def make_hub() -> DialogueHub:
        ann = _annotations(args)
        library = ImageLibrary(images, describe=None if args.no_detect else image_concepts,
                               cache=ann.store.path.parent / "annotator_library.json")
        return DialogueHub(ann, library, resume=not args.new, seeds=seeds)

    return HubServer(factory=make_hub, code=code)


def open_solo(args):
    """The hub and both windows of solo mode (shown); returns (server, user window, assistant window)."""
    from app.annotator.dialogue_window import AssistantWindow, UserWindow

    server = _hub_server(args)
    who = _annotator(args)
    user = UserWindow(server.local_client(), who)
    assistant = AssistantWindow(server.local_client(), who)
    user.move(0, 0)
    assistant.move(80, 60)
    user.show()
    assistant.show()
    return server, user, assistant


def cmd_solo(args) -> int:
    app = _qt_app()
    server, *_windows = open_solo(args)
    code = app.exec()
    server.close()
    return code


def open_host(args):
    """The listening hub and this machine's window; returns (server, window, port)."""
    from app.annotator.dialogue_window import AssistantWindow, UserWindow
    from app.annotator.net import LOOPBACK, new_session_code

    bind = bind_address(args)
    # Only this machine can reach loopback; anywhere else the partner needs the session code.
    code = None if bind == LOOPBACK and not args.lan else new_session_code()
    server = _hub_server(args, code)
    try:
        port = server.listen(bind, args.port)
    except OSError:
        server.close()
        raise
    window_cls = AssistantWindow if args.role == "assistant" else UserWindow
    window = window_cls(server.local_client(), _annotator(args))
    window.show()
    return server, window, port


def bind_address(args) -> str:
    return args.bind or ("0.0.0.0" if args.lan else "127.0.0.1")


def cmd_host(args) -> int:
    if args.port is not None and not 0 <= args.port < 65536:
        print(f"easel: --port must be from 0 to 65535, got {args.port}", file=sys.stderr)
        return 2
    app = _qt_app()
    try:
        server, _window, port = open_host(args)
    except OSError as exc:
        print(f"easel: {exc}", file=sys.stderr)
        return 2
    other = "user" if args.role == "assistant" else "assistant"
    if server.code:
        print(f"hosting on {bind_address(args)}:{port} with session code {server.code}; on the other "
              f"machine run:\n  python main.py annotate join THIS_MACHINE_ADDRESS:{port} --role {other} "
              f"--code {server.code}", flush=True)
    else:
        print(f"hosting on {bind_address(args)}:{port} (this machine only; --lan to accept a partner "
              f"from another machine); in another terminal run:\n"
              f"  python main.py annotate join 127.0.0.1:{port} --role {other}", flush=True)
    code = app.exec()
    server.close()
    return code


def open_join(args):
    """This machine's window, connecting (and reconnecting) to the host; returns (link, window)."""
    from PySide6.QtCore import QTimer

    from app.annotator.dialogue_window import AssistantWindow, UserWindow
    from app.annotator.net import TcpLink, parse_address

    host, port = parse_address(args.address)
    link = TcpLink(reconnect_ms=2000, code=args.code)  # a restarted host is rejoined, its dialogue resumed
    window = (AssistantWindow if args.role == "assistant" else UserWindow)(link, _annotator(args))
    window.show()
    link.connect_to(host, port)
    # a host that does not answer is reported, not waited for forever
    QTimer.singleShot(int(args.timeout * 1000), window, lambda: window.connected or window.statusBar().showMessage(
        f"no answer from {host}:{port} after {args.timeout:g} s; is the host running?"))
    return link, window


def cmd_join(args) -> int:
    app = _qt_app()
    try:
        _link, _window = open_join(args)
    except ValueError as exc:
        print(f"easel: {exc}", file=sys.stderr)
        return 2
    return app.exec()


def _narrative_items(args):
    from app.annotator.hub import IMAGE_SUFFIXES
    from app.annotator.narrative_window import NarrativeItem

    paths: list[Path] = []
    for p in (Path(x) for x in (args.images_or_files or [str(default_library())])):
        if p.is_dir():
            paths.extend(sorted(q for q in p.rglob("*") if q.suffix.lower() in IMAGE_SUFFIXES))
        elif p.exists():
            paths.append(p)
        else:
            raise SystemExit(f"easel: {p} does not exist")
    return [NarrativeItem(image_id=p.stem, path=p, dataset_id=args.dataset_id) for p in paths]


def cmd_narrate(args) -> int:
    from app.annotator.narrative_window import NarrativeWindow

    items = _narrative_items(args)
    if not items:
        print("easel: no images to describe", file=sys.stderr)
        return 2
    app = _qt_app()
    # trace points come up to 50 a second: commit without fsync (still safe against a killed app)
    window = NarrativeWindow(_annotations(args, synchronous="NORMAL"), items, _annotator(args))
    window.show()
    return app.exec()


def cmd_pairs(args) -> int:
    from app.annotator.pair_window import PairWindow
    from editor.annotations import version_pairs
    from editor.exports import FormatError, load_ier

    ann = _annotations(args)
    if args.pairs:
        try:
            pairs = load_ier(args.pairs)
        except FormatError as exc:
            print(f"easel: {exc}", file=sys.stderr)
            return 2
        images = Path(args.images) if args.images else Path(args.pairs).parent
    else:
        pairs = version_pairs(ann.store)
        images = ann.store.blobs
    if not pairs:
        print("easel: no image pairs (give an Image Editing Request file, or edit some images in the "
              "app first: each edit makes a before/after pair)", file=sys.stderr)
        return 2
    app = _qt_app()
    window = PairWindow(ann, pairs, images, _annotator(args))
    window.show()
    return app.exec()


def _export_targets(args, ann: AnnotationStore) -> list[Path]:
    """Every file an export will write (the output, the images, the concept files)."""
    targets = [Path(args.output)]
    if args.format == "caise" and args.images:
        from editor.exports import dialogue_images

        targets += [Path(args.images) / f"{image_id}.png" for image_id in dialogue_images(ann)]
    if args.format == "caise" and args.concepts:
        folder = Path(args.output).resolve().parent
        targets += [folder / "image_concept.json", folder / "image_h5_id2idx.json"]
    return targets


def cmd_export(args) -> int:
    """Check every file the export will write before writing any: an existing one is refused
    without --overwrite, one in the profile folder or a database always."""
    from editor.exports import export
    from editor.files import OutputError, check_not_protected, check_output

    ann = _annotations(args)
    if args.format == "caise" and args.images and Path(args.images).exists() \
            and not Path(args.images).is_dir():
        print(f"easel: --images {args.images} is not a folder", file=sys.stderr)
        return 2
    try:
        for target in _export_targets(args, ann):
            if not target.parent.exists():  # the --images folder, made later
                check_not_protected(target, db=ann.store.path)
            else:
                check_output(target, overwrite=args.overwrite, db=ann.store.path)
        n = export(ann, args.format, args.output, only_done=args.done_only,
                   all_commands=args.all_commands, overwrite=args.overwrite)
    except (OutputError, OSError) as exc:
        print(f"easel: cannot write {args.output}: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {n} {'instances' if args.format == 'caise' else 'records'} to {args.output}")
    if args.format == "caise" and (args.images or args.concepts):
        return _export_dialogue_images(args, ann)
    return 0


def _export_dialogue_images(args, ann: AnnotationStore) -> int:
    """The pictures behind history_img ids, and what is in them (objects with their colour)."""
    from editor.exports import dialogue_images
    from editor.files import OutputError, write_atomic
    from editor.imageio import ImageFileError, write_image
    from editor.models import ModelMissingError

    images = dialogue_images(ann)
    concepts: dict[str, list[str]] = {}
    folder = Path(args.output).resolve().parent
    concept_files = (folder / "image_concept.json", folder / "image_h5_id2idx.json")
    if args.images:
        Path(args.images).mkdir(parents=True, exist_ok=True)
    for image_id, digest in images.items():
        try:
            pixels = ann.store.get_pixels(digest)
        except FileNotFoundError as exc:
            print(f"easel: {image_id}: {exc}", file=sys.stderr)
            continue
        if args.images:
            try:
                write_image(Path(args.images) / f"{image_id}.png", pixels, overwrite=args.overwrite,
                            db=ann.store.path)
            except ImageFileError as exc:
                print(f"easel: {exc}", file=sys.stderr)
                return 2
        if args.concepts:
            try:
                concepts[image_id] = image_concepts(pixels)
            except ModelMissingError as exc:
                print(f"easel: {exc}", file=sys.stderr)
                return 2
    if args.images:
        print(f"wrote {len(images)} images to {args.images}")
    if args.concepts:
        ids = list(concepts)
        try:
            write_atomic(concept_files[0], json.dumps([concepts[i] for i in ids]),
                         overwrite=args.overwrite, db=ann.store.path)
            write_atomic(concept_files[1], json.dumps({i: k for k, i in enumerate(ids)}),
                         overwrite=args.overwrite, db=ann.store.path)
        except OutputError as exc:
            print(f"easel: {exc}", file=sys.stderr)
            return 2
        print(f"wrote the concepts of {len(ids)} images to {concept_files[0]} and {concept_files[1]}")
    return 0


def image_concepts(pixels) -> list[str]:
    """CAISE-style concept phrases ("white cat") for the objects detected in an image."""
    from agent.perception.models import color_name, detect_objects

    phrases: list[str] = []
    for det in detect_objects(pixels):
        phrase = f"{color_name(pixels, det.box)} {det.label}"
        if phrase not in phrases:
            phrases.append(phrase)
    return phrases


def cmd_import(args) -> int:
    from editor.exports import FormatError, import_file

    try:
        result = import_file(_annotations(args), args.format, args.input, annotator=args.annotator)
    except FormatError as exc:
        print(f"easel: {exc}", file=sys.stderr)
        return 2
    print(f"imported {result.sessions} session(s), {result.events} event(s); "
          f"{result.skipped} already there")
    if result.messages:
        print(f"completed {len(result.messages)} session(s) an interrupted import had left half done")
    return 0


def cmd_stats(args) -> int:
    from editor.exports import compute_stats, format_stats

    stats = compute_stats(_annotations(args))
    print(json.dumps(stats, indent=2) if args.json else format_stats(stats))
    return 0


COMMANDS = {"solo": cmd_solo, "host": cmd_host, "join": cmd_join, "narrate": cmd_narrate,
            "pairs": cmd_pairs, "export": cmd_export, "import": cmd_import, "stats": cmd_stats}


def run(args: argparse.Namespace) -> int:
    """Run ``python main.py annotate MODE ...`` (arguments from :mod:`app.annotator.cli`)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    return COMMANDS[args.mode](args)
