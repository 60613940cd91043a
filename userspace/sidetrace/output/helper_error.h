/* SPDX-License-Identifier: MIT */
/*
 * -k and -kk: a helper that failed at a place of the program, as bpftrace
 * says it, in the output among the events: "FILE:LINE:COL: WARNING:
 * Failed to HELPER: REASON (RET)" with the line and a caret, or its JSON
 * object ("type": "helper_error").
 */
#ifndef SIDETRACE_OUTPUT_HELPER_ERROR_H
#define SIDETRACE_OUTPUT_HELPER_ERROR_H

#include <stdint.h>

#include "parse/helpers.h"
#include "output/maps_print.h"
#include "util/textbuf.h"

/*
 * Appends the report of site's helper returning ret to tb; file and src
 * name the program and hold its text (src NULL: no line shown).
 */
void st_helper_error_text(struct st_textbuf *tb, enum st_output_format fmt,
			  const struct st_helper_site *site, int64_t ret, const char *file,
			  const char *src);

#endif /* SIDETRACE_OUTPUT_HELPER_ERROR_H */
