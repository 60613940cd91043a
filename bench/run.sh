#!/bin/bash
# SPDX-License-Identifier: MIT
# make bench: every benchmark, each reporting ratios against a peer measured
# in the same run.
set -eu
cd "$(dirname "$0")/.."
for b in bench/disabled_cost.sh bench/inproc.sh bench/collector.sh bench/tools.sh bench/stream.sh bench/serve.sh \
	bench/scale.sh bench/prog_time.sh bench/site_designs.sh bench/probe_kinds.sh \
	bench/kernel_probes.sh; do
	[ -x "$b" ] || continue
	echo "== $b"
	"$b"
	echo
done
# Aggregation per event against bpftrace, the floor in every round.
echo "== SET=aggr bench/stream.sh"
SET=aggr N=${AGGR_N:-300000} ROUNDS=${AGGR_ROUNDS:-9} bench/stream.sh
