/* SPDX-License-Identifier: MIT */
/*
 * printf's output: a parsed format (parse/format.h) applied to typed
 * values, and the text written as the output format says: as it is, or
 * as bpftrace's {"type": "printf", "data": "..."} under -f json.
 */
#ifndef SIDETRACE_OUTPUT_PRINTF_PRINT_H
#define SIDETRACE_OUTPUT_PRINTF_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "parse/format.h"
#include "output/maps_print.h"
#include "util/textbuf.h"

/*
 * Appends f applied to vals, one per conversion, to tb: the format's text
 * and the values' bytes as they are (bpftrace's printf), but with term
 * (text output to a terminal) the output of %s and %c as
 * st_escape_term() shows it, so that no traced byte drives the terminal.
 */
void st_format_values(struct st_textbuf *tb, const struct st_format *f,
		      const struct st_key_val *vals, bool term);

/* A float's value from its bits (bits: 32 for binary32, else binary64) in the record. */
void st_key_val_float(struct st_key_val *v, const void *data, unsigned int bits);

/*
 * strftime(fmt, ns) into buf: ns is CLOCK_MONOTONIC (nsecs, the kernel's
 * bpf_ktime_get_ns()), shown as the local wall-clock time it was. Any
 * value is a time (ns unsigned); empty only when fmt's text does not fit.
 */
void st_strftime_ns(char *buf, size_t size, const char *fmt, uint64_t ns);

/*
 * The -f json record of a call that printed text (its values vals): as
 * bpftrace's, print(value)'s is {"type": "value"}, an integer as a number,
 * a tuple as an array, a struct as an object, any other value as the text
 * print() prints; the others' are their text,
 * of the type their row names (printf's, cat()'s, "syscall" system()'s).
 */
void st_call_json(struct st_textbuf *tb, const struct st_expr *call, const struct st_key_val *vals,
		  const struct st_textbuf *text);

/* Writes the text of one printf (or its record, st_call_json()). Returns 0 or -errno of the write.
 */
int st_output_printf(FILE *out, const struct st_textbuf *text);

#endif /* SIDETRACE_OUTPUT_PRINTF_PRINT_H */
