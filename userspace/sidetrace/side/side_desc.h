/* SPDX-License-Identifier: MIT */
/*
 * Decoding of SIDE event descriptions (libside layout) from an ELF file
 * into the events.h model. Internal to discovery.
 */
#ifndef SIDETRACE_SIDE_SIDE_DESC_H
#define SIDETRACE_SIDE_SIDE_DESC_H

#include <stdint.h>

#include "objfile/elf.h"
#include "events/events.h"

/*
 * Fill ev from the struct side_event_description at addr: names, log
 * level, flags, attributes and the field type tree. Each type node read
 * takes one from *budget, shared by the descriptions of a file. Returns 0
 * when the names were read (ev.error may still report a partial
 * description), or -1 when addr holds no readable description (ev.error
 * says why).
 */
int st_read_event_desc(const struct st_elf *e, uint64_t addr, struct st_event *ev,
		       unsigned long *budget);

#endif /* SIDETRACE_SIDE_SIDE_DESC_H */
