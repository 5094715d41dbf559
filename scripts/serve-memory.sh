#!/bin/sh
# Memory benchmark for `tlslab serve` under floods that carry nothing (issue #22: below 64 MiB while
# one client sends 10^6 warning alerts or empty records). Each case starts a fresh
# `tlslab serve --alpn h2,http/1.1 --concurrent 4` (traces kept, the default, and with --log-only),
# runs scripts/serve-flood.py against it, and reports the server's resident memory from /proc: VmRSS
# when it is listening, the highest VmRSS sampled every 0.1 s during the flood, VmRSS at the end (a
# second after the client finished) and VmHWM (the kernel's peak). Flat memory means the peak does
# not grow with N (try N=100000 and 1000000).
#   warnings            one connection: N encrypted warning alerts after the handshake (runs of 4,
#                       each ended by an HTTP/2 WINDOW_UPDATE record, as serve allows)
#   empty               one connection: N empty encrypted records (runs of 32, likewise)
#   handshake-warnings  N warning alerts in the clear during handshakes, 8 per connection (the most
#                       one handshake allows), over N/8 connections
#   handshakes-tls12    N full handshakes by Python's ssl module with TLS 1.2 as its only version,
#   handshakes-tls13    or TLS 1.3 (a ticket issued and stored for each), one connection each, the page read
# Usage: scripts/serve-memory.sh [N] [--release] [CASE...]   (N defaults to 1000000; needs python3
#        with the `cryptography` package)
#        TLSLAB=path/to/tlslab scripts/serve-memory.sh N CASE...  (an already built binary)
# The 500-idle-connections figure (below 256 MiB) comes from scripts/idle-connections.sh.
set -eu
cd "$(dirname "$0")/.."
n=${1:-1000000}
[ $# -gt 0 ] && shift
config=debug
if [ "${1:-}" = "--release" ]; then config=release; shift; fi
cases=${*:-"warnings empty handshake-warnings"}
bin=${TLSLAB:-"$(swift build -c "$config" --show-bin-path)/tlslab"}
[ -x "$bin" ] || { echo "build tlslab first (swift build -c $config --product tlslab)" >&2; exit 2; }
python3 -c 'import cryptography' 2>/dev/null || { echo "python3 needs the cryptography package" >&2; exit 2; }
cert=Tests/Fixtures/engine/server.cert.pem
key=Tests/Fixtures/engine/server.key.pem
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT INT TERM

kib() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$server/status"; }

printf '%-20s %-10s %9s %12s %14s %10s %12s  %s\n' case trace N "start KiB" "peak RSS KiB" "end KiB" "VmHWM KiB" "client"
for case in $cases; do
  for trace in kept log-only; do
    flag=""
    [ "$trace" = log-only ] && flag=--log-only
    # Traces go to /dev/null (the benchmark measures what serve holds, not a terminal), so the port
    # is chosen here and serve is ready once the kernel lists it as listening (state 0A).
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$bin" serve --port "$port" --cert "$cert" --key "$key" --alpn h2,http/1.1 --concurrent 4 $flag \
      --timeout 120 --request-timeout 3600 --handshake-timeout 120 >/dev/null 2>"$work/log" &
    server=$!
    hex=$(printf ':%04X' "$port")
    for _ in $(seq 1 100); do grep -q "$hex 00000000:0000 0A" /proc/net/tcp && break; sleep 0.1; done
    grep -q "$hex 00000000:0000 0A" /proc/net/tcp || { echo "serve did not start"; cat "$work/log"; exit 1; }
    start=$(kib VmRSS)
    rm -f "$work/peak" "$work/done"
    ( peak=0
      while [ ! -e "$work/done" ]; do
        now=$(kib VmRSS 2>/dev/null || echo 0)
        [ "${now:-0}" -gt "$peak" ] && peak=$now
        echo "$peak" >"$work/peak"
        sleep 0.1
      done ) &
    sampler=$!
    result=$(python3 scripts/serve-flood.py "$port" "$case" "$n" --workers 4)
    sleep 1
    touch "$work/done"
    wait "$sampler"
    printf '%-20s %-10s %9s %12s %14s %10s %12s  %s\n' "$case" "$trace" "$n" "$start" "$(cat "$work/peak")" "$(kib VmRSS)" "$(kib VmHWM)" "$result"
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
  done
done
