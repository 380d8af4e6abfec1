"""The GitHub Actions workflows: linted, least-privileged, pinned, and their commands run here.

The workflows only call commands that also work on a laptop (``make`` targets and
``.github/scripts/``), so these tests run those same commands rather than trusting
that a YAML file nobody executes locally still works.
"""
from __future__ import annotations

import fnmatch
import html
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from support import github_markdown

from generator.derive.tag import load_taxonomy
from generator.pipeline import derive
from generator.seeds.parse import parse_seed

ROOT = Path(__file__).parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
DEPLOY = WORKFLOWS / "deploy.yml"
PR = WORKFLOWS / "pr.yml"
SUMMARY_STEP = "Validate the changed seed files"
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")


def tool(name: str) -> str | None:
    """A linter installed in the virtualenv running the tests, or on PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def workflow(path: Path) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as the boolean true
    data["on"] = data.pop(True, data.get("on"))
    return data


def steps(path: Path) -> list[tuple[str, dict]]:
    """(job id, step) for every step of the workflow."""
    return [(job_id, step) for job_id, job in workflow(path)["jobs"].items() for step in job["steps"]]


def step_named(path: Path, name: str) -> dict:
    return next(step for _, step in steps(path) if step.get("name") == name)


# -- linters ---------------------------------------------------------------------------


def test_actionlint_finds_nothing():
    actionlint = tool("actionlint")
    if actionlint is None:
        pytest.skip("actionlint is not installed (pip install -r requirements-test.txt installs it)")
    run = subprocess.run(
        [actionlint, "-no-color", *sorted(str(p) for p in WORKFLOWS.glob("*.yml"))],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert (run.returncode, run.stdout + run.stderr) == (0, "")


def test_zizmor_finds_nothing():
    zizmor = tool("zizmor")
    if zizmor is None:
        pytest.skip("zizmor is not installed (pip install -r requirements-test.txt installs it)")
    # --offline: the audits that ask GitHub's API cannot run here (and need a token)
    run = subprocess.run(
        [zizmor, "--offline", "--persona=pedantic", "--format=plain", str(WORKFLOWS)],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "No findings to report" in run.stdout


# -- security properties ---------------------------------------------------------------


@pytest.mark.parametrize("path", [DEPLOY, PR], ids=lambda p: p.name)
def test_the_token_is_read_only_by_default(path):
    assert workflow(path)["permissions"] == {"contents": "read"}


def test_only_the_deploy_job_may_write_and_only_to_pages():
    jobs = workflow(DEPLOY)["jobs"]
    assert {job_id: job.get("permissions") for job_id, job in jobs.items()} == {
        "build": {"contents": "read", "pages": "read"},  # pages: read for the site's address
        "deploy": {"pages": "write", "id-token": "write"},
    }
    assert jobs["deploy"]["needs"] == "build"
    assert jobs["deploy"]["environment"]["name"] == "github-pages"


def test_deploys_run_one_at_a_time_and_are_never_cancelled_halfway():
    data = workflow(DEPLOY)
    assert data["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    assert data["on"] == {"push": {"branches": ["main"]}, "workflow_dispatch": None}


def test_pull_requests_run_untrusted_code_without_write_access_or_secrets():
    data = workflow(PR)
    assert data["on"] == {"pull_request": None}
    assert all(job.get("permissions") is None for job in data["jobs"].values())
    text = PR.read_text(encoding="utf-8")
    assert "pull_request_target" not in text
    assert "secrets." not in text


def test_deploy_checks_out_the_history_the_feed_dates_need():
    # a shallow clone would date every paper by its seed's header year (generator/pipeline.py seed_dates)
    checkouts = [step for _, step in steps(DEPLOY) if step.get("uses", "").startswith("actions/checkout@")]
    assert [step["with"].get("fetch-depth") for step in checkouts] == [0]


def test_deploy_restores_what_the_previous_build_published():
    # papers keep their ids from the previous build's papers.json (generator/derive/published.py):
    # without it, an abstract edited in place got a new id and its address answered 404
    caches = [step for _, step in steps(DEPLOY) if step.get("uses", "").startswith("actions/cache@")]
    assert [set(step["with"]["path"].split()) for step in caches] == [
        {"docs/map.json", "docs/papers.json", ".cache/derived-*.json", ".cache/map-placed.json", ".cache/related-*.json",
         ".cache/parsed.json", ".cache/sketches-*.json"}
    ]
    build = [n for n, (_, step) in enumerate(steps(DEPLOY)) if step.get("run") == "make site"]
    restore = [n for n, (_, step) in enumerate(steps(DEPLOY)) if step in caches]
    assert restore and build and restore[0] < build[0]


@pytest.mark.parametrize("path", [DEPLOY, PR], ids=lambda p: p.name)
def test_no_cache_saves_or_restores_the_local_key(path):
    # .cache/local.key vouches for kept state this machine's generator wrote, which is then
    # not checked entry by entry (generator/core/statefile.py): a key restored from a cache
    # would let whoever saved that cache vouch for its files. (fnmatch's * crosses "/",
    # so this is stricter than actions/cache's globs.)
    from generator.core.statefile import KEY

    key = f".cache/{KEY}"
    patterns = [line.strip() for _, step in steps(path) if step.get("uses", "").startswith("actions/cache@")
                for line in step["with"]["path"].splitlines() if line.strip()]
    for pattern in patterns:
        assert not pattern.startswith("!"), pattern
        folder = pattern.rstrip("/")
        assert not fnmatch.fnmatch(key, pattern) and not key.startswith(folder + "/") and folder not in (".", "*", "**"), pattern


def test_the_deploy_trusts_no_build_state_committed_to_the_repository():
    # a committed .cache/local.key (a pull request can force-add the ignored folder) would vouch
    # for forged state files beside it: the deploy removes .cache/ (make clean) before restoring its own
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    run = subprocess.run(["make", "-n", "clean"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0 and any(".cache" in shlex.split(line) for line in run.stdout.splitlines()), run.stdout
    ordered = [step for _, step in steps(DEPLOY)]
    removes = [n for n, step in enumerate(ordered) if step.get("run", "").strip() == "make clean"]
    restore = [n for n, step in enumerate(ordered) if step.get("uses", "").startswith("actions/cache@")]
    build = [n for n, step in enumerate(ordered) if step.get("run") == "make site"]
    checkout = [n for n, step in enumerate(ordered) if step.get("uses", "").startswith("actions/checkout@")]
    assert removes and restore and build and checkout
    assert checkout[-1] < removes[0] < restore[0] < build[0]
    assert not any(n > removes[0] and n < build[0] and "local.key" in step.get("run", "") for n, step in enumerate(ordered))


@pytest.mark.parametrize("path", [DEPLOY, PR], ids=lambda p: p.name)
def test_checkout_does_not_keep_the_token(path):
    checkouts = [step for _, step in steps(path) if step.get("uses", "").startswith("actions/checkout@")]
    assert checkouts
    assert all(step["with"]["persist-credentials"] is False for step in checkouts)


@pytest.mark.parametrize("path", [DEPLOY, PR], ids=lambda p: p.name)
def test_actions_are_pinned_to_a_commit_with_the_version_named(path):
    uses = [step["uses"] for _, step in steps(path) if "uses" in step]
    assert uses and all(PINNED.match(u) for u in uses), uses
    text = path.read_text(encoding="utf-8")
    for u in uses:
        assert re.search(re.escape(u) + r" # v\d+\.\d+\.\d+$", text, re.MULTILINE), f"{u}: no '# vX.Y.Z' comment"


# -- the commands the workflows run ----------------------------------------------------


def run_commands(path: Path) -> list[str]:
    return [step["run"] for _, step in steps(path) if "run" in step]


def test_every_command_is_a_make_target_or_a_script_of_ours():
    for command in run_commands(DEPLOY) + run_commands(PR):
        words = shlex.split(command)
        if words[0] == "make":
            continue
        assert words[0].startswith(".github/scripts/"), command
        assert os.access(ROOT / words[0], os.X_OK), f"{words[0]} is not executable"


def test_the_make_targets_the_workflows_call_exist():
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    targets = [w for c in run_commands(DEPLOY) + run_commands(PR) for w in shlex.split(c)[1:] if c.startswith("make ")]
    assert {"test", "site"} <= set(targets)
    # -n: print what would run without running it; an unknown target fails
    run = subprocess.run(["make", "-n", *targets], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


NEW_SEED = (
    "NeurIPS 2026 Papers\n\n"
    "We introduce a benchmark for tabular anomaly detection that pairs forty industrial datasets with\n"
    "expert labels, and show that simple nearest-neighbour scores match or beat deep detectors on most\n"
    "of them while running orders of magnitude faster.\n"
)


class PullRequest:
    """A throwaway repository holding the generator and seeds, with a base commit to diff against."""

    def __init__(self, where: Path):
        self.dir = where
        for name in ("generator", "seeds", ".github"):
            shutil.copytree(ROOT / name, where / name, ignore=shutil.ignore_patterns("__pycache__"))
        self.git("init", "--quiet", "--initial-branch=main")
        self.commit("base")
        self.base = self.git("rev-parse", "HEAD").strip()

    def git(self, *args: str) -> str:
        return subprocess.run(
            ["git", "-c", "user.name=Test", "-c", "user.email=test@example.org", *args],
            cwd=self.dir, check=True, capture_output=True, text=True,
        ).stdout

    def commit(self, message: str) -> None:
        self.git("add", "--all")
        self.git("commit", "--quiet", "--allow-empty", "-m", message)

    def run_summary_step(self) -> tuple[int, str, str]:
        """Run the workflow's own step as the runner would: its env, its script, bash."""
        step = step_named(PR, SUMMARY_STEP)
        assert step["env"] == {"BASE_SHA": "${{ github.event.pull_request.base.sha }}"}
        summary = self.dir.parent / "summary.md"
        summary.write_text("", encoding="utf-8")
        env = {**os.environ, "BASE_SHA": self.base, "GITHUB_STEP_SUMMARY": str(summary), "PYTHON": sys.executable}
        run = subprocess.run(
            ["bash", "-e", "-c", step["run"]], cwd=self.dir, env=env, capture_output=True, text=True
        )
        return run.returncode, summary.read_text(encoding="utf-8"), run.stderr


@pytest.fixture
def pr(tmp_path) -> PullRequest:
    if shutil.which("git") is None or shutil.which("bash") is None:
        pytest.skip("git and bash are needed to run the workflow's script")
    (tmp_path / "repo").mkdir()
    return PullRequest(tmp_path / "repo")


def test_the_summary_names_each_paper_of_a_new_seed(pr):
    (pr.dir / "seeds" / "neurips_2026.txt").write_text(NEW_SEED, encoding="utf-8")
    pr.commit("add a seed")
    code, summary, stderr = pr.run_summary_step()
    assert code == 0, stderr
    (paper,) = derive(parse_seed(NEW_SEED.encode(), "seeds/neurips_2026.txt"), load_taxonomy())
    assert summary.startswith("## Seed check\n")
    shown = github_markdown(summary)
    assert "<h3><code>seeds/neurips_2026.txt</code></h3>" in shown
    assert "1 new" in shown
    assert paper.title and html.escape(paper.title, quote=False) in shown


def test_a_broken_seed_fails_the_step_after_writing_the_summary(pr):
    (pr.dir / "seeds" / "broken.txt").write_text("ICML 2026 Papers\n\nToo short to be an abstract.\n", encoding="utf-8")
    pr.commit("add a broken seed")
    code, summary, stderr = pr.run_summary_step()
    assert code == 1
    assert summary.startswith("## Seed check\n")
    assert "<code>seeds/broken.txt:3: " in github_markdown(summary)
    assert "seeds/broken.txt:3:" in stderr


def test_only_changed_seeds_are_checked(pr):
    (pr.dir / "README.md").write_text("not a seed\n", encoding="utf-8")
    for seed in (pr.dir / "seeds").glob("*.txt"):
        seed.unlink()  # a deleted seed has nothing left to check
        break
    pr.commit("change everything but seeds")
    code, summary, stderr = pr.run_summary_step()
    assert (code, summary) == (0, "## Seed check\n\nThis pull request adds or changes no seed files.\n"), stderr


# -- the summary tells every change to a published paper ----------------------------------

MISSION = "seeds/000_ca08d30626a6d4f8.txt"


def summary_rows(summary: str) -> dict[int, str]:
    """Line -> status cell of the summary's table, as a reader sees it (plain text)."""
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", github_markdown(summary), flags=re.DOTALL):
        cells = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)]
        if len(cells) == 4:
            rows[int(cells[0])] = cells[3]
    return rows


def mission_text(pr: PullRequest, line: int) -> str:
    [p] = [p for p in parse_seed((pr.dir / MISSION).read_bytes(), MISSION) if p.source.line == line]
    return p.text


def edit_line(pr: PullRequest, line: int, text: str) -> None:
    lines = (pr.dir / MISSION).read_text(encoding="utf-8").split("\n")
    lines[line - 1] = text
    (pr.dir / MISSION).write_text("\n".join(lines), encoding="utf-8")


def test_an_edited_seed_file_is_already_published_but_for_the_edit_which_shows_the_text_it_replaces(pr):
    # The whole edited file was called "new", and the build gave the edited paper a new id.
    old = mission_text(pr, 5)
    sentences = re.split(r"(?<=\.) ", old)
    new = " ".join(sentences[: len(sentences) // 2] + [
        "We release a reference implementation and report ablations on eleven language modelling benchmarks.",
        "The method adds no parameters and costs under two percent more time per step on every model we trained."])
    edit_line(pr, 5, new)
    pr.commit("edit an abstract in place")
    code, summary, stderr = pr.run_summary_step()
    assert code == 0, stderr
    rows = summary_rows(summary)
    assert len(rows) == 19
    assert rows[5].startswith("edits the abstract of ")
    assert f"which read: {old}" in rows[5]
    assert {status for line, status in rows.items() if line != 5} == {"already published"}
    assert "19 abstract(s): 0 new, 18 already published, 1 duplicate(s)." in github_markdown(summary)


def test_a_shorter_variant_that_only_adds_a_link_is_shown_adding_it(pr):
    # The shown text stays the published one (the variant is shorter), but the merge takes
    # every variant's links: the paper got a Code button to the attacker's repository.
    old = mission_text(pr, 5)
    sentences = re.split(r"(?<=\.) ", old)
    variant = " ".join(sentences[:-1] + ["Code is available at https://github.com/attacker-org/release."])
    assert len(variant.split()) < len(old.split())
    (pr.dir / "seeds" / "variant.txt").write_text(f"ICML 2026 Papers\n\n{variant}\n", encoding="utf-8")
    pr.commit("add a variant")
    code, summary, stderr = pr.run_summary_step()
    assert code == 0, stderr
    [status] = summary_rows(summary).values()
    assert status.startswith("duplicate of ")
    assert status.endswith("; adds links: https://github.com/attacker-org/release")
    assert "replaces" not in status


def test_a_hidden_paper_shown_again_is_told(pr):
    hidden = derive(parse_seed((pr.dir / MISSION).read_bytes(), MISSION), load_taxonomy())
    [paper] = [p for p in hidden if any(s.line == 7 for s in p.sources)]
    (pr.dir / "seeds" / "curation.yml").write_text(f'{paper.id}:\n  hide: "withdrawn by the authors"\n', encoding="utf-8")
    pr.commit("hide a paper")
    pr.base = pr.git("rev-parse", "HEAD").strip()
    # the pull request resubmits it with a sentence more, and drops the entry that hid it
    (pr.dir / "seeds" / "curation.yml").write_text("", encoding="utf-8")
    (pr.dir / "seeds" / "again.txt").write_text(
        f"ICML 2026 Papers\n\n{mission_text(pr, 7)} We also release the code.\n", encoding="utf-8")
    pr.commit("bring it back")
    code, summary, stderr = pr.run_summary_step()
    assert code == 0, stderr
    [status] = summary_rows(summary).values()
    assert "brings back a hidden paper (hidden: withdrawn by the authors)" in status


def test_seventy_variants_of_a_published_abstract_are_all_its_duplicates(pr):
    # Over MAX_BUCKET texts share every sketch value: none was compared, all were "new".
    words = mission_text(pr, 5).split(" ")
    places = [i for i, w in enumerate(words) if w.isalpha() and len(w) > 3][:70]
    variants = [" ".join(words[:i] + [words[i] + "s"] + words[i + 1:]) for i in places]
    (pr.dir / "seeds" / "variants.txt").write_text("ICML 2026 Papers\n\n" + "\n\n".join(variants) + "\n", encoding="utf-8")
    pr.commit("seventy variants")
    code, summary, stderr = pr.run_summary_step()
    assert code == 0, stderr
    rows = summary_rows(summary)
    assert len(rows) == 70
    assert all(status.startswith("duplicate of ") for status in rows.values())


def test_the_site_is_built_with_the_pages_address():
    # without SITE_URL the published site has no sitemaps, canonical links or og:url
    # (mkdocs.yml: site_url: !ENV SITE_URL)
    build = workflow(DEPLOY)["jobs"]["build"]["steps"]
    ids = [step.get("id") for step in build]
    pages = build[ids.index("pages")]
    assert pages["uses"].startswith("actions/configure-pages@") and PINNED.match(pages["uses"].split(" ")[0])
    site = step_named(DEPLOY, "Build the site strictly")
    assert site["run"] == "make site"
    assert site["env"] == {"SITE_URL": "${{ steps.pages.outputs.base_url }}/"}
    assert build.index(site) > ids.index("pages")
