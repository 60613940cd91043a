/* SPDX-License-Identifier: MIT */
/*
 * The host's side of the BPF helpers that bpf_host.h gives the fragments:
 * an event's context, and what host.c and readable.c implement.
 */
#ifndef SIDE_INPROC_HOST_H
#define SIDE_INPROC_HOST_H

#include <stdint.h>

/*
 * An event as the engine's callback has it, standing for the uprobe's
 * registers: SDT argument i is computed from it (host.c, st_host_sdt_word).
 */
struct st_host_ctx {
	/*
	 * ST_COOKIE(site, probe, 0): site is probe when its literals are
	 * keyed by address (st_eng.sites[probe]), else nr_probes: none
	 */
	uint64_t cookie;
	uint64_t ip; /* the kernel site's address its literals are offsets from, or 0 */
	const void *desc; /* struct side_event_description */
	const void *vec; /* struct side_arg_vec */
	const void *var_struct; /* struct side_arg_dynamic_struct, variadic */
	/* vec's arguments (struct side_arg) and their number, read once per event */
	const void *sav;
	uint32_t sav_len;
	uint32_t nr_values; /* SDT values before the description */
};

/* Reads ctx->vec's array and length into ctx, in place (the application's own). */
void st_host_ctx_args(struct st_host_ctx *ctx);

uint64_t st_host_sdt_word(const struct st_host_ctx *ctx, uint32_t i);

long st_host_ringbuf_output(const void *data, uint64_t size);

long st_host_read(void *dst, uint32_t size, const void *src);
long st_host_read_str(void *dst, uint32_t size, const void *src);
uint64_t st_host_pid_tgid(void);
uint64_t st_host_uid_gid(void);
uint64_t st_host_ktime_ns(void);
uint32_t st_host_cpu(void);
uint32_t st_host_prandom(void);
uint64_t st_host_cgroup_id(void);
long st_host_comm(void *buf, uint32_t size);

#endif /* SIDE_INPROC_HOST_H */
