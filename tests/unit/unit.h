/* SPDX-License-Identifier: MIT */
/*
 * The few lines every C unit test shares: named checks, and the closing
 * line "N passed, N failed" that tests/run.sh adds up.
 */
#ifndef SIDETRACE_UNIT_H
#define SIDETRACE_UNIT_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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

/* ok() named by the expression and its place: for checks too many to name. */
static inline void ok_at(bool cond, const char *expr, const char *file, int line)
{
	char name[512];

	snprintf(name, sizeof(name), "%s:%d: %s", file, line, expr);
	ok(cond, name);
}

#define CHECK(cond) ok_at((cond), #cond, __FILE__, __LINE__)

/* Two strings are equal (NULL never is); prints both when they differ. */
static inline void ok_str(const char *name, const char *got, const char *want)
{
	bool same = got && want && !strcmp(got, want);

	ok(same, name);
	if (!same)
		printf("--- want\n%s\n--- got\n%s\n---\n", want ? want : "(null)",
		       got ? got : "(null)");
}

#define CHECK_STR(got, want) ok_str(__FILE__ ": " #got, (got), (want))

/* Prints the closing line; returns the exit status. */
static inline int unit_summary(void)
{
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

#endif /* SIDETRACE_UNIT_H */
