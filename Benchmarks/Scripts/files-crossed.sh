#!/usr/bin/env bash
# The files of Sources/Deferred a reader crosses when following a registration and a first
# resolve: the files in which instructions executed, counted by callgrind in a release build with
# debug info (code inlined from another file counts for the file it was written in).
#
# A tiny program registers a service with one dependency (`Clock`, built from `Storage`) and
# resolves it the first time, after the library's own first use (an unrelated service registered
# and resolved, not counted). Callgrind collects inside one function at a time: `registerPair`
# (both registrations), then `firstResolve` (the resolve that builds both services).
#
#   Benchmarks/Scripts/files-crossed.sh     print each path's files, their lines and the totals
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/Benchmarks/.build-files-crossed"
package="$work/package"
mkdir -p "$package/Sources/FilesCrossed"

cat >"$package/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "FilesCrossed",
  dependencies: [.package(path: "$root")],
  targets: [
    .executableTarget(
      name: "FilesCrossed", dependencies: [.product(name: "Deferred", package: "$(basename "$root")")])
  ]
)
EOF

cat >"$package/Sources/FilesCrossed/main.swift" <<'EOF'
import Deferred

final class Warmup: Sendable { init() {} }
final class Storage: Sendable { init() {} }
final class Clock: Sendable { init(_ storage: Storage) {} }

@inline(never)
func registerPair(_ container: Container) {
  do {
    try container.register(Storage.self, Storage.init)
    try container.register(Clock.self, Clock.init)
  } catch { fatalError("\(error)") }
}

@inline(never)
func firstResolve(_ container: Container) -> Clock {
  do { return try container.resolve(Clock.self) } catch { fatalError("\(error)") }
}

let container = Container()
do {
  try container.register(Warmup.self, Warmup.init)
  _ = try container.resolve(Warmup.self)
} catch { fatalError("\(error)") }
registerPair(container)
withExtendedLifetime(firstResolve(container)) {}
EOF

# -gdwarf-4: valgrind reads no DWARF 5.
flags=(-c release --package-path "$package" --scratch-path "$work/build" -Xswiftc -g
  -Xcc -gdwarf-4)
swift build "${flags[@]}" >&2
bin="$(swift build "${flags[@]}" --show-bin-path)/FilesCrossed"

symbol_of() { # function name: its one mangled symbol in the program
  local found
  found=$(nm --defined-only "$bin" | awk -v f="$1" \
    '$3 ~ ("^\\$s12FilesCrossed[0-9]+" f "y") && $3 ~ /F$/ { print $3 }')
  if [[ $(grep -c . <<<"$found") -ne 1 ]]; then
    echo "error: expected one symbol for $1, found: ${found:-none}" >&2
    exit 1
  fi
  printf '%s\n' "$found"
}

for function in registerPair firstResolve; do
  out="$work/$function.callgrind"
  valgrind --tool=callgrind --collect-atstart=no --toggle-collect="$(symbol_of "$function")" \
    --callgrind-out-file="$out" "$bin" 2>/dev/null
  files=$(callgrind_annotate --threshold=100 --inclusive=no "$out" |
    grep -o "Sources/Deferred/[^:]*\.swift" | sort -u)
  count=0
  lines=0
  echo "$function:"
  while read -r file; do
    [[ -n $file ]] || continue
    n=$(wc -l <"$root/$file")
    printf '  %5d  %s\n' "$n" "${file#Sources/Deferred/}"
    count=$((count + 1))
    lines=$((lines + n))
  done <<<"$files"
  echo "  $count files, $lines lines"
done
