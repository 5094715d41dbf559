#!/usr/bin/env bash
# Times `tlslab export NAME --html` for every built-in run (release build) and prints each page's size;
# fails when a page takes 0.5 s or more, or the default run's page is 300 KiB or more (issue #20's bounds).
# TLSLAB_BIN=path times that binary instead (no build); SWIFT=cmd builds with another swift front end.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${TLSLAB_BIN:-}" ]; then
  bin=$TLSLAB_BIN
else
  ${SWIFT:-swift} build -c release --product tlslab >/dev/null
  bin=.build/release/tlslab
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for run in $($bin list | awk '{print $1}' | grep -E '^[a-z0-9-]+$'); do
  start=$(date +%s%N)
  $bin export "$run" --html "$out/$run.html" >/dev/null
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  size=$(( $(wc -c < "$out/$run.html") / 1024 ))
  printf '%-20s %5d ms %6d KiB\n' "$run" "$ms" "$size"
  if [ "$ms" -ge 500 ]; then echo "  over 0.5 s"; status=1; fi
done
if [ "$(wc -c < "$out/rsa.html")" -ge $((300 * 1024)) ]; then echo "the default run's page is over 300 KiB"; status=1; fi
exit $status
