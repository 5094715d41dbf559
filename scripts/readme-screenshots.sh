#!/usr/bin/env bash
# Retakes the README's screenshots of `tlslab export rsa --html` at #step-14 in headless Chromium:
# docs/export-html-rsa-laptop.png (1366×900) and docs/export-html-rsa-phone.png (390×844, mobile
# emulation), device scale 1, taken by html-browser-check.py after its layout checks at each size
# (the screenshots are written only when every check passes).
# TLSLAB_BIN=path uses that binary (no build); SWIFT=cmd builds with another swift front end.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${TLSLAB_BIN:-}" ]; then
  bin=$TLSLAB_BIN
else
  ${SWIFT:-swift} build --product tlslab >/dev/null
  bin=.build/debug/tlslab
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
TLSLAB_LANG=en "$bin" export rsa --html "$out/rsa.html" >/dev/null
python3 scripts/html-browser-check.py "$out/rsa.html" --layout-sizes 1366x900,390x844 --screenshot "$out/shot.png"
cp "$out/shot-1366x900.png" docs/export-html-rsa-laptop.png
cp "$out/shot-390x844.png" docs/export-html-rsa-phone.png
echo "wrote docs/export-html-rsa-laptop.png and docs/export-html-rsa-phone.png"
