/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The working memory of one run (struct st_scratch, per CPU, too large for
 * the BPF stack), RD() for the fields the verifier must see as unknowns,
 * and how a program that uses a scratch starts: enter_probe() finds the
 * site of the uprobe's cookie, its probe, and a free scratch.
 */
#ifndef SIDETRACE_SCRATCH_BPF_H
#define SIDETRACE_SCRATCH_BPF_H

/* Uses side_abi.bpf.h and maps.bpf.h. */
#if !defined(SIDETRACE_SIDE_ABI_BPF_H) || !defined(SIDETRACE_MAPS_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* A string value, NUL-padded. */
struct st_str {
	char b[ST_STR_LEN];
};

/*
 * Working memory of one run; too large for the 512-byte BPF stack. Uprobe
 * programs run with migration disabled but may be preempted, and another
 * event on the same CPU then runs before the first one ends: each CPU has
 * ST_NR_SCRATCH of them, and a run takes the first free one.
 */
struct st_scratch {
	__u32 busy; /* set while a run owns this scratch */
	__u32 self; /* its index in st_scratch_map, see st_aggregate() */
	__u32 pc; /* kept in memory, see RD() */
	__u32 sp;
	__u32 clause_end;
	__u32 ok; /* bit i: load i decoded */
	__u32 first_err; /* the event's first decode error */
	__u32 comm_done;
	__u32 top_len;
	__u32 top_err;
	__u32 sdt_bad; /* bit i: SDT argument i could not be read */
	__u32 site; /* the uprobe's cookie */
	__u32 addr_loads; /* bit i: load i is a struct st_ro_ref offset */
	__u32 key_addr; /* the key's st_key_hdr.addr_parts, see st_aggregate() */
	__u32 key_compact; /* the plain statement wrote ckey, not key: st_aggregate() */
	__u32 reserved0;
	__u64 ip; /* the probe site's address in the process */
	__u64 ctx; /* the program's context: ctx (ST_BI_CTX) */
	__u64 ustack, kstack; /* ST_BI_USTACK, ST_BI_KSTACK of this event */
	__u64 top_sav;
	__u64 dyn;
	__u64 sdt[ST_MAX_SDT_ARGS]; /* the SDT arguments in sdt_mask */
	__s64 vals[ST_MAX_LOADS];
	__s64 stack[ST_STACK_DEPTH];
	struct st_str strs[ST_STR_REF_DPATH + 1];
	struct st_str tmp[ST_MAX_TMPSTR]; /* ST_STR_REF_TMP: strings made by a clause */
	struct st_str dbg[ST_DEBUGF_ARGS]; /* debugf()'s strings, where bpf_trace_printk() reads */
	__s64 vars[ST_MAX_VARS]; /* the clause's $variables */
	__s64 vres; /* ST_I_MAP_GET: the value read */
	struct st_value vstr; /* ST_I_MAP_SET: a string value being stored */
	char name[ST_NAME_LEN];
	__u8 key[ST_KEY_MAX];
	__u8 ckey[ST_KEY_MAX]; /* the key in compact form (ST_COMPACT_STR_LEN) */
	/* print(args): containers being walked, innermost last */
	struct {
		__u64 base; /* first element */
		__u32 len, idx;
		__u32 stride; /* bytes between elements */
		__u32 reserved;
	} walk[ST_PRINT_DEPTH];
	__u32 wdepth; /* containers on walk[] */
	__u32 woff; /* record bytes written */
	__u32 wcut; /* ST_REC_F_CUT */
	__u32 werr; /* the walk's first error */
	__u32 sent; /* samples sent from this scratch (wake-up checks) */
	__u32 batched; /* records in batch[] */
	__u32 batch_len; /* bytes in batch[] */
	__u32 wake; /* a record the collector acts on is batched: wake it when sent */
	/*
	 * The event's records waiting to be sent (see sidetrace.h). Right
	 * before rec_hdr: a copy at an offset masked to batch's size, of at
	 * most a record's size, stays inside the scratch.
	 */
	__u8 batch[ST_REC_BATCH_MAX];
	struct st_rec_hdr rec_hdr; /* the record being built: header... */
	__u8 rec[ST_REC_MAX]; /* ...and values, sent as one */
	/* Past rec: an item at an offset masked to rec's size stays inside. */
	__u8 rec_slack[2 * (ST_ITEM_HDR + ST_ITEM_ARG_SIZE)];
	struct side_arg arg;
	struct side_arg_vec vec;
	struct side_arg_dynamic_struct dstruct;
};

_Static_assert(__builtin_offsetof(struct st_scratch, rec_hdr) ==
		       __builtin_offsetof(struct st_scratch, batch) + ST_REC_BATCH_MAX,
	       "a record copied into batch[] stays inside the scratch");
_Static_assert(!(ST_REC_BATCH_MAX & (ST_REC_BATCH_MAX - 1)), "out_emit() masks a batch offset");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ST_NR_SCRATCH);
	__type(key, __u32);
	__type(value, struct st_scratch);
} st_scratch_map SEC(".maps");

/*
 * The machine's pc and sp live in memory and are re-read at every use, so
 * the verifier sees them as bounded unknowns, not as constants that differ
 * on every path: that keeps the number of states it explores linear in
 * the instruction count instead of exponential.
 */
#define RD(x) (*(volatile typeof(x) *)&(x))

/* Zeroes 8-byte words at buf; words is a constant, the loop unrolled. */
static __always_inline void zero_words(void *buf, int words)
{
	__u64 *p = buf;
	int i;

#pragma unroll
	for (i = 0; i < words; i++)
		p[i] = 0;
}

/* Copies ST_STR_LEN bytes of a NUL-padded string, a word at a time. */
static __always_inline void copy_str(void *dst, const void *src)
{
	const __u64 *from = src;
	__u64 *to = dst;
	int i;

#pragma unroll
	for (i = 0; i < ST_STR_LEN / 8; i++)
		to[i] = from[i];
}

/*
 * Copies n bytes, n not a constant, between places of the scratch: the
 * kernel's helper in BPF, where no loop need be verified; memcpy() in a
 * process's engine, whose bpf_probe_read_kernel() refuses every address.
 */
static __always_inline void copy_own(void *dst, __u32 n, const void *src)
{
#ifdef ST_ENGINE_HOST
	memcpy(dst, src, n);
#else
	bpf_probe_read_kernel(dst, n, src);
#endif
}

/* The first free scratch of this CPU, or NULL when all are in use. */
static __always_inline struct st_scratch *scratch_get(void)
{
	struct st_scratch *s;
	__u32 i, key;

	/* Unrolled: the key's stack slot would hide the counter's progress. */
#pragma unroll
	for (i = 0; i < ST_NR_SCRATCH; i++) {
		key = i;
		s = bpf_map_lookup_elem(&st_scratch_map, &key);
		if (s && !__sync_lock_test_and_set(&s->busy, 1)) {
			s->self = i;
			return s;
		}
	}
	return NULL;
}

/* A free scratch slot of this CPU for an event of probe at site, or NULL (counted). */
static __always_inline struct st_scratch *scratch_take(void *ctx, __u32 site, __u32 probe)
{
	struct st_scratch *s = scratch_get();

	if (!s) {
		count(probe, ST_C_BUSY);
		return NULL;
	}
	s->site = site;
	s->ctx = (__u64)ctx;
	return s;
}

/*
 * How the programs that use a scratch slot start: the site of the uprobe's
 * cookie, its probe's configuration, and a free scratch slot of this CPU.
 * NULL: nothing to do for this event.
 */
static __always_inline struct st_scratch *enter_probe(void *ctx, const struct st_site_cfg **site,
						      const struct st_probe_cfg **cfg, __u32 *probe)
{
	__u32 key;

	if (!cookie_cfg(ctx, &key, probe, site, cfg))
		return NULL;
	return scratch_take(ctx, key, *probe);
}

#endif /* SIDETRACE_SCRATCH_BPF_H */
