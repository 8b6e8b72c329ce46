#!/usr/bin/env bash
# Compile time of a composition root: one generated Swift file per registration form, with N
# services `S0 … S(N-1)`, each a `final class` needing the previous one, all registered in one
# function, compiled as an app's release build compiles it:
# `swiftc -c -O -wmo -parse-as-library` against the release modules of Deferred and Swinject.
#
#   Benchmarks/Scripts/compile-time.sh              N = 200, 1000, 2000 (ten minutes or so)
#   Benchmarks/Scripts/compile-time.sh --quick      N = 200 only
#   Benchmarks/Scripts/compile-time.sh --sizes "100 300"
#   Benchmarks/Scripts/compile-time.sh --split 100  the registrations in functions of 100 each
#   Benchmarks/Scripts/compile-time.sh --onone      a debug build (-Onone) instead
#   Benchmarks/Scripts/compile-time.sh --shape layers  services in chains of ten (S(i) needs
#                                                   S(i-1) unless i is a multiple of ten)
#                                                   rather than one chain of N
#   Benchmarks/Scripts/compile-time.sh --shape modules  one chain of N, the services declared
#                                                   (public) in a module of their own,
#                                                   compiled first, that the composition root
#                                                   imports, as an app's feature modules
#   Benchmarks/Scripts/compile-time.sh --forms "DeferredPriority SwinjectScope"  those forms only
#   Benchmarks/Scripts/compile-time.sh --keep DIR   keeps the generated files in DIR
#   Benchmarks/Scripts/compile-time.sh --modules DIR  uses the modules in DIR (a copy of the
#                                                   build's, to compare two builds) and builds
#                                                   nothing
#   Benchmarks/Scripts/compile-time.sh --output FILE  also writes the JSON object to FILE, for
#                                                   `DeferredBenchmarks --compile-time FILE`
#
# The forms: Deferred's three (parameters, closure, resolver), Swinject's, and `HandWritten`, a
# dictionary of closures declared in the file itself (the floor: what any registration costs);
# then, with options, `DeferredPriority` (the parameter form, every registration given a
# `priority:`, four in turn, and every fifth a `scope:`, as an app's composition root) beside
# `SwinjectScope` (Swinject's registration with `.inObjectScope(.container)`, its everyday
# option and the one that makes a Swinject service a singleton, as Deferred's are).
# Prints a table on standard output, then one JSON object:
# `{"compileTime1000": {"DeferredParameters": s, "DeferredClosure": s, "DeferredResolver": s,
# "Swinject": s}}` (the compiler's CPU seconds at N = 1000, one chain; `null` where N = 1000,
# that form or that shape was not run).
# Each file is compiled once. CPU seconds (user + system) are the figure because the machines
# this runs on are shared: there the wall-clock time of one compile moves by 2x or more with
# the load, its CPU time by much less. Compare forms and sizes within one run all the same.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: Scripts/compile-time.sh [--quick] [--sizes \"N …\"] [--split K] [--onone]" \
    "[--shape chain|layers|modules] [--forms \"FORM …\"] [--keep DIR] [--modules DIR] [--output FILE]" >&2
  exit 64
}

sizes=(200 1000 2000)
split=0
shape=chain
optimization=-O
keep=""
module_dir=""
output=""
only=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) sizes=(200) ;;
    --sizes)
      [[ $# -ge 2 ]] || usage
      read -r -a sizes <<<"$2"
      shift
      ;;
    --split)
      [[ $# -ge 2 && $2 =~ ^[1-9][0-9]*$ ]] || usage
      split=$2
      shift
      ;;
    --onone) optimization=-Onone ;;
    --forms)
      [[ $# -ge 2 ]] || usage
      read -r -a only <<<"$2"
      shift
      ;;
    --shape)
      [[ $# -ge 2 && ($2 == chain || $2 == layers || $2 == modules) ]] || usage
      shape=$2
      shift
      ;;
    --keep)
      [[ $# -ge 2 ]] || usage
      keep=$2
      shift
      ;;
    --modules)
      [[ $# -ge 2 && -d $2 ]] || usage
      module_dir=$2
      shift
      ;;
    --output)
      [[ $# -ge 2 ]] || usage
      output=$2
      shift
      ;;
    *) usage ;;
  esac
  shift
done

forms=(DeferredParameters DeferredClosure DeferredResolver Swinject HandWritten DeferredPriority
  SwinjectScope)
json_forms=(DeferredParameters DeferredClosure DeferredResolver Swinject)
if [[ ${#only[@]} -gt 0 ]]; then
  for form in "${only[@]}"; do
    [[ " ${forms[*]} " == *" $form "* ]] || usage
  done
  forms=("${only[@]}")
fi

# The modules, from the benchmark package's release build (the same flags as CI's, so that its
# build is reused): Deferred's and Swinject's, each built with -O and whole-module optimisation.
if [[ -n $module_dir ]]; then
  bin=$module_dir
else
  build_flags=(-c release -Xswiftc -warnings-as-errors -Xcc -gdwarf-4)
  echo "compile-time: building the benchmark package in release" >&2
  swift build "${build_flags[@]}" >&2
  bin=$(swift build "${build_flags[@]}" --show-bin-path)
fi
modules=()
for module in Deferred Swinject; do
  found=""
  for dir in "$bin/Modules" "$bin"; do
    if [[ -e $dir/$module.swiftmodule ]]; then
      found=$dir
      break
    fi
  done
  if [[ -z $found ]]; then
    echo "error: no $module.swiftmodule under $bin" >&2
    exit 1
  fi
  modules+=(-I "$found")
done
# Deferred imports its C target, whose module map SwiftPM writes beside the target's objects.
c_module_map="$bin/CDeferredSync.build/module.modulemap"
if [[ -e $c_module_map ]]; then
  modules+=(-Xcc "-fmodule-map-file=$c_module_map")
fi
if [[ -n $keep ]]; then
  mkdir -p "$keep"
  work=$(cd "$keep" && pwd)
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

# Whether service `i` needs nothing: the first of the chain, or of each chain of ten (the
# type descriptor of a service names its stored property's type: how long the chains are is
# how far the compiler's walks from one service's metadata go).
isRoot() {
  [[ $1 -eq 0 || ($shape == layers && $(($1 % 10)) -eq 0) ]]
}

# Writes the declarations of `n` services to standard output, each with the access `$2`.
services() {
  local n=$1 access=$2 i
  for ((i = 0; i < n; i++)); do
    if isRoot "$i"; then
      echo "${access}final class S$i: Sendable { ${access}init() {} }"
    else
      echo "${access}final class S$i: Sendable { ${access}let dep: S$((i - 1));" \
        "${access}init(dep: S$((i - 1))) { self.dep = dep } }"
    fi
  done
}

# Writes the composition root of `form` with `n` services to standard output.
generate() {
  local form=$1 n=$2 i
  case $form in
    Swinject*) echo "import Swinject" ;;
    HandWritten)
      echo "public final class Container {"
      echo "  var factories: [ObjectIdentifier: (Container) -> Any] = [:]"
      echo "  func register<T>(_ type: T.Type, _ factory: @escaping (Container) -> T) {"
      echo "    factories[ObjectIdentifier(type)] = factory"
      echo "  }"
      echo "  func resolve<T>(_ type: T.Type) -> T { factories[ObjectIdentifier(type)]!(self) as! T }"
      echo "}"
      ;;
    *) echo "import Deferred" ;;
  esac
  if [[ $shape == modules ]]; then
    echo "import Services"
  else
    echo
    services "$n" ""
  fi
  local signature throws=""
  case $form in
    Swinject* | HandWritten) signature="(_ c: Container)" ;;
    *)
      signature="(_ c: Container) throws(DeferredError)"
      throws="try "
      ;;
  esac
  local part=0
  echo
  echo "func compose$part$signature {"
  for ((i = 0; i < n; i++)); do
    if [[ $split -gt 0 && $i -gt 0 && $((i % split)) -eq 0 ]]; then
      part=$((part + 1))
      echo "}"
      echo
      echo "func compose$part$signature {"
    fi
    local previous="S$((i - 1))"
    case $form in
      DeferredParameters)
        if isRoot "$i"; then
          echo "  try c.register(S$i.self, S$i.init)"
        else
          echo "  try c.register(S$i.self, S$i.init(dep:))"
        fi
        ;;
      DeferredClosure)
        if isRoot "$i"; then
          echo "  try c.register(S$i.self) { S$i() }"
        else
          echo "  try c.register(S$i.self) { (d: $previous) in S$i(dep: d) }"
        fi
        ;;
      DeferredResolver)
        if isRoot "$i"; then
          echo "  try c.register(S$i.self) { _ in S$i() }"
        else
          echo "  try c.register(S$i.self) { r in try S$i(dep: r.resolve($previous.self)) }"
        fi
        ;;
      DeferredPriority)
        local options
        case $((i % 4)) in
          0) options="priority: .afterFirstFrame()" ;;
          1) options="priority: .idle()" ;;
          2) options="priority: .onDemand" ;;
          3) options="priority: .afterFirstFrame(.userInitiated)" ;;
        esac
        [[ $((i % 5)) -ne 4 ]] || options="scope: .transient, $options"
        if isRoot "$i"; then
          echo "  try c.register(S$i.self, $options, S$i.init)"
        else
          echo "  try c.register(S$i.self, $options, S$i.init(dep:))"
        fi
        ;;
      SwinjectScope)
        if isRoot "$i"; then
          echo "  c.register(S$i.self) { _ in S$i() }.inObjectScope(.container)"
        else
          echo "  c.register(S$i.self) { r in S$i(dep: r.resolve($previous.self)!) }.inObjectScope(.container)"
        fi
        ;;
      Swinject)
        if isRoot "$i"; then
          echo "  c.register(S$i.self) { _ in S$i() }"
        else
          echo "  c.register(S$i.self) { r in S$i(dep: r.resolve($previous.self)!) }"
        fi
        ;;
      HandWritten)
        if isRoot "$i"; then
          echo "  c.register(S$i.self) { _ in S$i() }"
        else
          echo "  c.register(S$i.self) { r in S$i(dep: r.resolve($previous.self)) }"
        fi
        ;;
    esac
  done
  echo "}"
  echo
  echo "public func composeAll(_ c: Container)${throws:+ throws(DeferredError)} {"
  for ((i = 0; i <= part; i++)); do echo "  ${throws}compose$i(c)"; done
  echo "}"
}

declare -A seconds wall
TIMEFORMAT="%R %U %S"
for n in "${sizes[@]}"; do
  root_modules=("${modules[@]}")
  if [[ $shape == modules ]]; then
    # The services' module, compiled once for every form, as an app's feature module is.
    mkdir -p "$work/Services$n"
    services "$n" "public " >"$work/Services$n.swift"
    echo "compile-time: the services' module, N = $n" >&2
    if ! { time swiftc -c "$optimization" -wmo -parse-as-library -swift-version 6 \
      -module-name Services -emit-module -emit-module-path "$work/Services$n/Services.swiftmodule" \
      "$work/Services$n.swift" -o "$work/Services$n.o" 2>"$work/Services$n.err"; } \
      2>"$work/Services$n.time"; then
      cat "$work/Services$n.err" >&2
      echo "error: the services' module, N = $n, did not compile" >&2
      exit 1
    fi
    read -r real user system <"$work/Services$n.time"
    seconds[Services.$n]=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.1f", u + s }')
    wall[Services.$n]=$(awk -v r="$real" 'BEGIN { printf "%.1f", r }')
    root_modules+=(-I "$work/Services$n")
  fi
  for form in "${forms[@]}"; do
    file="$work/$form$n.swift"
    generate "$form" "$n" >"$file"
    echo "compile-time: $form, N = $n" >&2
    # Bash's `time`: wall-clock seconds, and the compiler's CPU seconds (user + system).
    if ! { time swiftc -c "$optimization" -wmo -parse-as-library -swift-version 6 \
      -module-name "Root$form" "${root_modules[@]}" "$file" -o "$work/$form$n.o" \
      2>"$work/$form$n.err"; } 2>"$work/$form$n.time"; then
      cat "$work/$form$n.err" >&2
      echo "error: $form, N = $n, did not compile" >&2
      exit 1
    fi
    read -r real user system <"$work/$form$n.time"
    seconds[$form.$n]=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.1f", u + s }')
    wall[$form.$n]=$(awk -v r="$real" 'BEGIN { printf "%.1f", r }')
    rm -f "$work/$form$n.o"
  done
done

layout="one function"
[[ $split -eq 0 ]] || layout="functions of $split registrations"
[[ $shape != layers ]] || layout="$layout; chains of ten"
[[ $shape != modules ]] || layout="$layout; the services in a module of their own"
echo "Compile time: the compiler's CPU seconds (user + system), wall-clock seconds in brackets"
echo "(swiftc -c $optimization -wmo; $layout; each file compiled once, on a machine shared with"
echo "other work: the figures move from run to run, the wall-clock ones most)"
printf '%-20s' form
for n in "${sizes[@]}"; do printf ' %16s' "N=$n"; done
printf '\n'
rows=("${forms[@]}")
[[ $shape != modules ]] || rows+=(Services)
for form in "${rows[@]}"; do
  printf '%-20s' "$form"
  for n in "${sizes[@]}"; do printf ' %16s' "${seconds[$form.$n]} (${wall[$form.$n]})"; done
  printf '\n'
done

# The chain's figures only (the shape the object has always measured); `null` for another.
members=()
for form in "${json_forms[@]}"; do
  figure=null
  [[ $shape != chain ]] || figure=${seconds[$form.1000]:-null}
  members+=("\"$form\": $figure")
done
json=$(printf '{"compileTime1000": {%s}}' "$(
  IFS=,
  echo "${members[*]}" | sed 's/,"/, "/g'
)")
echo "$json"
[[ -z $output ]] || echo "$json" >"$output"
