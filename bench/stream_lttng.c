// SPDX-License-Identifier: MIT
/*
 * bench/stream_app.c's loop with an LTTng-UST tracepoint of the same four
 * fields (string, u32, u64, s32), for bench/stream.sh.
 */
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "stream_lttng_tp.h"

static const char *const names[] = {"GET /index.html", "POST /api/orders", "PUT /api/users/42",
				    "DELETE /static/app.js"};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	uint64_t t0 = now_ns();

	for (unsigned long i = 0; i < n; i++)
		lttng_ust_tracepoint(bench, op, names[i & 3], (uint32_t)i, i * 1000003u,
				     -(int32_t)(i & 0xffff));
	fprintf(stderr, "elapsed_ns %llu\n", (unsigned long long)(now_ns() - t0));
	return 0;
}
