// SPDX-License-Identifier: MIT
/*
 * libside runtime: the out-of-line call path taken when an event is
 * enabled, and the in-process tracers' callbacks on it.
 *
 * An event's enable word counts both kinds of tracer at once: the kernel
 * increments its low 16 bits (the USDT semaphore) per attached uprobe,
 * and each registered callback adds SIDE_ENABLED_USER_ONE above them. The
 * call site tests the whole word; side_call() runs callbacks only when
 * the user bits say there are some, so a kernel-only trace costs no RCU
 * section. The callback array is read under RCU (rcu.h): no lock, no
 * atomic instruction on the call path.
 */
#include <string.h>
#include "internal.h"
#include "rcu.h"

const char side_empty_callback[sizeof(void *) * 4] __attribute__((aligned(16)));

static pthread_mutex_t side_key_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t side_key_next = SIDE_KEY_RESERVED_RANGE_END;

static inline __attribute__((always_inline)) void
side_call_key(const struct side_event_state *state, const struct side_arg_vec *side_arg_vec,
	      const struct side_arg_dynamic_struct *var_struct, uint64_t key, void *caller)
{
	const struct side_event_state_0 *es0;
	const struct side_callback *cb;

	if (side_unlikely(state->version != SIDE_EVENT_STATE_ABI_VERSION))
		abort();
	es0 = side_container_of(state, const struct side_event_state_0, parent);
	if (!(__atomic_load_n(&es0->enabled, __ATOMIC_RELAXED) & ~SIDE_ENABLED_KERNEL_MASK))
		return;
	side_rcu_read_begin();
	for (cb = side_rcu_dereference(es0->callbacks); cb->u.call; cb++) {
		if (key != SIDE_KEY_MATCH_ALL && cb->key != SIDE_KEY_MATCH_ALL && cb->key != key)
			continue;
		if (var_struct)
			cb->u.call_variadic(es0->desc, side_arg_vec, var_struct, cb->priv, caller);
		else
			cb->u.call(es0->desc, side_arg_vec, cb->priv, caller);
	}
	side_rcu_read_end();
}

void side_call(const struct side_event_state *state, const struct side_arg_vec *side_arg_vec)
{
	side_call_key(state, side_arg_vec, NULL, SIDE_KEY_MATCH_ALL, __builtin_return_address(0));
}

void side_call_variadic(const struct side_event_state *state,
			const struct side_arg_vec *side_arg_vec,
			const struct side_arg_dynamic_struct *var_struct)
{
	side_call_key(state, side_arg_vec, var_struct, SIDE_KEY_MATCH_ALL,
		      __builtin_return_address(0));
}

/* Set while a site's callbacks run: whether its fallback was disarmed (side/probe.h). */
static __thread int side_site_in_process;

int side_call_in_process(void)
{
	return side_site_in_process;
}

/* The callbacks of a site's event, which they may emit again: the flag nests. */
static inline __attribute__((always_inline)) void
side_call_site(const struct side_event_state *state, const struct side_arg_vec *side_arg_vec,
	       const struct side_arg_dynamic_struct *var_struct, int in_process, void *caller)
{
	int outer = side_site_in_process;

	side_site_in_process = in_process;
	side_call_key(state, side_arg_vec, var_struct, SIDE_KEY_MATCH_ALL, caller);
	side_site_in_process = outer;
}

void side_call_from_site(const struct side_event_state *state,
			 const struct side_arg_vec *side_arg_vec, int in_process)
{
	side_call_site(state, side_arg_vec, NULL, in_process, __builtin_return_address(0));
}

void side_call_variadic_from_site(const struct side_event_state *state,
				  const struct side_arg_vec *side_arg_vec,
				  const struct side_arg_dynamic_struct *var_struct, int in_process)
{
	side_call_site(state, side_arg_vec, var_struct, in_process, __builtin_return_address(0));
}

void side_statedump_call(const struct side_event_state *state,
			 const struct side_arg_vec *side_arg_vec, void *statedump_request_key)
{
	side_call_key(state, side_arg_vec, NULL, *(const uint64_t *)statedump_request_key,
		      __builtin_return_address(0));
}

void side_statedump_call_variadic(const struct side_event_state *state,
				  const struct side_arg_vec *side_arg_vec,
				  const struct side_arg_dynamic_struct *var_struct,
				  void *statedump_request_key)
{
	side_call_key(state, side_arg_vec, var_struct, *(const uint64_t *)statedump_request_key,
		      __builtin_return_address(0));
}

int side_tracer_request_key(uint64_t *key)
{
	int ret = SIDE_ERROR_OK;

	pthread_mutex_lock(&side_key_lock);
	/* 2^64 keys: wrapping to 0 would hand out the match-all key. */
	if (!side_key_next)
		ret = SIDE_ERROR_NOMEM;
	else
		*key = side_key_next++;
	pthread_mutex_unlock(&side_key_lock);
	return ret;
}

static int side_callback_find(const struct side_event_state_0 *es0, void *call, void *priv,
			      uint64_t key)
{
	uint32_t i;

	for (i = 0; i < es0->nr_callbacks; i++)
		if ((void *)es0->callbacks[i].u.call == call && es0->callbacks[i].priv == priv &&
		    es0->callbacks[i].key == key)
			return (int)i;
	return -1;
}

/*
 * Publishes a new callback array (n entries) and frees the old one once
 * no call can still read it. Registry lock held.
 */
static void side_callbacks_replace(struct side_event_state_0 *es0, struct side_callback *new_cb,
				   uint32_t n)
{
	struct side_callback *old_cb = (struct side_callback *)es0->callbacks;

	side_rcu_assign_pointer(es0->callbacks, new_cb);
	side_rcu_synchronize();
	es0->nr_callbacks = n;
	if (old_cb != (const struct side_callback *)side_empty_callback)
		free(old_cb);
}

static int side_callback_add(struct side_event_description *desc, void *call, void *priv,
			     uint64_t key)
{
	struct side_event_state_0 *es0;
	struct side_callback *new_cb;
	uint32_t n;
	int ret = SIDE_ERROR_OK;

	if (!call)
		return SIDE_ERROR_INVAL;
	if (side_finalized)
		return SIDE_ERROR_EXITING;
	side_init();
	pthread_mutex_lock(&side_event_lock);
	es0 = side_state0(desc);
	n = es0->nr_callbacks;
	if (side_callback_find(es0, call, priv, key) >= 0) {
		ret = SIDE_ERROR_EXIST;
		goto cleanup;
	}
	/* n old ones, the new one, the NULL end. */
	new_cb = calloc(n + 2, sizeof(*new_cb));
	if (!new_cb) {
		ret = SIDE_ERROR_NOMEM;
		goto cleanup;
	}
	memcpy(new_cb, es0->callbacks, n * sizeof(*new_cb));
	new_cb[n].u.call = (side_tracer_callback_func)call;
	new_cb[n].priv = priv;
	new_cb[n].key = key;
	side_callbacks_replace(es0, new_cb, n + 1);
	/* Atomic: the kernel updates the low bits of the same word. */
	__atomic_add_fetch(&es0->enabled, SIDE_ENABLED_USER_ONE, __ATOMIC_SEQ_CST);
cleanup:
	pthread_mutex_unlock(&side_event_lock);
	return ret;
}

static int side_callback_remove(struct side_event_description *desc, void *call, void *priv,
				uint64_t key)
{
	struct side_callback *new_cb = (struct side_callback *)side_empty_callback;
	struct side_event_state_0 *es0;
	int ret = SIDE_ERROR_OK, pos;
	uint32_t n;

	if (!call)
		return SIDE_ERROR_INVAL;
	if (side_finalized)
		return SIDE_ERROR_EXITING;
	side_init();
	pthread_mutex_lock(&side_event_lock);
	es0 = side_state0(desc);
	n = es0->nr_callbacks;
	pos = side_callback_find(es0, call, priv, key);
	if (pos < 0) {
		ret = SIDE_ERROR_NOENT;
		goto cleanup;
	}
	if (n > 1) {
		/* n - 1 left, the NULL end. */
		new_cb = calloc(n, sizeof(*new_cb));
		if (!new_cb) {
			ret = SIDE_ERROR_NOMEM;
			goto cleanup;
		}
		memcpy(new_cb, es0->callbacks, pos * sizeof(*new_cb));
		memcpy(new_cb + pos, es0->callbacks + pos + 1, (n - pos - 1) * sizeof(*new_cb));
	}
	/* Disabled first: a call that still tests the word finds the new array. */
	__atomic_sub_fetch(&es0->enabled, SIDE_ENABLED_USER_ONE, __ATOMIC_SEQ_CST);
	side_callbacks_replace(es0, new_cb, n - 1);
cleanup:
	pthread_mutex_unlock(&side_event_lock);
	return ret;
}

void side_event_remove_callbacks(struct side_event_description *desc)
{
	struct side_event_state_0 *es0 = side_state0(desc);
	uint32_t n = es0->nr_callbacks;

	if (!n)
		return;
	__atomic_sub_fetch(&es0->enabled, n * SIDE_ENABLED_USER_ONE, __ATOMIC_SEQ_CST);
	side_callbacks_replace(es0, (struct side_callback *)side_empty_callback, 0);
}

int side_tracer_callback_register(struct side_event_description *desc,
				  side_tracer_callback_func call, void *priv, uint64_t key)
{
	if (!desc || desc->flags & SIDE_EVENT_FLAG_VARIADIC)
		return SIDE_ERROR_INVAL;
	return side_callback_add(desc, (void *)call, priv, key);
}

int side_tracer_callback_variadic_register(struct side_event_description *desc,
					   side_tracer_callback_variadic_func call_variadic,
					   void *priv, uint64_t key)
{
	if (!desc || !(desc->flags & SIDE_EVENT_FLAG_VARIADIC))
		return SIDE_ERROR_INVAL;
	return side_callback_add(desc, (void *)call_variadic, priv, key);
}

int side_tracer_callback_unregister(struct side_event_description *desc,
				    side_tracer_callback_func call, void *priv, uint64_t key)
{
	if (!desc || desc->flags & SIDE_EVENT_FLAG_VARIADIC)
		return SIDE_ERROR_INVAL;
	return side_callback_remove(desc, (void *)call, priv, key);
}

int side_tracer_callback_variadic_unregister(struct side_event_description *desc,
					     side_tracer_callback_variadic_func call_variadic,
					     void *priv, uint64_t key)
{
	if (!desc || !(desc->flags & SIDE_EVENT_FLAG_VARIADIC))
		return SIDE_ERROR_INVAL;
	return side_callback_remove(desc, (void *)call_variadic, priv, key);
}
