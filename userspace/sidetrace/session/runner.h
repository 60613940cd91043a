/* SPDX-License-Identifier: MIT */
/*
 * The user-space side of a program: BEGIN, END and interval clauses, whose
 * actions (print, clear, zero, exit) act on the kernel's maps, and the
 * printing of every map when the program ends.
 */
#ifndef SIDETRACE_SESSION_RUNNER_H
#define SIDETRACE_SESSION_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "parse/ast.h"
#include "compile/compile.h"
#include "tracer/tracer.h"
#include "output/maps_print.h"
#include "readout/problems.h"

struct st_deferred;

struct st_runner {
	const struct st_program *prog;
	const char *src; /* its text, shown under -k's reports (NULL: not shown) */
	const struct st_compiled *compiled;
	/* NULL when nothing was loaded; not const: unwatch() removes its breakpoints */
	struct st_tracer *tracer;
	FILE *out;
	enum st_output_format fmt;
	bool term; /* text to a terminal: printf's values shown safely (util/escape.h) */
	pid_t pid; /* -p: the traced process, or 0 */
	bool exit_requested; /* an exit() ran */
	bool verbose; /* -v: say what is lost as it happens */
	bool report_live; /* -k: say what fails in a probe as it happens */
	bool quiet; /* -q: no hints, nor which processes run the probes themselves */
	bool held; /* -B full: the output is written when stdio's buffer fills, not per clause */
	/* Set by a signal (SIGUSR1) that asks for every map now; cleared once they are printed */
	volatile sig_atomic_t *print_signal;
	int child_status; /* -c: the command's wait status, once reaped */
	size_t nr_entries; /* entries of all maps before END, records printed, then entries printed
			    */
	/* print(@m), clear(), zero() and output after them, done at the clause's end */
	struct st_deferred *deferred;
	uint32_t nr_deferred;
};

/*
 * Runs the statements of a BEGIN, END or interval clause; probe names its
 * attach point for the probe builtin. 0 or -errno.
 */
int st_run_clause(struct st_runner *r, const struct st_clause *cl, const char *probe);

/* print(@m), clear(@m) or zero(@m), done now: 0 or a negative errno. */
int st_run_map_call(struct st_runner *r, const struct st_expr *call);

/* Runs every clause of kind kind (BEGIN or END), in program order. */
int st_run_clauses(struct st_runner *r, enum st_ap_kind kind);

/*
 * -k: what failed in a probe since *said (counts already said, which it
 * updates; the caller frees it), each on stderr as at exit; records lost
 * are the stream's to say.
 */
void st_run_report_new_problems(struct st_runner *r, struct st_problem **said, int *nr_said);

/* Entries in every map now (before END may clear them), or 0 if unreadable. */
size_t st_run_count_entries(struct st_runner *r);

/* Prints every map, as bpftrace does at exit (at_exit) or on SIGUSR1. 0 or -errno. */
int st_run_print_all(struct st_runner *r, bool at_exit);

/*
 * Reports on stderr what the BPF program could not do: events it could not
 * decode, truncated strings, drops. Returns the number of lost events.
 */
unsigned long long st_run_report_problems(struct st_runner *r);

#endif /* SIDETRACE_SESSION_RUNNER_H */
