/* SPDX-License-Identifier: MIT */
/* The checks of a program before the engine runs it (validate.c). */
#ifndef SIDE_INPROC_VALIDATE_H
#define SIDE_INPROC_VALIDATE_H

#include <stddef.h>
#include "common/inproc_abi.h"

/* The parts of a valid program, inside the buffer it came in. */
struct st_ip_parts {
	const struct st_map_cfg *maps;
	const struct st_ip_event *events;
	const struct st_probe_cfg *probes;
	struct st_shm_layout lay;
};

/*
 * 0 when the len bytes at buf are a program the engine can run on a
 * memfd of memfd_size bytes; else -EINVAL and reply->err says why.
 */
int st_validate(const void *buf, size_t len, uint64_t memfd_size, struct st_ip_parts *out,
		struct st_ip_reply *reply);

#endif /* SIDE_INPROC_VALIDATE_H */
