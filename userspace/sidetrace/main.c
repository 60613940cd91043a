// SPDX-License-Identifier: MIT
/*
 * sidetrace: bpftrace-style one-liners over SIDE events, aggregated in the
 * kernel by a precompiled BPF program.
 *
 *   sidetrace [-v] [-p PID | -c CMD] [-f text|json] [-o FILE] -e PROGRAM | FILE
 *   sidetrace list ...
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wordexp.h>

#include <bpf/libbpf.h>

#include "lang/checker.h"
#include "compile/compile.h"
#include "discovery/discovery.h"
#include "cmd/list.h"
#include "runtime/loader.h"
#include "output/maps_print.h"
#include "lang/parser.h"
#include "runtime/clauses.h"

#define POLL_NS (50 * 1000 * 1000ULL) /* checks for exit() in probes */

struct options {
	bool verbose;
	pid_t pid; /* -p, or 0 */
	const char *cmd; /* -c, or NULL */
	enum st_output_format fmt;
	const char *out_path;
	const char *program; /* -e, or NULL */
	const char *file; /* the program's file, or NULL */
};

/* The events of one probe target, read once. */
struct target {
	char *name; /* as written in the probe */
	struct st_event_list list;
	struct st_event *selected; /* -p: the events of this object only */
};

struct source {
	pid_t pid;
	const char *cmd_path; /* -c: the command's executable */
	struct target *targets;
	size_t nr_targets;
	struct st_event_list pid_events;
	bool pid_loaded;
};

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* Only there to interrupt the main loop's sleep when the command ends. */
static void on_child(int sig)
{
	(void)sig;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: sidetrace [OPTION...] -e PROGRAM | FILE\n"
		   "       sidetrace list [-v] [-f text|json] TARGET... | -p PID\n"
		   "Trace SIDE events with bpftrace-style programs, aggregated in the kernel.\n"
		   "\n"
		   "  -e PROGRAM   the program text, e.g.\n"
		   "               'side:./app:http:request { @[args.method] = "
		   "hist(args.latency_ns); }'\n"
		   "  -p PID       trace only process PID (and find its libraries)\n"
		   "  -c CMD       run CMD (split into words like a shell does), trace only\n"
		   "               it and the libraries next to it, stop when it exits\n"
		   "  -f FORMAT    output format: text (default) or json\n"
		   "  -o FILE      write the output to FILE\n"
		   "  -v           verbose: show libbpf's and the kernel's messages\n"
		   "  -h, --help   this help\n"
		   "\n"
		   "Probes: side:TARGET:PROVIDER:EVENT ('*' wildcards), BEGIN, END,\n"
		   "interval:s:N, interval:ms:N. Maps print when the program ends\n"
		   "(Ctrl-C, exit(), or the end of -c CMD).\n");
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int libbpf_verbose(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, "+hvp:c:f:o:e:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			exit(0);
		case 'v':
			o->verbose = true;
			break;
		case 'p':
			errno = 0;
			o->pid = strtol(optarg, &end, 10);
			if (errno || *end || o->pid <= 0) {
				fprintf(stderr, "sidetrace: -p wants a process id, not '%s'\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'c':
			o->cmd = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "text")) {
				o->fmt = ST_OUTPUT_TEXT;
			} else if (!strcmp(optarg, "json")) {
				o->fmt = ST_OUTPUT_JSON;
			} else {
				fprintf(stderr,
					"sidetrace: unknown output format '%s': use text or json\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'o':
			o->out_path = optarg;
			break;
		case 'e':
			o->program = optarg;
			break;
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (o->pid && o->cmd) {
		fprintf(stderr, "sidetrace: -p and -c exclude each other\n");
		return -EINVAL;
	}
	if (optind < argc && !o->program) {
		o->file = argv[optind++];
	}
	if (optind < argc || (!o->program && !o->file)) {
		if (optind < argc)
			fprintf(stderr, "sidetrace: unexpected argument '%s'\n", argv[optind]);
		else
			fprintf(stderr, "sidetrace: no program: give -e PROGRAM or a FILE\n");
		usage(stderr);
		return -EINVAL;
	}
	return 0;
}

static char *read_file(const char *path)
{
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				free(buf);
				buf = NULL;
				goto cleanup;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	buf[len] = '\0';
cleanup:
	fclose(f);
	return buf;
}

/* True when the object at path is what target names (-p lookups). */
static bool object_matches(const char *path, const char *target)
{
	const char *base = strrchr(path, '/');
	size_t n = strlen(target);
	char real[PATH_MAX];

	base = base ? base + 1 : path;
	if (!strcmp(path, target))
		return true;
	if (realpath(target, real) && !strcmp(path, real))
		return true;
	if (strchr(target, '/'))
		return false;
	/* "libkv" matches libkv.so and libkv.so.1; "app" matches app. */
	return !strncmp(base, target, n) && (base[n] == '\0' || base[n] == '.' || base[n] == '-');
}

/* -p: the events of the process's objects that target names. */
static int select_pid_events(struct source *s, struct target *t)
{
	size_t i, n = 0;

	if (!s->pid_loaded) {
		char err[256] = "";

		if (st_discover_pid(s->pid, &s->pid_events, err, sizeof(err)))
			return -ESRCH;
		s->pid_loaded = true;
	}
	t->selected = calloc(s->pid_events.nr ? s->pid_events.nr : 1, sizeof(*t->selected));
	if (!t->selected)
		return -ENOMEM;
	for (i = 0; i < s->pid_events.nr; i++)
		if (object_matches(s->pid_events.events[i].path, t->name))
			t->selected[n++] = s->pid_events.events[i];
	t->list.events = t->selected;
	t->list.nr = n;
	return 0;
}

/*
 * -c: a library the command loads through an $ORIGIN run path sits next to
 * it, where the standard lookup does not go.
 */
static int find_next_to(const char *cmd_path, const char *name, char *path, size_t len)
{
	char dir[PATH_MAX], *slash;
	struct dirent *de;
	int ret = -ENOENT;
	DIR *d;

	if (!cmd_path || strchr(name, '/'))
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%s", cmd_path);
	slash = strrchr(dir, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	d = opendir(dir);
	if (!d)
		return -ENOENT;
	while ((de = readdir(d))) {
		char full[PATH_MAX];

		if (snprintf(full, sizeof(full), "%s/%s", dir, de->d_name) >= (int)sizeof(full))
			continue;
		if (strstr(de->d_name, ".so") && object_matches(full, name)) {
			snprintf(path, len, "%s", full);
			ret = 0;
			break;
		}
	}
	closedir(d);
	return ret;
}

static const struct st_event_list *target_events(void *ctx, const char *name, char *err,
						 size_t errlen)
{
	struct source *s = ctx;
	char path[PATH_MAX];
	struct target *t;
	size_t i;
	int ret;

	for (i = 0; i < s->nr_targets; i++)
		if (!strcmp(s->targets[i].name, name))
			return &s->targets[i].list;
	t = realloc(s->targets, (s->nr_targets + 1) * sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->targets = t;
	t = &t[s->nr_targets];
	memset(t, 0, sizeof(*t));
	t->name = strdup(name);
	if (!t->name) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->nr_targets++;
	if (s->pid) {
		ret = select_pid_events(s, t);
		if (ret == -ESRCH) {
			snprintf(err, errlen, "cannot read process %d", s->pid);
			return NULL;
		}
		if (ret) {
			snprintf(err, errlen, "out of memory");
			return NULL;
		}
		if (t->list.nr)
			return &t->list;
		/* Not loaded yet: attach to the file, filtered on the pid. */
		free(t->selected);
		t->selected = NULL;
		memset(&t->list, 0, sizeof(t->list));
	}
	/* An empty target is the program run by -c. */
	if (!*name && s->cmd_path)
		name = s->cmd_path;
	if (!*name) {
		snprintf(err, errlen, "empty target: write the program or library to trace");
		return NULL;
	}
	if (st_resolve_target(name, path, sizeof(path)) &&
	    find_next_to(s->cmd_path, name, path, sizeof(path))) {
		snprintf(err, errlen, "%s: no such program or library", name);
		return NULL;
	}
	ret = st_discover_file(path, &t->list, err, errlen);
	if (ret)
		return NULL;
	if (!t->list.nr) {
		snprintf(err, errlen, "%s has no SIDE events (no USDT probes)", path);
		return NULL;
	}
	return &t->list;
}

static void source_free(struct source *s)
{
	size_t i;

	for (i = 0; i < s->nr_targets; i++) {
		if (s->targets[i].selected)
			free(s->targets[i].selected);
		else
			st_event_list_free(&s->targets[i].list);
		free(s->targets[i].name);
	}
	free(s->targets);
	st_event_list_free(&s->pid_events);
}

/*
 * -c: forks the command, stopped before exec until the tracer writes to
 * *release_fd, so that probes attach to its pid before it runs. The
 * command is split into words like a shell would (quotes, variables), but
 * runs without a shell, so the traced process is the child itself.
 */
static pid_t spawn_child(char **cmd_argv, int *release_fd)
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
		execvp(cmd_argv[0], cmd_argv);
		fprintf(stderr, "sidetrace: cannot run %s: %s\n", cmd_argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[0]);
	*release_fd = pfd[1];
	return pid;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

struct timer {
	const struct st_clause *clause;
	uint64_t period, next;
};

/* Sleeps until the next timer, at most POLL_NS; signals cut it short. */
static void wait_a_little(const struct timer *timers, size_t n)
{
	uint64_t now = now_ns(), until = now + POLL_NS;
	struct timespec ts;
	size_t i;

	for (i = 0; i < n; i++)
		if (timers[i].next < until)
			until = timers[i].next;
	if (until <= now)
		return;
	ts.tv_sec = (until - now) / 1000000000ULL;
	ts.tv_nsec = (until - now) % 1000000000ULL;
	nanosleep(&ts, NULL);
}

static int collect_timers(const struct st_program *prog, struct timer **out, size_t *nr)
{
	uint64_t now = now_ns();
	struct timer *t;
	uint32_t i, j;

	*out = NULL;
	*nr = 0;
	for (i = 0; i < prog->nr_clauses; i++) {
		for (j = 0; j < prog->clauses[i].nr_probes; j++) {
			const struct st_probe *p = &prog->clauses[i].probes[j];

			if (p->kind != ST_PROBE_INTERVAL)
				continue;
			t = realloc(*out, (*nr + 1) * sizeof(*t));
			if (!t)
				return -ENOMEM;
			*out = t;
			t[*nr].clause = &prog->clauses[i];
			t[*nr].period = p->interval_ns ? p->interval_ns : 1;
			t[*nr].next = now + t[*nr].period;
			(*nr)++;
		}
	}
	return 0;
}

static unsigned int count_user_probes(const struct st_program *prog)
{
	unsigned int n = 0;
	uint32_t i, j;

	for (i = 0; i < prog->nr_clauses; i++)
		for (j = 0; j < prog->clauses[i].nr_probes; j++)
			n += prog->clauses[i].probes[j].kind != ST_PROBE_SIDE;
	return n;
}

static bool has_side_probes(const struct st_program *prog)
{
	uint32_t i, j;

	for (i = 0; i < prog->nr_clauses; i++)
		for (j = 0; j < prog->clauses[i].nr_probes; j++)
			if (prog->clauses[i].probes[j].kind == ST_PROBE_SIDE)
				return true;
	return false;
}

/*
 * Runs until Ctrl-C, SIGTERM, exit(), the end of the -c command or of the
 * -p process, firing interval clauses on time. *reaped tells whether the
 * child was waited for.
 */
static int main_loop(struct st_runner *r, struct st_loader *l, pid_t child, bool *reaped)
{
	struct timer *timers;
	size_t nr_timers, i;
	bool warned = false;
	char err[256];
	int ret;

	ret = collect_timers(r->prog, &timers, &nr_timers);
	if (ret)
		goto cleanup;
	while (!stop_signal && !r->exit_requested) {
		if (l && st_loader_exit_requested(l))
			break;
		if (l && st_loader_poll_fault_in(l, r->compiled, err, sizeof(err)) < 0 && !warned) {
			fprintf(stderr, "sidetrace: %s\n", err);
			warned = true;
		}
		if (child > 0 && waitpid(child, NULL, WNOHANG) == child) {
			*reaped = true;
			break;
		}
		/* -p: the traced process is gone, nothing more can happen. */
		if (r->pid > 0 && kill(r->pid, 0) && errno == ESRCH)
			break;
		for (i = 0; i < nr_timers && !r->exit_requested; i++) {
			uint64_t now = now_ns();

			if (now < timers[i].next)
				continue;
			timers[i].next += timers[i].period;
			if (timers[i].next <= now)
				timers[i].next = now + timers[i].period;
			ret = st_run_clause(r, timers[i].clause);
			if (ret)
				goto cleanup;
		}
		wait_a_little(timers, nr_timers);
	}
cleanup:
	free(timers);
	return ret;
}

static void print_diag(const struct st_diag *d, const char *src)
{
	st_diag_print(stderr, d, src);
}

int main(int argc, char **argv)
{
	struct st_compiled compiled = {0};
	struct st_loader loader = {0};
	struct st_program *prog = NULL;
	struct st_runner runner = {0};
	struct source src = {0};
	struct st_event_source evsrc = {.target_events = target_events, .ctx = &src};
	struct options o;
	struct st_diag diag = {0};
	struct sigaction sa = {0};
	char err[512] = "", cmd_path[PATH_MAX];
	bool loaded = false, reaped = false;
	int ret, status = 1, release_fd = -1;
	wordexp_t words = {0};
	char *text = NULL;
	FILE *out = stdout;
	pid_t child = 0;
	unsigned int nr_attached = 0;

	if (argc >= 2 && !strcmp(argv[1], "list"))
		return st_cmd_list(argc - 1, argv + 1);
	if (parse_options(argc, argv, &o))
		return 2;
	libbpf_set_print(o.verbose ? libbpf_verbose : libbpf_quiet);

	if (o.program) {
		text = strdup(o.program);
	} else {
		text = read_file(o.file);
		if (!text) {
			fprintf(stderr, "sidetrace: cannot read %s: %s\n", o.file, strerror(errno));
			goto cleanup;
		}
	}
	if (!text)
		goto cleanup;
	ret = st_parse(text, o.file ? o.file : "program", &prog, &diag);
	if (ret) {
		if (ret == -ENOMEM)
			fprintf(stderr, "sidetrace: out of memory\n");
		else
			print_diag(&diag, text);
		goto cleanup;
	}
	src.pid = o.pid;
	if (o.cmd) {
		if (wordexp(o.cmd, &words, WRDE_NOCMD) || !words.we_wordc) {
			fprintf(stderr, "sidetrace: -c '%s': not a command\n", o.cmd);
			goto cleanup;
		}
		if (st_resolve_target(words.we_wordv[0], cmd_path, sizeof(cmd_path))) {
			fprintf(stderr, "sidetrace: -c %s: command not found\n", words.we_wordv[0]);
			goto cleanup;
		}
		src.cmd_path = cmd_path;
	}
	if (o.pid && kill(o.pid, 0) && errno == ESRCH) {
		fprintf(stderr, "sidetrace: -p %d: no such process\n", o.pid);
		goto cleanup;
	}
	ret = st_check(prog, &evsrc, &diag);
	if (ret) {
		if (ret == -ENOMEM)
			fprintf(stderr, "sidetrace: out of memory\n");
		else
			print_diag(&diag, text);
		goto cleanup;
	}
	/* Test hook: see ST_COMPILE_VECTOR_ONLY. */
	ret = st_compile(prog, getenv("SIDETRACE_VECTOR_ONLY") ? ST_COMPILE_VECTOR_ONLY : 0,
			 &compiled, &diag);
	if (ret) {
		if (ret == -ENOMEM)
			fprintf(stderr, "sidetrace: out of memory\n");
		else
			print_diag(&diag, text);
		goto cleanup;
	}
	if (o.out_path) {
		out = fopen(o.out_path, "w");
		if (!out) {
			fprintf(stderr, "sidetrace: cannot write %s: %s\n", o.out_path,
				strerror(errno));
			out = stdout;
			goto cleanup;
		}
	}
	if (has_side_probes(prog)) {
		ret = st_loader_load(&loader, &compiled, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "sidetrace: %s\n", err);
			goto cleanup;
		}
		loaded = true;
	}

	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* No SA_RESTART: a child's exit cuts the sleep short. */
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);

	if (o.cmd) {
		child = spawn_child(words.we_wordv, &release_fd);
		if (child < 0) {
			fprintf(stderr, "sidetrace: cannot run %s: %s\n", o.cmd, strerror(-child));
			child = 0;
			goto cleanup;
		}
	}
	if (loaded) {
		ret = st_loader_attach(&loader, &compiled,
				       child   ? child
				       : o.pid ? o.pid
					       : -1,
				       err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "sidetrace: %s\n", err);
			goto cleanup;
		}
		nr_attached = compiled.nr_probes;
	}
	st_output_attached(out, o.fmt, nr_attached + count_user_probes(prog));
	fflush(out);

	runner.prog = prog;
	runner.compiled = &compiled;
	runner.loader = loaded ? &loader : NULL;
	runner.out = out;
	runner.fmt = o.fmt;
	runner.pid = o.pid;
	ret = st_run_clauses(&runner, ST_PROBE_BEGIN);
	if (child) {
		/* Attached: let the command run. */
		if (write(release_fd, "x", 1) != 1) {
			fprintf(stderr, "sidetrace: cannot start %s\n", o.cmd);
			goto cleanup;
		}
		close(release_fd);
		release_fd = -1;
	}
	if (!ret && !runner.exit_requested)
		ret = main_loop(&runner, loaded ? &loader : NULL, child, &reaped);
	if (!ret)
		ret = st_run_clauses(&runner, ST_PROBE_END);
	if (!ret)
		ret = st_run_print_all(&runner);
	if (ret) {
		fprintf(stderr, "sidetrace: cannot read the maps: %s\n", strerror(-ret));
		goto cleanup;
	}
	st_run_report_problems(&runner);
	status = 0;
cleanup:
	if (release_fd >= 0)
		close(release_fd);
	if (child > 0 && !reaped) {
		/* We stop before the command did: do not leave it orphaned. */
		if (waitpid(child, NULL, WNOHANG) == 0) {
			kill(child, SIGTERM);
			waitpid(child, NULL, 0);
		}
	}
	if (o.cmd)
		wordfree(&words);
	/* Also after a failed load, which may have set up part of it. */
	st_loader_close(&loader);
	st_compiled_free(&compiled);
	if (prog)
		st_program_free(prog);
	source_free(&src);
	free(text);
	if (out != stdout)
		fclose(out);
	return status;
}
