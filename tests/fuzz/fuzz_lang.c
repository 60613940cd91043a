// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the language front end, lexer -> parser -> checker ->
 * compile, on any bytes. Every probe's TARGET, whatever it names, gets the
 * events of one fixed built example ($SIDETRACE_FUZZ_TARGET, by default
 * .output/examples/httpd_sim), read once: the checker resolves fields and
 * types against real SIDE descriptions, and the fuzzer touches no file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"
#include "side/discover.h"
#include "side/usdt_view.h"
#include "check/checker.h"
#include "parse/parser.h"

static struct st_event_list events, usdt_events;
static FILE *devnull;

static const struct st_event_list *fixed_events(void *ctx, const struct st_probe_query *q,
						char *err, size_t errlen)
{
	const char *target = q->target;

	(void)ctx;
	/* "" is the -c command's own target; refuse it as tracing would without -c. */
	if (!*target) {
		snprintf(err, errlen, "empty target");
		return NULL;
	}
	return q->kind == ST_AP_USDT ? &usdt_events : &events;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("SIDETRACE_FUZZ_TARGET");
	char err[256];

	(void)argc;
	(void)argv;
	if (!path)
		path = ".output/examples/httpd_sim";
	devnull = fopen("/dev/null", "w");
	if (!devnull || st_discover_file(path, &events, err, sizeof(err)) || !events.nr ||
	    st_usdt_view(&events, &usdt_events)) {
		fprintf(stderr, "fuzz_lang: cannot read the events of %s: %s\n", path, err);
		exit(1);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_event_source src = {.probe_events = fixed_events};
	struct st_compiled compiled = {0};
	struct st_program *prog = NULL;
	struct st_diag diag;
	char *text;

	/* The collector reads text up to its NUL: so does the fuzzer. */
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!st_parse(text, "fuzz", &prog, &diag) && !st_check(prog, &src, &diag))
		st_compile(prog, 0, &compiled, &diag);
	st_compiled_free(&compiled);
	/* Rendering a diagnostic walks the source line: part of the front end. */
	if (st_diag_is_set(&diag))
		st_diag_print(devnull, &diag, text);
	if (prog)
		st_program_free(prog);
	free(text);
	return 0;
}
