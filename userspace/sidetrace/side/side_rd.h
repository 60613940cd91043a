/* SPDX-License-Identifier: MIT */
/*
 * Bounded reads of SIDE description data from an ELF file, and the
 * rendering of attributes: what side_desc.c builds types with. A failed
 * read records the first problem and reads as nothing; internal to
 * discovery.
 */
#ifndef SIDETRACE_SIDE_SIDE_RD_H
#define SIDETRACE_SIDE_SIDE_RD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "objfile/elf.h"

struct rd {
	const struct st_elf *e;
	unsigned int nodes;
	unsigned long *budget; /* nodes left for the whole file */
	unsigned int nr_errors;
	char err[256];
};

/* Records the first problem of a description. */
void rd_fail(struct rd *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* len bytes at addr, or false with "what" recorded as unreadable. */
bool rd_read(struct rd *rd, uint64_t addr, void *buf, size_t len, const char *what);
/* The pointer in slot, relocated; a null pointer is a failure too. */
bool rd_ptr(struct rd *rd, uint64_t slot, uint64_t *v, const char *what);
/* The string the pointer in slot names, as UTF-8 (malloc'ed), or NULL. */
char *rd_str(struct rd *rd, uint64_t slot, unsigned int unit_size, const char *what);
/* The struct side_type_raw_string at addr (malloc'ed), or NULL. */
char *rd_raw_string(struct rd *rd, uint64_t addr, const char *what);
/* The attribute array the pointer in slot names, as "key=value, ...", or NULL. */
char *rd_attrs(struct rd *rd, uint64_t slot, uint32_t len);

#endif /* SIDETRACE_SIDE_SIDE_RD_H */
