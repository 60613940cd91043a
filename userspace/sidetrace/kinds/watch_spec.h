/* SPDX-License-Identifier: MIT */
/*
 * The words of a watchpoint (kinds/probe_kinds.h ST_FORM_WATCH), as
 * bpftrace 0.17 reads them: ADDR:LEN:MODE, or FUNCTION+argN:LEN:MODE, a
 * hardware breakpoint of LEN bytes (1, 2, 4 or 8) that fires on the
 * accesses MODE names (r, w, x, in any order).
 */
#ifndef SIDETRACE_KINDS_WATCH_SPEC_H
#define SIDETRACE_KINDS_WATCH_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kinds/probe_kinds.h"

/* The argument registers a watchpoint can take an address from: arg0..arg5. */
#define ST_WATCH_MAX_ARG 5

struct st_watch_spec {
	uint64_t addr; /* the address; 0 for the function form */
	/* the function form: FUNCTION (a glob, malloc'ed) and N of argN; NULL, -1 otherwise */
	char *func;
	int arg;
	uint8_t len; /* bp_len */
	uint8_t bp_type; /* HW_BREAKPOINT_R | _W | _X */
	char mode[4]; /* MODE's letters, sorted: "rw", as the probe builtin says it */
};

/*
 * Reads where (ADDR or FUNCTION+argN) and len_mode ("LEN:MODE"), the
 * words of a watchpoint of kind k, into *w (w->func to be freed). 0, or
 * -EINVAL with bpftrace's reason in err, or -ENOMEM.
 */
int st_watch_spec_parse(const struct st_probe_kind *k, const char *where, const char *len_mode,
			struct st_watch_spec *w, char *err, size_t errlen);

void st_watch_spec_free(struct st_watch_spec *w);

#endif /* SIDETRACE_KINDS_WATCH_SPEC_H */
