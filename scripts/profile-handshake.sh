#!/bin/sh
# Profiles `tlslab bench handshake` per key exchange: our side alone (`tlslab bench handshake-child`: both
# TLS endpoints, the TCP simulator and the record layer in one process, no OpenSSL), under valgrind's
# callgrind, or under `perf record` when callgrind is missing or cannot read the binary (valgrind 3.19
# gives up on the DWARF of Swift 6.3 release builds). Prints the top symbols by self cost and the share
# of a few groups: GMP, BoringSSL (swift-crypto), malloc/free, the Swift runtime.
# Usage: scripts/profile-handshake.sh [ITERATIONS] [KX...]     (defaults: 200 handshakes; rsa dhe ecdhe)
# Needs a release build: swift build -c release --product tlslab (built here when missing),
# or TLSLAB_BIN=path/to/tlslab.
set -eu
cd "$(dirname "$0")/.."
iterations=${1:-200}
[ $# -gt 0 ] && shift
kinds=${*:-rsa dhe ecdhe}
bin=${TLSLAB_BIN:-"$(swift build -c release --show-bin-path)/tlslab"}
[ -x "$bin" ] || swift build -c release --product tlslab
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# $1: lines "PERCENT SYMBOL…" (self cost); prints the top 15 and the groups.
summarize() {
  echo "top symbols (self):"
  head -15 "$1" | awk '{ p = $1; $1 = ""; printf "  %6.2f%% %s\n", p, substr($0, 2, 130) }'
  awk '
    { p = $1 }
    /__gmp/ { gmp += p; next }
    /CCryptoBoringSSL|boringssl/ { ssl += p; next }
    /malloc|_int_free|cfree|realloc|calloc|free@|_int_malloc/ { mem += p; next }
    /swift_|swift::|libswiftCore/ { rt += p; next }
    /_dl_|do_lookup/ { ld += p; next }
    END { printf "groups: GMP %.1f%%, BoringSSL %.1f%%, malloc/free %.1f%%, Swift runtime %.1f%%, dynamic loader %.1f%%\n", gmp, ssl, mem, rt, ld }
  ' "$1"
}

profile() { # $1 kx, $2 extra arguments, $3 label
  echo "== $3: $iterations handshakes (plus one warm-up) =="
  # shellcheck disable=SC2086
  set -- "$1" "$2" "$3" "$bin" bench handshake-child --kx "$1" $2 --iterations "$iterations"
  kx=$1; label=$3; shift 3
  "$@" | sed 's/^/result: /'
  if command -v valgrind >/dev/null 2>&1 &&
     valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$@" >/dev/null 2>"$out/vg.log" && [ -s "$out/cg" ]; then
    callgrind_annotate --inclusive=no "$out/cg" 2>/dev/null |
      awk '/PROGRAM TOTALS/ { gsub(",", "", $1); total = $1; next }
           total && $1 ~ /^[0-9,]+$/ { c = $1; gsub(",", "", c); $1 = ""; printf "%.3f %s\n", c * 100 / total, $0 }' > "$out/self.txt"
    echo "(callgrind, instructions)"
  elif command -v perf >/dev/null 2>&1; then
    perf record -q -F 4999 -o "$out/perf.data" "$@" >/dev/null 2>&1
    perf report -i "$out/perf.data" --no-children --stdio --sort dso,symbol 2>/dev/null |
      awk '/^ +[0-9.]+%/ { p = $1; sub("%", "", p); $1 = ""; print p, $0 }' > "$out/self.txt"
    echo "(perf, CPU samples; callgrind unavailable: $(grep -m1 -E "Giving up|rror|cannot" "$out/vg.log" 2>/dev/null | sed 's/^==[0-9]*== //'))"
  else
    echo "neither valgrind nor perf is installed"; return 1
  fi
  summarize "$out/self.txt"
  echo
}

for kx in $kinds; do
  if [ "$kx" = dhe ]; then
    profile dhe "--dh-exponent short" "dhe (256-bit exponents)"
    profile dhe "--dh-exponent full" "dhe (full-size exponents)"
  else
    profile "$kx" "" "$kx"
  fi
done
