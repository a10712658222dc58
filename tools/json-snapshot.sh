#!/bin/bash
# Copyright 2026 SD Tuner developers
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The JSON contract on the fixture roots, for refactors that must not change
# behaviour: runs `sdtunerctl --root ROOT --json` info, recommend, status,
# history, health and devices on every fixture root (under umockdev-run with its SD
# device chain), with a fixed config.txt and the fixture history, and prints
# one file per run into OUTDIR. Benchmark figures are timings, so `bench`
# contributes the shape of its JSON (every key path), not its numbers.
#
#   tools/json-snapshot.sh BUILDDIR OUTDIR
#   diff -r BEFORE AFTER     # must print nothing
#
# Issue 27 added members (DESIGN.md "eMMC and the system disk"): info and health card.kind and
# card.emmc, health card.holds_system and card.system_device, recommend not_tuned; a snapshot
# from before it differs by exactly these, and has no cm4-emmc or pi5-nvme-boot files.
set -eu
build=$(realpath "$1")
out=$(realpath -m "$2")
src=$(cd "$(dirname "$0")/.." && pwd)
ctl="$build/src/cli/sdtunerctl"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for fixture in pi3 pi3-qemu pi4 pi4-no-card pi5 tinker-board cm4-emmc pi5-nvme-boot; do
	root="$tmp/$fixture"
	cp -a "$src/tests/data/roots/$fixture" "$root"
	mkdir -p "$root/boot/firmware" "$root/var/lib/sd-tuner/history"
	cp "$src/tests/data/config/legacy-sd-lines.txt" "$root/boot/firmware/config.txt"
	cp "$src/tests/data/history/"*.json "$root/var/lib/sd-tuner/history/"
	mock=()
	if [ -f "$src/tests/data/umockdev/$fixture.umockdev" ]; then
		mock=(umockdev-run -d "$src/tests/data/umockdev/$fixture.umockdev" --)
	fi
	for cmd in info recommend status history health devices; do
		# exit status is part of the contract too
		rc=0
		LC_ALL=C.UTF-8 "${mock[@]}" "$ctl" --root "$root" --json $cmd \
			>"$out/$fixture-$cmd.json" 2>"$out/$fixture-$cmd.stderr" || rc=$?
		sed -i "s|$tmp|ROOT|g" "$out/$fixture-$cmd.json" "$out/$fixture-$cmd.stderr"
		echo "$rc" >"$out/$fixture-$cmd.rc"
	done
done

# bench: the key paths of the quick profile's JSON on a scratch directory
dir="$tmp/bench"
mkdir -p "$dir"
LC_ALL=C.UTF-8 "$ctl" --root "$tmp/pi3" --json bench --profile quick --dir "$dir" 2>/dev/null |
	jq -c '[paths | map(if type == "number" then "[]" else . end) | join(".")] | unique' \
		>"$out/bench-shape.json"
echo "snapshot in $out: $(ls "$out" | wc -l) files"
