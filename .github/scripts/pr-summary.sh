#!/usr/bin/env bash
# Validate the seed files changed since BASE and append the report to the job summary.
#
#   .github/scripts/pr-summary.sh BASE
#
# BASE is a commit (the pull request's base). The Markdown report of
# `python -m generator validate --format markdown` goes to $GITHUB_STEP_SUMMARY
# (stdout when unset, as on a laptop) before the exit status is passed on, so a
# failing check still shows the contributor what is wrong. PYTHON overrides the
# interpreter (default: the virtualenv `make` creates).
set -euo pipefail

base="${1:?usage: $0 BASE}"
summary="${GITHUB_STEP_SUMMARY:-/dev/stdout}"
python="${PYTHON:-.venv/bin/python}"

# Added, copied, modified or renamed seed files; deleted ones have nothing to check.
seeds=()
while IFS= read -r -d '' path; do
  seeds+=("$path")
done < <(git diff -z --name-only --diff-filter=ACMR "$base" HEAD -- 'seeds/*.txt')

if [ "${#seeds[@]}" -eq 0 ]; then
  printf '## Seed check\n\nThis pull request adds or changes no seed files.\n' >>"$summary"
  exit 0
fi

status=0
# --base: the papers the base already had are "already published", and every change to
# one of them (text, links, address, a hidden paper shown again) is told.
"$python" -m generator validate --format markdown --base "$base" -- "${seeds[@]}" >>"$summary" || status=$?
exit "$status"
