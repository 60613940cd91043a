/* SPDX-License-Identifier: MIT */
/*
 * print(args): a whole event's record (ST_REC_EVENT, items of
 * bpf/sidetrace.h) decoded with the event's description and printed on
 * one line, as bpftrace prints a struct ({ .name = value, ... }: strings
 * quoted and escaped, nested structs in braces, arrays and vlas in
 * brackets, enums by their label), or under -f json as
 * {"type": "event", "probe": ..., "pid": ..., "tid": ..., "time_ns": ...,
 * "data": {...typed fields...}}. Attributes are left out. A value that
 * could not be read is <unreadable> (null); a cut record ends in "..."
 * ("cut": true).
 */
#ifndef SIDETRACE_OUTPUT_RECORD_PRINT_H
#define SIDETRACE_OUTPUT_RECORD_PRINT_H

#include <stddef.h>
#include <stdint.h>

#include "events/events.h"
#include "output/maps_print.h"
#include "sidetrace.h"
#include "util/textbuf.h"

/*
 * The most text one record may make, its newline included. Records of
 * ST_REC_MAX bytes of items, each a short value or a name from the
 * description, make far less: a record that would make more was made to
 * flood the output (an in-process engine writes where its process can),
 * and is dropped.
 */
#define ST_REC_TEXT_MAX (64 * 1024)

enum st_text_verdict {
	ST_TEXT_OK,
	/* A value's type contradicted the declaration (printed <unreadable>): a decode error. */
	ST_TEXT_MISMATCH,
	/*
	 * Nothing appended: no writer made this record (an item cut inside
	 * it, values nested deeper than any event, more than
	 * ST_REC_TEXT_MAX of text).
	 */
	ST_TEXT_MALFORMED,
};

/*
 * Appends the event of a record (h, then len bytes of items) to tb, with
 * its newline, unless it is malformed. Each item is read within the len
 * bytes, and the work ends with the budget of text.
 */
enum st_text_verdict st_format_event(struct st_textbuf *tb, enum st_output_format fmt,
				     const struct st_event *ev, const char *probe,
				     const struct st_rec_hdr *h, const uint8_t *items, size_t len);

/*
 * Appends, as the JSON document of an event (the same head), the n
 * fields named names with values vals: print(args) of located fields,
 * whose record is a printf's (ST_REC_ARGS).
 */
void st_format_fields_json(struct st_textbuf *tb, const char *probe, const struct st_rec_hdr *h,
			   const char *const *names, const struct st_key_val *vals, uint32_t n);

#endif /* SIDETRACE_OUTPUT_RECORD_PRINT_H */
