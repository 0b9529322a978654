#!/usr/bin/env bash
# The clean-build cost of an app's test target that uses TallyTesting, as a ratio to the same test target
# depending only on the two packages TallyTesting depends on (issue 39).
#
#     Benchmarks/Scripts/test-target-build-cost.sh                 # budget 1.3, two runs of each
#     BUDGET=2.3 RUNS=3 Benchmarks/Scripts/test-target-build-cost.sh
#     FLOOR=tally Benchmarks/Scripts/test-target-build-cost.sh    # TallyTesting's own share (see below)
#
# Writes two throwaway packages into a temporary folder, outside this repository:
#   with-tally  a test target importing Tally and TallyTesting (this checkout, by path), one trivial test;
#   floor       the same test target depending only on swift-custom-dump and xctest-dynamic-overlay
#               (CustomDump, IssueReporting, IssueReportingTestSupport), at the versions with-tally resolves;
#               with FLOOR=tally it also imports Tally (this checkout), as the test target of an app that
#               already links Tally does, so the ratio is what TallyTesting itself adds. Issue 39's budget is
#               the default floor, without Tally.
# Resolves both (not timed), then builds each RUNS times, interleaved, from clean build products (the
# resolved checkouts are kept): `swift build --disable-experimental-prebuilts --build-tests` under
# /usr/bin/time. The figure is CPU time (user + system of the whole process tree), which a loaded machine
# disturbs less than wall time; the load average is printed beside it. The ratio is the sum of with-tally's
# runs over the floor's. Exits 1 when the ratio exceeds BUDGET (default 1.3, issue 39's target).
# KEEP=1 keeps the temporary folder and prints its path.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
budget=${BUDGET:-1.3}
floor_kind=${FLOOR:-dependencies}
case $floor_kind in
  dependencies | tally) ;;
  *) echo "FLOOR must be 'dependencies' (the default) or 'tally', not '$floor_kind'" >&2; exit 2 ;;
esac
runs=${RUNS:-2}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a whole number of at least 1, not '$runs'" >&2; exit 2; }
export SWIFT_DETERMINISTIC_HASHING=1
work=$(mktemp -d)
if [[ ${KEEP:-0} == 1 ]]; then echo "folder: $work"; else trap 'rm -rf "$work"' EXIT; fi
# A path dependency's identity is its folder's name, lowercased.
identity=$(basename "$root" | tr '[:upper:]' '[:lower:]')

write_test() {  # write_test PACKAGE_DIR IMPORTS...
  local dir=$1
  shift
  mkdir -p "$dir/Tests/AppTests"
  {
    for module in "$@"; do echo "import $module"; done
    echo "import Testing"
    echo
    echo "@Test func trivial() {"
    echo "    #expect(1 + 1 == 2)"
    echo "}"
  } >"$dir/Tests/AppTests/AppTests.swift"
}

mkdir -p "$work/with-tally"
cat >"$work/with-tally/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "BuildCostWithTally",
    dependencies: [.package(path: "$root")],
    targets: [
        .testTarget(
            name: "AppTests",
            dependencies: [
                .product(name: "Tally", package: "$identity"),
                .product(name: "TallyTesting", package: "$identity"),
            ]
        )
    ]
)
EOF
write_test "$work/with-tally" Tally TallyTesting
(cd "$work/with-tally" && swift package resolve >/dev/null 2>&1)

# The floor pins the versions the first package resolved, so both build the same dependencies.
pin() {
  awk -v id="\"$1\"" '$0 ~ "\"identity\" : " id { found = 1 } found && /"version"/ { gsub(/[",]/, "", $3); print $3; exit }' \
    "$work/with-tally/Package.resolved"
}
dump_version=$(pin swift-custom-dump)
overlay_version=$(pin xctest-dynamic-overlay)
mkdir -p "$work/floor"
floor_package="" floor_product="" floor_imports=(CustomDump IssueReporting)
if [[ $floor_kind == tally ]]; then
  floor_package=$'\n        .package(path: "'"$root"'"),'
  floor_product=$'\n                .product(name: "Tally", package: "'"$identity"'"),'
  floor_imports=(Tally CustomDump IssueReporting)
fi
cat >"$work/floor/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "BuildCostFloor",
    dependencies: [${floor_package}
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", exact: "$dump_version"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", exact: "$overlay_version"),
    ],
    targets: [
        .testTarget(
            name: "AppTests",
            dependencies: [${floor_product}
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        )
    ]
)
EOF
write_test "$work/floor" "${floor_imports[@]}"
(cd "$work/floor" && swift package resolve >/dev/null 2>&1)
echo "swift-custom-dump $dump_version, xctest-dynamic-overlay $overlay_version, $(swift --version 2>&1 | head -1)"

# Prints the CPU seconds (user + system) of one clean build of the package.
clean_build_cpu() {
  local dir=$1
  find "$dir/.build" -mindepth 1 -maxdepth 1 ! -name checkouts ! -name repositories ! -name workspace-state.json \
    -exec rm -rf {} +
  (cd "$dir" && /usr/bin/time -f '%U %S' -o "$work/time" swift build --disable-experimental-prebuilts --build-tests \
    >"$work/build.log" 2>&1) || { cat "$work/build.log"; exit 1; }
  awk '{ printf "%.2f\n", $1 + $2 }' "$work/time"
}

total_tally=0
total_floor=0
for run in $(seq "$runs"); do
  for package in with-tally floor; do
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    cpu=$(clean_build_cpu "$work/$package")
    echo "run $run  $package  CPU ${cpu} s  (load average before: $load)"
    if [[ $package == with-tally ]]; then
      total_tally=$(awk -v a="$total_tally" -v b="$cpu" 'BEGIN { print a + b }')
    else
      total_floor=$(awk -v a="$total_floor" -v b="$cpu" 'BEGIN { print a + b }')
    fi
  done
done
ratio=$(awk -v a="$total_tally" -v b="$total_floor" 'BEGIN { printf "%.2f", a / b }')
echo "test target with TallyTesting / floor ($floor_kind): ${ratio}x CPU (budget ${budget}x)"
if awk -v r="$ratio" -v b="$budget" 'BEGIN { exit !(r > b) }'; then
  echo "FAIL: over budget"
  exit 1
fi
echo "OK: within budget"
