// SPDX-License-Identifier: MIT
/*
 * A tracing session's life in user space (session.h): the -c command
 * started once probes are attached, and the loop that waits for the end
 * while interval clauses fire on time and fault-in is armed as needed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpfload/iters.h"
#include "bpfload/replaced.h"
#include "bpfload/stacks.h"
#include "inproc/inproc.h"
#include "session/session.h"
#include "util/escape.h"
#include "util/clock.h"

#define POLL_NS (50 * 1000 * 1000ULL) /* checks for exit() in probes */
#define LOST_REPORT_NS 1000000000ULL /* -v: lost records said once a second */

/*
 * -c: forks the command, stopped before exec until the tracer writes to
 * *release_fd, so that probes attach to its pid before it runs. The
 * command is split into words like a shell would (quotes, variables), but
 * runs without a shell, so the traced process is the child itself.
 */
pid_t st_spawn_stopped(char **cmd_argv, int *release_fd, bool in_process)
{
	int pfd[2];
	pid_t pid;
	char c;

	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (pid == 0) {
		close(pfd[1]);
		/* EOF without a byte: the tracer gave up, do not run. */
		if (read(pfd[0], &c, 1) != 1)
			_exit(127);
		close(pfd[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		/* Its SIDE runtime waits for the collector before any event (inproc.h). */
		if (in_process) {
			char pid[16];

			snprintf(pid, sizeof(pid), "%d", getpid());
			setenv("SIDE_INPROC_WAIT", pid, 1);
		}
		execvp(cmd_argv[0], cmd_argv);
		fprintf(stderr, "sidetrace: cannot run %s: %s\n", cmd_argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[0]);
	*release_fd = pfd[1];
	return pid;
}

struct timer {
	const struct st_clause *clause;
	uint64_t period, next;
	char name[ST_USER_PROBE_NAME_MAX]; /* the probe builtin: "interval:s:1" */
};

/*
 * Until the next timer, at most POLL_NS: prints the records that arrive,
 * or sleeps when there are none to wait for. Signals cut it short.
 */
static int wait_a_little(struct st_stream *stream, const struct timer *timers, size_t n)
{
	uint64_t now = st_now_ns(), until = now + POLL_NS;
	struct timespec ts;
	size_t i;
	int ret;

	for (i = 0; i < n; i++)
		if (timers[i].next < until)
			until = timers[i].next;
	if (until <= now)
		return 0;
	if (stream->rb) {
		ret = st_stream_poll(stream, (until - now + 999999) / 1000000);
		return ret < 0 ? ret : 0;
	}
	ts.tv_sec = (until - now) / 1000000000ULL;
	ts.tv_nsec = (until - now) % 1000000000ULL;
	nanosleep(&ts, NULL);
	return 0;
}

static int collect_timers(const struct st_program *prog, struct timer **out, size_t *nr)
{
	uint64_t now = st_now_ns();
	struct timer *t;
	uint32_t i, j;

	*out = NULL;
	*nr = 0;
	for (i = 0; i < prog->nr_clauses; i++) {
		for (j = 0; j < prog->clauses[i].nr_points; j++) {
			const struct st_attach_point *p = &prog->clauses[i].points[j];

			if (st_probe_kind(p->kind)->runs != ST_RUNS_EVERY)
				continue;
			t = realloc(*out, (*nr + 1) * sizeof(*t));
			if (!t)
				return -ENOMEM;
			*out = t;
			t[*nr].clause = &prog->clauses[i];
			t[*nr].period = p->interval_ns ? p->interval_ns : 1;
			t[*nr].next = now + t[*nr].period;
			st_user_probe_name(p, t[*nr].name, sizeof(t[*nr].name));
			(*nr)++;
		}
	}
	return 0;
}

/*
 * What the tracer watches while the session runs: files replaced, processes
 * started, fault-in to arm (its failure said once, *warned).
 */
static void poll_tracer(const struct st_runner *r, struct st_tracer *t, bool *warned)
{
	char err[256];

	st_replaced_poll(t->replaced, &t->bpf, r->compiled);
	/* --in-process of every process: the processes started since. */
	st_inproc_poll(&t->inproc, &t->bpf, r->compiled, r->quiet);
	/* Announced processes whose record was lost to a full buffer. */
	if (st_compiled_wants_maps(r->compiled))
		st_stacks_poll(t->stacks, &t->bpf);
	if (st_loader_poll_fault_in(&t->bpf, r->compiled, err, sizeof(err)) < 0 && !*warned) {
		st_errorf("%s", err);
		*warned = true;
	}
}

/*
 * iter: runs the clauses on the iterator's next objects and prints what
 * they sent. 1: more to read, 0: the iterator's end, or a negative errno.
 */
static int iterate(struct st_tracer *t, struct st_stream *stream)
{
	char err[256];
	int ret = st_iter_step(&t->bpf, err, sizeof(err));

	if (ret < 0)
		st_errorf("%s", err);
	if (ret <= 0)
		return ret;
	ret = st_stream_poll(stream, 0);
	return ret < 0 ? ret : 1;
}

/*
 * Runs until Ctrl-C, SIGTERM, exit(), the end of the -c command, of the
 * -p process or of an iterator's objects, firing interval clauses on time. *reaped tells whether
 * the child was waited for.
 */
int st_session_loop(struct st_runner *r, struct st_tracer *t, struct st_stream *stream, pid_t child,
		    const volatile sig_atomic_t *stop, bool *reaped)
{
	struct timer *timers;
	uint64_t lost_report = st_now_ns() + LOST_REPORT_NS;
	struct st_problem *said = NULL;
	size_t nr_timers = 0, i;
	int nr_said = 0;
	bool warned = false;
	int ret;

	ret = collect_timers(r->prog, &timers, &nr_timers);
	if (ret)
		goto cleanup;
	while (!*stop && !r->exit_requested) {
		if (t && st_tracer_exit_requested(t))
			break;
		if (t)
			poll_tracer(r, t, &warned);
		if (child > 0 && waitpid(child, &r->child_status, WNOHANG) == child) {
			*reaped = true;
			break;
		}
		/* -p: the traced process is gone, nothing more can happen. */
		if (r->pid > 0 && kill(r->pid, 0) && errno == ESRCH)
			break;
		for (i = 0; i < nr_timers && !r->exit_requested; i++) {
			uint64_t now = st_now_ns();

			if (now < timers[i].next)
				continue;
			timers[i].next += timers[i].period;
			if (timers[i].next <= now)
				timers[i].next = now + timers[i].period;
			/* Events sent before the tick print before what it prints. */
			ret = st_stream_poll(stream, 0);
			if (ret >= 0)
				ret = st_run_clause(r, timers[i].clause, timers[i].name);
			if (ret)
				goto cleanup;
		}
		/* iter: its next objects, and at its end the session's. */
		if (t && t->bpf.iterating) {
			ret = iterate(t, stream);
			if (ret <= 0)
				goto cleanup;
			ret = 0;
			continue;
		}
		ret = wait_a_little(stream, timers, nr_timers);
		if (!ret && r->print_signal && *r->print_signal) {
			*r->print_signal = 0;
			/* Events sent before the signal print before the maps. */
			ret = st_stream_poll(stream, 0);
			if (ret >= 0)
				ret = st_run_print_all(r, false);
		}
		if (ret)
			goto cleanup;
		if ((r->verbose || r->report_live) && st_now_ns() >= lost_report) {
			st_stream_report_lost(stream);
			if (r->report_live)
				st_run_report_new_problems(r, &said, &nr_said);
			lost_report = st_now_ns() + LOST_REPORT_NS;
		}
	}
cleanup:
	free(said);
	free(timers);
	return ret;
}
