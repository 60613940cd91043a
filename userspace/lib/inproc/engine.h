/* SPDX-License-Identifier: MIT */
/*
 * The in-process engine as the agent (agent.c) drives it: one session at a
 * time per process. See common/inproc_abi.h for the contract.
 */
#ifndef SIDE_INPROC_ENGINE_H
#define SIDE_INPROC_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include "common/inproc_abi.h"

/*
 * Validates the program (len bytes: struct st_ip_prog and what follows),
 * maps memfd, and registers a callback on every event the program's
 * probes name. 0, or a negative errno with reply->err saying why; either
 * way reply->status is set. memfd stays the caller's to close.
 */
int st_engine_attach(const void *prog, size_t len, int memfd, struct st_ip_reply *reply);

/*
 * Ends the session: unregisters the callbacks (waiting for those running
 * on other threads), then unmaps the memory. Nothing when none is attached.
 */
void st_engine_detach(void);

/* ST_IP_GO: a deferred session counts from now on. */
void st_engine_go(void);

/* Whether the session counts: not deferred, or since ST_IP_GO. */
bool st_engine_counting(void);

/*
 * In a forked child: the session is the parent's; forgets it without
 * waiting for anything (the child has one thread) and unmaps its memory.
 */
void st_engine_forget_in_child(void);

#endif /* SIDE_INPROC_ENGINE_H */
