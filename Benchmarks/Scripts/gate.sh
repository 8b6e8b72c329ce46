#!/usr/bin/env bash
# The performance gate: holds Deferred to floors set by its peers, on the paths a user feels.
# It counts, rather than times, the instructions (callgrind) and heap allocations
# (malloc-interposer) of the same workload in Deferred, in Swinject and in a hand-written
# container (a mutex around a dictionary of lazy factories), all in this one run, and compares:
#
#   - instructions: Deferred's at most a fraction of Swinject's and at most twice the
#     hand-written container's, on a cached resolve, a transient, a cold registration and a
#     first resolve along a chain;
#   - allocations: Deferred's at most the ceiling of each path;
#   - orchestration: what a 10,000-service launch adds to building the same services one by
#     one, under a ceiling of instructions a service.
#
# The limits are in Gate/limits.tsv. Counts are the same on every run of the same code, on a
# loaded machine too.
#
#   Benchmarks/Scripts/gate.sh                  print the table; exit 1 if a limit is broken
#   Benchmarks/Scripts/gate.sh --summary FILE   also write the figures and verdicts as JSON
set -euo pipefail

usage() {
  echo "usage: Scripts/gate.sh [--summary FILE]" >&2
  exit 64
}

summary=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --summary)
      [[ $# -ge 2 ]] || usage
      summary=$(realpath -m "$2")
      shift 2
      ;;
    *) usage ;;
  esac
done

cd "$(dirname "$0")/.."
limits_file=Gate/limits.tsv
started=$SECONDS

if ! command -v valgrind >/dev/null; then
  echo "valgrind is missing: installing it" >&2
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo=sudo
  $sudo apt-get update && $sudo apt-get install -y valgrind
fi

# The same flags as CI's release build of the benchmarks, so that the build is reused.
# -gdwarf-4: valgrind reads no DWARF 5, which clang emits for C targets by default.
build_flags=(-c release -Xswiftc -warnings-as-errors -Xcc -gdwarf-4)
swift build "${build_flags[@]}" >&2
bin="$(swift build "${build_flags[@]}" --show-bin-path)/DeferredBenchmarks"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The paths: name, count, what one operation is, then the workload of Deferred, of Swinject and
# of the hand-written container ("-": none). Each workload runs as
# `DeferredBenchmarks _gate WORKLOAD COUNT`, which calls the function `gateWORKLOAD` (first
# letter in capitals) once; callgrind counts the instructions inside that call only. The peers'
# workloads have the same count and shape as Deferred's.
paths=(
  "cached 100000 resolve resolveCached swinjectResolveCached handWrittenResolveCached"
  "transient 100000 resolve resolveTransient swinjectResolveTransient handWrittenResolveTransient"
  "registration 200 registration registerCold swinjectRegisterCold handWrittenRegisterCold"
  "firstResolve 200 service coldFirstResolve swinjectColdFirstResolve handWrittenColdFirstResolve"
  "register 1000 registration register - -"
  "handle 100000 read resolveHandle - -"
  "launch 10000 service launch - -"
  "resolveEach 10000 service resolveEach - -"
)
peers=(deferred swinject handWritten)

# The function's mangled name: exactly one defined symbol of this module for it, a function
# (its closures and thunks have other endings), so that collection toggles on once per call.
# If the optimiser merged it with a look-alike (a `...Tm` symbol taking what differed as an
# argument, or another name at the same address), the function measured would not be the one
# written: that is an error too.
symbols_file=$work/symbols
nm --defined-only "$bin" >"$symbols_file"
symbol_of() {
  local function=$1
  local symbols found address
  symbols=$(awk -v f="$function" '
    $3 ~ ("^\\$s18DeferredBenchmarks[0-9]+" f "(_|y)") { print $3 }' "$symbols_file")
  found=$(printf '%s\n' "$symbols" | grep 'F$' || true)
  if [[ $(printf '%s\n' "$found" | grep -c .) -ne 1 ]] || grep -q 'Tm$' <<<"$symbols"; then
    echo "error: expected one function symbol for $function, found: ${symbols:-none}" >&2
    exit 1
  fi
  address=$(awk -v s="$found" '$3 == s { print $1 }' "$symbols_file")
  if [[ $(awk -v a="$address" '$1 == a' "$symbols_file" | wc -l) -ne 1 ]]; then
    echo "error: $function shares its address with another symbol (merged)" >&2
    exit 1
  fi
  printf '%s\n' "$found"
}

# Runs one workload twice: under callgrind, counting no allocations (the counting would add its
# own instructions to every allocation), then natively, counting them. Sets `instructions` per
# operation, `allocations` per operation to three decimals (the precision of the ceilings: a
# fixed few allocations in the whole workload, such as a buffer that stops growing, are not one
# an operation) and `allocated`, the whole workload's.
measure() { # workload count
  local name=$1 count=$2 function symbol total
  function="gate${name^}"
  symbol=$(symbol_of "$function")
  echo "gate: $name ($count) under callgrind" >&2
  if ! SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --dump-instr=no \
    --collect-atstart=no --toggle-collect="$symbol" \
    --callgrind-out-file="$work/$name.callgrind" \
    "$bin" _gate "$name" "$count" uncounted 2>"$work/$name.err" >/dev/null ||
    ! SWIFT_DETERMINISTIC_HASHING=1 \
      "$bin" _gate "$name" "$count" >"$work/$name.out" 2>>"$work/$name.err"; then
    cat "$work/$name.err" >&2
    echo "error: the $name workload failed" >&2
    exit 1
  fi
  total=$(awk '/^(summary|totals):/ { print $2; exit }' "$work/$name.callgrind")
  allocated=$(awk '$1 == "allocations" { print $2 }' "$work/$name.out")
  if [[ -z $total || $total -eq 0 || -z $allocated ]]; then
    echo "error: $name: no instructions collected inside $function, or no allocation count" >&2
    exit 1
  fi
  instructions=$(awk -v i="$total" -v n="$count" 'BEGIN { printf "%.2f", i / n }')
  allocations=$(awk -v a="$allocated" -v n="$count" 'BEGIN { printf "%.3f", a / n }')
}

declare -A limit
while IFS=$'\t' read -r path figure value; do
  [[ -z $path || $path == \#* ]] && continue
  limit[$path.$figure]=$value
done <"$limits_file"

declare -A instr alloc total_alloc unit
path_names=()
for entry in "${paths[@]}"; do
  read -r path count op workloads <<<"$entry"
  read -r -a names <<<"$workloads"
  path_names+=("$path")
  unit[$path]=$op
  for i in "${!peers[@]}"; do
    [[ ${names[$i]} == - ]] && continue
    measure "${names[$i]}" "$count"
    instr[$path.${peers[$i]}]=$instructions
    alloc[$path.${peers[$i]}]=$allocations
    total_alloc[$path.${peers[$i]}]=$allocated
  done
done

# What launching adds to building the same services one by one.
orchestration=$(awk -v l="${instr[launch.deferred]}" -v e="${instr[resolveEach.deferred]}" \
  'BEGIN { printf "%.2f", l - e }')

failures=0
records=()

# at_most VALUE LIMIT: "ok" or "FAIL", and counts the failure.
at_most() {
  if awk -v v="$1" -v l="$2" 'BEGIN { exit !(v <= l) }'; then
    verdict=ok
  else
    verdict=FAIL
    failures=$((failures + 1))
  fi
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

# The most instructions Deferred may take: the peer's figure times the limit (compared unrounded).
allowed() { awk -v p="$1" -v l="$2" 'BEGIN { printf "%.4f", p * l }'; }

record() { # figure path value limit verdict
  records+=("$(printf '{"figure": "%s", "path": "%s", "value": %s, "limit": %s, "verdict": "%s"}' \
    "$@")")
}

echo
echo "Instructions per operation, Deferred against its peers (limits: Gate/limits.tsv)"
row='%-13s %-13s %10s %10s %12s %9s %7s %9s %7s  %s\n'
# shellcheck disable=SC2059
printf "$row" path unit Deferred Swinject hand-written xSwinject floor xHand floor verdict
for path in "${path_names[@]}"; do
  [[ -n ${instr[$path.swinject]:-} ]] || continue
  d=${instr[$path.deferred]}
  s=${instr[$path.swinject]}
  h=${instr[$path.handWritten]}
  vs_s=$(ratio "$d" "$s")
  vs_h=$(ratio "$d" "$h")
  at_most "$d" "$(allowed "$s" "${limit[$path.swinject]}")"
  verdict_s=$verdict
  record swinjectRatio "$path" "$vs_s" "${limit[$path.swinject]}" "$verdict_s"
  at_most "$d" "$(allowed "$h" "${limit[$path.handWritten]}")"
  verdict_h=$verdict
  record handWrittenRatio "$path" "$vs_h" "${limit[$path.handWritten]}" "$verdict_h"
  for peer in "${peers[@]}"; do
    records+=("$(printf '{"figure": "instructions", "path": "%s", "container": "%s", "value": %s}' \
      "$path" "$peer" "${instr[$path.$peer]}")")
  done
  verdict=ok
  [[ $verdict_s == ok && $verdict_h == ok ]] || verdict=FAIL
  # shellcheck disable=SC2059
  printf "$row" "$path" "${unit[$path]}" "$d" "$s" "$h" "$vs_s" "${limit[$path.swinject]}" \
    "$vs_h" "${limit[$path.handWritten]}" "$verdict"
done

echo
echo "Allocations per operation, Deferred against its ceilings (peers for reference)"
row='%-13s %-13s %10s %10s %12s %9s  %s\n'
# shellcheck disable=SC2059
printf "$row" path unit Deferred Swinject hand-written ceiling verdict
for path in "${path_names[@]}"; do
  [[ $path == resolveEach ]] && continue
  d=${alloc[$path.deferred]}
  ceiling=${limit[$path.allocations]:--}
  if [[ $ceiling == - ]]; then
    verdict=-
  elif awk -v l="$ceiling" 'BEGIN { exit !(l == 0) }'; then
    # No allocation at all: the whole workload's count, not a rounded figure.
    at_most "${total_alloc[$path.deferred]}" 0
  else
    at_most "$d" "$ceiling"
  fi
  if [[ $ceiling == - ]]; then
    record allocations "$path" "$d" null "-"
  else
    record allocations "$path" "$d" "$ceiling" "$verdict"
  fi
  for peer in swinject handWritten; do
    [[ -n ${alloc[$path.$peer]:-} ]] || continue
    records+=("$(printf '{"figure": "allocations", "path": "%s", "container": "%s", "value": %s}' \
      "$path" "$peer" "${alloc[$path.$peer]}")")
  done
  # shellcheck disable=SC2059
  printf "$row" "$path" "${unit[$path]}" "$d" "${alloc[$path.swinject]:--}" \
    "${alloc[$path.handWritten]:--}" "$ceiling" "$verdict"
done

echo
echo "Launch of 10,000 services, instructions per service"
row='%-36s %10s %9s  %s\n'
# shellcheck disable=SC2059
printf "$row" figure Deferred ceiling verdict
# shellcheck disable=SC2059
printf "$row" "launch (informational)" "${instr[launch.deferred]}" - -
# shellcheck disable=SC2059
printf "$row" "resolveEach (informational)" "${instr[resolveEach.deferred]}" - -
at_most "$orchestration" "${limit[orchestration.instructions]}"
record orchestration launch "$orchestration" "${limit[orchestration.instructions]}" "$verdict"
# shellcheck disable=SC2059
printf "$row" "orchestration (launch - resolveEach)" "$orchestration" \
  "${limit[orchestration.instructions]}" "$verdict"
for path in "${path_names[@]}"; do
  [[ -z ${instr[$path.swinject]:-} ]] || continue
  records+=("$(printf '{"figure": "instructions", "path": "%s", "container": "deferred", "value": %s}' \
    "$path" "${instr[$path.deferred]}")")
done
echo "ServiceHandle read (informational): ${instr[handle.deferred]} instructions a read"

if [[ -n $summary ]]; then
  {
    printf '{\n  "passed": %s,\n  "figures": [\n' "$([[ $failures -eq 0 ]] && echo true || echo false)"
    for i in "${!records[@]}"; do
      separator=","
      [[ $i -eq $((${#records[@]} - 1)) ]] && separator=""
      printf '    %s%s\n' "${records[$i]}" "$separator"
    done
    printf '  ]\n}\n'
  } >"$summary"
  echo "gate: wrote $summary" >&2
fi

echo "gate: $((SECONDS - started)) s" >&2
if [[ $failures -gt 0 ]]; then
  echo "gate: $failures limit(s) broken (Gate/limits.tsv; Benchmarks/README.md," \
    "\"Performance gate\", says what each holds)." >&2
  exit 1
fi
