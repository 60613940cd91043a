// SPDX-License-Identifier: MIT
/*
 * sidetrace serve: runs programs for as long as it lives, attached
 * system-wide by path (a process that starts later is traced from its
 * first event), and serves their maps to Prometheus over HTTP
 * (serve/exporter.h says what a scrape holds, serve/http.h how it is
 * served).
 *
 *   sidetrace serve [--listen ADDR:PORT] [-v] [-e PROGRAM]... [FILE|DIR]...
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/bpftrace_env.h"
#include "cmd/common.h"
#include "cmd/serve.h"
#include "compile/compile.h"
#include "targets/targets.h"
#include "check/checker.h"
#include "parse/parser.h"
#include "session/runner.h"
#include "serve/exporter.h"
#include "serve/http.h"
#include "inproc/inproc.h"
#include "inproc/inproc_client.h"
#include "tracer/tracer.h"
#include "session/session.h"
#include "session/stream.h"

/* One program served; units[] does not move once they are built. */
struct unit {
	char *name; /* its file, or "program" (-e) */
	bool file; /* read from the file name */
	char *text;
	struct st_program *prog;
	struct st_target_set targets;
	struct st_compiled compiled;
	struct st_tracer tracer;
	struct st_runner runner;
	pthread_t thread;
	bool running; /* thread runs the session loop */
};

struct serve {
	const char *listen;
	bool verbose;
	bool in_process; /* --in-process */
	struct unit *units;
	size_t nr_units;
	struct st_exporter exporter;
	struct st_http http;
	sigset_t sigs; /* what the main thread waits for */
};

/* Set by the main thread once a signal came: the session loops end. */
static volatile sig_atomic_t stop;

static void usage(FILE *f)
{
	fprintf(f,
		"USAGE: sidetrace serve [--listen ADDR:PORT] [--in-process] [-v] [-e PROGRAM]...\n"
		"                       [FILE|DIR]...\n"
		"Run programs system-wide and serve their maps to Prometheus at /metrics.\n"
		"\n"
		"  -e PROGRAM          a program's text (may repeat)\n"
		"  FILE                a program file\n"
		"  DIR                 every *.st file of the directory, by name\n"
		"  --listen ADDR:PORT  where to serve (default %s; port 0: any free one)\n"
		"  --in-process        the side: probes run in the processes' SIDE runtime,\n"
		"                      where it has its agent (sidetrace(1))\n"
		"  -v                  verbose: show libbpf's and the kernel's messages\n"
		"  -h, --help          this help\n"
		"\n"
		"Each map @NAME is the metric family sidetrace_NAME: count() and sum() are\n"
		"counters (a sum of signed values a gauge), avg() min() max() gauges,\n"
		"stats() a summary (_sum, _count), hist() and lhist() histograms; keys\n"
		"are labels named after their expression (args.path: path, pid, comm).\n"
		"clear() and zero() apply to gauges only: counters never go down.\n"
		"Serve's own health: sidetrace_events_lost_total, sidetrace_probe_sites,\n"
		"sidetrace_processes, sidetrace_scrape_duration_seconds. SIGINT or SIGTERM\n"
		"detach everything and end it.\n",
		ST_HTTP_DEFAULT_LISTEN);
}

static int add_unit(struct serve *s, const char *name, char *text)
{
	struct unit *u = realloc(s->units, (s->nr_units + 1) * sizeof(*u));

	if (!u || !text) {
		free(text);
		if (u)
			s->units = u;
		fprintf(stderr, "sidetrace: out of memory\n");
		return -ENOMEM;
	}
	s->units = u;
	u = &s->units[s->nr_units++];
	memset(u, 0, sizeof(*u));
	u->text = text;
	u->name = strdup(name);
	return u->name ? 0 : -ENOMEM;
}

static int add_file(struct serve *s, const char *path)
{
	char *text;
	int ret;

	ret = st_read_program(path, &text);
	if (!ret)
		ret = add_unit(s, path, text);
	if (!ret)
		s->units[s->nr_units - 1].file = true;
	return ret;
}

static int is_program_file(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return de->d_name[0] != '.' && n > 3 && !strcmp(de->d_name + n - 3, ".st");
}

/* A directory: each of its *.st files, in name order. */
static int add_dir(struct serve *s, const char *dir)
{
	struct dirent **des;
	char path[4096];
	int n, i, ret = 0;

	n = scandir(dir, &des, is_program_file, alphasort);
	if (n < 0) {
		fprintf(stderr, "sidetrace: cannot read %s: %s\n", dir, strerror(errno));
		return -errno;
	}
	if (!n) {
		fprintf(stderr, "sidetrace: %s holds no program (*.st file)\n", dir);
		ret = -ENOENT;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, des[i]->d_name);
		if (!ret)
			ret = add_file(s, path);
		free(des[i]);
	}
	free(des);
	return ret;
}

static int add_path(struct serve *s, const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		fprintf(stderr, "sidetrace: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	return S_ISDIR(st.st_mode) ? add_dir(s, path) : add_file(s, path);
}

/* Options and the programs they name; 0, or -EINVAL after a message. */
static int parse_options(int argc, char **argv, struct serve *s)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"listen", required_argument, NULL, 'l'},
		{"in-process", no_argument, NULL, 'I'},
		{NULL, 0, NULL, 0},
	};
	size_t nr_e = 0, i;
	int c;

	s->listen = ST_HTTP_DEFAULT_LISTEN;
	while ((c = getopt_long(argc, argv, "+hve:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			exit(0);
		case 'v':
			s->verbose = true;
			break;
		case 'l':
			s->listen = optarg;
			break;
		case 'I':
			s->in_process = true;
			break;
		case 'e':
			if (add_unit(s, "program", strdup(optarg)))
				return -EINVAL;
			nr_e++;
			break;
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	/* Several -e: "program1", "program2"... tell them apart. */
	for (i = 0; nr_e > 1 && i < s->nr_units; i++) {
		free(s->units[i].name);
		if (asprintf(&s->units[i].name, "program%zu", i + 1) < 0)
			s->units[i].name = NULL;
	}
	for (; optind < argc; optind++)
		if (add_path(s, argv[optind]))
			return -EINVAL;
	if (!s->nr_units) {
		fprintf(stderr, "sidetrace serve: no program: give -e PROGRAM, FILE or DIR\n");
		usage(stderr);
		return -EINVAL;
	}
	return 0;
}

static const struct st_event_list *probe_events(void *ctx, const struct st_probe_query *q,
						char *err, size_t errlen)
{
	return st_target_query(ctx, q, err, errlen);
}

/* Whether c reads an iterator: once, where serve keeps its probes on events. */
static bool iterates(const struct st_compiled *c)
{
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		if (st_event_kind(c->probes[i].event)->family == ST_FAMILY_ITER)
			return true;
	return false;
}

/* Text -> checked program -> configuration -> metric families. */
static int build_unit(struct serve *s, struct unit *u)
{
	struct st_event_source evsrc = {.probe_events = probe_events, .ctx = &u->targets};
	struct st_pp_opts pp = {.btf = st_pp_have_btf()};
	struct st_diag diag = {0};
	int ret;

	if (st_preprocess_program(&u->text, u->name, u->file ? u->name : NULL, &pp))
		return -EINVAL;
	ret = st_parse(u->text, u->name, &u->prog, &diag);
	if (!ret && !st_program_on_sites(u->prog)) {
		fprintf(stderr,
			"sidetrace: %s has no probe on events (only BEGIN, END or interval), "
			"so it has nothing to serve\n",
			u->name);
		return -EINVAL;
	}
	if (!ret)
		ret = st_check(u->prog, &evsrc, &diag);
	if (!ret && st_report_missing(u->prog, ST_MISSING_WARN))
		return -ENOENT;
	if (!ret)
		ret = st_compile(u->prog, 0, &u->compiled, &diag);
	if (!ret && st_bpftrace_env(&u->compiled))
		return -EINVAL;
	if (!ret && iterates(&u->compiled)) {
		fprintf(stderr,
			"sidetrace: %s has an iter: probe, which runs once, when sidetrace reads "
			"the iterator; serve keeps probes on events: run it with sidetrace -e\n",
			u->name);
		return -EINVAL;
	}
	/* serve traces every process for as long as it lives: through deploys too. */
	u->compiled.reattach = true;
	/* --in-process: each process that can runs the side: probes itself. */
	u->compiled.inproc_all = s->in_process;
	if (!ret)
		ret = st_exporter_add(&s->exporter, u->name, u->prog, &u->compiled, &u->tracer,
				      &diag);
	if (ret == -ENOMEM)
		fprintf(stderr, "sidetrace: out of memory\n");
	else if (ret)
		st_diag_print(stderr, &diag, u->text);
	return ret;
}

static int build(struct serve *s)
{
	char err[512];
	size_t i;
	int ret;

	if (st_loader_check_environment(err, sizeof(err))) {
		fprintf(stderr, "sidetrace: %s\n", err);
		return -EPERM;
	}
	for (i = 0; i < s->nr_units; i++) {
		ret = build_unit(s, &s->units[i]);
		if (ret)
			return ret;
	}
	ret = st_exporter_prepare(&s->exporter, err, sizeof(err));
	if (ret)
		fprintf(stderr, "sidetrace serve: %s\n", err);
	return ret;
}

/* A program's session: interval clauses, fault-in, exit(). */
static void *unit_loop(void *arg)
{
	struct unit *u = arg;
	struct st_stream stream;
	bool reaped = false;
	int ret;

	/* A printf or print(args) of a served program prints on serve's output. */
	ret = st_stream_open(&stream, &u->tracer, &u->runner, &stop);
	if (!ret)
		ret = st_session_loop(&u->runner, &u->tracer, &stream, 0, &stop, &reaped);
	if (!ret)
		st_stream_drain(&stream);
	st_stream_report(&stream);
	st_stream_close(&stream);
	if (ret)
		fprintf(stderr, "sidetrace: %s: %s\n", u->name, strerror(-ret));
	/* exit() or a failure in one program ends serve as a whole. */
	if (!stop)
		kill(getpid(), SIGUSR1);
	return NULL;
}

/* Loads and attaches every program, runs BEGIN, starts its session. */
static int start_units(struct serve *s)
{
	unsigned int probes = 0;
	char err[512];
	size_t i;
	int ret;

	for (i = 0; i < s->nr_units; i++) {
		struct unit *u = &s->units[i];

		ret = st_tracer_load(&u->tracer, &u->compiled, err, sizeof(err));
		/* The processes running now, before the kernel's sites count them. */
		if (!ret)
			st_inproc_poll(&u->tracer.inproc, &u->tracer.bpf, &u->compiled, false);
		if (!ret)
			ret = st_tracer_attach(&u->tracer, &u->compiled, -1, err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "sidetrace: %s: %s\n", u->name, err);
			return ret;
		}
		probes += u->compiled.nr_probes;
		u->runner = (struct st_runner){.prog = u->prog,
					       .compiled = &u->compiled,
					       .tracer = &u->tracer,
					       .out = stdout};
		ret = st_run_clauses(&u->runner, ST_AP_BEGIN);
		if (ret) {
			fprintf(stderr, "sidetrace: %s: BEGIN: %s\n", u->name, strerror(-ret));
			return ret;
		}
		st_tracer_begin(&u->tracer);
	}
	for (i = 0; i < s->nr_units; i++) {
		ret = pthread_create(&s->units[i].thread, NULL, unit_loop, &s->units[i]);
		if (ret) {
			fprintf(stderr, "sidetrace: cannot start a thread: %s\n", strerror(ret));
			return -ret;
		}
		s->units[i].running = true;
	}
	printf("Serving %u probe%s of %zu program%s at %s\n", probes, probes == 1 ? "" : "s",
	       s->nr_units, s->nr_units == 1 ? "" : "s", s->http.url);
	fflush(stdout);
	return 0;
}

static char *render(void *ctx, enum st_prom_format fmt, size_t *len)
{
	return st_exporter_scrape(ctx, fmt, len);
}

/* Until SIGINT, SIGTERM, or exit() in a program (SIGUSR1). */
static int run(struct serve *s)
{
	char err[512];
	int sig, ret;

	/* First: a port in use fails before anything is loaded. */
	ret = st_http_listen(&s->http, s->listen, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "sidetrace: %s\n", err);
		return ret;
	}
	ret = build(s);
	if (!ret)
		ret = start_units(s);
	if (ret)
		return ret;
	ret = st_http_start(&s->http, render, &s->exporter, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "sidetrace: %s\n", err);
		return ret;
	}
	sigwait(&s->sigs, &sig);
	return 0;
}

/* Detaches everything: sessions end, END runs, the server stops. */
static void serve_fini(struct serve *s)
{
	size_t i;

	stop = 1;
	for (i = 0; i < s->nr_units; i++)
		if (s->units[i].running)
			pthread_join(s->units[i].thread, NULL);
	st_http_stop(&s->http);
	for (i = 0; i < s->nr_units; i++) {
		struct unit *u = &s->units[i];

		if (u->running) {
			st_run_clauses(&u->runner, ST_AP_END);
			st_run_report_problems(&u->runner);
		}
		st_tracer_close(&u->tracer);
		st_compiled_free(&u->compiled);
		if (u->prog)
			st_program_free(u->prog);
		st_target_set_free(&u->targets);
		free(u->text);
		free(u->name);
	}
	st_exporter_free(&s->exporter);
	free(s->units);
}

int st_cmd_serve(int argc, char **argv)
{
	struct serve s = {.http = {.fd = -1, .epfd = -1, .stopfd = -1}};
	int status = ST_EXIT_FAIL;

	/* Every thread started from here on leaves these to the main one. */
	sigemptyset(&s.sigs);
	sigaddset(&s.sigs, SIGINT);
	sigaddset(&s.sigs, SIGTERM);
	sigaddset(&s.sigs, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s.sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* No process's agent holds a unit's thread past the end. */
	st_ip_stop_on(&stop);
	if (parse_options(argc, argv, &s)) {
		serve_fini(&s);
		return ST_EXIT_USAGE;
	}
	st_libbpf_messages(s.verbose);
	if (!run(&s))
		status = ST_EXIT_OK;
	serve_fini(&s);
	return status;
}
