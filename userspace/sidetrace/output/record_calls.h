/* SPDX-License-Identifier: MIT */
/*
 * The records of the functions that print from the collector, beside
 * printf: join()'s strings (bpf/sidetrace.h ST_REC_JOIN), and the
 * printf records whose text is a command (system()) or a file (cat()).
 */
#ifndef SIDETRACE_OUTPUT_RECORD_CALLS_H
#define SIDETRACE_OUTPUT_RECORD_CALLS_H

#include "parse/functions.h"
#include "output/record_text.h"

/* A join() record of len bytes at data: its strings joined, a line. */
enum st_text_verdict st_join_text(struct st_rec_view *v, const struct st_rec_hdr *h,
				  const uint8_t *data);

/* Whether a printf-like statement of code acts with its text: system(), cat(). */
bool st_call_acts(enum st_fn_code code);

/*
 * system(): text run with sh -c, replaced by what the command printed;
 * cat(): text a path, replaced by the file's first cat_bytes bytes. A
 * command or file that cannot be started or opened is said on stderr.
 * Other codes: text as it is.
 */
void st_call_act(enum st_fn_code code, struct st_textbuf *text, uint32_t cat_bytes);

#endif /* SIDETRACE_OUTPUT_RECORD_CALLS_H */
