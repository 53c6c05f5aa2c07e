"""Easel: edit photos by chatting.

    python main.py [IMAGE]                                   open the app
    python main.py apply IN "COMMAND" [...] -o OUT           run grammar commands on a file
    python main.py edit IN "REQUEST" [...] -o OUT [--json]   run requests as chat turns
    python main.py caption IMAGE [--trace TRACE.json] [--json] [--draw OUT]   caption along a trace
    python main.py locate IMAGE "CAPTION" [--json] [--draw OUT]               where the caption looks
    python main.py explain BEFORE AFTER [--json]             say what changed between two images
    python main.py annotate solo|host|join|narrate|pairs|export|import|stats   annotator mode
    python main.py index DIR [DIR ...] [--ocr] [--db PATH]   index photos into the library
    python main.py search "QUERY" [--limit K] [--json]       search the library
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path


def _add_output_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", required=True, help="file to write (format from its suffix)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace OUTPUT if it exists (the input is never replaced without this)")
    p.add_argument("--quality", type=int, default=95, help="JPEG/WebP quality 1..100 (default 95)")


def _fail(message: str, code: int = 2) -> int:
    print(f"easel: {message}", file=sys.stderr)
    return code


def _save(pixels, meta, args) -> int:
    from editor.imageio import ImageFileError, write_image

    out = Path(args.output)
    if out.exists() and out.resolve() == Path(args.input).resolve() and not args.overwrite:
        return _fail(f"{out} is the input file; pass --overwrite to replace the original")
    try:
        write_image(out, pixels, meta=meta, quality=args.quality, overwrite=args.overwrite)
    except ImageFileError as exc:
        return _fail(str(exc))
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    from agent.commands import CommandError, parse_command
    from agent.executor import execute
    from editor.imageio import ImageFileError, read_image
    from editor.models import ModelMissingError

    try:
        commands = [parse_command(c) for c in args.commands]
    except CommandError as exc:
        return _fail(str(exc))
    for c in commands:
        if not c.edits_image:
            return _fail(f"'{c.format()}' does not edit an image; apply runs rotate, adjust_color, "
                         "adjust_attr, image_cutout, crop and flip")
    try:
        img = read_image(args.input)
    except ImageFileError as exc:
        return _fail(str(exc))
    pixels = img.pixels
    for c in commands:
        try:
            pixels = execute(c, pixels)
        except (ValueError, ModelMissingError) as exc:
            return _fail(f"{c.format()}: {exc}")
        print(c.format())
    return _save(pixels, img.meta, args)


def cmd_edit(args: argparse.Namespace) -> int:
    from agent.assistant import build_manager
    from editor.document import Document
    from editor.imageio import ImageFileError, read_image
    from editor.store import Store

    try:
        img = read_image(args.input)
    except ImageFileError as exc:
        return _fail(str(exc))
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(args.db) if args.db else Path(tmp) / "easel.db")
        doc = Document.create(store, img.pixels, title=Path(args.input).name,
                              source_path=str(Path(args.input).resolve()), meta=img.meta)
        library = Path(args.db).with_name("library.db") if args.db else None
        manager = build_manager(doc, library_path=library)
        failed = 0
        for request in args.requests:
            result = manager.handle(request)
            failed += not result.ok
            if args.json:
                print(json.dumps(result.as_json()), flush=True)
            else:
                shown = "; ".join(c.format() for c in result.commands) or "(nothing run)"
                print(f"> {request}\n  {shown}\n  {result.reply}", flush=True)
        doc = manager.document  # a search turn may have opened another photo
        code = _save(doc.pixels(), doc.meta, args)
        store.close()
    return code or (1 if failed else 0)


def _write_drawing(path: str, pixels) -> int:
    from editor.imageio import ImageFileError, write_image

    try:
        write_image(Path(path), pixels, overwrite=True)
    except ImageFileError as exc:
        return _fail(str(exc))
    return 0


def cmd_caption(args: argparse.Namespace) -> int:
    from agent.trace_caption import caption_trace, describe_image, draw
    from agent.traces import TraceError, load_trace, to_ln
    from editor.imageio import ImageFileError, read_image
    from editor.models import ModelMissingError

    try:
        img = read_image(args.input)
        strokes = load_trace(args.trace) if args.trace else None
        cap = caption_trace(img.pixels, to_ln(strokes)) if strokes else describe_image(img.pixels)
    except (ImageFileError, TraceError, ModelMissingError, ValueError) as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps(cap.as_json()))
    else:
        print(cap.text)
        for s in cap.segments:
            print(f"  {s.t0:6.2f}-{s.t1:6.2f} s  {s.color}  {list(s.box)}  {s.words}")
    if args.draw:
        return _write_drawing(args.draw, draw(img.pixels, [s.box for s in cap.segments],
                                              [s.color for s in cap.segments],
                                              [s.points for s in cap.segments]))
    return 0


def cmd_locate(args: argparse.Namespace) -> int:
    from agent.trace_caption import draw, locate
    from editor.imageio import ImageFileError, read_image
    from editor.models import ModelMissingError

    try:
        img = read_image(args.input)
        found = locate(img.pixels, args.caption)
    except (ImageFileError, ModelMissingError, ValueError) as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps(found.as_json()))
    else:
        for p, b in zip(found.phrases, found.boxes):
            print(f"{p.text!r:40} -> {p.label}: {list(b) if b else 'not found'}")
        if not found.phrases:
            print("(the caption names nothing I can look for)")
    if args.draw:
        return _write_drawing(args.draw, draw(img.pixels, found.boxes, found.colors,
                                              found.strokes_by_phrase()))
    return 0 if found.found_boxes or not found.phrases else 1


def cmd_explain(args: argparse.Namespace) -> int:
    from agent.explain import explain_images
    from editor.imageio import ImageFileError, read_image

    try:
        before = read_image(args.before).pixels
        after = read_image(args.after).pixels
    except ImageFileError as exc:
        return _fail(str(exc))
    try:
        exp = explain_images(before, after, name_objects=not args.no_names)
    except ValueError as exc:
        return _fail(str(exc))
    print(json.dumps(exp.as_json(), indent=2) if args.json else exp.text)
    return 0
def cmd_index(args: argparse.Namespace) -> int:
    from agent.library import Library
    from editor.library import LibraryError
    from editor.models import ModelMissingError

    missing = [d for d in args.dirs if not Path(d).expanduser().is_dir()]
    if missing:
        return _fail(f"not a folder: {', '.join(missing)}")
    if args.threads < 1:
        return _fail("--threads must be at least 1")
    import cv2
    import torch

    torch.set_num_threads(args.threads)
    cv2.setNumThreads(args.threads)
    try:
        library = Library(Path(args.db) if args.db else None)
        report = library.index(args.dirs, ocr=args.ocr, progress=not args.quiet)
    except (LibraryError, ModelMissingError) as exc:
        return _fail(str(exc))
    print(f"{report.summary()}; {library.count()} photos in {library.db_path}")
    for path, reason in report.errors[:20]:
        print(f"  skipped {reason}" if path in reason else f"  skipped {path}: {reason}", file=sys.stderr)
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from agent.library import Library
    from editor.library import LibraryError
    from editor.models import ModelMissingError

    if args.limit < 1:
        return _fail("--limit must be at least 1")
    try:
        library = Library(Path(args.db) if args.db else None)
        if library.ensure_sample() is not None:
            print("easel: the library was empty; indexed the sample photos "
                  "(index yours with `python main.py index DIR`)", file=sys.stderr)
        results = library.search(args.query, limit=args.limit)
    except (LibraryError, ModelMissingError, ValueError) as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps({"query": args.query, "results": [r.as_json() for r in results]}, indent=1))
    else:
        for i, r in enumerate(results, 1):
            print(f"{i:2d}. {r.score:.4f}  {r.path}\n      {r.description}")
        if not results:
            print("nothing found")
    return 0 if results else 1


def cmd_app(args: argparse.Namespace) -> int:
    from app.main import run_app

    return run_app(args.image)


def cmd_annotate(args: argparse.Namespace) -> int:
    from app.annotator.run import run

    return run(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="easel", description="Edit photos by chatting.")
    sub = parser.add_subparsers(dest="cli", metavar="COMMAND")

    p = sub.add_parser("apply", help="run grammar commands on an image file")
    p.add_argument("input")
    p.add_argument("commands", nargs="+", metavar="COMMAND")
    _add_output_args(p)
    p.set_defaults(func=cmd_apply)

    p = sub.add_parser("edit", help="run requests as chat turns on an image file")
    p.add_argument("input")
    p.add_argument("requests", nargs="+", metavar="REQUEST")
    _add_output_args(p)
    p.add_argument("--json", action="store_true", help="one JSON object per turn")
    p.add_argument("--db", help="record the conversation in this database (default: a temporary one)")
    p.set_defaults(func=cmd_edit)

    p = sub.add_parser("caption", help="caption an image along a mouse trace (or all of it)")
    p.add_argument("input")
    p.add_argument("--trace", help="a trace in Localized Narratives form (JSON); default: the whole image")
    p.add_argument("--json", action="store_true", help="the caption and its segments as JSON")
    p.add_argument("--draw", metavar="OUT", help="write the image with the boxes and trace drawn")
    p.set_defaults(func=cmd_caption)

    p = sub.add_parser("locate", help="find what a caption names, in order, and a trace through it")
    p.add_argument("input")
    p.add_argument("caption")
    p.add_argument("--json", action="store_true", help="phrases, boxes and the trace as JSON")
    p.add_argument("--draw", metavar="OUT", help="write the image with the boxes and trace drawn")
    p.set_defaults(func=cmd_locate)

    p = sub.add_parser("explain", help="say what changed between two images")
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--json", action="store_true", help="print the findings as JSON")
    p.add_argument("--no-names", action="store_true", help="do not name objects with the detector")
    p.set_defaults(func=cmd_explain)

    from app.annotator.cli import add_arguments as add_annotate_arguments

    p = sub.add_parser("annotate", help="annotator mode: record dialogues, trace narratives, pair "
                                        "instructions; export, import, statistics")
    add_annotate_arguments(p)
    p.set_defaults(func=cmd_annotate)
    p = sub.add_parser("index", help="index folders of photos (recursively) for search")
    p.add_argument("dirs", nargs="+", metavar="DIR")
    p.add_argument("--ocr", action="store_true", help="also read text in photos (about 1 s a photo)")
    p.add_argument("--db", help="library database (default: library.db in the profile folder)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.add_argument("--threads", type=int, default=1,
                   help="threads for the vision models (default 1: on a busy 2-core machine 2 threads "
                        "indexed 6x slower)")
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("search", help="search the photo library")
    p.add_argument("query")
    p.add_argument("--limit", type=int, default=10, help="how many results (default 10)")
    p.add_argument("--json", action="store_true", help="results as JSON")
    p.add_argument("--db", help="library database (default: library.db in the profile folder)")
    p.set_defaults(func=cmd_search)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    subcommands = set(parser._subparsers._group_actions[0].choices)  # noqa: SLF001
    if argv and (argv[0] in subcommands or argv[0] in ("-h", "--help")):
        args = parser.parse_args(argv)
        return args.func(args)
    app_parser = argparse.ArgumentParser(
        prog="easel", description="Open the Easel app. Subcommands: " + ", ".join(sorted(subcommands)))
    app_parser.add_argument("image", nargs="?", help="an image to open")
    return cmd_app(app_parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
