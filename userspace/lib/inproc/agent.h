/* SPDX-License-Identifier: MIT */
/*
 * The runtime's in-process agent (agent.c): the thread that serves the
 * control socket of common/inproc_abi.h and drives the engine (engine.h).
 */
#ifndef SIDE_INPROC_AGENT_H
#define SIDE_INPROC_AGENT_H

/*
 * Once per process, from side_init(): binds the socket and starts the
 * thread, unless SIDE_INPROC=0. In the process that SIDE_INPROC_WAIT
 * names, returns once the first attach is answered (or after
 * SIDE_INPROC_WAIT_MS ms); agent.c describes the variables.
 */
void st_agent_start(void) __attribute__((visibility("hidden")));

#endif /* SIDE_INPROC_AGENT_H */
