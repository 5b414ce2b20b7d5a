#!/usr/bin/env bash
# Builds the libFuzzer targets (swift build --sanitize=fuzzer --sanitize=address) and runs each
# for a bounded time over its corpus.
#   Fuzz/run-fuzzers.sh [--seconds N] [--only NAME[,NAME…]] [--jobs N]
# New interesting inputs go to .build/fuzz/corpus/NAME (the committed seeds in Fuzz/Corpus/NAME
# are read, never written); a crash or a hang stops that target, is saved as
# .build/fuzz/artifacts/NAME-crash-… and makes the script fail. Add every such input to the
# target's regression test (see docs/development.md) and to Fuzz/Corpus/NAME.
# `make fuzz` runs each target for 60 s (FUZZ_SECONDS); `make test` for 5 s (FUZZ_CI_SECONDS).
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"

seconds=60
only=""
while (($#)); do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    *) echo "usage: $0 [--seconds N] [--only NAME,…]" >&2; exit 64 ;;
  esac
done

targets=(FuzzXML FuzzJSON FuzzCSV FuzzSQLiteValue FuzzSearchQuery FuzzRecordJSON FuzzContentDecoder FuzzRecordChanges
  FuzzServerSentEvents FuzzImageReader FuzzFilterExpression)
if [[ -n "$only" ]]; then IFS=, read -r -a targets <<<"$only"; fi

# --sanitize=fuzzer links libFuzzer and compiles the targets as libraries; the coverage that guides
# it is asked for explicitly, for every module (without it only the harness is instrumented).
flags=(-c release --sanitize=fuzzer --sanitize=address
  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp)
swift build "${flags[@]}"
bin="$(swift build "${flags[@]}" --show-bin-path)"

work=.build/fuzz
mkdir -p "$work/artifacts"
failed=()
for target in "${targets[@]}"; do
  name="${target#Fuzz}"
  seeds="Corpus/$name"
  scratch="$work/corpus/$name"
  mkdir -p "$seeds" "$scratch"
  echo "== $target: ${seconds} s over $seeds" >&2
  log="$work/$name.log"
  dictionary=()
  case "$name" in
    XML) dictionary=(-dict=Dictionaries/XML.dict) ;;
    JSON | RecordJSON | RecordChanges | SQLiteValue | CSV) dictionary=(-dict=Dictionaries/JSON.dict) ;;
  esac
  if ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 "$bin/$target" "$scratch" "$seeds" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$work/artifacts/$name-" "${dictionary[@]}" >"$log" 2>&1; then
    grep -E "^stat::number_of_executed_units|^#[0-9]+ +DONE" "$log" | tail -2 >&2 || true
  else
    echo "$target FAILED; see $log and $work/artifacts/" >&2
    grep -E "ERROR|Test unit written|SUMMARY|Fatal error" "$log" | head -5 >&2 || true
    failed+=("$target")
  fi
done
if ((${#failed[@]})); then
  echo "fuzzers that found a problem: ${failed[*]}" >&2
  exit 1
fi
