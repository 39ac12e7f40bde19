#!/usr/bin/env bash
# The repository explains itself: no file in it may point to documents outside it (the
# project's working notes lived in a sibling ../shared folder; what users and
# contributors need is in docs/). Usage: no_outside_references.sh <repository root>
set -euo pipefail
root=${1:?usage: $0 <repository root>}
cd "$root"
pattern='\.\./shared'
self=tests/docs/no_outside_references.sh  # names the pattern; the one exception
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # Tracked files and new ones not ignored: build trees, data and node_modules are ignored.
  hits=$(git grep -nI --untracked -e "$pattern" -- . ":!$self" || true)
else
  hits=$(grep -rnI --exclude-dir=node_modules --exclude-dir='build*' --exclude-dir=data \
           -e "$pattern" . | grep -v "^\./$self:" || true)
fi
if [[ -n "$hits" ]]; then
  echo "files point outside the repository (../shared); say it in the repository's own words or point to docs/:"
  echo "$hits"
  exit 1
fi
echo "no file points to ../shared"
