/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The aggregations of BEGIN, END and interval clauses, which run in the
 * collector. It cannot update a per-CPU value itself without racing the
 * probes: a write from user space replaces every CPU's value at once, and
 * would lose what a probe added meanwhile. So it writes its request into
 * st_user_req and runs sidetrace_user (BPF_PROG_TEST_RUN), which
 * aggregates into the running CPU's value with the probes' own code. The
 * collector's clauses of one session run on one thread: one request slot.
 */
#ifndef SIDETRACE_USER_BPF_H
#define SIDETRACE_USER_BPF_H

/* Uses maps.bpf.h and aggregate.bpf.h. */
#if !defined(SIDETRACE_MAPS_BPF_H) || !defined(SIDETRACE_AGGREGATE_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct st_user_req);
} st_user_req SEC(".maps");

/*
 * Returns 0, or the counter that says why the value was not aggregated
 * (enum st_counter): counted by no probe, the collector says it.
 */
SEC("raw_tp")
int sidetrace_user(void *ctx)
{
	const volatile struct st_map_cfg *mc;
	struct st_user_req *req;
	__u32 zero = 0;

	req = bpf_map_lookup_elem(&st_user_req, &zero);
	if (!req)
		return ST_C_MAP_ERR;
	mc = map_cfg(req->map_id);
	if (!mc)
		return ST_C_MAP_ERR;
	if (mc->flags & ST_MAPF_FLAT)
		return st_update(flat_val(mc, req->v), mc->kind, req->v,
				 mc->flags & ST_MAPF_SIGNED);
	/* A probe index past the last: its counters are nobody's. */
	return aggregate_key(req->key, false, ST_KEY_PARTS_MAX, mc, req->map_id, 0, req->v,
			     ST_MAX_PROBES);
}

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct st_kread_req);
} st_kread SEC(".maps");

/* A kernel read of the collector's clauses (struct st_kread_req). */
SEC("raw_tp")
int sidetrace_kread(void *ctx)
{
	struct st_kread_req *req;
	__u32 zero = 0, len;

	req = bpf_map_lookup_elem(&st_kread, &zero);
	if (!req)
		return 0;
	req->task = bpf_get_current_task();
	req->ok = 0;
	len = req->len;
	if (len && len <= ST_KREAD_MAX)
		req->ok = !bpf_probe_read_kernel(req->buf, len, (const void *)req->addr);
	return 0;
}

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct st_debugf_req);
} st_debugf SEC(".maps");

/* A debugf() of the collector's clauses (struct st_debugf_req). */
SEC("raw_tp")
int sidetrace_debugf(void *ctx)
{
	struct st_debugf_req *req;
	__u64 v[ST_DEBUGF_ARGS];
	__u32 zero = 0;
	int i;

	req = bpf_map_lookup_elem(&st_debugf, &zero);
	if (!req)
		return 0;
	for (i = 0; i < ST_DEBUGF_ARGS; i++)
		v[i] = req->str_mask & (1U << i) ? (__u64)req->strs[i] : req->args[i];
	bpf_trace_printk(req->fmt, sizeof(req->fmt), v[0], v[1], v[2]);
	return 0;
}

#endif /* SIDETRACE_USER_BPF_H */
