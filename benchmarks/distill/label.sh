#!/bin/sh
# Step 2 of 3: label positions.bin with gnubg's 0-ply evaluations, in SHARDS gnubg processes
# side by side (each mostly idle, see label.py), then join the slices in order.
# Usage: benchmarks/distill/label.sh positions.bin labels.bin [SHARDS]
set -e
in=$1; out=$2; shards=${3:-12}
here=$(dirname "$0")
k=0
while [ "$k" -lt "$shards" ]; do
    DISTILL_IN=$in DISTILL_OUT=$out DISTILL_SHARD=$k/$shards \
        /usr/games/gnubg -t -q -p "$here/label.py" > "$out.$k.log" 2>&1 &
    k=$((k + 1))
done
wait
k=0; : > "$out"
while [ "$k" -lt "$shards" ]; do cat "$out.$k" >> "$out"; rm "$out.$k" "$out.$k.log"; k=$((k + 1)); done
echo "labels -> $out ($(($(wc -c < "$out") / 20)) rows)"
