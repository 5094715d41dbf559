#!/usr/bin/env bash
# Coverage-guided fuzzing of one target with libFuzzer (ships with the Swift toolchain on Linux).
#
#   scripts/fuzz.sh TARGET SECONDS      e.g. scripts/fuzz.sh record 60
#   scripts/fuzz.sh all SECONDS         every target in turn, SECONDS each
#
# Targets: record handshake server client dissect x509 scenario hpack http2 tcp tls13server tls13client
# (Fuzz/TLSLabFuzz).
# Builds TLSLabFuzz in release mode with -sanitize=fuzzer,address and -DFUZZING (lld links it;
# the default gold linker does not), then runs it on a working corpus under .build/fuzz-corpus/TARGET
# seeded from the committed Fuzz/Corpus/TARGET. A crash is written to .build/fuzz-artifacts/ and the
# script fails; replay it with `.build/debug/TLSLabFuzz --replay TARGET FILE` and turn it into a
# regression test. CI runs every target for a short fixed time; a longer campaign (e.g. 3600 s per
# target) is the same command with more seconds. Set SWIFT to use another swift driver. Set FUZZ_RUNS=N
# to stop each target after N executions (whichever comes first, N runs or SECONDS), e.g. the
# 10^6-execution campaign: FUZZ_RUNS=1000000 scripts/fuzz.sh all 7200.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET|all SECONDS}
seconds=${2:-60}
swift=${SWIFT:-swift}
targets=(record handshake server client dissect x509 scenario hpack http2 tcp tls13server tls13client)
if [ "$target" = all ]; then
  run=("${targets[@]}")
else
  case " ${targets[*]} " in *" $target "*) ;; *) echo "unknown target '$target' (one of: ${targets[*]})" >&2; exit 2 ;; esac
  run=("$target")
fi

# One build for every target.
$swift build -c release --product TLSLabFuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld -Xswiftc -DFUZZING >&2
bin=$($swift build -c release --show-bin-path)/TLSLabFuzz
artifacts=.build/fuzz-artifacts
mkdir -p "$artifacts"
for t in "${run[@]}"; do
  corpus=.build/fuzz-corpus/$t
  mkdir -p "$corpus"
  echo "== fuzzing $t for $seconds s" >&2
  # SWIFT_BACKTRACE=enable=no: let libFuzzer see a Swift trap as a deadly signal (with the Swift
  # backtracer on, ASan reports its memory reads instead of the bug).
  SWIFT_BACKTRACE=enable=no TLSLAB_FUZZ_TARGET=$t "$bin" "$corpus" "Fuzz/Corpus/$t" \
    -max_total_time="$seconds" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$t-"
done
