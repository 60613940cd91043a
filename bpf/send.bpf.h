/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Records sent to the collector through the st_events ring buffer: an
 * event's records batched in its scratch and sent as one sample when its
 * clauses are done (see sidetrace.h), so that no other CPU's come between
 * them; join()'s, written straight into the ring, after the batch.
 */
#ifndef SIDETRACE_SEND_BPF_H
#define SIDETRACE_SEND_BPF_H

/* Uses maps.bpf.h and scratch.bpf.h. */
#if !defined(SIDETRACE_MAPS_BPF_H) || !defined(SIDETRACE_SCRATCH_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/*
 * Every 16th sample of a scratch asks whether st_events_wakeup bytes
 * wait, and only then wakes the collector (see maps.bpf.h): the query and
 * the wake-up are what a sample costs most after the copy. A sample that
 * holds a record the collector acts on (ST_EMIT_WAKE) wakes it at once.
 */
static __always_inline __u64 wake_flags(struct st_scratch *s)
{
	if (s->wake) {
		s->wake = 0;
		s->sent++;
		return BPF_RB_FORCE_WAKEUP;
	}
	if (!(s->sent++ & 15) &&
	    bpf_ringbuf_query(&st_events, BPF_RB_AVAIL_DATA) >= st_events_wakeup)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

/* A sample into the ring buffer; records: how many it holds, lost if it is. */
static __always_inline void out_sample(struct st_scratch *s, void *data, __u64 size, __u32 records,
				       __u32 probe)
{
	if (bpf_ringbuf_output(&st_events, data, size, wake_flags(s)))
		count_n(probe, ST_C_LOST, records);
}

/* Sends the records batched in s, as one sample. */
static __always_inline void out_flush(struct st_scratch *s, __u32 probe)
{
	__u32 len = RD(s->batch_len);

	/*
	 * Two tests the compiler may not merge into one of len - 1: 6.1's
	 * and 6.12's verifiers do not carry that bound back to len.
	 */
	if (len <= ST_REC_BATCH_MAX) {
		barrier_var(len);
		if (len)
			out_sample(s, s->batch, len, s->batched, probe);
	}
	RD(s->batch_len) = 0;
	s->batched = 0;
}

/*
 * Sends the record built in s: batched, or a sample of its own when it
 * does not fit in a batch. Only print(args) records carry the time (JSON
 * shows it); reading the clock costs as much again.
 */
static __always_inline void out_emit(struct st_scratch *s, __u16 kind, __u16 rec_id, __u64 len,
				     __u32 probe)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 span, off;

	/* bpftrace prints nothing sent after its exit(): neither do we. */
	if (len >= ST_REC_MAX || st_exit_requested)
		return;
	/*
	 * A no-op after the test, but kept (the barrier hides the bound from
	 * the compiler) because 6.1's verifier loses it across the copies.
	 */
	barrier_var(len);
	len &= ST_REC_MAX - 1;
	s->rec_hdr.kind = kind;
	s->rec_hdr.id = rec_id;
	s->rec_hdr.probe = probe;
	s->rec_hdr.time_ns = kind != ST_REC_PRINTF ? bpf_ktime_get_ns() : 0;
	s->rec_hdr.pid = id >> 32;
	s->rec_hdr.tid = (__u32)id;
	s->rec_hdr.len = len;
	span = ST_REC_SPAN(len);
	if (RD(s->batch_len) + span > ST_REC_BATCH_MAX)
		out_flush(s, probe);
	if (span > ST_REC_BATCH_MAX) {
		out_sample(s, &s->rec_hdr, ST_REC_HDR + len, 1, probe);
		return;
	}
	off = RD(s->batch_len) & (ST_REC_BATCH_MAX - 1);
	copy_own(s->batch + off, ST_REC_HDR + len, &s->rec_hdr);
	RD(s->batch_len) = off + span;
	s->batched++;
}

/*
 * -k: the helper that instruction in called failed, returning ret: sent
 * (ST_REC_HELPER_ERR) in order with the event's records when in names a
 * place of the program. The record being built may hold a printf's
 * first values: its first word is lent to ret, then restored.
 */
static __always_inline void out_helper_err(struct st_scratch *s, const struct st_insn *in,
					   __s64 ret, __u32 probe)
{
	__s64 *first = (__s64 *)s->rec, kept;

	if (!st_helper_checks || !in->site)
		return;
	kept = *first;
	*first = ret;
	out_emit(s, ST_REC_HELPER_ERR, in->site - 1, ST_REC_INT_SIZE, probe);
	*first = kept;
}

/*
 * join(): the strings of the NULL-terminated array at addr (user memory),
 * written straight into a reserved record: the first one not read (the
 * NULL, a bad pointer) is left empty and ends the list, and the collector
 * reads no further. A process's engine has no such record (validate.c).
 */
static __always_inline void out_join(struct st_scratch *s, __u64 addr, __u16 rec_id, __u32 probe)
{
#ifndef ST_ENGINE_HOST
	__u64 id = bpf_get_current_pid_tgid(), p;
	struct st_rec_hdr *h;
	char *str;
	int i;

	if (st_exit_requested)
		return;
	/* The records before it first: they come before it. */
	out_flush(s, probe);
	h = bpf_ringbuf_reserve(&st_events, ST_REC_HDR + ST_JOIN_SIZE, 0);
	if (!h) {
		count(probe, ST_C_LOST);
		return;
	}
	*h = (struct st_rec_hdr){.kind = ST_REC_JOIN,
				 .id = rec_id,
				 .probe = probe,
				 .pid = id >> 32,
				 .tid = (__u32)id,
				 .len = ST_JOIN_SIZE};
	str = (char *)(h + 1);
	for (i = 0; i < ST_JOIN_ARGS; i++) {
		/* Either read zeroes its destination when it fails. */
		bpf_probe_read_user(&p, sizeof(p), (const void *)(addr + i * sizeof(p)));
		if (bpf_probe_read_user_str(str + i * ST_JOIN_ARG_LEN, ST_JOIN_ARG_LEN,
					    (const void *)p) <= 1)
			break;
	}
	bpf_ringbuf_submit(h, wake_flags(s));
#endif
}

#endif /* SIDETRACE_SEND_BPF_H */
