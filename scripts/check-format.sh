#!/usr/bin/env bash
# Checks that the C/C++ lines a change touched are formatted as .clang-format says.
# Only changed lines count (git clang-format), so code nobody touched never fails it.
#
#   scripts/check-format.sh            # against the merge base with main (on main: HEAD~1)
#   scripts/check-format.sh BASE       # against a commit of your choice
#   scripts/check-format.sh --fix [BASE]   # reformat those lines in the work tree instead
#
# The comparison includes uncommitted changes in the work tree. Exit 1 prints the diff
# that would fix it; exit 0 when the changed lines are formatted (or nothing changed).
set -euo pipefail
cd "$(dirname "$0")/.."

fix=no
if [ "${1:-}" = --fix ]; then fix=yes; shift; fi

if ! command -v git-clang-format >/dev/null 2>&1 || ! command -v clang-format >/dev/null 2>&1; then
  echo "check-format: clang-format is not installed (Debian: apt-get install clang-format; scripts/deps.sh does)" >&2
  exit 2
fi
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "check-format: not a git checkout: nothing to compare, skipped"
  exit 0
fi

base=${1:-}
if [ -z "$base" ]; then
  # The branch's merge base with main; on main itself (or a branch not ahead of it), the
  # previous commit, i.e. what the last commit or merge brought in.
  for ref in main origin/main; do
    if git rev-parse -q --verify "$ref^{commit}" >/dev/null; then
      base=$(git merge-base HEAD "$ref" || true)
      break
    fi
  done
  if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
    base=$(git rev-parse -q --verify 'HEAD~1^{commit}' || true)
  fi
fi
if [ -z "$base" ]; then
  echo "check-format: no base commit to compare with (a single-commit or shallow clone): skipped"
  exit 0
fi

extensions=c,h,cc,cpp,hpp
echo "check-format: lines changed since $(git rev-parse --short "$base") ($(git log -1 --format=%s "$base" | cut -c1-60))"
if [ "$fix" = yes ]; then
  git clang-format --force --extensions "$extensions" "$base" || true
  exit 0
fi
# git clang-format 14 exits 0 either way: a diff in its output is the failure.
out=$(git clang-format --diff --extensions "$extensions" "$base")
if ! grep -q '^diff --git' <<<"$out"; then
  echo "check-format: ok"
  exit 0
fi
echo "$out"
echo "check-format: the changed lines above are not formatted as .clang-format says;"
echo "  fix them with: scripts/check-format.sh --fix $base"
exit 1
