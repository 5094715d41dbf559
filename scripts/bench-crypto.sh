#!/bin/sh
# Builds tlslab in release mode and runs the crypto benchmark against `openssl speed`.
# Usage: scripts/bench-crypto.sh [--seconds S] [--runs N] [--keys K] [--format text|json]
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product tlslab
exec "$(swift build -c release --show-bin-path)/tlslab" bench crypto "$@"
