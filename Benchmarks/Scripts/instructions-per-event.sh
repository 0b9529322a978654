#!/usr/bin/env bash
# Instructions per event, counted by valgrind's callgrind, which holds on a loaded machine.
#
#     Benchmarks/Scripts/instructions-per-event.sh client                     # the budget's setup
#     Benchmarks/Scripts/instructions-per-event.sh reference                  # the naive reference
#     Benchmarks/Scripts/instructions-per-event.sh client --destinations 4    # one more destination
#     Benchmarks/Scripts/instructions-per-event.sh client --properties 50     # a wide event
#
# Runs ClientProfile (built in release first) under callgrind for two event counts and divides the
# difference in instructions by the difference in events, so start-up and tear-down cancel out. Prints the
# whole process's figure (every thread: end to end) and the main thread's (the caller's share), and the calls
# to malloc per event in every thread, counted the same way.
# SMALL and LARGE set the two counts (default 20000 and 120000). BINARY runs another build of ClientProfile
# (a copy of main's, for a BEFORE figure) instead of building this checkout's.
set -euo pipefail
cd "$(dirname "$0")/../.."
small=${SMALL:-20000}
large=${LARGE:-120000}
if [ -n "${BINARY:-}" ]; then
  binary=$BINARY
else
  swift build -c release --package-path Benchmarks --product ClientProfile >/dev/null
  binary=Benchmarks/.build/release/ClientProfile
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Sums the instructions of the given callgrind output files.
instructions() { awk '/^totals:/ { sum += $2 } END { printf "%d\n", sum }' "$@"; }

# Sums the calls to malloc in the given callgrind output files (names are compressed to ids per file).
mallocs() {
  awk 'FNR == 1 { delete names; current = "" }
    /^c?fn=\(/ {
      id = $0; sub(/^c?fn=/, "", id); name = ""
      if (index(id, " ")) { name = substr(id, index(id, " ") + 1); id = substr(id, 1, index(id, " ") - 1); names[id] = name }
      if ($0 ~ /^cfn=/) current = names[id]
    }
    /^calls=/ { if (current == "malloc") { split(substr($0, 7), parts, " "); sum += parts[1] } }
    END { printf "%d\n", sum }' "$@"
}

for count in "$small" "$large"; do
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/run-$count" \
    "$binary" "$@" "$count" >"$work/log-$count" 2>&1 || { cat "$work/log-$count"; exit 1; }
done
# With --separate-threads, each thread has its own file, ending in -01 for the main thread.
total_small=$(instructions "$work"/run-"$small"-*)
total_large=$(instructions "$work"/run-"$large"-*)
main_small=$(instructions "$work/run-$small-01")
main_large=$(instructions "$work/run-$large-01")
malloc_small=$(mallocs "$work"/run-"$small"-*)
malloc_large=$(mallocs "$work"/run-"$large"-*)
events=$((large - small))
echo "$* ($small and $large events)"
echo "  every thread (end to end): $(( (total_large - total_small) / events )) instructions per event"
echo "  main thread (the caller):  $(( (main_large - main_small) / events )) instructions per event"
echo "  mallocs, every thread:     $(awk -v d="$((malloc_large - malloc_small))" -v n="$events" 'BEGIN { printf "%.2f", d / n }') per event"
