#!/usr/bin/env bash
# Leak check of the GMP wrapper: runs `tlslab selftest bignum` under valgrind and fails on any
# definitely/indirectly lost block. (The self-test starts no Swift concurrency tasks, which
# valgrind 3.19 cannot follow.)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 1; }
swift build --product tlslab
# valgrind 3.19 cannot read the DWARF 5 debug info Swift emits: check a copy without it.
bin="$(mktemp)"
trap 'rm -f "$bin"' EXIT
strip --strip-debug -o "$bin" "$(swift build --show-bin-path)/tlslab"
valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=3 \
  "$bin" selftest bignum --iterations "${1:-300}" 2>&1 | grep -E "selftest bignum|lost:|reachable:|ERROR SUMMARY"
