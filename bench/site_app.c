/* SPDX-License-Identifier: MIT */
/*
 * bench/site_designs.sh's traced program: site_app N [fork] emits the
 * event N times in a loop and prints the loop's nanoseconds per event;
 * with "fork", a child made after the loop runs the same loop and prints
 * its own figure on a second line (its site was optimized in the parent).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <side/trace.h>

side_static_event(ev_site, "bench", "site", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u32("i")));

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Not a leaf: the optimized site's call may write below %rsp. */
static __attribute__((noinline)) void loop(const char *who, unsigned int n)
{
	double t0 = now_ns();
	unsigned int i;

	for (i = 0; i < n; i++)
		side_event(ev_site, side_arg_list(side_arg_u32(i)));
	printf("%s %.1f\n", who, (now_ns() - t0) / n);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)atoi(argv[1]) : 100000;
	pid_t pid;

	loop("parent", n);
	if (argc > 2 && !strcmp(argv[2], "fork")) {
		pid = fork();
		if (pid == 0) {
			loop("child", n);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, NULL, 0) != pid)
			return 1;
	}
	return 0;
}
