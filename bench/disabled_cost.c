// SPDX-License-Identifier: MIT
/*
 * The same loop three ways: no instrumentation, a disabled side_event(), a
 * disabled <sys/sdt.h> probe behind its semaphore. Run under callgrind, the
 * instruction and data-write counts per iteration are the disabled cost.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdlib.h>
#include <sys/sdt.h>
#include <side/trace.h>

side_static_event(ev_bench, "bench", "op", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_u64("i"), side_field_string("name"),
				  side_field_s32("delta")));

unsigned short bench_sdt_op_semaphore __attribute__((section(".probes"))) = 0;

static volatile unsigned long sink;

__attribute__((noinline)) void loop_plain(unsigned long n)
{
	/* Unrolling would hide the per-iteration difference being measured. */
#pragma GCC unroll 1
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) void loop_side(unsigned long n)
{
	/* Unrolling would hide the per-iteration difference being measured. */
#pragma GCC unroll 1
	for (unsigned long i = 0; i < n; i++) {
		side_event(ev_bench, side_arg_list(side_arg_u64(i), side_arg_string("op"),
						   side_arg_s32(-(int)i)));
		sink += i;
	}
}

__attribute__((noinline)) void loop_sdt(unsigned long n)
{
	/* Unrolling would hide the per-iteration difference being measured. */
#pragma GCC unroll 1
	for (unsigned long i = 0; i < n; i++) {
		if (__builtin_expect(bench_sdt_op_semaphore, 0))
			STAP_PROBE3(bench_sdt, op, i, "op", -(int)i);
		sink += i;
	}
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;

	loop_plain(n);
	loop_side(n);
	loop_sdt(n);
	return 0;
}
