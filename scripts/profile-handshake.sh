#!/bin/sh
# Profiles `tlslab bench handshake` per key exchange: runs our side alone (`tlslab bench handshake-child`,
# one process, no OpenSSL) under valgrind's callgrind for a few handshakes, or under `perf record` when
# valgrind is missing, and prints the top symbols by self cost (instructions) and the share of a few
# groups (GMP, swift-crypto/BoringSSL, Swift runtime and allocation).
# Usage: scripts/profile-handshake.sh [ITERATIONS] [KX...]     (defaults: 20 handshakes; rsa dhe ecdhe)
# Needs a release build: swift build -c release --product tlslab (this script builds it when missing).
set -eu
cd "$(dirname "$0")/.."
iterations=${1:-20}
[ $# -gt 0 ] && shift
kinds=${*:-rsa dhe ecdhe}
bin="$(swift build -c release --show-bin-path)/tlslab"
[ -x "$bin" ] || swift build -c release --product tlslab
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Self cost of every symbol matching an extended regular expression, as a percentage of the total.
share() { awk -v pattern="$2" '$0 ~ pattern { gsub(",", "", $1); sum += $1 } END { printf "%.1f", sum * 100 / total }' total="$3" "$1"; }

for kx in $kinds; do
  case $kx in
    dhe) variants="short full" ;;
    *) variants="-" ;;
  esac
  for exponent in $variants; do
    label=$kx; extra=""
    if [ "$exponent" != "-" ]; then label="$kx ($exponent exponent)"; extra="--dh-exponent $exponent"; fi
    echo "== $label: $iterations handshakes (plus one warm-up) =="
    if command -v valgrind >/dev/null 2>&1; then
      file="$out/callgrind.$kx.$exponent"
      # shellcheck disable=SC2086
      valgrind --tool=callgrind --callgrind-out-file="$file" "$bin" bench handshake-child --kx "$kx" $extra \
        --iterations "$iterations" >/dev/null 2>"$out/valgrind.log"
      callgrind_annotate --inclusive=no "$file" 2>/dev/null | sed -n '/^-*$/,$p' | grep -E '^ *[0-9,]+ ' > "$out/self.txt" || true
      total=$(callgrind_annotate "$file" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
      echo "instructions: $total ($(awk -v t="$total" -v n="$iterations" 'BEGIN { printf "%.1f M", t / (n + 1) / 1e6 }') per handshake)"
      echo "top symbols (self):"
      head -15 "$out/self.txt" | awk -v t="$total" '{ c = $1; gsub(",", "", c); $1 = ""; printf "  %5.1f%%  %s\n", c * 100 / t, substr($0, 1, 140) }'
      echo "groups: GMP $(share "$out/self.txt" '__gmp' "$total")%," \
        "BoringSSL/swift-crypto $(share "$out/self.txt" 'CCryptoBoringSSL|boringssl|_CryptoExtras|Crypto\.' "$total")%," \
        "malloc/free $(share "$out/self.txt" 'malloc|free|realloc|_int_|calloc' "$total")%," \
        "Swift runtime (retain/release, metadata) $(share "$out/self.txt" 'swift_|swift::' "$total")%"
    else
      file="$out/perf.$kx.$exponent"
      # shellcheck disable=SC2086
      perf record -q -g -o "$file" "$bin" bench handshake-child --kx "$kx" $extra --iterations "$iterations" >/dev/null 2>&1
      perf report -i "$file" --no-children --stdio 2>/dev/null | grep -E '^ +[0-9.]+%' | head -15
    fi
    echo
  done
done
