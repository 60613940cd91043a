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
	fprintf(f, "USAGE: sidetrace list [-v] [-f text|json] TARGET...\n"
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
