/* SPDX-License-Identifier: MIT */
/*
 * What the runtime's files share: the callback entry, the registry lock,
 * the life of the runtime. Not installed.
 */
#ifndef SIDE_LIB_INTERNAL_H
#define SIDE_LIB_INTERNAL_H

#include <pthread.h>
#include <side/trace.h>

/* Key 0 matches every key: a callback with it sees every statedump. */
#define SIDE_KEY_MATCH_ALL 0
/* Keys below this one are reserved, as in libside (user events, ptrace). */
#define SIDE_KEY_RESERVED_RANGE_END 0x8

/*
 * One in-process callback of an event. An event's array of them ends with
 * an entry whose function is NULL (side_empty_callback is such an array).
 */
struct side_callback {
	union {
		side_tracer_callback_func call;
		side_tracer_callback_variadic_func call_variadic;
	} u;
	void *priv;
	uint64_t key;
};

/*
 * Guards the registry, the tracers and every event's callback array.
 * Recursive: a tracer's notification callback registers callbacks.
 */
extern pthread_mutex_t side_event_lock __attribute__((visibility("hidden")));
extern bool side_initialized __attribute__((visibility("hidden")));
extern bool side_finalized __attribute__((visibility("hidden")));

static inline struct side_event_state_0 *side_state0(const struct side_event_description *desc)
{
	struct side_event_state *state = side_ptr_get(desc->state);

	/* A state this runtime cannot read: libside aborts too. */
	if (side_unlikely(state->version != SIDE_EVENT_STATE_ABI_VERSION))
		abort();
	return side_container_of(state, struct side_event_state_0, parent);
}

/*
 * Lists of nodes with next and pprev: appended in order of registration,
 * unlinked in constant time (the registry's, the probe sites').
 */
#define side_list_append(head, node) \
	do { \
		__typeof__(head) *p_ = &(head); \
		while (*p_) \
			p_ = &(*p_)->next; \
		(node)->next = NULL; \
		(node)->pprev = p_; \
		*p_ = (node); \
	} while (0)

#define side_list_unlink(node) \
	do { \
		*(node)->pprev = (node)->next; \
		if ((node)->next) \
			(node)->next->pprev = (node)->pprev; \
	} while (0)

/* Drops an unloading event's callbacks (registry lock held). */
void side_event_remove_callbacks(struct side_event_description *desc)
	__attribute__((visibility("hidden")));

/* Registers the fork handler that repairs probe sites in a child (sites.c). */
void side_sites_init(void) __attribute__((visibility("hidden")));

/*
 * The in-process engine serves the events of these nr enable words from
 * now on: their sites' fallbacks (side/probe.h) are disarmed in this
 * process, so that these events go to the engine (side_call_in_process())
 * and not to an in-process session's kernel side, whose breakpoints there
 * leave the enable words; a child forked later maps those pages again,
 * which arms them for it.
 */
void side_sites_disarm_fallbacks(uintptr_t *const *served, size_t nr)
	__attribute__((visibility("hidden")));

/*
 * Within a callback of an event emitted by a probe site: whether the site
 * found its fallback disarmed, so that the event is the in-process
 * engine's to count and no kernel probe saw it. 0 elsewhere.
 */
int side_call_in_process(void) __attribute__((visibility("hidden")));

/*
 * The in-process agent (inproc/agent.c), which uses the runtime and is
 * started by it: once per process, from side_init(), binds the socket and
 * starts the thread, unless SIDE_INPROC=0. In the process that
 * SIDE_INPROC_WAIT names, returns once the first attach is answered (or
 * after SIDE_INPROC_WAIT_MS ms); agent.c describes the variables.
 */
void st_agent_start(void) __attribute__((visibility("hidden")));

#endif /* SIDE_LIB_INTERNAL_H */
