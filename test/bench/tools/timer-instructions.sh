#!/bin/bash
# Main-thread instructions per delivery (valgrind's callgrind) for the runtime in <dist>, draining the
# second half of a journal seeded by timer-drain.ts after the first half warmed the JIT up. Runs of one
# build agree within about 0.3%, where timings on a shared machine move by half: for comparing builds.
# Usage: test/bench/tools/timer-instructions.sh <dist> <db>   (e.g. a journal of 40,000 due timers)
set -euo pipefail
dist=$1; db=$2; out=$(mktemp -u /tmp/timer-cg.XXXXXX)
here=$(cd "$(dirname "$0")" && pwd)
WARM=1 valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out" --smc-check=all-non-file \
  node --import tsx "$here/timer-drain.ts" drain "$dist" "$db" > "$out.log" 2>&1 &
vg=$!
pid=""
while [ -z "$pid" ]; do
  sleep 0.5
  for f in /tmp/timer-drain-ready-*; do
    [ -e "$f" ] || continue
    p=${f##*-}
    grep -q "$out" "/proc/$p/cmdline" 2>/dev/null && pid=$p
  done
done
callgrind_control -z "$pid" > /dev/null 2>&1
touch "/tmp/timer-drain-go-$pid"
wait $vg
rm -f "/tmp/timer-drain-ready-$pid" "/tmp/timer-drain-go-$pid"
delivered=$(grep -o '"delivered":[0-9]*' "$out.log" | cut -d: -f2)
main=$(ls -t "$out"*-01 | head -1)
total=$(grep -h "^totals:\|^summary:" "$main" | tail -1 | awk '{print $2}')
echo "$dist delivered=$delivered main_thread_instructions_per_delivery=$((total / delivered))"
rm -f "$out"*
