/* SPDX-License-Identifier: MIT */
/*
 * The records of the functions that print from the collector, beside
 * printf: join()'s strings (bpf/sidetrace.h ST_REC_JOIN).
 */
#ifndef SIDETRACE_OUTPUT_RECORD_CALLS_H
#define SIDETRACE_OUTPUT_RECORD_CALLS_H

#include "output/record_text.h"

/* A join() record of len bytes at data: its strings joined, a line. */
enum st_text_verdict st_join_text(struct st_rec_view *v, const struct st_rec_hdr *h,
				  const uint8_t *data);

#endif /* SIDETRACE_OUTPUT_RECORD_CALLS_H */
