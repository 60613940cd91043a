/* SPDX-License-Identifier: MIT */
/*
 * Kernel tracepoints as tracefs describes them: where a field of a
 * tracepoint's record is on the running kernel (its format file).
 */
#ifndef SIDETRACE_OBJFILE_TRACEFS_H
#define SIDETRACE_OBJFILE_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A field of a tracepoint's record. */
struct st_tp_field {
	uint32_t offset;
	uint32_t size;
};

/* One "field:" line of a format file, parsed: its declaration split. */
struct st_tp_format_line {
	char *type; /* the declaration without its name and bounds: "const char *" */
	char *name;
	bool array; /* declared with [N] or [] */
	struct st_tp_field where;
	bool is_signed;
};

/* Where tracefs is mounted, mounting it at its usual place if it is nowhere; NULL: nowhere. */
const char *st_tracefs_dir(void);

/*
 * Parses line (changed in place; out points into it): 1 for a field
 * line, 0 for another line.
 */
int st_tp_format_line(char *line, struct st_tp_format_line *out);

/*
 * Finds field in the record of tracepoint category:event. 0; -ENOENT when
 * the kernel's record has no such field (err says so); another negative
 * errno with the reason in err when the format cannot be read (tracefs is
 * mounted here when it is not mounted anywhere).
 */
int st_tp_field(const char *category, const char *event, const char *field, struct st_tp_field *out,
		char *err, size_t errlen);

#endif /* SIDETRACE_OBJFILE_TRACEFS_H */
