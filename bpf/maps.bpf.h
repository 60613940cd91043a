/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The state the programs share with the collector: the configuration it
 * writes before load (st_maps, st_key_words, st_ckey_words) or into maps
 * (st_probes, st_sites), the maps it reads back (st_flat, st_aggr,
 * st_aggr_compact, st_counters), the exit flag, and the helpers that
 * touch them from every other fragment: count() for the per-probe
 * counters, lookup_or_try_init() for the aggregation hashes, map_cfg()
 * for a map's configuration and cookie_cfg() for a site's and a probe's.
 * Layouts are in sidetrace.h.
 */
#ifndef SIDETRACE_MAPS_BPF_H
#define SIDETRACE_MAPS_BPF_H

/*
 * What the collector sets before load, constants to the verifier. The
 * in-process engine, which compiles these fragments for the host
 * (userspace/lib/inproc/bpf_host.h), sets them when a session attaches.
 */
#ifndef ST_LOAD_CONST
#define ST_LOAD_CONST const volatile
#endif

/* Set by the collector before load. */
ST_LOAD_CONST struct st_map_cfg st_maps[ST_MAX_MAPS];

_Static_assert(!(ST_MAX_MAPS & (ST_MAX_MAPS - 1)), "map_cfg() masks a map index");

/*
 * The configuration of map id, NULL past ST_MAX_MAPS. After the check the
 * index is masked behind a barrier that keeps the compiler from dropping
 * the mask, so every use is bounded: a compiler may index with a copy
 * made before the check, which the 6.1 verifier knows only by its type.
 */
static __always_inline const volatile struct st_map_cfg *map_cfg(__u32 id)
{
	if (id >= ST_MAX_MAPS)
		return NULL;
	barrier_var(id);
	return &st_maps[id & (ST_MAX_MAPS - 1)];
}

/*
 * Set by the collector before load: the 8-byte words after the header
 * that the largest hash key uses (parts and bucket). The verifier sees
 * the constant, so clearing a key walks only those.
 */
ST_LOAD_CONST __u32 st_key_words;
ST_LOAD_CONST __u32 st_ckey_words; /* the same for compact keys */

/*
 * Set by the collector before load: bit op (enum st_opcode) set when some
 * clause of the session has that instruction. The stack machine's code
 * of the others is then dead to the verifier, which loads it sooner.
 */
ST_LOAD_CONST __u64 st_ops_used;
_Static_assert(ST_NR_OPCODES <= 64, "st_ops_used has a bit per opcode");
/*
 * -k: set when some instruction reports its helper's failures
 * (st_insn.site); else their code is dead to the verifier too.
 */
ST_LOAD_CONST __u32 st_helper_checks;
/* The same for the loads: bit src (enum st_load_src) set when some probe has such a load. */
ST_LOAD_CONST __u32 st_srcs_used;
/* The same for plain statements' key parts: bit src (enum st_plain_src). */
ST_LOAD_CONST __u32 st_parts_used;
/* And the most key parts a plain statement of the session has. */
ST_LOAD_CONST __u32 st_plain_parts_max;
/* The same for the maps: bit kind (enum st_agg_kind) set when some map is of that kind. */
ST_LOAD_CONST __u32 st_kinds_used;
/* The stacks (ST_STACK_*) some probe of the session takes. */
ST_LOAD_CONST __u32 st_stacks_used;

/*
 * Whether no clause of the session has instruction op: a constant once
 * loaded (st_ops_used), so the verifier explores no code of such an
 * instruction, nor the global functions only that code calls.
 */
static __always_inline bool op_unused(__u32 op)
{
	return !(st_ops_used & (1ULL << op));
}

/*
 * Whether no plain statement of the session has a key part k: the
 * verifier walks the loops over parts only that far.
 */
static __always_inline bool past_parts(__u32 k)
{
	return k >= st_plain_parts_max;
}

/* Whether no map of the session is of kind (st_kinds_used). */
static __always_inline bool kind_unused(__u32 kind)
{
	return !(st_kinds_used & (1U << kind));
}

/* Whether no plain statement of the session has a key part from src (st_parts_used). */
static __always_inline bool part_unused(__u32 src)
{
	return !(st_parts_used & (1U << src));
}

/*
 * Set by the collector before load: once this many bytes wait in
 * st_events, a record wakes the collector up; below, records are sent
 * without a wake-up, and the collector's periodic poll reads them. A
 * wake-up per record would cost the traced program microseconds.
 */
ST_LOAD_CONST __u64 st_events_wakeup;

/*
 * The flags the programs and the collector share; the in-process engine
 * keeps them in its shared memory (struct st_shm_hdr) instead.
 */
#ifndef ST_ENGINE_HOST
/* exit() in a probe: the collector polls this. */
__u32 st_exit_requested;

/*
 * Set by the collector from the attach until BEGIN has run, as bpftrace
 * runs BEGIN before it attaches the other probes (BEGIN's @n = 0 is not
 * written over an event's @n++); and again when the session ends, before
 * it reads the last records and the maps: later events are neither
 * counted nor printed, so what it prints agrees (the uprobes may stay
 * attached a while longer).
 */
__u32 st_stopped;

/* The last error of an insert into a map that was not full (ST_C_MAP_ERR), for the message. */
__s32 st_map_err;
#endif

/*
 * -c: the session sees the command and its descendants only. The probes
 * are then attached for every process, and st_followed holds the tasks
 * that the command and its descendants made (follow.bpf.h keeps it), so
 * a process is followed when its tgid, its leader's tid, is there.
 */
ST_LOAD_CONST __u32 st_follow;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1); /* ST_MAX_FOLLOWED when following, set at load */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, __u8);
} st_followed SEC(".maps");

static __always_inline bool followed(__u32 tgid)
{
	return bpf_map_lookup_elem(&st_followed, &tgid);
}

/* Nothing to do for this event: the session stopped, or it is not the command's. */
static __always_inline bool ignored(void)
{
	if (*(volatile __u32 *)&st_stopped)
		return true;
	return st_follow && !followed(bpf_get_current_pid_tgid() >> 32);
}

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* the number of probes, set at load */
	__type(key, __u32);
	__type(value, struct st_probe_cfg);
} st_probes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* the number of sites, set at load */
	__type(key, __u32);
	__type(value, struct st_site_cfg);
} st_sites SEC(".maps");

/* The maps without keys: no hashing, one slot per value or bucket. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1); /* the slots the maps need, set at load */
	__type(key, __u32);
	__type(value, struct st_val);
} st_flat SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ST_NR_COUNTERS); /* probes * counters, at load */
	__type(key, __u32);
	__type(value, __u64);
} st_counters SEC(".maps");

/* Per-event records (sidetrace.h, st_rec_hdr); sized at load. */
/* The kernel stacks that kstack names, by id: instruction addresses. */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1); /* ST_MAX_STACKS when a probe reads kstack, set at load */
	__uint(key_size, sizeof(__u32));
	__uint(value_size, ST_STACK_FRAMES * sizeof(__u64));
} st_stacks SEC(".maps");

/*
 * The user stacks that ustack names: each frame as its file's build id
 * and the offset in that file where the kernel could read them, so that
 * a frame is named from the file after its process is gone; else its
 * address (named from the process's mappings, stacks.h).
 */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1); /* ST_MAX_STACKS when a probe reads ustack, set at load */
	__uint(map_flags, BPF_F_STACK_BUILD_ID);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, ST_STACK_FRAMES * sizeof(struct bpf_stack_build_id));
} st_ustacks SEC(".maps");

/* The stacks whose bucket in st_stacks or st_ustacks held another (ST_STACK_SPILL). */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1); /* ST_MAX_SPILL_STACKS when a probe reads kstack */
	__uint(key_size, sizeof(__u32));
	__uint(value_size, ST_STACK_FRAMES * sizeof(__u64));
} st_stacks_spill SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1); /* ST_MAX_SPILL_STACKS when a probe reads ustack */
	__uint(map_flags, BPF_F_STACK_BUILD_ID);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, ST_STACK_FRAMES * sizeof(struct bpf_stack_build_id));
} st_ustacks_spill SEC(".maps");

/*
 * The processes of the user stacks taken, and their comm's first bytes
 * then (a new one: an exec): the collector keeps their mappings.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1); /* ST_MAX_STACK_PIDS when a probe reads ustack */
	__type(key, __u32);
	__type(value, __u64);
} st_stack_pids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, ST_EVENTS_MIN_SIZE);
} st_events SEC(".maps");

/*
 * Per probe, the string loads whose read failed: sidetrace_fault_in pages
 * in only those, so that events pay for it only once a failure was seen.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* the number of probes, set at load */
	__type(key, __u32);
	__type(value, __u32);
} st_fault_armed SEC(".maps");

/*
 * Not preallocated: creating per-CPU entries up front costs about a
 * microsecond each at every start (per CPU). Preallocating did not
 * stop the rare refused insert seen on 6.1 under qemu either (VM matrix,
 * the cause unknown; said with the kernel's error, ST_C_MAP_ERR). The
 * loader gives a map that the program does not use one entry, and
 * preallocates both per-CPU hashes for programs that may run with
 * interrupts off (loader.c, prealloc_aggr()). Sized at load: as many
 * entries as each map that may live here has keys (compile/hashes.c).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, ST_DEFAULT_MAP_KEYS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(key_size, ST_KEY_MAX); /* shrunk to the largest key at load */
	__uint(value_size, sizeof(struct st_val));
} st_aggr SEC(".maps");

/*
 * The keys of st_aggr in compact form (ST_COMPACT_STR_LEN), for maps read
 * whole when every string part of the event's key is by address or
 * short. Shrunk to the largest compact key at load.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, ST_DEFAULT_MAP_KEYS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(key_size, ST_KEY_MAX);
	__uint(value_size, sizeof(struct st_val));
} st_aggr_compact SEC(".maps");

/*
 * Plain values (ST_K_VALUE maps), one copy for all CPUs: a clause reads
 * what another clause stored on another CPU (the latency of begin/end
 * pairs). Keys as st_aggr's, shrunk alike at load.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ST_DEFAULT_MAP_KEYS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(key_size, ST_KEY_MAX);
	__uint(value_size, sizeof(struct st_value));
} st_values SEC(".maps");

/*
 * The counter of a failed insert: a full map's (E2BIG), or another
 * error's, kept in st_map_err. err is an int: before 6.4 ("bpf: return
 * long from bpf_map_ops funcs") a map's update returned int, and the
 * verifier calls it directly, so the upper half of the result is
 * undefined (6.1 leaves -EEXIST as 0xffffffef).
 */
static __always_inline __u32 insert_failed(int err)
{
	if (err == -7 /* E2BIG */)
		return ST_C_MAP_FULL;
	st_map_err = err;
	return ST_C_MAP_ERR;
}

/*
 * Returns the value of key, inserting init first when the key is new.
 * NULL when the insert failed, *why the counter that says why: the
 * caller counts it, it never drops silently. -EEXIST is not an error:
 * another CPU inserted the key first.
 */
static __always_inline void *lookup_or_try_init(void *map, const void *key, const void *init,
						__u32 *why)
{
	void *val;
	int err;

	val = bpf_map_lookup_elem(map, key);
	if (val)
		return val;
	/* Its low half only: see insert_failed(). */
	err = (int)bpf_map_update_elem(map, key, init, BPF_NOEXIST);
	if (err && err != -17 /* EEXIST */) {
		*why = insert_failed(err);
		return NULL;
	}
	val = bpf_map_lookup_elem(map, key);
	if (!val)
		*why = insert_failed(-2 /* ENOENT: deleted meanwhile */);
	return val;
}

/* Adds n to counter (enum st_counter) of probe. */
static __always_inline void count_n(__u32 probe, __u32 counter, __u64 n)
{
	__u32 idx = probe * ST_NR_COUNTERS + counter;
	__u64 *v;

	v = bpf_map_lookup_elem(&st_counters, &idx);
	if (v)
		__sync_fetch_and_add(v, n);
}

static __always_inline void count(__u32 probe, __u32 counter)
{
	count_n(probe, counter, 1);
}

/*
 * The site and the probe of a cookie (ST_COOKIE), their indexes and
 * configurations. False: no such site or probe.
 */
static __always_inline bool cfg_of_cookie(__u64 cookie, __u32 *site_idx, __u32 *probe,
					  const struct st_site_cfg **site,
					  const struct st_probe_cfg **cfg)
{
	*site_idx = ST_COOKIE_SITE(cookie);
	*probe = ST_COOKIE_PROBE(cookie);
	*site = bpf_map_lookup_elem(&st_sites, site_idx);
	if (!*site)
		return false;
	*cfg = bpf_map_lookup_elem(&st_probes, probe);
	return *cfg;
}

/*
 * How every program that serves a probe starts: the site and the probe of
 * the uprobe's cookie, their indexes and configurations. False: nothing
 * to do for this event (ignored(), or no such site or probe).
 */
static __always_inline bool cookie_cfg(void *ctx, __u32 *site_idx, __u32 *probe,
				       const struct st_site_cfg **site,
				       const struct st_probe_cfg **cfg)
{
	__u64 cookie = bpf_get_attach_cookie(ctx);

	if (ignored())
		return false;
	return cfg_of_cookie(cookie, site_idx, probe, site, cfg);
}

#endif /* SIDETRACE_MAPS_BPF_H */
