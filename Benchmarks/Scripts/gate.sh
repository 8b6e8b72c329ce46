#!/usr/bin/env bash
# The performance gate: counts the instructions (callgrind) and heap allocations
# (malloc-interposer) of a few fixed Deferred workloads, compares them with the committed
# baseline, and fails on a regression. Counts, not seconds: the figures are the same on every
# run of the same code, on a loaded machine too.
#
#   Benchmarks/Scripts/gate.sh            compare with Benchmarks/Gate/baseline.tsv
#   Benchmarks/Scripts/gate.sh --record   rewrite the baseline from the current build
#
# It fails if an instruction figure is worse than its baseline by more than its tolerance (3%
# unless the baseline file says otherwise for that figure), if an allocation figure rises at
# all, or if a cached resolve (by key or through a handle) allocates.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: Scripts/gate.sh [--record]" >&2
  exit 64
}

record=false
case "${1:-}" in
  "") ;;
  --record) record=true ;;
  *) usage ;;
esac
[[ $# -le 1 ]] || usage

baseline=Gate/baseline.tsv
default_tolerance=3
started=$SECONDS

if ! command -v valgrind >/dev/null; then
  echo "valgrind is missing: installing it" >&2
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo=sudo
  $sudo apt-get update && $sudo apt-get install -y valgrind
fi

# The same flags as CI's release build of the benchmarks, so that the build is reused.
# -gdwarf-4: valgrind reads no DWARF 5, which clang emits for the C target by default.
build_flags=(-c release -Xswiftc -warnings-as-errors -Xcc -gdwarf-4)
swift build "${build_flags[@]}" >&2
bin="$(swift build "${build_flags[@]}" --show-bin-path)/DeferredBenchmarks"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The workloads: name, count, what one operation is. Each runs as
# `DeferredBenchmarks _gate NAME COUNT`, which calls the function `gateNAME` (first letter in
# capitals) once; callgrind counts the instructions inside that call only.
workloads=(
  "resolveCached 100000 resolve"
  "resolveHandle 100000 resolve"
  "resolveTransient 100000 resolve"
  "resolveTransientHandle 100000 resolve"
  "register 1000 registration"
  "coldFirstResolve 200 service"
  "launch 1000 service"
  "resolveEach 1000 service"
)

# The function's mangled name: exactly one defined symbol of this module for it, a function
# (its closures and thunks have other endings), so that collection toggles on once per call.
# If the optimiser merged it with a look-alike (a `...Tm` symbol taking what differed as an
# argument), the function measured would not be the one written: that is an error too.
symbol_of() {
  local function=$1
  local symbols found
  symbols=$(nm --defined-only "$bin" | awk -v f="$function" '
    $3 ~ ("^\\$s18DeferredBenchmarks[0-9]+" f "(_|y)") { print $3 }')
  found=$(printf '%s\n' "$symbols" | grep 'F$' || true)
  if [[ $(printf '%s\n' "$found" | grep -c .) -ne 1 ]] || grep -q 'Tm$' <<<"$symbols"; then
    echo "error: expected one function symbol for $function, found: ${symbols:-none}" >&2
    exit 1
  fi
  printf '%s\n' "$found"
}

declare -A figure unit
names=()

add() { # figure value unit
  figure[$1]=$2
  unit[$1]=$3
  names+=("$1")
}

for workload in "${workloads[@]}"; do
  read -r name count op <<<"$workload"
  function="gate${name^}"
  symbol=$(symbol_of "$function")
  echo "gate: $name ($count ${op}s) under callgrind" >&2
  if ! SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --dump-instr=no \
    --collect-atstart=no --toggle-collect="$symbol" \
    --callgrind-out-file="$work/$name.callgrind" \
    "$bin" _gate "$name" "$count" >"$work/$name.out" 2>"$work/$name.err"; then
    cat "$work/$name.err" >&2
    echo "error: the $name workload failed" >&2
    exit 1
  fi
  instructions=$(awk '/^(summary|totals):/ { print $2; exit }' "$work/$name.callgrind")
  allocations=$(awk '$1 == "allocations" { print $2 }' "$work/$name.out")
  if [[ -z $instructions || $instructions -eq 0 || -z $allocations ]]; then
    echo "error: $name: no instructions collected inside $function, or no allocation count" >&2
    exit 1
  fi
  add "$name.instructions" "$(awk -v i="$instructions" -v n="$count" \
    'BEGIN { printf "%.2f", i / n }')" "instructions/$op"
  add "$name.allocations" "$(awk -v a="$allocations" -v n="$count" \
    'BEGIN { printf "%.4f", a / n }')" "allocations/$op"
done

# What launching adds to building the same services one by one.
add launchOrchestration.instructions "$(awk -v l="${figure[launch.instructions]}" \
  -v e="${figure[resolveEach.instructions]}" 'BEGIN { printf "%.2f", l - e }')" \
  "instructions/service"

if $record; then
  declare -A kept
  if [[ -f $baseline ]]; then
    while IFS=$'\t' read -r name _ tolerance; do
      [[ -z $name || $name == \#* ]] || kept[$name]=$tolerance
    done <"$baseline"
  fi
  {
    printf '# The performance gate'"'"'s baseline (Scripts/gate.sh --record writes it).\n'
    printf '# figure\tbaseline\ttolerance (%% worse allowed; allocations may never rise)\n'
    for name in "${names[@]}"; do
      tolerance=${kept[$name]:-}
      if [[ -z $tolerance ]]; then
        [[ $name == *.instructions ]] && tolerance=$default_tolerance || tolerance=0
      fi
      printf '%s\t%s\t%s\n' "$name" "${figure[$name]}" "$tolerance"
    done
  } >"$baseline"
  echo "gate: recorded $baseline in $((SECONDS - started)) s" >&2
fi

declare -A base limit
while IFS=$'\t' read -r name value tolerance; do
  [[ -z $name || $name == \#* ]] && continue
  base[$name]=$value
  limit[$name]=$tolerance
done <"$baseline"

failures=0
printf '%-34s %-26s %10s %10s %7s  %s\n' figure unit baseline now ratio verdict
for name in "${names[@]}"; do
  now=${figure[$name]}
  if [[ -z ${base[$name]:-} ]]; then
    printf '%-34s %-26s %10s %10s %7s  %s\n' "$name" "${unit[$name]}" - "$now" - \
      "FAIL: no baseline (record one with --record)"
    failures=$((failures + 1))
    continue
  fi
  was=${base[$name]}
  tolerance=${limit[$name]}
  verdict=$(awk -v now="$now" -v was="$was" -v tol="$tolerance" -v name="$name" 'BEGIN {
    if ((name == "resolveCached.allocations" || name == "resolveHandle.allocations") && now != 0) { print "FAIL: a cached resolve must not allocate"; exit }
    if (name ~ /allocations$/) {
      if (now > was) print "FAIL: more allocations"; else if (now < was) print "ok (fewer: record)"; else print "ok"
      exit
    }
    if (now > was * (1 + tol / 100)) printf "FAIL: worse by more than %s%%\n", tol
    else if (now < was * (1 - tol / 100)) printf "ok (better by more than %s%%: record)\n", tol
    else print "ok"
  }')
  ratio=$(awk -v now="$now" -v was="$was" 'BEGIN {
    if (was == 0) print (now == 0 ? "1.000" : "inf"); else printf "%.3f", now / was }')
  printf '%-34s %-26s %10s %10s %7s  %s\n' "$name" "${unit[$name]}" "$was" "$now" "$ratio" \
    "$verdict"
  [[ $verdict == FAIL* ]] && failures=$((failures + 1))
done

echo "gate: $((SECONDS - started)) s" >&2
if [[ $failures -gt 0 ]]; then
  echo "gate: $failures figure(s) regressed. If the change is meant, record a new baseline" \
    "with Scripts/gate.sh --record and say in the commit why the figure moved." >&2
  exit 1
fi
