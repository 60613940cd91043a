/* SPDX-License-Identifier: MIT */
/*
 * `sidetrace list`: the events of object files or of a process, with their
 * typed fields, as text for people or as JSON lines for programs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "side/discover.h"
#include "targets/targets.h"
#include "cmd/list.h"
#include "cmd/common.h"
#include "parse/lexer.h"
#include "kinds/probe_kinds.h"
#include "output/events_print.h"
#include "util/escape.h"

static void list_usage(FILE *f)
{
	fprintf(f, "usage: sidetrace list [-v] [-f text|json] TARGET...\n"
		   "       sidetrace list [-v] [-f text|json] -p PID\n"
		   "\n"
		   "Show the SIDE events and USDT probes of executables or shared\n"
		   "libraries (a path, or a library name like libfoo), or of the\n"
		   "objects a running process has loaded.\n"
		   "\n"
		   "  -v, --verbose     attributes, enum mappings, addresses, sites\n"
		   "  -f, --format FMT  text (default) or json (one event per line)\n"
		   "  -p, --pid PID     list what process PID has loaded\n");
}

static void print_list(const struct st_event_list *l, bool json, bool verbose)
{
	if (json)
		st_list_print_json(stdout, l);
	else
		st_list_print_text(stdout, l, verbose);
}

/* Prints the events found in WHAT, or says there are none: exit status. */
static int print_found(const struct st_event_list *l, const char *what, bool json, bool verbose)
{
	if (!l->nr) {
		st_errorf("%s: no SIDE or USDT events", what);
		return ST_EXIT_FAIL;
	}
	print_list(l, json, verbose);
	return ST_EXIT_OK;
}

/* List one TARGET; returns 0 or 1 (reported on stderr). */
static int list_target(const char *target, bool json, bool verbose)
{
	struct st_event_list l = {0};
	char path[PATH_MAX], err[256];
	int status = ST_EXIT_FAIL;

	if (st_read_target(target, NULL, &l, path, sizeof(path), err, sizeof(err))) {
		st_errorf("%s: %s", target, err);
		goto cleanup;
	}
	status = print_found(&l, path, json, verbose);
cleanup:
	st_event_list_free(&l);
	return status;
}

static int list_pid(const char *arg, bool json, bool verbose)
{
	struct st_event_list l = {0};
	char err[512], what[32], *end;
	long pid;
	int ret, status = ST_EXIT_FAIL;

	errno = 0;
	pid = strtol(arg, &end, 10);
	if (errno || *end || end == arg || pid <= 0 || pid > INT_MAX) {
		fprintf(stderr, "sidetrace: list: invalid PID '%s'\n", arg);
		return ST_EXIT_USAGE;
	}
	ret = st_discover_pid(pid, &l, err, sizeof(err));
	if (ret) {
		st_errorf("%s", err);
		goto cleanup;
	}
	snprintf(what, sizeof(what), "process %ld", pid);
	status = print_found(&l, what, json, verbose);
cleanup:
	st_event_list_free(&l);
	return status;
}

int st_cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{"verbose", no_argument, NULL, 'v'},
		{"format", required_argument, NULL, 'f'},
		{"pid", required_argument, NULL, 'p'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool verbose = false, json = false;
	const char *pid = NULL;
	int c, i, status = ST_EXIT_OK;

	/* The caller may have run getopt already: start afresh. */
	optind = 0;
	while ((c = getopt_long(argc, argv, "vf:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			verbose = true;
			break;
		case 'f':
			if (!strcmp(optarg, "json")) {
				json = true;
			} else if (strcmp(optarg, "text")) {
				fprintf(stderr,
					"sidetrace: list: unknown format '%s' (text or json)\n",
					optarg);
				return ST_EXIT_USAGE;
			}
			break;
		case 'p':
			pid = optarg;
			break;
		case 'h':
			list_usage(stdout);
			return ST_EXIT_OK;
		default:
			list_usage(stderr);
			return ST_EXIT_USAGE;
		}
	}
	if (st_stdout_closed) {
		fprintf(stderr, "sidetrace: list: standard output is closed: nowhere to print\n");
		return ST_EXIT_FAIL;
	}
	if (!pid == (optind >= argc)) {
		fprintf(stderr, "sidetrace: list: give either TARGET... or -p PID\n");
		list_usage(stderr);
		return ST_EXIT_USAGE;
	}
	if (pid)
		return list_pid(pid, json, verbose);
	for (i = optind; i < argc; i++)
		if (list_target(argv[i], json, verbose))
			status = ST_EXIT_FAIL;
	return status;
}

/*
 * -l's pattern as a whole attach point: "side:T" is every event of T,
 * and "side:T:EVENT" (bpftrace's usdt form) EVENT of any provider; the
 * same for usdt:; "tracepoint:C" every tracepoint of category C.
 */
static char *full_pattern(const char *pattern)
{
	const char *rest, *last = NULL;
	char *out = NULL;

	/* "tracepoint:CATEGORY": all of the category's. */
	if (!strncmp(pattern, "tracepoint:", strlen("tracepoint:")) &&
	    !strchr(pattern + strlen("tracepoint:"), ':'))
		return asprintf(&out, "%s:*", pattern) < 0 ? NULL : out;
	if (strncmp(pattern, "side:", strlen("side:")) &&
	    strncmp(pattern, "usdt:", strlen("usdt:")))
		return strdup(pattern);
	rest = strchr(pattern, ':') + 1;
	/* A quoted target may hold ':'. */
	if (*rest == '"' && strchr(rest + 1, '"'))
		rest = strchr(rest + 1, '"') + 1;
	for (; *rest; rest++) {
		if (*rest != ':')
			continue;
		if (last)
			return strdup(pattern);
		last = rest;
	}
	if (!last && asprintf(&out, "%s:*:*", pattern) < 0)
		return NULL;
	if (last && asprintf(&out, "%.*s:*%s", (int)(last - pattern), pattern, last) < 0)
		return NULL;
	return out;
}

/* Parses the pattern with the language's own lexer; 0 or an exit status. */
static int parse_pattern(const char *src, struct st_attach_point *ap)
{
	struct st_diag diag = {0};
	struct st_lexer lx;
	int ret;

	st_lex_init(&lx, src, "pattern", &diag);
	ret = st_lex_attach_point(&lx, ap);
	if (!ret)
		ret = st_lex_skip_space(&lx);
	if (ret == -ENOMEM) {
		st_errorf("out of memory");
		return ST_EXIT_FAIL;
	}
	if (ret) {
		st_diag_print(stderr, &diag, src);
		return ST_EXIT_USAGE;
	}
	if (st_probe_kind(ap->kind)->runs != ST_RUNS_AT_EVENTS || !st_lex_at_end(&lx)) {
		st_errorf("-l '%s': a pattern is side:TARGET[:PROVIDER]:EVENT, "
			  "usdt:TARGET[:PROVIDER]:NAME, uprobe:TARGET:FUNCTION, "
			  "tracepoint:CATEGORY[:NAME] or kprobe:FUNCTION, '*' wildcards",
			  src);
		return ST_EXIT_USAGE;
	}
	return ST_EXIT_OK;
}

int st_list_probes(const char *pattern, pid_t pid, bool verbose)
{
	struct st_target_set set = {.pid = pid};
	struct st_attach_point ap = {0};
	const struct st_event_list *l;
	struct st_probe_query q;
	char err[512], *src;
	size_t i, n = 0, siteless = 0;
	int status;

	if (!pattern && !pid) {
		fprintf(stderr, "sidetrace: -l: give a pattern, e.g. 'side:./app:*', or -p PID\n");
		return ST_EXIT_USAGE;
	}
	src = full_pattern(pattern ? pattern : "side:*");
	if (!src) {
		st_errorf("out of memory");
		return ST_EXIT_FAIL;
	}
	status = parse_pattern(src, &ap);
	if (status)
		goto cleanup;
	status = ST_EXIT_FAIL;
	q.target = ap.target;
	q.kind = ap.kind;
	q.function = ap.event;
	q.provider = ap.provider;
	l = st_target_query(&set, &q, err, sizeof(err));
	if (!l && !*ap.target) {
		st_errorf("%s", err);
		goto cleanup;
	}
	if (!l) {
		st_errorf("%s: %s", ap.target, err);
		goto cleanup;
	}
	for (i = 0; i < l->nr; i++) {
		if (st_probe_kind_by_name(st_probe_kind(ap.kind)) &&
		    !st_event_match(&l->events[i], ap.provider, ap.event))
			continue;
		/* No probe attaches to an event no call site emits (check_points.c). */
		if (!l->events[i].nr_sites) {
			siteless++;
			continue;
		}
		st_probe_print_text(stdout, &l->events[i], verbose);
		n++;
	}
	if (n)
		status = ST_EXIT_OK;
	else if (siteless)
		st_errorf("no probe matches %s: the %zu event%s it matches %s no call sites "
			  "(delivered to in-process tracers only, never to a probe)",
			  src, siteless, siteless == 1 ? "" : "s", siteless == 1 ? "has" : "have");
	else
		st_errorf("no probe matches %s", src);
cleanup:
	st_attach_point_fini(&ap);
	st_target_set_free(&set);
	free(src);
	return status;
}
