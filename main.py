"""Easel: edit photos by chatting.

    python main.py [IMAGE]                                   open the app
    python main.py apply IN "COMMAND" [...] -o OUT           run grammar commands on a file
    python main.py edit IN "REQUEST" [...] -o OUT [--json] [--trace FILE | --box X1 Y1 X2 Y2]
                                                             run requests as chat turns
    python main.py caption IMAGE [--trace TRACE.json] [--json] [--draw OUT]   caption along a trace
    python main.py locate IMAGE "CAPTION" [--json] [--draw OUT]               where the caption looks
    python main.py explain BEFORE AFTER [--json]             say what changed between two images
    python main.py annotate solo|host|join|narrate|pairs|export|import|stats   annotator mode
    python main.py edit IN "REQUEST" [...] -o OUT --save-recipe RECIPE.json   ... and keep its edits
    python main.py batch RECIPE.json INPUTS... -o OUTDIR [--workers N] [--ray auto|local|ADDRESS]
                                                             apply a recipe to many photos
    python main.py index DIR [DIR ...] [--ocr] [--db PATH] [--workers N] [--ray auto|local|ADDRESS]
                                                             index photos into the library
    python main.py search "QUERY" [--limit K] [--json]       search the library
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path


def _add_output_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", required=True, help="file to write (format from its suffix)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace OUTPUT if it exists (the input is never replaced without this)")
    p.add_argument("--quality", type=int, default=95, help="JPEG/WebP quality 1..100 (default 95)")


def _short(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters: a 40 KB request is not echoed back whole."""
    text = str(text)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def _fail(message: str, code: int = 2) -> int:
    print("easel: " + "\n".join(_short(line, 500) for line in str(message).splitlines()),
          file=sys.stderr)
    return code


def _check_output(path: str, *, overwrite: bool, input_path: str | None = None,
                  db: str | None = None) -> str | None:
    """What is wrong with an output path, found before any work is done (None: nothing).

    Besides the checks below, a file in the profile folder, the ``--db`` database and any SQLite
    file are refused whatever ``overwrite`` says (:func:`editor.files.check_output`)."""
    from editor.files import OutputError, check_not_protected, is_sqlite
    from editor.imageio import ImageFileError, format_for_path

    out = Path(path)
    try:
        format_for_path(out)
        check_not_protected(out, db=db)
    except (ImageFileError, OutputError) as exc:
        return str(exc)
    if out.is_file() and is_sqlite(out):
        return f"{out} is an SQLite database (perhaps a profile); Easel never writes over one"
    if out.is_dir():
        return f"{out} is a folder; give a file name, e.g. {out / 'edited.png'}"
    if not out.parent.is_dir():
        return f"{out.parent}: no such folder"
    if out.exists() and not overwrite:
        if input_path is not None and out.resolve() == Path(input_path).resolve():
            return f"{out} is the input file; pass --overwrite to replace the original"
        return f"{out} exists; choose another name or pass --overwrite"
    return None


def _check_output_args(args) -> str | None:
    if not 1 <= args.quality <= 100:
        return f"--quality must be from 1 to 100, got {args.quality}"
    return _check_output(args.output, overwrite=args.overwrite, input_path=args.input,
                         db=getattr(args, "db", None))


def _save(pixels, meta, args) -> int:
    from editor.imageio import ImageFileError, write_image

    problem = _check_output_args(args)  # checked first too; the file system may have changed since
    if problem:
        return _fail(problem)
    try:
        write_image(Path(args.output), pixels, meta=meta, quality=args.quality,
                    overwrite=args.overwrite, db=getattr(args, "db", None))
    except (ImageFileError, OSError) as exc:
        return _fail(str(exc))
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    from agent.edits.run import crop_note, execute
    from agent.grammar.commands import CommandError, parse_command
    from editor.imageio import ImageFileError, read_image
    from editor.models import ModelMissingError

    problem = _check_output_args(args)
    if problem:
        return _fail(problem)
    try:
        commands = [parse_command(c) for c in args.commands]
    except CommandError as exc:
        return _fail(str(exc))
    for c in commands:
        if not c.edits_image:
            return _fail(f"'{_short(c.format(), 60)}' does not edit an image; apply runs rotate, "
                         "adjust_color, adjust_attr, image_cutout, crop and flip")
    try:
        img = read_image(args.input)
    except ImageFileError as exc:
        return _fail(str(exc))
    pixels = img.pixels
    for c in commands:
        note = crop_note(c, pixels.shape)
        try:
            pixels = execute(c, pixels)
        except (ValueError, ModelMissingError) as exc:
            return _fail(f"{c.format()}: {exc}")
        print(c.format())
        if note:
            print(f"easel: {c.format()}: {note}", file=sys.stderr)
    if any(c.name == "remove_location" for c in commands):
        from editor.imageio import strip_location

        return _save(pixels, strip_location(img.meta), args)
    return _save(pixels, img.meta, args)


EDIT_TMP_PREFIX = "easel-edit-"


def _edit_tmp_dir() -> Path:
    """A private folder for an ``edit`` run without ``--db`` (its database and full-resolution
    versions), named with this process's id so that the next run can remove the folders of runs
    that were killed before they could clean up."""
    from editor.files import process_alive

    root = Path(tempfile.gettempdir())
    for old in root.glob(f"{EDIT_TMP_PREFIX}*"):
        try:
            pid = int(old.name[len(EDIT_TMP_PREFIX):].split("-", 1)[0])
            if old.stat().st_uid != os.getuid() or process_alive(pid):
                continue
        except (ValueError, OSError, AttributeError):
            continue
        shutil.rmtree(old, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=f"{EDIT_TMP_PREFIX}{os.getpid()}-"))


def cmd_edit(args: argparse.Namespace) -> int:
    from agent.dialogue.assistant import build_manager
    from agent.grammar.commands import CommandError, Search, parse_command
    from editor.document import Document
    from editor.imageio import ImageFileError, read_image
    from editor.store import Store

    problem = _check_output_args(args)  # before any request runs (they can take half a minute)
    if problem:
        return _fail(problem)
    if args.db and Path(args.db).is_dir():
        return _fail(f"--db {args.db} is a folder; give a database file, e.g. {Path(args.db) / 'easel.db'}")
    if args.save_recipe and (problem := _check_recipe_path(args)):
        return _fail(problem)
    try:
        img = read_image(args.input)
    except ImageFileError as exc:
        return _fail(str(exc))
    drawn, problem = _drawn_selection(args, img.pixels)  # --trace / --box: as if drawn before the first request
    if problem:
        return _fail(problem)
    tmp = None if args.db else _edit_tmp_dir()
    try:
        store = Store(Path(args.db) if args.db else tmp / "easel.db")
        first = doc = Document.create(store, img.pixels, title=Path(args.input).name,
                                      source_path=str(Path(args.input).resolve()), meta=img.meta)
        library = Path(args.db).with_name("library.db") if args.db else None
        manager = build_manager(doc, library_path=library)
        if drawn is not None:
            drawn.version_id = doc.head.id
            manager.context.selection = drawn
            if drawn.source == "trace":
                manager.context.trace = drawn.drawn  # "describe" captions it, as in the window
            if not args.json:
                how = "snapped to the edges it encloses" if drawn.refined else "as drawn"
                print(f"(selected with the {drawn.source}, {how}: {float((drawn.mask >= 0.5).mean()):.1%} of the "
                      f"picture, box {' '.join(map(str, drawn.box()))})", flush=True)
        failed = 0
        asked_for = False  # a search typed as a command ("search red balloon") asks for a photo
        for request in args.requests:
            result = manager.handle(request)
            failed += not result.ok
            if isinstance(result.command, Search) and result.ok:
                try:
                    asked_for = isinstance(parse_command(request), Search)
                except CommandError:
                    asked_for = False  # words the model read as a search: maybe not meant as one
            if args.json:
                print(json.dumps(result.as_json()), flush=True)
            else:
                shown = "; ".join(c.format() for c in result.commands) or "(nothing run)"
                print(f"> {_short(request)}\n  {_short(shown)}\n  {result.reply}", flush=True)
        doc = manager.document
        if doc is not first and not (args.found_photo or asked_for):
            # A request became a search and opened a library photo: that is not an edit of the
            # input, and it must not become the output unless asked for.
            code = _fail(f"a request became a search and opened {doc.source_path or doc.title}, "
                         f"not an edit of {args.input}; {args.output} was not written (pass "
                         "--found-photo to write the photo the search opened, with its edits)", 1)
        else:
            if doc is not first:
                print(f"easel: writing the photo the search opened ({doc.source_path or doc.title})",
                      file=sys.stderr)
            from agent.edits.saving import saved_meta

            code = _save(doc.pixels(), saved_meta(doc), args)
            if args.save_recipe and code == 0:
                code = _save_recipe(doc, args)
        store.close()
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return code or (1 if failed else 0)


def _check_recipe_path(args: argparse.Namespace) -> str | None:
    from editor.files import OutputError, check_output

    try:
        check_output(args.save_recipe, overwrite=args.overwrite, db=args.db,
                     also_protect=[args.input, args.output])
    except OutputError as exc:
        return f"--save-recipe: {exc}"
    return None


def _save_recipe(doc, args: argparse.Namespace) -> int:
    """Write the recipe of the conversation: the edits from the original to the head."""
    from agent.batch.recipes import Recipe, RecipeError
    from editor.files import OutputError

    try:
        recipe = Recipe.from_document(doc, Path(args.save_recipe).stem)
        recipe.save(args.save_recipe, overwrite=args.overwrite)
    except (RecipeError, OutputError) as exc:
        return _fail(f"--save-recipe: {exc}")
    print(f"recipe {recipe.name!r} ({len(recipe.commands)} commands) saved to {args.save_recipe}",
          file=sys.stderr)
    return 0


def cmd_batch(args: argparse.Namespace) -> int:
    from agent.batch.batch import BatchError, run_batch
    from agent.batch.cluster import RayUnavailable
    from agent.batch.recipes import Recipe, RecipeError
    from editor.files import OutputError

    if args.workers < 1:
        return _fail("--workers must be at least 1")
    if not 1 <= args.quality <= 100:
        return _fail(f"--quality must be from 1 to 100, got {args.quality}")
    try:
        recipe = Recipe.load(args.recipe)
        summary = run_batch(recipe, args.inputs, args.output, workers=args.workers, ray_address=args.ray,
                            fmt=args.format, quality=args.quality, report=args.report,
                            progress=not args.quiet)
    except (RecipeError, BatchError, OutputError, RayUnavailable) as exc:
        return _fail(str(exc))
    print(summary.text())
    return 1 if summary.failed else 0


def _drawn_selection(args: argparse.Namespace, pixels):
    """The selection ``--trace FILE`` or ``--box X1 Y1 X2 Y2`` draws (agent.edits.selection), and a
    problem to report instead; (None, None) when neither is given."""
    if not (args.trace or args.box):
        return None, None
    if args.trace and args.box:
        return None, "--trace and --box each draw the selection; give one of them"
    from agent.edits import selection

    try:
        if args.trace:
            from agent.describe.traces import TraceError, load_trace, to_ln

            try:
                strokes = to_ln(load_trace(args.trace))
            except TraceError as exc:
                return None, str(exc)
            return selection.from_trace(pixels, strokes), None
        return selection.from_box(pixels, args.box), None
    except ValueError as exc:
        return None, f"{'--trace' if args.trace else '--box'}: {exc}"


def _write_drawing(path: str, pixels, overwrite: bool) -> int:
    from editor.imageio import ImageFileError, write_image

    try:
        write_image(Path(path), pixels, overwrite=overwrite)
    except ImageFileError as exc:
        return _fail(str(exc))
    return 0


def cmd_caption(args: argparse.Namespace) -> int:
    from agent.describe.caption import caption_trace, describe_image, draw
    from agent.describe.traces import TraceError, load_trace, to_ln
    from editor.imageio import ImageFileError, read_image
    from editor.models import ModelMissingError

    if args.draw and (problem := _check_output(args.draw, overwrite=args.overwrite)):
        return _fail(problem)
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
                                              [s.points for s in cap.segments]), args.overwrite)
    return 0


def cmd_locate(args: argparse.Namespace) -> int:
    from agent.describe.caption import draw, locate
    from editor.imageio import ImageFileError, read_image
    from editor.models import ModelMissingError

    if args.draw and (problem := _check_output(args.draw, overwrite=args.overwrite)):
        return _fail(problem)
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
                                              found.strokes_by_phrase()), args.overwrite)
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
    from agent.search.library import Library
    from editor.library import LibraryError
    from editor.models import ModelMissingError

    missing = [d for d in args.dirs if not Path(d).expanduser().is_dir()]
    if missing:
        return _fail(f"not a folder: {', '.join(missing)}")
    if args.threads < 1:
        return _fail("--threads must be at least 1")
    if args.workers < 1:
        return _fail("--workers must be at least 1")
    import cv2
    import torch

    from agent.batch.cluster import RayUnavailable

    torch.set_num_threads(args.threads)
    cv2.setNumThreads(args.threads)
    analyse = None
    if args.ray or args.workers > 1:
        from agent.batch.index import analyser

        analyse = analyser(workers=args.workers, ray_address=args.ray, threads=args.threads)
    try:
        library = Library(Path(args.db) if args.db else None)
        report = library.index(args.dirs, ocr=args.ocr, progress=not args.quiet, analyse=analyse)
    except (LibraryError, ModelMissingError, RayUnavailable) as exc:
        return _fail(str(exc))
    print(f"{report.summary()}; {library.count()} photos in {library.db_path}")
    for path, reason in report.errors[:20]:
        print(f"  skipped {reason}" if path in reason else f"  skipped {path}: {reason}", file=sys.stderr)
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from agent.search.library import Library
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


def build_parser(annotate: bool = True) -> argparse.ArgumentParser:
    """The command line. ``annotate=False`` leaves out the annotator's own arguments, whose module
    lives in app/ and so loads Qt: the headless commands (apply, edit, search, ...) never do."""
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
    p.add_argument("--trace", metavar="FILE",
                   help="a trace in Localized Narratives form (JSON), as if drawn before the first request: "
                        "'brighten this', 'remove this' apply to what it circles or scribbles over, and "
                        "'describe' captions it")
    p.add_argument("--box", nargs=4, type=int, metavar=("X1", "Y1", "X2", "Y2"),
                   help="a box (pixels, X2/Y2 exclusive), as if drawn with the box tool before the first request")
    p.add_argument("--found-photo", action="store_true",
                   help="if a request the model read as a search opens a photo from the library, "
                        "write that photo, with its edits, to OUTPUT (default: refuse; a request "
                        "typed as a command, 'search WORDS', asks for the photo itself)")
    p.add_argument("--save-recipe", metavar="FILE",
                   help="also save the conversation's edits as a recipe (JSON command lines) for `batch`")
    p.set_defaults(func=cmd_edit)

    p = sub.add_parser("batch", help="apply a recipe (saved with edit --save-recipe) to many photos")
    p.add_argument("recipe", help='a recipe file: {"name": ..., "commands": ["adjust_attr brightness 20", ...]}')
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="photos, or folders of photos (recursively)")
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR",
                   help="folder for the edited photos (never an original's place); outputs already "
                        "there are skipped, so running again resumes")
    p.add_argument("--workers", type=int, default=1, help="local worker processes (default 1)")
    p.add_argument("--ray", metavar="auto|local|ADDRESS",
                   help="run as Ray tasks: join the cluster at ADDRESS, or this machine's (auto), "
                        "or start a local runtime (local); needs requirements-ray.txt")
    p.add_argument("--format", help="write this format (jpg, png, webp, tif) instead of the input's")
    p.add_argument("--quality", type=int, default=95, help="JPEG/WebP quality 1..100 (default 95)")
    p.add_argument("--report", metavar="FILE", help="JSON-lines report (default OUTDIR/easel-batch.jsonl)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_batch)

    p = sub.add_parser("caption", help="caption an image along a mouse trace (or all of it)")
    p.add_argument("input")
    p.add_argument("--trace", help="a trace in Localized Narratives form (JSON); default: the whole image")
    p.add_argument("--json", action="store_true", help="the caption and its segments as JSON")
    p.add_argument("--draw", metavar="OUT", help="write the image with the boxes and trace drawn")
    p.add_argument("--overwrite", action="store_true", help="replace the --draw file if it exists")
    p.set_defaults(func=cmd_caption)

    p = sub.add_parser("locate", help="find what a caption names, in order, and a trace through it")
    p.add_argument("input")
    p.add_argument("caption")
    p.add_argument("--json", action="store_true", help="phrases, boxes and the trace as JSON")
    p.add_argument("--draw", metavar="OUT", help="write the image with the boxes and trace drawn")
    p.add_argument("--overwrite", action="store_true", help="replace the --draw file if it exists")
    p.set_defaults(func=cmd_locate)

    p = sub.add_parser("explain", help="say what changed between two images")
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--json", action="store_true", help="print the findings as JSON")
    p.add_argument("--no-names", action="store_true", help="do not name objects with the detector")
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("annotate", help="annotator mode: record dialogues, trace narratives, pair "
                                        "instructions; export, import, statistics")
    if annotate:
        from app.annotator.cli import add_arguments as add_annotate_arguments

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
    p.add_argument("--workers", type=int, default=1,
                   help="worker processes reading and perceiving photos (default 1: this process); "
                        "the database is written by this process only")
    p.add_argument("--ray", metavar="auto|local|ADDRESS",
                   help="read and perceive photos as Ray tasks (see batch --ray); the database is "
                        "still written by this process only")
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("search", help="search the photo library")
    p.add_argument("query")
    p.add_argument("--limit", type=int, default=10, help="how many results (default 10)")
    p.add_argument("--json", action="store_true", help="results as JSON")
    p.add_argument("--db", help="library database (default: library.db in the profile folder)")
    p.set_defaults(func=cmd_search)
    return parser


def main(argv: list[str] | None = None) -> int:
    from editor.offline import stay_offline

    stay_offline()  # before the app or any command can load onnxruntime or transformers
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(annotate=bool(argv) and argv[0] == "annotate")
    subcommands = set(parser._subparsers._group_actions[0].choices)  # noqa: SLF001
    if argv and (argv[0] in subcommands or argv[0] in ("-h", "--help")):
        args = parser.parse_args(argv)
        return _run(args)
    app_parser = argparse.ArgumentParser(
        prog="easel", description="Open the Easel app. Subcommands: " + ", ".join(sorted(subcommands)))
    app_parser.add_argument("image", nargs="?", help="an image to open")
    return cmd_app(app_parser.parse_args(argv))


def _run(args: argparse.Namespace) -> int:
    """Run a subcommand; whatever the input, the person gets a message, not a traceback
    (``EASEL_DEBUG=1`` shows it, for bug reports)."""
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except (OSError, MemoryError) as exc:  # a file, folder or disk the person can fix
        return _fail(f"{args.cli}: {exc}")
    except Exception as exc:  # noqa: BLE001 - the last line of defence, reported below
        if type(exc).__module__.split(".")[0] in ("sqlite3", "pysqlite3"):
            db = getattr(args, "db", None)
            return _fail(f"cannot use the database{f' {db}' if db else ''}: {exc}")
        if os.environ.get("EASEL_DEBUG"):
            raise
        return _fail(f"{args.cli} failed: {type(exc).__name__}: {exc} "
                     "(run with EASEL_DEBUG=1 to see where)", 3)


if __name__ == "__main__":
    sys.exit(main())
