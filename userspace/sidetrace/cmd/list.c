/* SPDX-License-Identifier: MIT */
/*
 * `sidetrace list`: the events of object files or of a process, with their
 * typed fields, as text for people or as JSON lines for programs.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "discovery/discovery.h"
#include "discovery/targets.h"
#include "cmd/list.h"
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
		return 1;
	}
	print_list(l, json, verbose);
	return 0;
}

/* List one TARGET; returns 0 or 1 (reported on stderr). */
static int list_target(const char *target, bool json, bool verbose)
{
	struct st_event_list l = {0};
	char path[PATH_MAX], err[256];
	int status = 1;

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
	int ret, status = 1;

	errno = 0;
	pid = strtol(arg, &end, 10);
	if (errno || *end || end == arg || pid <= 0 || pid > INT_MAX) {
		fprintf(stderr, "sidetrace: list: invalid PID '%s'\n", arg);
		return 2;
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
	int c, i, status = 0;

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
				return 2;
			}
			break;
		case 'p':
			pid = optarg;
			break;
		case 'h':
			list_usage(stdout);
			return 0;
		default:
			list_usage(stderr);
			return 2;
		}
	}
	if (!pid == (optind >= argc)) {
		fprintf(stderr, "sidetrace: list: give either TARGET... or -p PID\n");
		list_usage(stderr);
		return 2;
	}
	if (pid)
		return list_pid(pid, json, verbose);
	for (i = optind; i < argc; i++)
		if (list_target(argv[i], json, verbose))
			status = 1;
	return status;
}
