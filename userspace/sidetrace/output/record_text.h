/* SPDX-License-Identifier: MIT */
/*
 * A record of the per-event ring (bpf/sidetrace.h st_rec_hdr, then its
 * bytes) to the text it prints: a printf's values read where its layout
 * says (compile/records.c), print(args)'s items decoded with the event's
 * description (record_print.h). Records come from the kernel, or from an
 * in-process engine through memory its process can write: each is read
 * against its real size and what the program can send, and one that no
 * writer makes is malformed, never printed.
 */
#ifndef SIDETRACE_OUTPUT_RECORD_TEXT_H
#define SIDETRACE_OUTPUT_RECORD_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "compile/compile.h"
#include "output/record_print.h"
#include "util/textbuf.h"

/* How records are shown, and the buffers they are shown in. */
struct st_rec_view {
	const struct st_compiled *c;
	enum st_output_format fmt;
	bool term; /* text to a terminal: printf's %s and %c escaped (printf_print.h) */
	struct st_textbuf text; /* the last record's text */
	struct st_textbuf scratch; /* reused while a record is shown */
	/*
	 * ksym() (user false) or usym() of process pid: the function holding
	 * addr, malloc'ed; NULL: the address is printed.
	 */
	char *(*sym_text)(void *ctx, bool user, uint32_t pid, uint64_t addr);
	void *sym_ctx;
	/* The frames of stack value v (kstack, or ustack when user), a line each, malloc'ed */
	char *(*stack_text)(void *ctx, bool user, bool perf, uint64_t v);
	void *stack_ctx;
	char *stacks[ST_MAX_PRINTF_ARGS]; /* the last record's stacks, as printf prints them */
	/* The program's name and text, where -k's reports of failed helpers point */
	const char *file, *src;
};

/*
 * The text of the record at data, size bytes, into v->text (emptied
 * first, left empty when the record is malformed). ST_TEXT_MISMATCH: a
 * value of the record's probe was printed <unreadable> for a type its
 * event does not declare, a decode error to count. A printf's text is as
 * long as its format makes it; an event's is at most ST_REC_TEXT_MAX.
 */
enum st_text_verdict st_record_text(struct st_rec_view *v, const void *data, size_t size);

/*
 * The record at *off of a ring sample of size bytes (bpf/sidetrace.h: an
 * event's records are sent together), its size into *rec_size, *off moved
 * to the next one; NULL past the last. What is left of a sample too short
 * for the record its header says is returned whole, malformed.
 */
const void *st_record_next(const void *sample, size_t size, size_t *off, size_t *rec_size);

void st_rec_view_free(struct st_rec_view *v);

#endif /* SIDETRACE_OUTPUT_RECORD_TEXT_H */
