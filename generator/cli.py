"""``python -m generator``: build the digest, validate seed files, or list uncertain titles.

Each command imports its stages when it runs: a build with nothing to do
(:mod:`generator.manifest`) ends before they load.

Every problem is printed as ``path:line: message`` on stderr and the command
exits 1; a traceback is shown only with ``--debug``.
"""
from __future__ import annotations

import argparse
import gc
import logging
import sys
from pathlib import Path

from generator.core.errors import ErrorList, GeneratorError
from generator.manifest import manifest_path, up_to_date
from generator.seeds.read import display_path

# Each command imports what it runs when it runs: the pipeline's imports (numpy, scipy, the
# title stage's tables) take most of a second, which `python -m generator site` with nothing
# to do would otherwise spend ten times over.

log = logging.getLogger("generator")


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m generator", description="Build the ML paper digest from seed files.")
    ap.add_argument("--debug", action="store_true", help="show tracebacks and debug logging")
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="generate the Markdown pages and papers.json into the docs folder")
    b.add_argument("--seeds", type=Path, action="append", help="seed folder (repeatable; default: seeds/)")
    b.add_argument("--docs", type=Path, default=Path("docs"), help="docs folder (default: docs/)")
    b.add_argument("--taxonomy", type=Path, help="topic taxonomy YAML (default: the one shipped)")
    b.add_argument("--cache", type=Path, default=Path(".cache/derived.json"),
                   help="titles and tags derived by the last build, reused while the generator is unchanged "
                        "(default: .cache/derived.json)")
    b.add_argument("--no-cache", dest="cache", action="store_const", const=None, help="derive everything and keep nothing")
    c = sub.add_parser("compact", help="after mkdocs build: take the templates' indentation out of the built pages")
    c.add_argument("site", type=Path, nargs="?", default=Path("site"), help="the built site (default: site/)")
    s = sub.add_parser("site", help="after build: docs/ into site/, writing only the files that changed (mkdocs build --strict when what it renders changed; paper pages filled into frames)")
    s.add_argument("--config", type=Path, default=Path("mkdocs.yml"), help="the MkDocs config (default: mkdocs.yml)")
    v = sub.add_parser("validate", help="check seed files and report what the digest makes of them; writes nothing")
    v.add_argument("paths", type=Path, nargs="+", help="seed files to check")
    v.add_argument("--seeds", type=Path, default=Path("seeds"), help="the digest's seed folder (default: seeds/)")
    v.add_argument("--format", choices=("text", "markdown"), default="text")
    v.add_argument("--site-url", default="", help="site URL, to link duplicates in the markdown report")
    v.add_argument("--base", metavar="COMMIT",
                   help="the commit the files are changed from (a pull request's base): papers it already had "
                        "are reported as such, and every change to them is told (default: the files are new)")
    t = sub.add_parser("titles", help="list the digest's least confident derived titles with their abstracts")
    t.add_argument("--least", type=int, default=50, help="how many titles to list (default: 50)")
    t.add_argument("--seeds", type=Path, default=Path("seeds"), help="the digest's seed folder (default: seeds/)")
    return ap


def cmd_titles(args: argparse.Namespace) -> int:
    """The digest's least confident derived titles, for maintainers to correct in seeds/curation.yml."""
    from generator.derive.curate import find_curation
    from generator.derive.tag import load_taxonomy
    from generator.derive.title.review import least_confident, report_least
    from generator.pipeline import derive
    from generator.seeds.parse import parse_all
    from generator.seeds.read import read_seeds, seed_paths

    papers = parse_all(read_seeds(seed_paths([args.seeds])))
    digest = derive(papers, load_taxonomy(), find_curation([args.seeds]))
    sys.stdout.write(report_least(least_confident(digest, args.least)))
    return 0


def _messages(e: GeneratorError) -> list[str]:
    return [str(x) for x in (e.errors if isinstance(e, ErrorList) else [e])]


def cmd_build(args: argparse.Namespace) -> int:
    seed_dirs = args.seeds or [Path("seeds")]
    if args.cache is not None and (done := up_to_date(seed_dirs, args.docs, args.taxonomy, manifest_path(args.cache))):
        log.info("nothing changed since the last build (%s): %d papers from %d seed file(s) (%d duplicates merged) "
                 "in %s, as they are", display_path(manifest_path(args.cache)), done.papers, done.seed_files,
                 done.merged, display_path(args.docs))
        return 0
    # No cyclic garbage collection during a build: it makes millions of objects and next to no
    # cycles, and each full collection walks all of them, the kept state included. At 20,000
    # papers an appended abstract's build ran 18 full collections, 3.8 to 4.8 of its main
    # process's 15 to 19 CPU s (handbook/performance.md). Forked workers inherit the setting;
    # the preview's builder does the same (generator/serve.py).
    enabled = gc.isenabled()
    gc.disable()
    try:
        from generator.pipeline import build

        result = build(seed_dirs, args.docs, args.taxonomy, args.cache)
    finally:
        if enabled:
            gc.enable()
    d = result.digest
    merged = sum(p.merged for p in d)
    log.info(
        "built %d papers from %d seed file(s) (%d duplicates merged) into %s in %.2fs: %d file(s) written, %d removed",
        len(d), result.seed_files, merged, display_path(args.docs), result.seconds, result.written, result.removed,
    )
    return 0


def cmd_compact(args: argparse.Namespace) -> int:
    from generator.site.compact import compact_site

    if not args.site.is_dir():
        raise GeneratorError("no built site here: run mkdocs build first", display_path(args.site))
    files, before, after = compact_site(args.site)
    log.info("compacted %d page(s) in %s: %.1f MB to %.1f MB", files, display_path(args.site), before / 1e6, after / 1e6)
    return 0


def cmd_site(args: argparse.Namespace) -> int:
    from generator.site.build import build_site

    r = build_site(args.config)
    if r.unchanged:
        log.info("site up to date: %d files, none changed (MkDocs %s)", r.files, "ran" if r.mkdocs else "not run")
        return 0
    log.info("site built: %d files, %d written (%d HTML pages), %d removed; %d page(s) filled into their frames; MkDocs %s",
             r.files, len(r.written), r.html_written, r.removed, r.stamped,
             "ran" if r.mkdocs else "not run: nothing it renders changed")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from generator.derive.curate import CURATION_FILE, find_curation, read_curation_bytes
    from generator.derive.tag import load_taxonomy
    from generator.seeds.parse import parse_all
    from generator.seeds.read import read_seeds, read_seeds_at, seed_paths
    from generator.validate import check, errors_markdown, report_markdown, report_text

    topics = load_taxonomy()
    try:
        # a file refused by name or kind is a problem of the pull request: the summary says so
        checked = seed_paths(args.paths)
        # The files being checked may already sit in seeds/ (as in a pull request): they
        # are not "existing" papers. Compared resolved; named as the user gave them.
        real = {p.resolve() for p in checked}
        existing_paths = [p for p in seed_paths([args.seeds]) if p.resolve() not in real] if args.seeds.is_dir() else []
        submitted = parse_all(read_seeds(checked))
        existing = parse_all(read_seeds(existing_paths))
        curation = find_curation([args.seeds])
        base, base_curation = None, None
        if args.base is not None:
            base_seeds, base_file = read_seeds_at(args.base, args.seeds, CURATION_FILE)
            base_curation = read_curation_bytes(*base_file) if base_file else None
            base = parse_all(base_seeds)
        # checks across files (a venue written two ways) happen here
        _, verdicts = check(existing, submitted, topics, curation, base, base_curation)
    except GeneratorError as e:
        if args.format == "markdown":
            sys.stdout.write(errors_markdown(_messages(e)))
        raise
    report = report_markdown(verdicts, args.site_url) if args.format == "markdown" else report_text(verdicts)
    sys.stdout.write(report)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.debug:  # the generator's own stages; not every library's internals (numba's compiler is chatty)
        log.setLevel(logging.DEBUG)
    try:
        return {"build": cmd_build, "compact": cmd_compact, "site": cmd_site, "validate": cmd_validate,
                "titles": cmd_titles}[args.command](args)
    except GeneratorError as e:
        if args.debug:
            raise
        for m in _messages(e):
            print(m, file=sys.stderr)
        return 1
