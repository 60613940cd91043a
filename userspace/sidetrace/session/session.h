/* SPDX-License-Identifier: MIT */
/*
 * The life of a tracing session once its probes are loaded: starting the
 * -c command so that it runs only once attached, and waiting for the end.
 */
#ifndef SIDETRACE_SESSION_SESSION_H
#define SIDETRACE_SESSION_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "session/runner.h"
#include "tracer/tracer.h"
#include "session/stream.h"

/*
 * Forks cmd_argv, the child waiting before exec until a byte is written to
 * *release_fd (closing it without one makes the child exit 127). Returns
 * the child's pid or a negative errno. in_process: its SIDE runtime waits
 * for the collector's in-process program before its first event.
 */
pid_t st_spawn_stopped(char **cmd_argv, int *release_fd, bool in_process);

/*
 * Runs until *stop (a signal), exit() in a probe or clause, the end of
 * child (then *reaped is set and its wait status is in r->child_status) or
 * of the -p process, firing interval clauses on time, printing the
 * stream's records as they come and attaching fault-in where probes need
 * it (t may be NULL: nothing loaded). 0 or a negative errno (-EPIPE: the
 * output's reader left).
 */
int st_session_loop(struct st_runner *r, struct st_tracer *t, struct st_stream *stream, pid_t child,
		    const volatile sig_atomic_t *stop, bool *reaped);

#endif /* SIDETRACE_SESSION_SESSION_H */
