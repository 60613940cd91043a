// SPDX-License-Identifier: MIT
/*
 * The tracing command's options (options.h): bpftrace's letters where
 * they overlap (-e -p -c -f -o -l -v -q -d -V), a FILE, or '-' for stdin.
 */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/info.h"
#include "cmd/options.h"
#include "parse/helpers.h"
#include "util/escape.h"
#include "kinds/probe_kinds.h"
#include "sidetrace.h"

/* The Makefile's VERSION; a build outside it says so. */
#ifndef SIDETRACE_VERSION
#define SIDETRACE_VERSION "unknown"
#endif

/* Every kind of probe of the table, bpftrace's other name beside it, wrapped. */
static void print_kinds(FILE *f)
{
	const struct st_probe_kind *k;
	size_t i, col = strlen("Probes:");
	char item[128], alias[32];
	int n;

	fputs("Probes:", f);
	for (i = 0; (k = st_probe_kind_nth(i)); i++) {
		alias[0] = '\0';
		if (k->aliases[0])
			snprintf(alias, sizeof(alias), " (or %s:)", k->aliases[0]);
		n = snprintf(item, sizeof(item), "%s%s%s", k->syntax, alias,
			     st_probe_kind_nth(i + 1) ? "," : "");
		if (col + 1 + n > 78) {
			fputs("\n ", f);
			col = 1;
		}
		fprintf(f, " %s", item);
		col += 1 + n;
	}
	fputs("\n", f);
}

static void usage(FILE *f)
{
	fprintf(f, "USAGE: sidetrace [OPTION...] -e PROGRAM | FILE | -\n"
		   "       sidetrace -l [-v] [-p PID] [PATTERN]\n"
		   "       sidetrace list [-v] [-f text|json] TARGET... | -p PID\n"
		   "       sidetrace serve [--listen ADDR:PORT] [--in-process] [-e PROGRAM]...\n"
		   "                       [FILE|DIR]...\n"
		   "Trace SIDE events, USDT probes, functions, tracepoints and CPU samples\n"
		   "with bpftrace-style programs, aggregated in the kernel.\n"
		   "\n"
		   "  -e PROGRAM   the program text, e.g.\n"
		   "               'side:./app:http:request { @[args.method] = "
		   "hist(args.latency_ns); }'\n"
		   "  FILE         the program in a file ('#!' first line ignored); - is stdin\n"
		   "  -l [PATTERN] list the probes that match, e.g. 'side:./app:http:*',\n"
		   "               'uprobe:./app:parse*'; with -v their fields and types\n"
		   "  -p PID       trace only process PID (and find its libraries); '*' as\n"
		   "               TARGET is every object it maps\n"
		   "  -c CMD       run CMD (split into words like a shell does), trace it and\n"
		   "               its descendants (every process it and they start), find\n"
		   "               libraries next to it, stop when it exits\n"
		   "  -f FORMAT    output format: text (default), json, or folded (stacks)\n"
		   "  -o FILE      write the output to FILE\n"
		   "  -b, --buffer-size SIZE\n"
		   "               the buffer of printed events (printf), e.g. 64M; a power\n"
		   "               of 2 from 4K to 1G; default bpftrace's, 64 pages a CPU\n"
		   "               and 1M at least (16M with print(args));\n"
		   "               events that find it full are counted and reported,\n"
		   "               never waited for\n"
		   "  -I DIR       look for #include's files in DIR too (may repeat)\n"
		   "  --include FILE\n"
		   "               read FILE's macros first, as #include \"FILE\" (may repeat)\n"
		   "  -d, --dry-run\n"
		   "               check and compile, print the probes, sites and maps,\n"
		   "               attach nothing\n"
		   "  --in-process run the side: probes inside the traced processes, in\n"
		   "               their SIDE runtime (no kernel trap per event); other\n"
		   "               probes stay in the kernel\n"
		   "  --missing-probes warn|error|ignore\n"
		   "               a function probe that matches no function: skipped\n"
		   "               with a warning (default, as bpftrace), an error, or\n"
		   "               skipped silently\n"
		   "  -B MODE      the output's buffering: none, line or full (stdio's\n"
		   "               choice when not given)\n"
		   "  -k           say what fails in a probe (a full map, a delete of a\n"
		   "               missing key) where and as it happens, not only at exit\n"
		   "  -kk          -k, and reads of memory and lookups that fail too\n"
		   "  --unsafe     bpftrace's permission for functions that act on the\n"
		   "               system: system() and signal()\n"
		   "  --usdt-file-activation\n"
		   "               bpftrace's: raise the USDT semaphores of every process\n"
		   "               that maps the file; always so here (the kernel counts them)\n"
		   "  -q           quiet: no 'Attaching N probes...' line, no hints\n"
		   "  --no-warnings\n"
		   "               bpftrace's: no warning (a probe skipped, -k's reports\n"
		   "               in text)\n"
		   "  -v           verbose: show libbpf's and the kernel's messages\n"
		   "  -V, --version\n"
		   "               print the version\n"
		   "  --info       what this kernel and build support, each probed now\n"
		   "  -h, --help   this help\n"
		   "\n");
	print_kinds(f);
	fprintf(f, "Several per clause, '*' wildcards in names. Maps print when the program\n"
		   "ends (Ctrl-C, exit(), or the end of -c CMD). Exit status: 0, 1 when\n"
		   "tracing failed, 2 for a wrong command line; with -c, the command's.\n"
		   "See sidetrace(1).\n");
}

/* -b: bytes with an optional K, M or G; a power of 2 that a ring buffer can be. */
static int parse_size(const char *arg, uint32_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	/* Past 1G before the shift is past it after: refused, never wrapped. */
	if (!errno && end != arg && v > ST_EVENTS_MAX_SIZE)
		errno = ERANGE;
	if (!errno && end != arg && (*end == 'K' || *end == 'k'))
		v <<= 10, end++;
	else if (!errno && end != arg && (*end == 'M' || *end == 'm'))
		v <<= 20, end++;
	else if (!errno && end != arg && (*end == 'G' || *end == 'g'))
		v <<= 30, end++;
	if (errno || end == arg || *end || v < ST_EVENTS_MIN_SIZE || v > ST_EVENTS_MAX_SIZE ||
	    (v & (v - 1))) {
		fprintf(stderr,
			"sidetrace: --buffer-size '%s': give a power of 2 from 4K to 1G, e.g. "
			"64M\n",
			arg);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* The long options without a letter. */
enum {
	OPT_IN_PROCESS = 256,
	OPT_UNSAFE,
	OPT_USDT_FILE_ACTIVATION,
	OPT_MISSING_PROBES,
	OPT_INCLUDE,
	OPT_INFO,
	OPT_NO_WARNINGS,
};

/* -I DIR or --include FILE, kept in order. */
static int add_include(int c, char *arg, struct st_trace_opts *o)
{
	struct st_pp_opts *pp = &o->pp;
	uint32_t *nr = c == 'I' ? &pp->nr_include_dirs : &pp->nr_include_files;

	if (*nr == ST_MAX_INCLUDES) {
		fprintf(stderr, "sidetrace: more than %d %s\n", ST_MAX_INCLUDES,
			c == 'I' ? "-I" : "--include");
		return -EINVAL;
	}
	pp->include_dirs = o->include_dirs;
	pp->include_files = o->include_files;
	(c == 'I' ? o->include_dirs : o->include_files)[(*nr)++] = arg;
	return 0;
}

/* The kernel's highest pid plus one (kernel.pid_max); 0 when unreadable. */
static long pid_max(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	long v = 0;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* -p PID: a decimal number that the kernel can have given a process. */
static int parse_pid(const char *arg, struct st_trace_opts *o)
{
	long pid, max;
	char *end;

	errno = 0;
	pid = strtol(arg, &end, 10);
	/* Through a long: a pid_t would wrap 4294967296 + N to N. */
	if (errno || *end || end == arg || pid <= 0 || pid > INT_MAX) {
		fprintf(stderr, "sidetrace: -p wants a process id, not '%s'\n", arg);
		return -EINVAL;
	}
	max = pid_max();
	if (max > 0 && pid >= max) {
		fprintf(stderr,
			"sidetrace: -p %ld: out of this kernel's pid range [1,%ld] "
			"(/proc/sys/kernel/pid_max)\n",
			pid, max - 1);
		return -EINVAL;
	}
	o->pid = pid;
	return 0;
}

/* The options that take a value, and what getopt did not know. */
static int parse_value(int c, char *arg, struct st_trace_opts *o)
{
	switch (c) {
	case 'p':
		return parse_pid(arg, o);
	case 'f':
		if (!strcmp(arg, "text") || !strcmp(arg, "json") || !strcmp(arg, "folded")) {
			o->fmt = !strcmp(arg, "json")	  ? ST_OUTPUT_JSON
				 : !strcmp(arg, "folded") ? ST_OUTPUT_FOLDED
							  : ST_OUTPUT_TEXT;
			return 0;
		}
		fprintf(stderr, "sidetrace: unknown output format '%s': use text, json or folded\n",
			arg);
		return -EINVAL;
	case 'b':
		return parse_size(arg, &o->events_size);
	case 'c':
		o->cmd = arg;
		return 0;
	case 'o':
		o->out_path = arg;
		return 0;
	case 'I':
	case OPT_INCLUDE:
		return add_include(c, arg, o);
	case 'B':
		if (!strcmp(arg, "none") || !strcmp(arg, "line") || !strcmp(arg, "full")) {
			o->buffering = !strcmp(arg, "none")   ? _IONBF
				       : !strcmp(arg, "line") ? _IOLBF
							      : _IOFBF;
			return 0;
		}
		fprintf(stderr, "sidetrace: -B '%s': use none, line or full\n", arg);
		return -EINVAL;
	case OPT_MISSING_PROBES:
		if (!strcmp(arg, "warn") || !strcmp(arg, "error") || !strcmp(arg, "ignore")) {
			o->missing = !strcmp(arg, "error")    ? ST_MISSING_ERROR
				     : !strcmp(arg, "ignore") ? ST_MISSING_IGNORE
							      : ST_MISSING_WARN;
			return 0;
		}
		fprintf(stderr, "sidetrace: --missing-probes '%s': use warn, error or ignore\n",
			arg);
		return -EINVAL;
	case 'e':
		if (o->program) {
			fprintf(stderr, "sidetrace: -e given twice: put every clause in one "
					"program\n");
			return -EINVAL;
		}
		o->program = arg;
		return 0;
	}
	/* getopt said what it did not know. */
	usage(stderr);
	return -EINVAL;
}

/* What the options and arguments say together; 0 or -EINVAL after a message. */
static int check_combination(int argc, char **argv, struct st_trace_opts *o)
{
	if (o->pid && o->cmd) {
		fprintf(stderr, "sidetrace: -p and -c exclude each other\n");
		return -EINVAL;
	}
	if (o->list) {
		if (o->program || o->cmd || o->dry_run) {
			fprintf(stderr,
				"sidetrace: -l lists probes: it takes a PATTERN and -p PID, "
				"not -e, -c or -d\n");
			return -EINVAL;
		}
		if (optind < argc && !o->list_pattern)
			o->list_pattern = argv[optind++];
	} else if (optind < argc && !o->program) {
		o->file = argv[optind++];
	}
	/* What follows the program is its positional parameters, as bpftrace's. */
	if (!o->list) {
		o->args = argv + optind;
		o->nr_args = argc - optind;
		optind = argc;
	}
	if (optind < argc) {
		fprintf(stderr, "sidetrace: unexpected argument '%s': -l takes one pattern\n",
			argv[optind]);
		return -EINVAL;
	}
	/* bpftrace's levels: -k, then -kk, no more. */
	if (o->helper_checks > ST_CHECK_ALL) {
		fprintf(stderr, "sidetrace: -k is given at most twice (-kk)\n");
		return -EINVAL;
	}
	if (!o->list && !o->program && !o->file) {
		fprintf(stderr, "sidetrace: no program: give -e PROGRAM, a FILE or - (stdin)\n");
		usage(stderr);
		return -EINVAL;
	}
	return 0;
}

/* The options that take no value: true when c is one, set in o. */
static bool set_flag(int c, struct st_trace_opts *o)
{
	switch (c) {
	case 'v':
		o->verbose = true;
		return true;
	case 'q':
		o->quiet = true;
		return true;
	case 'd':
		o->dry_run = true;
		return true;
	case OPT_IN_PROCESS:
		o->in_process = true;
		return true;
	case 'k':
		/* Counted to its cap: check_combination() refuses more than -kk. */
		if (o->helper_checks <= ST_CHECK_ALL)
			o->helper_checks++;
		return true;
	case OPT_UNSAFE:
		o->unsafe = true;
		return true;
	case OPT_NO_WARNINGS:
		/* bpftrace's: every warning left out, -k's in text too. */
		st_warnings_off();
		return true;
	case OPT_USDT_FILE_ACTIVATION:
		/*
		 * bpftrace writes the semaphores of the processes that map the
		 * file only where the kernel cannot count them; sidetrace's
		 * kernels count them (ref_ctr_offset) in every such process.
		 */
		return true;
	case 'l':
		o->list = true;
		return true;
	default:
		return false;
	}
}

int st_trace_parse_options(int argc, char **argv, struct st_trace_opts *o)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{"dry-run", no_argument, NULL, 'd'},
		{"buffer-size", required_argument, NULL, 'b'},
		{"in-process", no_argument, NULL, OPT_IN_PROCESS},
		{"missing-probes", required_argument, NULL, OPT_MISSING_PROBES},
		{"include", required_argument, NULL, OPT_INCLUDE},
		{"unsafe", no_argument, NULL, OPT_UNSAFE},
		{"usdt-file-activation", no_argument, NULL, OPT_USDT_FILE_ACTIVATION},
		{"info", no_argument, NULL, OPT_INFO},
		{"no-warnings", no_argument, NULL, OPT_NO_WARNINGS},
		{NULL, 0, NULL, 0},
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->buffering = -1;
	for (;;) {
		/*
		 * Options anywhere, as bpftrace takes them (prog.bt -c CMD,
		 * -lv PATTERN -p PID): getopt moves the other arguments, the
		 * program file and its positional parameters, to the end in
		 * their order; "--" ends the options, for a parameter such as -5.
		 */
		c = getopt_long(argc, argv, "hVvqdklp:c:f:o:e:b:B:I:", longopts, NULL);
		if (c == -1)
			break;
		if (c == 'h') {
			usage(stdout);
			exit(ST_EXIT_OK);
		}
		if (c == 'V') {
			printf("sidetrace v%s\n", SIDETRACE_VERSION);
			exit(ST_EXIT_OK);
		}
		if (c == OPT_INFO) {
			st_print_info(stdout, SIDETRACE_VERSION);
			exit(ST_EXIT_OK);
		}
		if (!set_flag(c, o) && parse_value(c, optarg, o))
			return -EINVAL;
	}
	return check_combination(argc, argv, o);
}
