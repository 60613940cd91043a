// SPDX-License-Identifier: MIT
/*
 * libside runtime: statedump. An application (or library) registers a
 * callback that dumps its state as events; a tracer asks for a dump with
 * its key, and only that tracer's callbacks receive it. A new handle
 * queues one dump for every tracer (key 0).
 *
 * POLLING handles: the application runs what is pending from its own
 * loop. AGENT_THREAD handles: one runtime thread, shared by all of them
 * and started with the first, runs the dumps as they are asked for.
 */
#include <string.h>
#include "internal.h"

struct side_statedump_request {
	struct side_statedump_request *next;
	uint64_t key;
};

struct side_statedump_request_handle {
	struct side_statedump_request_handle *next;
	struct side_statedump_request *queue;
	void (*cb)(void *statedump_request_key);
	char *name;
	enum side_statedump_mode mode;
	/* Dumps of this handle running now: unregistration waits for 0. */
	int running;
};

static pthread_mutex_t side_statedump_lock = PTHREAD_MUTEX_INITIALIZER;
static void side_statedump_init(void);
/* The agent waits on work; registration and unregistration on the agent. */
static pthread_cond_t side_agent_work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t side_agent_done = PTHREAD_COND_INITIALIZER;
static struct side_statedump_request_handle *side_statedump_handles;
static struct {
	int ref;
	bool work, exit;
	pthread_t id;
} side_agent;

side_static_event(side_statedump_begin, "side", "statedump_begin", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_string("name")));
side_static_event(side_statedump_end, "side", "statedump_end", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_string("name")));

/* Lock held. */
static void side_statedump_queue(struct side_statedump_request_handle *h, uint64_t key)
{
	struct side_statedump_request *r = calloc(1, sizeof(*r)), **p;

	/* libside aborts too: a lost request would leave a tracer waiting for its dump. */
	if (!r)
		abort();
	r->key = key;
	for (p = &h->queue; *p; p = &(*p)->next)
		;
	*p = r;
	if (h->mode == SIDE_STATEDUMP_MODE_AGENT_THREAD) {
		side_agent.work = true;
		pthread_cond_broadcast(&side_agent_work);
	}
}

/* Lock held. Key 0 drops every request. */
static void side_statedump_unqueue(struct side_statedump_request_handle *h, uint64_t key)
{
	struct side_statedump_request **p = &h->queue, *r;

	while ((r = *p)) {
		if (key == SIDE_KEY_MATCH_ALL || r->key == key) {
			*p = r->next;
			free(r);
		} else {
			p = &r->next;
		}
	}
}

/* Runs the handle's queued dumps; lock not held, h->running counts us. */
static void side_statedump_run(struct side_statedump_request_handle *h,
			       struct side_statedump_request *queue)
{
	struct side_statedump_request *r, *next;

	for (r = queue; r; r = next) {
		next = r->next;
		side_statedump_event_call(side_statedump_begin, &r->key,
					  side_arg_list(side_arg_string(h->name)));
		h->cb(&r->key);
		side_statedump_event_call(side_statedump_end, &r->key,
					  side_arg_list(side_arg_string(h->name)));
		free(r);
	}
}

/* Lock held on entry and on return; released while the dumps run. */
static void side_statedump_take_and_run(struct side_statedump_request_handle *h)
{
	struct side_statedump_request *queue = h->queue;

	h->queue = NULL;
	h->running++;
	pthread_mutex_unlock(&side_statedump_lock);
	side_statedump_run(h, queue);
	pthread_mutex_lock(&side_statedump_lock);
	h->running--;
	pthread_cond_broadcast(&side_agent_done);
}

static void *side_agent_main(void *arg)
{
	struct side_statedump_request_handle *h;

	(void)arg;
	pthread_mutex_lock(&side_statedump_lock);
	for (;;) {
		while (!side_agent.work && !side_agent.exit)
			pthread_cond_wait(&side_agent_work, &side_statedump_lock);
		if (side_agent.exit)
			break;
		side_agent.work = false;
		/* From the head each time: the list may change while a dump runs. */
		for (h = side_statedump_handles; h;) {
			if (h->mode != SIDE_STATEDUMP_MODE_AGENT_THREAD || !h->queue) {
				h = h->next;
				continue;
			}
			side_statedump_take_and_run(h);
			h = side_statedump_handles;
		}
	}
	pthread_mutex_unlock(&side_statedump_lock);
	return NULL;
}

static struct side_statedump_request_handle *
side_statedump_handle_new(const char *name, void (*cb)(void *), enum side_statedump_mode mode)
{
	struct side_statedump_request_handle *h;

	if (!name || !cb ||
	    (mode != SIDE_STATEDUMP_MODE_POLLING && mode != SIDE_STATEDUMP_MODE_AGENT_THREAD))
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->name = strdup(name);
	if (!h->name) {
		free(h);
		return NULL;
	}
	h->cb = cb;
	h->mode = mode;
	return h;
}

struct side_statedump_request_handle *
side_statedump_request_notification_register(const char *state_name,
					     void (*statedump_cb)(void *statedump_request_key),
					     enum side_statedump_mode mode)
{
	struct side_statedump_request_handle *h, **p;

	static pthread_once_t once = PTHREAD_ONCE_INIT;

	if (side_finalized)
		return NULL;
	side_init();
	pthread_once(&once, side_statedump_init);
	h = side_statedump_handle_new(state_name, statedump_cb, mode);
	if (!h)
		return NULL;
	pthread_mutex_lock(&side_statedump_lock);
	if (mode == SIDE_STATEDUMP_MODE_AGENT_THREAD && !side_agent.ref++) {
		side_agent.exit = false;
		if (pthread_create(&side_agent.id, NULL, side_agent_main, NULL))
			abort();
	}
	for (p = &side_statedump_handles; *p; p = &(*p)->next)
		;
	*p = h;
	side_statedump_queue(h, SIDE_KEY_MATCH_ALL);
	/* As libside: the agent's first dump is over when registration returns. */
	while (mode == SIDE_STATEDUMP_MODE_AGENT_THREAD && (h->queue || h->running))
		pthread_cond_wait(&side_agent_done, &side_statedump_lock);
	pthread_mutex_unlock(&side_statedump_lock);
	return h;
}

void side_statedump_request_notification_unregister(struct side_statedump_request_handle *h)
{
	struct side_statedump_request_handle **p;
	bool join = false;

	if (!h || side_finalized)
		return;
	pthread_mutex_lock(&side_statedump_lock);
	side_statedump_unqueue(h, SIDE_KEY_MATCH_ALL);
	for (p = &side_statedump_handles; *p && *p != h; p = &(*p)->next)
		;
	if (*p)
		*p = h->next;
	while (h->running)
		pthread_cond_wait(&side_agent_done, &side_statedump_lock);
	if (h->mode == SIDE_STATEDUMP_MODE_AGENT_THREAD && !--side_agent.ref) {
		side_agent.exit = true;
		pthread_cond_broadcast(&side_agent_work);
		join = true;
	}
	pthread_mutex_unlock(&side_statedump_lock);
	if (join)
		pthread_join(side_agent.id, NULL);
	free(h->name);
	free(h);
}

bool side_statedump_poll_pending_requests(struct side_statedump_request_handle *h)
{
	bool ret;

	if (!h || h->mode != SIDE_STATEDUMP_MODE_POLLING)
		return false;
	pthread_mutex_lock(&side_statedump_lock);
	ret = h->queue != NULL;
	pthread_mutex_unlock(&side_statedump_lock);
	return ret;
}

int side_statedump_run_pending_requests(struct side_statedump_request_handle *h)
{
	if (!h || h->mode != SIDE_STATEDUMP_MODE_POLLING)
		return SIDE_ERROR_INVAL;
	pthread_mutex_lock(&side_statedump_lock);
	if (h->queue)
		side_statedump_take_and_run(h);
	pthread_mutex_unlock(&side_statedump_lock);
	return SIDE_ERROR_OK;
}

/* For each handle: queue (or, cancel, drop) a dump for the tracer with this key. */
static int side_statedump_for_key(uint64_t key, bool cancel)
{
	struct side_statedump_request_handle *h;

	if (key == SIDE_KEY_MATCH_ALL)
		return SIDE_ERROR_INVAL;
	pthread_mutex_lock(&side_statedump_lock);
	for (h = side_statedump_handles; h; h = h->next) {
		if (cancel)
			side_statedump_unqueue(h, key);
		else
			side_statedump_queue(h, key);
	}
	pthread_mutex_unlock(&side_statedump_lock);
	return SIDE_ERROR_OK;
}

int side_tracer_statedump_request(uint64_t key)
{
	return side_statedump_for_key(key, false);
}

int side_tracer_statedump_request_cancel(uint64_t key)
{
	return side_statedump_for_key(key, true);
}

static void side_statedump_before_fork(void)
{
	pthread_mutex_lock(&side_statedump_lock);
}

static void side_statedump_after_fork_parent(void)
{
	pthread_mutex_unlock(&side_statedump_lock);
}

/*
 * The child has no agent thread and none of the parent's dumps running:
 * it starts its own agent for the handles it inherits.
 */
static void side_statedump_after_fork_child(void)
{
	struct side_statedump_request_handle *h;

	for (h = side_statedump_handles; h; h = h->next)
		h->running = 0;
	pthread_cond_init(&side_agent_work, NULL);
	pthread_cond_init(&side_agent_done, NULL);
	if (side_agent.ref && pthread_create(&side_agent.id, NULL, side_agent_main, NULL))
		abort();
	pthread_mutex_unlock(&side_statedump_lock);
}

/*
 * At the first handle, not in side_init(): a program linked with
 * libside.a that never uses statedump then carries none of this file,
 * nor its two events.
 */
static void side_statedump_init(void)
{
	(void)pthread_atfork(side_statedump_before_fork, side_statedump_after_fork_parent,
			     side_statedump_after_fork_child);
}
