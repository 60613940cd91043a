// SPDX-License-Identifier: MIT
/*
 * libside runtime: the registry of loaded events and the out-of-line call
 * path taken when an event is enabled. In-process tracer callbacks (a later
 * issue) hang off each event state's callbacks array; with none registered
 * side_call() returns at once.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <side/trace.h>

const char side_empty_callback[sizeof(void *) * 4] __attribute__((aligned(16)));

struct side_events_register_handle {
	struct side_events_register_handle *next;
	struct side_event_description **events;
	uint32_t nr_events;
};

static pthread_mutex_t side_lock = PTHREAD_MUTEX_INITIALIZER;
static struct side_events_register_handle *side_handles;

/* Returns 0 when the description can be read by this runtime. */
static int side_check_description(const struct side_event_description *desc)
{
	const char *provider, *event;

	if (!desc) {
		fprintf(stderr, "libside: null event description pointer, ignored\n");
		return -1;
	}
	if (desc->version != SIDE_EVENT_DESCRIPTION_ABI_VERSION ||
	    desc->struct_size < offsetof(struct side_event_description, end)) {
		fprintf(stderr,
			"libside: event description ABI version %u (size %u) cannot be read "
			"by this runtime (version %u), ignored\n",
			desc->version, desc->struct_size, SIDE_EVENT_DESCRIPTION_ABI_VERSION);
		return -1;
	}
	provider = side_ptr_get(desc->provider_name);
	event = side_ptr_get(desc->event_name);
	if (!provider || !event || !*provider || !*event) {
		fprintf(stderr,
			"libside: event description with a null or empty %s name, ignored\n",
			!provider || !*provider ? "provider" : "event");
		return -1;
	}
	return 0;
}

/*
 * Duplicated field names make a field unreachable by name for every tracer.
 * The compiler catches them at the call sites of optimized builds; this
 * covers the rest (events without call sites, -O0, nested structs).
 */
#define SIDE_CHECK_MAX_DEPTH 8

static void side_check_field_names(const struct side_event_description *desc,
				   const struct side_event_field *fields, uint32_t nr,
				   const char *where, int depth)
{
	uint32_t i, j;

	if (!fields || depth > SIDE_CHECK_MAX_DEPTH)
		return;
	for (i = 0; i < nr; i++) {
		const char *name = side_ptr_get(fields[i].field_name);
		const struct side_type *type = &fields[i].side_type;

		if (!name) {
			fprintf(stderr, "libside: event %s:%s: %s field %u has a null name\n",
				side_ptr_get(desc->provider_name), side_ptr_get(desc->event_name),
				where, i);
			continue;
		}
		for (j = i + 1; j < nr; j++) {
			const char *other = side_ptr_get(fields[j].field_name);

			if (other && !strcmp(name, other))
				fprintf(stderr,
					"libside: event %s:%s: %s fields %u and %u have the same "
					"name \"%s\"\n",
					side_ptr_get(desc->provider_name),
					side_ptr_get(desc->event_name), where, i, j, name);
		}
		if (type->type.v == SIDE_TYPE_STRUCT && side_ptr_get(type->u.side_struct)) {
			const struct side_type_struct *st = side_ptr_get(type->u.side_struct);

			side_check_field_names(desc, side_ptr_get(st->fields.elements),
					       st->fields.length, "nested struct", depth + 1);
		}
	}
}

struct side_events_register_handle *side_events_register(struct side_event_description **events,
							 uint32_t nr_events)
{
	struct side_events_register_handle *handle;
	uint32_t i;

	for (i = 0; i < nr_events; i++) {
		if (side_check_description(events[i]))
			continue;
		side_check_field_names(events[i], side_ptr_get(events[i]->fields.elements),
				       events[i]->fields.length, "top-level", 0);
	}
	handle = calloc(1, sizeof(*handle));
	if (!handle)
		return NULL;
	handle->events = events;
	handle->nr_events = nr_events;
	pthread_mutex_lock(&side_lock);
	handle->next = side_handles;
	side_handles = handle;
	pthread_mutex_unlock(&side_lock);
	return handle;
}

void side_events_unregister(struct side_events_register_handle *handle)
{
	struct side_events_register_handle **p;

	if (!handle)
		return;
	pthread_mutex_lock(&side_lock);
	for (p = &side_handles; *p; p = &(*p)->next) {
		if (*p == handle) {
			*p = handle->next;
			break;
		}
	}
	pthread_mutex_unlock(&side_lock);
	free(handle);
}

int side_for_each_event(int (*fn)(struct side_event_description *desc, void *priv), void *priv)
{
	struct side_events_register_handle *h;
	uint32_t i;
	int ret = 0;

	pthread_mutex_lock(&side_lock);
	for (h = side_handles; h && !ret; h = h->next)
		for (i = 0; i < h->nr_events && !ret; i++)
			if (h->events[i])
				ret = fn(h->events[i], priv);
	pthread_mutex_unlock(&side_lock);
	return ret;
}

void side_call(const struct side_event_state *state, const struct side_arg_vec *side_arg_vec)
{
	const struct side_event_state_0 *s = (const struct side_event_state_0 *)state;

	(void)side_arg_vec;
	/* Only the kernel semaphore is set: nothing to do in process. */
	if (!(__atomic_load_n(&s->enabled, __ATOMIC_RELAXED) & ~SIDE_ENABLED_KERNEL_MASK))
		return;
}

void side_call_variadic(const struct side_event_state *state,
			const struct side_arg_vec *side_arg_vec,
			const struct side_arg_dynamic_struct *var_struct)
{
	(void)var_struct;
	side_call(state, side_arg_vec);
}
