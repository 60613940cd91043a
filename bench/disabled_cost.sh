#!/bin/bash
# SPDX-License-Identifier: MIT
# Part 1: instructions and data writes per disabled call site, counted by
# callgrind (deterministic), for every call shape of bench/disabled_cost.c
# and bench/disabled_cost_cxx.cc, built with gcc and clang at -O2, -O3 and
# -Os. Each figure is the extra over the same shape uninstrumented; "ref"
# is the same shape with <sys/sdt.h> and a semaphore; ratio = side / ref.
# LEVELS and N may be set from the environment. LIBSIDE=PREFIX (an install
# of libside and librseq, built from source: no Debian package has them)
# adds libside's count for the same sources, whose API is libside's.
set -eu
cd "$(dirname "$0")/.."
N=${N:-100000}
LEVELS=${LEVELS:-"O2 O3 Os"}
GOAL=2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Own counts (Ir, Dw) of every shape_<shape>__<variant> function, summed
# over the parts the compiler split it into (.constprop, .cold, ...).
count() {
	valgrind --tool=callgrind --cache-sim=yes --callgrind-out-file="$tmp/cg" \
		"$1" $N >/dev/null 2>&1
	callgrind_annotate --auto=no --threshold=100 "$tmp/cg" 2>/dev/null |
		awk '/shape_[a-z0-9]+__(plain|side|sdt)/ {
			# Drop the "( 0.00%)" columns, whose inner space splits fields.
			gsub(/\( *[0-9.]+%\)/, ""); gsub(",", "")
			match($0, /shape_[a-z0-9]+__(plain|side|sdt)/)
			key = substr($0, RSTART + 6, RLENGTH - 6)
			# Events are Ir Dr Dw ...; "." means 0.
			ir[key] += $1; dw[key] += $3
		}
		END { for (k in ir) print k, ir[k], dw[k] }'
}

LIBSIDE=${LIBSIDE:-}
echo "disabled call site cost per call: extra over the same shape uninstrumented"
printf '%-6s %-4s %-9s %9s %9s %9s %9s %7s' cc level shape side_ir side_dw ref_ir ref_dw ratio
[ -z "$LIBSIDE" ] || printf ' %9s %9s' libside_ir libside_dw
echo " goal (<=$GOAL instr, 0 writes, <= ref${LIBSIDE:+, <= libside})"
for cc in gcc clang; do
	case $cc in gcc) cxx=g++ ;; clang) cxx=clang++ ;; esac
	for lvl in $LEVELS; do
		$cc -$lvl -g -Iinclude bench/disabled_cost.c .output/libside.a -lpthread \
			-o "$tmp/dc"
		$cxx -$lvl -g -Iinclude bench/disabled_cost_cxx.cc .output/libside.a \
			-lpthread -o "$tmp/dcxx"
		if [ -n "$LIBSIDE" ]; then
			lflags=(-I"$LIBSIDE/include" -L"$LIBSIDE/lib" -Wl,-rpath,"$LIBSIDE/lib")
			$cc -$lvl -g "${lflags[@]}" bench/disabled_cost.c -lside -lrseq -lpthread \
				-o "$tmp/lc"
			$cxx -$lvl -g "${lflags[@]}" bench/disabled_cost_cxx.cc -lside -lrseq \
				-lpthread -o "$tmp/lcxx"
		fi
		{
			count "$tmp/dc"
			count "$tmp/dcxx"
			if [ -n "$LIBSIDE" ]; then
				# libside's build of a shape counts as its variant "libside".
				{ count "$tmp/lc"; count "$tmp/lcxx"; } | sed -n "s/__side /__libside /p"
			fi
		} | awk -v n=$N -v cc=$cc -v lvl=-$lvl -v goal=$GOAL -v lib="$LIBSIDE" '
			function r2(x) { return sprintf("%.2f", x) + 0 }
			{ split($1, p, "__"); ir[p[1], p[2]] = $2; dw[p[1], p[2]] = $3 }
			END {
				split("loop ifloop fields10 nested variadic method", want, " ")
				for (j = 1; j <= 6; j++) {
					s = want[j]
					# Rounded: the entry and exit of a loop count once.
					si = r2((ir[s, "side"] - ir[s, "plain"]) / n)
					sw = r2((dw[s, "side"] - dw[s, "plain"]) / n)
					ri = r2((ir[s, "sdt"] - ir[s, "plain"]) / n)
					rw = r2((dw[s, "sdt"] - dw[s, "plain"]) / n)
					ratio = ri > 0 ? sprintf("%.2f", si / ri) : "-"
					met = (si <= goal && sw <= 0 && si <= ri) ? "met" : "NOT met"
					printf "%-6s %-4s %-9s %9.2f %9.2f %9.2f %9.2f %7s",
						cc, lvl, s, si, sw, ri, rw, ratio
					if (lib != "") {
						li = r2((ir[s, "libside"] - ir[s, "plain"]) / n)
						lw = r2((dw[s, "libside"] - dw[s, "plain"]) / n)
						printf " %9.2f %9.2f", li, lw
						met = met (si <= li && sw <= lw ? ", <= libside" : ", MORE than libside")
					}
					printf " %s\n", met
				}
			}'
	done
done
