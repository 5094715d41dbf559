#!/bin/sh
# Memory benchmark for `tlslab serve` with many idle connections (issue #22: below 256 MiB with 500):
# starts `tlslab serve --concurrent 4`, opens N TCP connections that say nothing, reports the server's
# resident memory (VmRSS, VmHWM) before and with them, then times one real handshake and request
# (openssl s_client) while they are open.
# Usage: scripts/idle-connections.sh [N] [--release]     (N defaults to 500; needs python3 and openssl)
#        TLSLAB=path/to/tlslab scripts/idle-connections.sh N  (an already built binary)
set -eu
cd "$(dirname "$0")/.."
n=${1:-500}
config=debug
[ "${2:-}" = "--release" ] && config=release
bin=${TLSLAB:-"$(swift build -c "$config" --show-bin-path)/tlslab"}
[ -x "$bin" ] || { echo "build tlslab first (swift build -c $config --product tlslab)" >&2; exit 2; }
cert=Tests/Fixtures/engine/server.cert.pem
key=Tests/Fixtures/engine/server.key.pem
ca=Tests/Fixtures/engine/ca.cert.pem
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT INT TERM

"$bin" serve --port 0 --cert "$cert" --key "$key" --concurrent 4 --log-only --timeout 120 \
  --handshake-timeout 120 >"$work/out" 2>"$work/log" &
server=$!
for _ in $(seq 1 100); do grep -q listening "$work/out" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$work/out")
[ -n "$port" ] || { echo "serve did not start"; cat "$work/log"; exit 1; }

rss() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$server/status"; }
echo "connections  VmRSS(KiB)  VmHWM(KiB)  threads"
echo "0            $(rss VmRSS)      $(rss VmHWM)      $(rss Threads)"

# N idle clients: connect, say nothing, hold the connection until told to stop.
python3 - "$port" "$n" "$work/ready" "$work/stop" <<'EOF' &
import os, socket, sys, time
port, n, ready, stop = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
held = [socket.create_connection(("127.0.0.1", port)) for _ in range(n)]
open(ready, "w").close()
while not os.path.exists(stop):
    time.sleep(0.1)
EOF
holder=$!
for _ in $(seq 1 300); do [ -e "$work/ready" ] && break; sleep 0.1; done
sleep 1
echo "$n          $(rss VmRSS)      $(rss VmHWM)      $(rss Threads)"

start=$(date +%s.%N)
printf 'GET / HTTP/1.0\r\n\r\n' | openssl s_client -connect "127.0.0.1:$port" -tls1_2 -CAfile "$ca" \
  -servername localhost -ign_eof -quiet >"$work/page" 2>/dev/null || true
end=$(date +%s.%N)
if grep -q "TLSLab serve" "$work/page"; then
  echo "a real client beside $n idle connections: served in $(echo "$end - $start" | bc) s"
else
  echo "a real client beside $n idle connections: NOT served"; exit 1
fi
echo "$n + 1      $(rss VmRSS)      $(rss VmHWM)      $(rss Threads)"
touch "$work/stop"
wait "$holder"
