/* SPDX-License-Identifier: MIT */
/*
 * The few lines every C unit test shares: named checks, and the closing
 * line "N passed, N failed" that tests/run.sh adds up.
 */
#ifndef SIDETRACE_UNIT_H
#define SIDETRACE_UNIT_H

#include <stdbool.h>
#include <stdio.h>

static int passed, failed;

static inline void ok(bool cond, const char *name)
{
	if (cond) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL %s\n", name);
}

/* Prints the closing line; returns the exit status. */
static inline int unit_summary(void)
{
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

#endif /* SIDETRACE_UNIT_H */
