#!/usr/bin/env bash
# Refreshes the console's third-party code in daemon/console/vendor/ from npm: the
# pinned versions below, verified against the registry's sha512 integrity, copied as
# plain ES modules (no build step), with each licence and a VENDOR.md of hashes.
#
#   bash scripts/vendor-console.sh            # re-fetch the pinned versions
#   PREACT=11.2.1 bash scripts/vendor-console.sh   # move one package (then commit)
#
# What it changes in the files: preact/hooks imports the bare specifier "preact", which a
# browser cannot resolve without an import map (an inline script, refused by the CSP), so
# it is rewritten to "./preact.mjs"; uPlot ships no minified ES module, so its minified
# IIFE build gets `export default uPlot;` appended. Nothing else is touched.
set -euo pipefail

PREACT=${PREACT:-11.2.0}
HTM=${HTM:-3.1.1}
UPLOT=${UPLOT:-1.6.32}

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/daemon/console/vendor
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fetch() {  # fetch <package> <version>: unpacks into $work/<package>, prints the integrity
  local pkg=$1 ver=$2 want got tgz
  want=$(npm view "$pkg@$ver" dist.integrity)
  tgz=$(cd "$work" && npm pack --silent "$pkg@$ver" | tail -1)
  got="sha512-$(openssl dgst -sha512 -binary "$work/$tgz" | base64 -w0)"
  if [[ "$want" != "$got" ]]; then
    echo "integrity mismatch for $pkg@$ver: registry $want, tarball $got" >&2
    exit 1
  fi
  mkdir -p "$work/$pkg"
  tar -xzf "$work/$tgz" -C "$work/$pkg" --strip-components=1
  echo "$got"
}

mkdir -p "$out"
rm -f "$out"/*.mjs "$out"/*.css "$out"/*.LICENSE "$out"/licenses.txt

i_preact=$(fetch preact "$PREACT")
i_htm=$(fetch htm "$HTM")
i_uplot=$(fetch uplot "$UPLOT")

cp "$work/preact/dist/preact.mjs" "$out/preact.mjs"
sed -e 's#from"preact"#from"./preact.mjs"#g' -e "s#from 'preact'#from './preact.mjs'#g" \
  "$work/preact/hooks/dist/hooks.mjs" > "$out/hooks.mjs"
if grep -q 'from"preact"\|from .preact.;' "$out/hooks.mjs"; then
  echo "hooks.mjs still imports the bare specifier preact" >&2
  exit 1
fi
cp "$work/htm/dist/htm.mjs" "$out/htm.mjs"
{ cat "$work/uplot/dist/uPlot.iife.min.js"; printf '\nexport default uPlot;\n'; } > "$out/uplot.mjs"
cp "$work/uplot/dist/uPlot.min.css" "$out/uplot.css"

cp "$work/preact/LICENSE" "$out/preact.LICENSE"
cp "$work/htm/LICENSE" "$out/htm.LICENSE"
cp "$work/uplot/LICENSE" "$out/uplot.LICENSE"
{
  echo "Third-party code in the agent-events console (served at /console/)."
  for p in "preact $PREACT" "htm $HTM" "uplot $UPLOT"; do
    set -- $p
    printf '\n==== %s %s (https://www.npmjs.com/package/%s) ====\n\n' "$1" "$2" "$1"
    cat "$out/$1.LICENSE"
  done
} > "$out/licenses.txt"

{
  echo "# Vendored console libraries"
  echo
  echo "Written by \`scripts/vendor-console.sh\` (do not edit by hand; change the pinned versions there)."
  echo
  echo "| package | version | licence | tarball integrity (npm) |"
  echo "|---|---|---|---|"
  echo "| preact (+ preact/hooks) | $PREACT | MIT | \`$i_preact\` |"
  echo "| htm | $HTM | Apache-2.0 | \`$i_htm\` |"
  echo "| uplot | $UPLOT | MIT | \`$i_uplot\` |"
  echo
  echo "| file | from | sha256 |"
  echo "|---|---|---|"
  for f in preact.mjs:preact/dist/preact.mjs hooks.mjs:preact/hooks/dist/hooks.mjs htm.mjs:htm/dist/htm.mjs \
           uplot.mjs:uplot/dist/uPlot.iife.min.js uplot.css:uplot/dist/uPlot.min.css; do
    echo "| $f | $(sha256sum "$out/${f%%:*}" | cut -d' ' -f1) |" | sed "s#|[^|]*|#| ${f%%:*} | ${f#*:} |#"
  done
} > "$out/VENDOR.md"
echo "vendored into $out"
