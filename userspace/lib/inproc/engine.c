// SPDX-License-Identifier: MIT
/*
 * The in-process session: a program validated, its shared memory mapped,
 * and a callback on every event description of the process that one of
 * its probes names, through the tracer API like any in-process tracer
 * (objects loaded later are heard of by the notification). Each call runs
 * the kernel's program on the event (engine_prog.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <side/probe.h>
#include <side/trace.h>
#include "../internal.h"
#include "host.h"
#include "engine.h"
#include "engine_state.h"
#include "validate.h"
#include "common/cgroup.h"
#include "common/shm_layout.h"

struct st_engine st_eng;

static void run_event(const struct side_event_description *desc, const struct side_arg_vec *vec,
		      const struct side_arg_dynamic_struct *var_struct, void *priv)
{
	uint32_t nr = desc->fields.length, max = SIDE_SDT_MAX_VALUES, probe = (uintptr_t)priv;
	const struct st_ip_event *ev = &st_eng.events[probe];
	/* Its literals by address only where the collector found this description. */
	bool lit = ev->ro_len && (uintptr_t)desc == ev->ro_desc;
	struct st_host_ctx ctx;

	/*
	 * A forked child's copy of the parent's session (see
	 * st_engine_forget_in_child()); an event that went past an armed
	 * fallback, before ST_IP_GO or elsewhere, which the kernel counted.
	 */
	if (!__atomic_load_n(&st_eng.attached, __ATOMIC_ACQUIRE) || !side_call_in_process())
		return;
	if (desc->flags & SIDE_EVENT_FLAG_VARIADIC)
		max = SIDE_SDT_MAX_VALUES_VARIADIC;
	ctx.cookie = ST_COOKIE(lit ? probe : st_eng.prog.nr_probes, probe, 0);
	ctx.ip = lit ? ev->ro_ip : 0;
	ctx.desc = desc;
	ctx.vec = vec;
	ctx.var_struct = var_struct;
	ctx.nr_values = nr < max ? nr : max;
	st_host_ctx_args(&ctx);
	if (ev->run == ST_IP_RUN_KEYED)
		st_prog_keyed(&ctx);
	else
		st_prog_event(&ctx);
}

static void on_call(const struct side_event_description *desc, const struct side_arg_vec *vec,
		    void *priv, void *caller_addr)
{
	run_event(desc, vec, NULL, priv);
}

static void on_call_variadic(const struct side_event_description *desc,
			     const struct side_arg_vec *vec,
			     const struct side_arg_dynamic_struct *var_struct, void *priv,
			     void *caller_addr)
{
	run_event(desc, vec, var_struct, priv);
}

/* The probe that serves desc, or -1. */
static int probe_of(const struct side_event_description *desc)
{
	const char *provider = side_ptr_get(desc->provider_name);
	const char *name = side_ptr_get(desc->event_name);
	bool variadic = desc->flags & SIDE_EVENT_FLAG_VARIADIC;
	uint32_t i;

	for (i = 0; i < st_eng.prog.nr_probes; i++) {
		const struct st_ip_event *ev = &st_eng.events[i];

		if (ev->nr_fields == desc->fields.length && ev->variadic == variadic &&
		    !strcmp(ev->provider, provider) && !strcmp(ev->name, name))
			return i;
	}
	return -1;
}

/* The kernel's fallback probes of the served events stop trapping here (sites.c). */
static void disarm_served(void)
{
	side_sites_disarm_fallbacks(st_eng.served, st_eng.nr_served);
}

/* desc's enable word among the served ones, whose fallbacks ST_IP_GO disarms. */
static void served_add(struct side_event_description *desc)
{
	uintptr_t **more;

	more = realloc(st_eng.served, (st_eng.nr_served + 1) * sizeof(*more));
	if (!more)
		return;
	st_eng.served = more;
	st_eng.served[st_eng.nr_served++] = &side_state0(desc)->enabled;
}

/* Registers (add) or unregisters the callback of each event a probe names. */
static void hook_events(struct side_event_description **events, uint32_t nr, bool add)
{
	uint32_t i;
	int probe, err;

	for (i = 0; i < nr; i++) {
		struct side_event_description *desc = events[i];
		void *priv;

		probe = desc ? probe_of(desc) : -1;
		if (probe < 0)
			continue;
		priv = (void *)(uintptr_t)probe;
		if (desc->flags & SIDE_EVENT_FLAG_VARIADIC)
			err = add ? side_tracer_callback_variadic_register(desc, on_call_variadic,
									   priv, st_eng.tracer_key)
				  : side_tracer_callback_variadic_unregister(
					    desc, on_call_variadic, priv, st_eng.tracer_key);
		else
			err = add ? side_tracer_callback_register(desc, on_call, priv,
								  st_eng.tracer_key)
				  : side_tracer_callback_unregister(desc, on_call, priv,
								    st_eng.tracer_key);
		if (!err && add) {
			st_eng.nr_events++;
			served_add(desc);
		}
	}
	/* Objects loaded after ST_IP_GO (the -c command's own, during its wait). */
	if (add && st_engine_counting())
		disarm_served();
}

static void notified(enum side_tracer_notification notif, struct side_event_description **events,
		     uint32_t nr, void *priv)
{
	hook_events(events, nr, notif == SIDE_TRACER_NOTIFICATION_INSERT_EVENTS);
}

/* Private copies of the validated program: the collector keeps no handle on them. */
static int copy_program(const struct st_ip_prog *p, const struct st_ip_parts *parts)
{
	uint32_t n = p->nr_probes, i;

	st_eng.prog = *p;
	st_eng.events = calloc(n, sizeof(*st_eng.events));
	st_eng.probes = calloc(n, sizeof(*st_eng.probes));
	st_eng.fault_armed = calloc(n, sizeof(*st_eng.fault_armed));
	st_eng.sites = calloc(n + 1, sizeof(*st_eng.sites));
	if (!st_eng.events || !st_eng.probes || !st_eng.fault_armed || !st_eng.sites)
		return -ENOMEM;
	memcpy(st_eng.events, parts->events, n * sizeof(*st_eng.events));
	memcpy(st_eng.probes, parts->probes, n * sizeof(*st_eng.probes));
	st_prog_configure(parts->maps, p->nr_maps, p->key_words, p->ckey_words);
	for (i = 0; i <= n; i++) {
		struct st_site_cfg *s = &st_eng.sites[i];
		uint32_t a;

		for (a = 0; a < ST_MAX_SDT_ARGS; a++)
			s->args[a] = (struct st_arg_spec){.loc = ST_LOC_REG, .reg = a, .size = 8};
		if (i == n)
			break;
		s->ro_lo = st_eng.events[i].ro_lo;
		s->ro_len = st_eng.events[i].ro_len;
		s->ro_site = st_eng.events[i].ro_site;
	}
	return 0;
}

/* Maps the shared memory and finds its parts; false if it is not laid out as said. */
static bool map_memory(int memfd, const struct st_shm_layout *lay, struct st_ip_reply *reply)
{
	char *base;

	/* Populated: the first lap of the ring takes no page faults in the application's events. */
	base = mmap(NULL, lay->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, memfd, 0);
	if (base == MAP_FAILED) {
		snprintf(reply->err, sizeof(reply->err), "cannot map the shared memory: %s",
			 strerror(errno));
		return false;
	}
	st_eng.shm = base;
	st_eng.lay = *lay;
	st_eng.hdr = (void *)base;
	st_eng.counters = (void *)(base + lay->counters);
	st_eng.flat = (void *)(base + lay->flat);
	st_eng.aggr = (void *)(base + lay->aggr);
	st_eng.compact = (void *)(base + lay->compact);
	st_eng.values = (void *)(base + lay->values);
	st_eng.ring = (void *)(base + lay->ring);
	st_eng.ring_tail_seen = 0;
	if (st_eng.hdr->magic != ST_SHM_MAGIC || st_eng.hdr->version != ST_IP_VERSION ||
	    !st_shm_geoms(&st_eng.prog.shm, &st_eng.aggr_geom, &st_eng.compact_geom,
			  &st_eng.values_geom) ||
	    !st_shm_hash_check(&st_eng.aggr_geom, st_eng.aggr) ||
	    !st_shm_hash_check(&st_eng.compact_geom, st_eng.compact) ||
	    !st_shm_hash_check(&st_eng.values_geom, st_eng.values) ||
	    !st_shm_ring_check(st_eng.ring, st_eng.prog.shm.ring_size)) {
		snprintf(reply->err, sizeof(reply->err),
			 "the shared memory is not laid out as "
			 "the program says");
		return false;
	}
	return true;
}

static void release(void)
{
	if (st_eng.shm)
		munmap(st_eng.shm, st_eng.lay.size);
	free(st_eng.events);
	free(st_eng.probes);
	free(st_eng.fault_armed);
	free(st_eng.sites);
	free(st_eng.served);
	/* All but the count of sessions, which tells threads that theirs ended. */
	st_eng = (struct st_engine){.gen = st_eng.gen};
}

int st_engine_attach(const void *prog, size_t len, int memfd, struct st_ip_reply *reply)
{
	struct st_ip_parts parts;
	struct stat st;
	int err;

	memset(reply, 0, sizeof(*reply));
	if (st_eng.notif) {
		snprintf(reply->err, sizeof(reply->err), "a session is attached already");
		err = -EBUSY;
		goto out;
	}
	if (fstat(memfd, &st)) {
		err = -errno;
		snprintf(reply->err, sizeof(reply->err), "no shared memory: %s", strerror(errno));
		goto out;
	}
	err = st_validate(prog, len, st.st_size, &parts, reply);
	if (err)
		goto out;
	err = copy_program(prog, &parts);
	if (!err && !map_memory(memfd, &parts.lay, reply))
		err = -EINVAL;
	if (!err)
		err = st_host_session_start();
	if (!err && side_tracer_request_key(&st_eng.tracer_key))
		err = -ENOMEM;
	if (err)
		goto cleanup;
	st_eng.cgroup_id = st_self_cgroup_id();
	st_eng.counting = !st_eng.prog.deferred;
	__atomic_add_fetch(&st_eng.gen, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&st_eng.attached, true, __ATOMIC_RELEASE);
	st_eng.notif = side_tracer_event_notification_register(notified, NULL);
	if (!st_eng.notif) {
		err = -ENOMEM;
		goto cleanup;
	}
	reply->nr_events = st_eng.nr_events;
	goto out;
cleanup:
	__atomic_store_n(&st_eng.attached, false, __ATOMIC_RELEASE);
	st_host_session_end();
	release();
	if (!reply->err[0])
		snprintf(reply->err, sizeof(reply->err), "%s", strerror(-err));
out:
	reply->status = err;
	return err;
}

/*
 * Counting starts: the served events' fallbacks are disarmed, so that
 * each event from then on is the engine's, and none the kernel's.
 */
void st_engine_go(void)
{
	if (!st_eng.attached)
		return;
	/* The registry's lock: the served events grow under it (hook_events()). */
	pthread_mutex_lock(&side_event_lock);
	__atomic_store_n(&st_eng.counting, true, __ATOMIC_RELEASE);
	disarm_served();
	pthread_mutex_unlock(&side_event_lock);
}

bool st_engine_counting(void)
{
	return __atomic_load_n(&st_eng.counting, __ATOMIC_ACQUIRE);
}

void st_engine_detach(void)
{
	if (!st_eng.notif && !st_eng.shm)
		return;
	/* Its REMOVE for every object unregisters every callback, each waiting for its callers. */
	if (st_eng.notif)
		side_tracer_event_notification_unregister(st_eng.notif);
	__atomic_store_n(&st_eng.attached, false, __ATOMIC_RELEASE);
	st_host_session_end();
	release();
}

/*
 * The child's callbacks still point here, and unregistering them would
 * take the runtime's locks, which fork() may have copied held: the
 * session only stops answering (one flag per call) until the child's
 * agent calls st_engine_detach(), and its memory is unmapped.
 */
void st_engine_forget_in_child(void)
{
	__atomic_store_n(&st_eng.attached, false, __ATOMIC_RELEASE);
	if (st_eng.shm)
		munmap(st_eng.shm, st_eng.lay.size);
	st_eng.shm = NULL;
}
