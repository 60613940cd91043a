/* SPDX-License-Identifier: MIT */
/* The collector's clock for deadlines and periods: CLOCK_MONOTONIC. */
#ifndef SIDETRACE_UTIL_CLOCK_H
#define SIDETRACE_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Now, in ns of CLOCK_MONOTONIC (the kernel's bpf_ktime_get_ns()). */
static inline uint64_t st_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#endif /* SIDETRACE_UTIL_CLOCK_H */
