#!/bin/sh
# Builds tlslab in release mode and runs every benchmark (crypto, handshake, tcp, startup, check),
# each beside OpenSSL where OpenSSL does the same thing, as one table (median [min–max] of the runs).
# Usage: scripts/bench.sh [--runs N] [--seconds S] [--only crypto handshake ...] [--no-openssl] [--format text|json]
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product tlslab
exec "$(swift build -c release --show-bin-path)/tlslab" bench all "$@"
