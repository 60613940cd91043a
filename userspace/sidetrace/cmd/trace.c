// SPDX-License-Identifier: MIT
/*
 * The tracing command: a program's text becomes a checked program, then
 * configuration of the precompiled BPF program; sidetrace loads it,
 * attaches, runs BEGIN/interval/END in user space and prints the maps.
 *
 *   sidetrace [-v] [-q] [-d] [-p PID | -c CMD] [-f text|json|folded] [-o FILE]
 *             -e PROGRAM | FILE | -
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

#include "cmd/bpftrace_env.h"
#include "cmd/common.h"
#include "cmd/list.h"
#include "cmd/options.h"
#include "cmd/plan.h"
#include "cmd/trace.h"
#include "compile/compile.h"
#include "ctypes/ctypes.h"
#include "targets/targets.h"
#include "check/checker.h"
#include "parse/parser.h"
#include "kinds/probe_kinds.h"
#include "output/maps_print.h"
#include "session/runner.h"
#include "tracer/tracer.h"
#include "inproc/inproc.h"
#include "inproc/inproc_client.h"
#include "session/session.h"
#include "session/stream.h"
#include "util/escape.h"

static volatile sig_atomic_t stop_signal, print_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* SIGUSR1: every map printed now, as bpftrace prints them on it. */
static void on_print(int sig)
{
	print_signal = sig;
}

/* Only there to interrupt the main loop's sleep when the command ends. */
static void on_child(int sig)
{
	(void)sig;
}

/*
 * The probes bpftrace would say it attaches: each clause's events (two
 * clauses of one event are one probe here, two there; a USDT probe's
 * every location, as bpftrace attaches each apart), and each attach
 * point that runs in user space (BEGIN, END, interval).
 */
static unsigned int count_probes(const struct st_program *prog)
{
	const struct st_event *ev;
	unsigned int n = 0;
	uint32_t i, j;

	for (i = 0; i < prog->nr_clauses; i++) {
		for (j = 0; j < prog->clauses[i].nr_events; j++) {
			ev = prog->clauses[i].events[j];
			n += st_event_kind(ev)->source == ST_SOURCE_SDT && ev->nr_sites > 1
				     ? ev->nr_sites
				     : 1;
		}
		for (j = 0; j < prog->clauses[i].nr_points; j++)
			n += st_probe_kind(prog->clauses[i].points[j].kind)->runs !=
			     ST_RUNS_AT_EVENTS;
	}
	return n;
}

/* Everything a tracing session owns; trace_fini() frees what is set. */
struct trace {
	struct st_trace_opts o;
	char *text; /* the program's source */
	struct st_program *prog;
	struct st_target_set targets;
	struct st_compiled compiled;
	struct st_tracer tracer;
	/* The BPF object loaded: its maps hold the program's, its probes run */
	bool loaded;
	wordexp_t words; /* -c split into words */
	char cmd_path[PATH_MAX];
	FILE *out;
	pid_t child; /* -c: the command, or 0 */
	int release_fd; /* -c: lets the command run */
	bool reaped; /* the command was waited for */
};

/*
 * --in-process: whether some probe can run in a process; where none can,
 * it is said (asked once, for -p or for the rest), and no process is
 * given an engine.
 */
static bool in_process_any(const struct trace *t)
{
	if (!t->compiled.nr_probes)
		return false;
	if (st_compiled_in_process_any(&t->compiled))
		return true;
	if (!t->o.quiet)
		st_errorf("--in-process: the kernel runs every probe: none is a side: probe that "
			  "a process can run (one that takes no stack, reads no kernel memory nor "
			  "registers, and asks sidetrace for no action: print(@m), system())");
	return false;
}

/* How the program is compiled: -k's level, and a test's hook (ST_COMPILE_VECTOR_ONLY). */
static unsigned int compile_flags(const struct trace *t)
{
	unsigned int flags = getenv("SIDETRACE_VECTOR_ONLY") ? ST_COMPILE_VECTOR_ONLY : 0;

	if (t->o.helper_checks >= ST_CHECK_ALL)
		return flags | ST_COMPILE_CHECK_ALL;
	return flags | (t->o.helper_checks ? ST_COMPILE_CHECK_HELPERS : 0);
}

static void print_diag(int ret, const struct st_diag *d, const char *src)
{
	if (ret == -ENOMEM)
		fprintf(stderr, "sidetrace: out of memory\n");
	else
		st_diag_print(stderr, d, src);
}

/* The checker asks for a target's events through the session's target set. */
static const struct st_event_list *probe_events(void *ctx, const struct st_probe_query *q,
						char *err, size_t errlen)
{
	return st_target_query(ctx, q, err, errlen);
}

/* Why wordexp() refused a -c command. */
static const char *wordexp_error(int err)
{
	switch (err) {
	case WRDE_SYNTAX:
		return "unterminated quote (or other shell syntax error)";
	case WRDE_BADCHAR:
		return "| & ; < > ( ) { } and newlines are shell syntax: run it with sh -c '...'";
	case WRDE_CMDSUB:
		return "command substitution is not run: run it with sh -c '...'";
	case WRDE_NOSPACE:
		return "out of memory";
	default:
		return "not a command";
	}
}

/* -c: the command split like a shell would, and its executable. */
static int prepare_command(struct trace *t)
{
	int ret = wordexp(t->o.cmd, &t->words, WRDE_NOCMD);

	if (ret || !t->words.we_wordc) {
		st_errorf("-c '%s': %s", t->o.cmd, ret ? wordexp_error(ret) : "empty command");
		/* POSIX leaves words unspecified after other errors than WRDE_NOSPACE. */
		if (ret && ret != WRDE_NOSPACE)
			memset(&t->words, 0, sizeof(t->words));
		return -EINVAL;
	}
	if (st_resolve_target(t->words.we_wordv[0], t->cmd_path, sizeof(t->cmd_path))) {
		st_errorf("-c %s: command not found", t->words.we_wordv[0]);
		return -ENOENT;
	}
	t->targets.cmd_path = t->cmd_path;
	return 0;
}

/* -c: the command, forked and waiting for t->release_fd. 0 or -ECHILD after a message. */
static int spawn_command(struct trace *t)
{
	t->child = st_spawn_stopped(t->words.we_wordv, &t->release_fd, t->o.in_process);
	if (t->child >= 0)
		return 0;
	st_errorf("cannot run %s: %s", t->o.cmd, strerror(-t->child));
	t->child = 0;
	return -ECHILD;
}

/*
 * -p: a target the process does not map is traced from its file, in case
 * the process loads it later (dlopen); say so, rather than wait in silence.
 */
static void warn_unmapped(const struct trace *t)
{
	const struct st_target *tg;
	size_t i;

	for (i = 0; i < t->targets.nr_targets; i++) {
		tg = &t->targets.targets[i];
		if (tg->unmapped && tg->list.nr)
			st_warnf("process %d does not map %s: its events count only "
				 "once it loads it",
				 t->o.pid, tg->list.events[0].path);
	}
}

/* A return probe on a function that is also inlined misses the copies' calls: say so. */
static void warn_missed(const struct trace *t)
{
	uint32_t i;

	for (i = 0; i < t->compiled.nr_probes; i++)
		if (t->compiled.probes[i].event->missed)
			st_warnf("%s: %s", t->compiled.probes[i].name,
				 t->compiled.probes[i].event->missed);
}

/* The program's text, from -e or its file, through the preprocessor: 0 or -errno after a message.
 */
static int read_program(struct trace *t)
{
	if (t->o.file) {
		if (st_read_program(t->o.file, &t->text))
			return -EINVAL;
	} else {
		t->text = strdup(t->o.program);
		if (!t->text) {
			fprintf(stderr, "sidetrace: out of memory\n");
			return -ENOMEM;
		}
	}
	t->o.pp.btf = st_pp_have_btf();
	if (st_preprocess_program(&t->text, st_program_name(t->o.file), t->o.file, &t->o.pp))
		return -EINVAL;
	return 0;
}

/* Source text -> checked program -> configuration of the BPF program. */
static int build(struct trace *t)
{
	struct st_event_source evsrc = {
		.probe_events = probe_events, .ctx = &t->targets, .missing = t->o.missing};
	struct st_diag diag = {0};
	char err[512];
	int ret;

	/* -c forks its command with no thread running: it opens later. */
	if (!t->o.dry_run && !t->o.cmd)
		st_loader_open_early(&t->tracer.bpf);
	ret = read_program(t);
	if (ret)
		return ret;
	ret = st_parse_args(t->text, st_program_name(t->o.file), t->o.args, t->o.nr_args,
			    t->o.pid > 0, &t->prog, &diag);
	if (ret)
		goto fail;
	/*
	 * Before any target is read: a user without root may not reach it.
	 * A dry run loads nothing: whoever can read the targets may plan.
	 */
	if (!t->o.dry_run && st_program_on_sites(t->prog) &&
	    st_loader_check_environment(err, sizeof(err))) {
		st_errorf("%s", err);
		return -EPERM;
	}
	t->targets.pid = t->o.pid;
	if (t->o.cmd && prepare_command(t))
		return -EINVAL;
	/*
	 * The command is started now, stopped before it runs, so that its pid
	 * is the program's cpid; and before the loader's threads, so that
	 * sidetrace forks with none running.
	 */
	if (t->o.cmd && !t->o.dry_run && spawn_command(t))
		return -ECHILD;
	t->prog->has_command = t->o.cmd;
	t->prog->unsafe = t->o.unsafe;
	t->prog->cpid = t->child;
	/* The kernel's and libbpf's part of start-up, meanwhile. */
	if (!t->o.dry_run && st_program_on_sites(t->prog))
		st_loader_prepare(&t->tracer.bpf, st_program_probes_files(t->prog));
	if (t->o.pid) {
		ret = st_check_traced_pid(t->o.pid);
		if (ret)
			return ret;
	}
	ret = st_check(t->prog, &evsrc, &diag);
	if (ret)
		goto fail;
	ret = st_report_missing(t->prog, t->o.missing);
	if (ret)
		return ret;
	warn_unmapped(t);
	ret = st_compile(t->prog, compile_flags(t), &t->compiled, &diag);
	if (ret)
		goto fail;
	/* Types are printed at run time only from whole values. */
	if (!st_program_keeps_wholes(t->prog))
		st_ctypes_drop_btf(t->prog->ctypes);
	warn_missed(t);
	t->compiled.events_size = t->o.events_size;
	ret = st_bpftrace_env(&t->compiled);
	if (ret)
		return ret;
	/* Descendants followed, processes' engines: for probes only. */
	t->compiled.follow = t->o.cmd && t->compiled.nr_probes;
	t->compiled.cmd_path = t->o.cmd ? t->cmd_path : NULL;
	t->compiled.reattach = !t->o.cmd && !t->o.pid;
	/* -c: the command and its descendants, each as it shows up. */
	t->compiled.inproc_all = t->o.in_process && !t->o.pid && in_process_any(t);
	return 0;
fail:
	print_diag(ret, &diag, t->text);
	return ret;
}

/*
 * --in-process -p: pid's engine runs the side: probes it can. Where it
 * cannot, the session says why, and the kernel attaches them after.
 */
static void start_in_process(struct trace *t, pid_t pid)
{
	char err[512];
	int ret;

	ret = st_inproc_start(&t->tracer.inproc, &t->tracer.bpf, &t->compiled, pid, 0, false, NULL,
			      err, sizeof(err));
	if (ret) {
		st_errorf("%s: the side: probes of pid %d run in the kernel", err, pid);
		t->tracer.bpf.leave_served = false;
		return;
	}
	if (!t->o.quiet)
		st_errorf("pid %d runs the side: probes in the process", pid);
}

/* Output file, BPF load, signals, the -c command, attachment. */
static int start(struct trace *t)
{
	struct sigaction sa = {0};
	char err[512] = "";
	int ret;

	if (t->o.out_path) {
		FILE *f = fopen(t->o.out_path, "w");

		if (!f) {
			fprintf(stderr, "sidetrace: cannot write %s: %s\n", t->o.out_path,
				strerror(errno));
			return -EIO;
		}
		t->out = f;
	}
	if (t->o.buffering >= 0 && setvbuf(t->out, NULL, t->o.buffering, 0)) {
		st_errorf("-B: cannot set the output's buffering");
		return -EINVAL;
	}
	/*
	 * The maps live in the kernel's maps whether or not a probe runs
	 * there: BEGIN, END and interval read and write the same ones, and
	 * read the kernel's memory through it.
	 */
	if (t->compiled.nr_probes || t->compiled.nr_maps || t->compiled.kernel_reads ||
	    t->compiled.user_debugf) {
		ret = st_tracer_load(&t->tracer, &t->compiled, err, sizeof(err));
		if (ret) {
			st_errorf("%s", err);
			return ret;
		}
		t->loaded = true;
		t->tracer.bpf.leave_served = t->o.in_process && t->o.pid && in_process_any(t);
	}
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	/* A reader that leaves is seen as EPIPE, and the session ends cleanly. */
	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGTERM, &sa, NULL);
	/* No process's agent holds the session past a signal. */
	st_ip_stop_on(&stop_signal);
	/* No SA_RESTART: a child's exit cuts the sleep short. */
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = on_print;
	sigaction(SIGUSR1, &sa, NULL);
	if (t->tracer.bpf.leave_served && t->o.pid)
		start_in_process(t, t->o.pid);
	/* Every process: those running now before the kernel's sites count them. */
	st_inproc_poll(&t->tracer.inproc, &t->tracer.bpf, &t->compiled, t->o.quiet);
	if (t->compiled.nr_probes) {
		ret = st_tracer_attach(&t->tracer, &t->compiled,
				       t->child	  ? t->child
				       : t->o.pid ? t->o.pid
						  : -1,
				       err, sizeof(err));
		if (ret < 0) {
			st_errorf("%s", err);
			return ret;
		}
	}
	if (!t->o.quiet)
		st_output_attached(t->out, t->o.fmt, count_probes(t->prog));
	fflush(t->out);
	/* What test harnesses written for bpftrace wait for, on stderr, -q or not. */
	if (getenv("__BPFTRACE_NOTIFY_PROBES_ATTACHED"))
		fputs("__BPFTRACE_NOTIFY_PROBES_ATTACHED\n", stderr);
	return 0;
}

/*
 * -c: what became of the command, said on stderr when it failed, and the
 * exit status it gives sidetrace (the man page, EXIT STATUS): its own, or 128 +
 * the signal that killed it, as a shell does. A Ctrl-C for sidetrace
 * stops the command too: that is no failure of it.
 */
static int command_status(const struct trace *t, const struct st_runner *r, unsigned long long lost)
{
	int ws = r->child_status;

	if (!t->reaped || stop_signal)
		return 0;
	if (WIFSIGNALED(ws)) {
		st_errorf("the command was killed by signal %d (%s)%s", WTERMSIG(ws),
			  strsignal(WTERMSIG(ws)), WCOREDUMP(ws) ? ", core dumped" : "");
		return 128 + WTERMSIG(ws);
	}
	if (WIFEXITED(ws) && WEXITSTATUS(ws)) {
		/* -q: the exit status says it. */
		if (!t->o.quiet)
			st_errorf("the command exited with status %d", WEXITSTATUS(ws));
		return WEXITSTATUS(ws);
	}
	/* It did its work, and no probe counted in it: say where it may have gone. */
	if (!t->o.quiet && t->compiled.nr_probes && t->compiled.nr_maps && !r->nr_entries && !lost)
		st_errorf("no event was traced in the command (pid %d)%s", t->child,
			  t->tracer.bpf.follow ? " nor in the processes it started"
					       : ": -c traces that process only here, not the "
						 "processes it starts; to trace those, run "
						 "sidetrace without -c");
	return 0;
}

/*
 * BEGIN, the command released, the loop, END, the maps printed. Returns
 * sidetrace's exit status (see command_status()), or a negative errno.
 */
static int run(struct trace *t)
{
	struct st_runner runner = {
		.prog = t->prog,
		.src = t->text,
		.compiled = &t->compiled,
		.tracer = t->loaded ? &t->tracer : NULL,
		.out = t->out,
		.fmt = t->o.fmt,
		.term = t->o.fmt != ST_OUTPUT_JSON && isatty(fileno(t->out)),
		.pid = t->o.pid,
		.verbose = t->o.verbose,
		.report_live = t->o.helper_checks,
		.quiet = t->o.quiet,
		.held = t->o.buffering == _IOFBF,
		.print_signal = &print_signal,
	};
	struct st_stream stream;
	int ret;

	ret = st_stream_open(&stream, t->loaded ? &t->tracer : NULL, &runner, &stop_signal);
	if (ret) {
		fprintf(stderr, "sidetrace: cannot read the event buffer: %s\n", strerror(-ret));
		return ret;
	}
	ret = st_run_clauses(&runner, ST_AP_BEGIN);
	if (t->loaded)
		st_tracer_begin(&t->tracer);
	if (t->child) {
		/* Attached: let the command run. */
		if (write(t->release_fd, "x", 1) != 1) {
			st_errorf("cannot start %s", t->o.cmd);
			st_stream_close(&stream);
			return -EIO;
		}
		close(t->release_fd);
		t->release_fd = -1;
		if (t->compiled.inproc_all)
			st_inproc_take(&t->tracer.inproc, &t->tracer.bpf, &t->compiled, t->child,
				       ST_INPROC_WAIT_MS, t->o.quiet);
	}
	if (!ret && !runner.exit_requested)
		ret = st_session_loop(&runner, t->loaded ? &t->tracer : NULL, &stream, t->child,
				      &stop_signal, &t->reaped);
	if (t->loaded)
		st_tracer_stop(&t->tracer, stream.rb != NULL);
	/* What the probes sent before the end prints before END and the maps. */
	if (!ret)
		ret = st_stream_drain(&stream);
	/*
	 * Whether anything was traced, before END may clear the maps: only
	 * the -c note that nothing was (command_status()) asks.
	 */
	if (!ret && t->child && !t->o.quiet)
		runner.nr_entries = st_run_count_entries(&runner);
	/* An event printed is an event traced, whatever became of the maps. */
	if (!ret)
		runner.nr_entries += stream.records;
	if (!ret)
		ret = st_run_clauses(&runner, ST_AP_END);
	if (!ret)
		ret = st_run_print_all(&runner, true);
	if (!ret)
		st_stream_report(&stream);
	st_stream_close(&stream);
	/* The reader of the output left (head, a closed pipe): a normal end. */
	if (ret == -EPIPE)
		return 0;
	/* A write that failed is said once, by st_output_check(). */
	if (ret) {
		if (!ferror(t->out))
			fprintf(stderr, "sidetrace: cannot read the maps: %s\n", strerror(-ret));
		return ret;
	}
	return command_status(t, &runner, st_run_report_problems(&runner));
}

static void trace_fini(struct trace *t)
{
	if (t->release_fd >= 0)
		close(t->release_fd);
	if (t->child > 0 && !t->reaped) {
		/* We stop before the command did: do not leave it orphaned. */
		if (waitpid(t->child, NULL, WNOHANG) == 0) {
			kill(t->child, SIGTERM);
			waitpid(t->child, NULL, 0);
		}
	}
	if (t->o.cmd)
		wordfree(&t->words);
	st_compiled_free(&t->compiled);
	if (t->prog)
		st_program_free(t->prog);
	st_target_set_free(&t->targets);
	free(t->text);
	/* The output is complete: its reader need not wait for the detach. */
	if (t->out != stdout)
		fclose(t->out);
	else
		fflush(stdout);
	/* Also after a failed load, which may have set up part of it. */
	st_tracer_close(&t->tracer);
}

int st_cmd_trace(int argc, char **argv)
{
	struct trace t = {.out = stdout, .release_fd = -1};
	int ret, status = ST_EXIT_FAIL;

	if (st_trace_parse_options(argc, argv, &t.o))
		return ST_EXIT_USAGE;
	if (st_stdout_closed && (t.o.list || !t.o.out_path)) {
		fprintf(stderr, "sidetrace: standard output is closed: nowhere to print%s\n",
			t.o.list ? "" : " (give -o FILE)");
		return ST_EXIT_FAIL;
	}
	if (t.o.list && t.o.pid && st_check_traced_pid(t.o.pid))
		return ST_EXIT_FAIL;
	if (t.o.list)
		return st_list_probes(t.o.list_pattern, t.o.pid, t.o.verbose);
	st_libbpf_messages(t.o.verbose);
	if (build(&t))
		goto cleanup;
	if (t.o.dry_run) {
		st_print_plan(stdout, t.prog, &t.compiled);
		status = ST_EXIT_OK;
	} else if (!start(&t)) {
		ret = run(&t);
		status = ret < 0 ? ST_EXIT_FAIL : ret;
	}
	if (t.out != stdout && st_output_check(t.out, t.o.out_path))
		status = ST_EXIT_FAIL;
cleanup:
	trace_fini(&t);
	return status;
}
