/* SPDX-License-Identifier: MIT */
/*
 * Reads of the application's memory that never fault, for the engine's
 * bpf_probe_read_user*(): what the event's arguments point to may be
 * damaged, and the engine runs inside the application.
 */
#ifndef SIDE_INPROC_READABLE_H
#define SIDE_INPROC_READABLE_H

/* Learns the process's readable memory; 0 or a negative errno. */
int st_readable_init(void);
void st_readable_free(void);

#endif /* SIDE_INPROC_READABLE_H */
