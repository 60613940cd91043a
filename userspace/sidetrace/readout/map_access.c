// SPDX-License-Identifier: MIT
/* User-space access to one map element: see map_access.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "readout/aggregations.h"
#include "readout/dump.h"
#include "readout/inproc_read.h"
#include "readout/map_access.h"

/*
 * The hash key of map m at keys, as the BPF program builds it; false when
 * no element can have it (a probe name that is not one of the program's).
 */
static bool build_key(const struct st_compiled *c, uint32_t m, const struct st_key_val *keys,
		      uint8_t *key)
{
	const struct st_map_layout *lay = &c->layouts[m];
	struct st_key_hdr hdr = {.map_id = m};
	uint8_t *parts = key + ST_KEY_HDR;
	uint64_t u;
	uint32_t k;

	memset(key, 0, c->key_size);
	memcpy(key, &hdr, sizeof(hdr));
	for (k = 0; k < lay->nr_parts; k++) {
		const struct st_kpart *p = &lay->parts[k];

		switch (p->kind) {
		case ST_KPART_STR:
			strncpy((char *)parts + p->off, keys[k].s, ST_STR_LEN - 1);
			break;
		case ST_KPART_BUF:
			/* A buffer's whole slot (session/eval.c keeps one so). */
			memcpy(parts + p->off, keys[k].s, ST_STR_LEN);
			break;
		case ST_KPART_PROBE:
			for (u = 0; st_compiled_probe_name(c, u); u++)
				if (!strcmp(st_compiled_probe_name(c, u), keys[k].s))
					break;
			if (!st_compiled_probe_name(c, u))
				return false;
			memcpy(parts + p->off, &u, sizeof(u));
			break;
		default:
			memcpy(parts + p->off, &keys[k].u, sizeof(u));
			break;
		}
	}
	return true;
}

/* An aggregation's scalar, as print() shows it. */
static int64_t agg_scalar(enum st_agg_kind kind, const struct st_val *v)
{
	switch (kind) {
	case ST_K_COUNT:
		return v->count;
	case ST_K_SUM:
		return v->sum;
	case ST_K_MIN:
		return v->min;
	case ST_K_MAX:
		return v->max;
	default:
		/* Values of a process's engine may be anything: never a trap. */
		return st_sdiv(v->sum, v->count, 0);
	}
}

static int read_agg(const struct st_tracer *t, const struct st_compiled *c, uint32_t m,
		    const uint8_t *key, struct st_elem_val *out)
{
	const struct st_inproc *ip = st_tracer_inprocs(t); /* one list for the read */
	const struct st_map_cfg *mc = &c->maps[m];
	struct st_val *percpu, val;
	uint32_t slot = mc->flat_base;
	int ret = 0;

	percpu = calloc(t->bpf.ncpus + st_inproc_nr_slots(ip), sizeof(*percpu));
	if (!percpu)
		return -ENOMEM;
	if (mc->flags & ST_MAPF_FLAT)
		ret = bpf_map_lookup_elem(t->bpf.flat_fd, &slot, percpu) ? -errno : 0;
	else if (bpf_map_lookup_elem(t->bpf.aggr_fd, key, percpu))
		ret = errno == ENOENT ? 0 : -errno;
	/* A process's engine: more CPUs. */
	st_inproc_elem_agg(ip, mc, key, percpu + t->bpf.ncpus);
	st_val_combine(percpu, t->bpf.ncpus + st_inproc_nr_slots(ip), mc->flags & ST_MAPF_SIGNED,
		       &val);
	out->i = agg_scalar(mc->kind, &val);
	free(percpu);
	return ret;
}

int st_elem_read(const struct st_tracer *t, const struct st_compiled *c, uint32_t m,
		 const struct st_key_val *keys, struct st_elem_val *out)
{
	struct st_value v = {0};
	uint8_t *key;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!t || m >= c->nr_maps)
		return 0;
	key = malloc(c->key_size);
	if (!key)
		return -ENOMEM;
	if (!build_key(c, m, keys, key))
		goto cleanup;
	if (c->maps[m].kind != ST_K_VALUE) {
		ret = read_agg(t, c, m, key, out);
		goto cleanup;
	}
	/* What the process's engine stored is the latest: the kernel's probes store none. */
	if (!st_inproc_elem_value(st_tracer_inprocs(t), key, &v) &&
	    bpf_map_lookup_elem(t->bpf.values_fd, key, &v)) {
		ret = errno == ENOENT ? 0 : -errno;
		out->missing = !ret;
		goto cleanup;
	}
	memcpy(out->s, v.b, ST_STR_LEN - 1);
	memcpy(&out->i, v.b, sizeof(out->i));
cleanup:
	free(key);
	return ret;
}

int st_elem_write(const struct st_tracer *t, const struct st_compiled *c, uint32_t m,
		  const struct st_key_val *keys, const struct st_elem_val *val)
{
	struct st_value v = {0};
	uint8_t *key;
	int ret = 0;

	if (!t || m >= c->nr_maps || c->maps[m].kind != ST_K_VALUE)
		return 0;
	key = malloc(c->key_size);
	if (!key)
		return -ENOMEM;
	/* A string's NULs pad it; a buffer's slot is kept whole. */
	if (c->maps[m].flags & ST_MAPF_STR)
		memcpy(v.b, val->s, ST_STR_LEN);
	else
		memcpy(v.b, &val->i, sizeof(val->i));
	if (build_key(c, m, keys, key) && bpf_map_update_elem(t->bpf.values_fd, key, &v, BPF_ANY))
		ret = -errno;
	if (!ret)
		ret = st_inproc_elem_write(st_tracer_inprocs(t), key, &v);
	free(key);
	return ret;
}

int st_elem_aggregate(const struct st_tracer *t, const struct st_compiled *c, uint32_t m,
		      const struct st_key_val *keys, int64_t v)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	struct st_user_req *req;
	uint32_t zero = 0;
	int ret = 0;

	if (!t || m >= c->nr_maps || c->maps[m].kind == ST_K_VALUE)
		return 0;
	if (t->bpf.user_fd < 0)
		return -ENOTSUP;
	req = calloc(1, sizeof(*req));
	if (!req)
		return -ENOMEM;
	req->map_id = m;
	req->v = v;
	/* The hash's key is c->key_size bytes: the program reads that many. */
	if (!build_key(c, m, keys, req->key))
		goto cleanup;
	if (bpf_map_update_elem(t->bpf.user_req_fd, &zero, req, BPF_ANY) ||
	    bpf_prog_test_run_opts(t->bpf.user_fd, &run)) {
		ret = -errno;
		goto cleanup;
	}
	if (run.retval == ST_C_MAP_FULL)
		ret = -E2BIG;
	else if (run.retval)
		ret = -st_loader_map_err(&t->bpf) ?: -EINVAL;
cleanup:
	free(req);
	return ret;
}

int st_elem_delete(const struct st_tracer *t, const struct st_compiled *c, uint32_t m,
		   const struct st_key_val *keys)
{
	bool plain = m < c->nr_maps && c->maps[m].kind == ST_K_VALUE;
	int ret = -ENOENT;
	uint8_t *key;

	if (!t || m >= c->nr_maps)
		return ret;
	key = malloc(c->key_size);
	if (!key)
		return -ENOMEM;
	if (build_key(c, m, keys, key)) {
		if (!bpf_map_delete_elem(plain ? t->bpf.values_fd : t->bpf.aggr_fd, key))
			ret = 0;
		if (st_inproc_elem_delete(st_tracer_inprocs(t), plain, key))
			ret = 0;
	}
	free(key);
	return ret;
}
