/* SPDX-License-Identifier: MIT */
/*
 * printf's format language, bpftrace's: %d %i %u %x %X %o %c %s %p, %r
 * %rx %rh (a buffer's bytes) and %%,
 * with flags (- 0 + space #), width, precision and the length modifiers
 * hh, h, l, ll; a '%' that starts none of them is text, as bpftrace
 * prints it. Integers are 64-bit values: no modifier, l and ll print
 * all 64 bits (as bpftrace does); h and hh print the low 16 and 8.
 * Floating-point fields print with C's %f %F %e %E %g %G %a %A (l allowed,
 * as C allows it): the program carries their bits, the collector formats
 * them, since BPF has no floating point. The
 * checker parses a format once (st_format_parse), the collector formats
 * with it (output/printf_format.c).
 */
#ifndef SIDETRACE_PARSE_FORMAT_H
#define SIDETRACE_PARSE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How print(args) shows a float, in text and JSON, whichever path made the line. */
#define ST_PRINT_ARGS_FLOAT "%g"

/* Most conversions in one format: each is one value of the record. */
#define ST_MAX_PRINTF_ARGS 16

/* What a conversion takes. */
enum st_conv_arg {
	ST_CONV_SIGNED, /* d i */
	ST_CONV_UNSIGNED, /* u x X o */
	ST_CONV_CHAR, /* c: an integer printed as its low byte */
	ST_CONV_PTR, /* p: an integer printed as 0x... */
	ST_CONV_STR, /* s */
	ST_CONV_FLOAT, /* f F e E g G a A: a floating-point field's bits */
	ST_CONV_BUF, /* r rx rh: a buf()'s bytes, bpftrace's escapes, all hex, or hex bytes */
};

struct st_conv {
	enum st_conv_arg arg;
	uint8_t bits; /* 64, 16 (h) or 8 (hh) */
	char buf_style; /* ST_CONV_BUF: 'r', 'x' or 'h' (output/kept_text.h st_buf_text()) */
	char spec[32]; /* the C format that prints it: flags, width, precision */
	/* Printed without snprintf(): %s, or %d, %i, %u of 64 bits, no flag, width nor precision */
	bool plain;
};

/* A format is literal text and conversions, in order. */
struct st_fmt_piece {
	bool is_conv;
	uint32_t off, len; /* literal: bytes of st_format.text */
	struct st_conv conv;
};

struct st_format {
	char *text; /* the format, escapes decoded */
	struct st_fmt_piece *pieces;
	uint32_t nr_pieces;
	uint32_t nr_convs;
};

/*
 * Parses text. Returns 0, -ENOMEM, or -EINVAL with a message for a person
 * in err and the byte offset of the fault in *at.
 */
int st_format_parse(const char *text, struct st_format *out, char *err, size_t errlen,
		    uint32_t *at);
void st_format_free(struct st_format *f);

#endif /* SIDETRACE_PARSE_FORMAT_H */
