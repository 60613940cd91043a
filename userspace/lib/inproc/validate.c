// SPDX-License-Identifier: MIT
/*
 * What the engine checks of a program before it runs inside the
 * application. The fragments it runs were proved safe by the verifier for
 * any probe configuration, with every read of application memory checked
 * (readable.c) and every map key checked (engine_prog.c); this checks the
 * rest: the sizes and counts the kernel would take from the loader, that
 * the memory is laid out as the program says, and that the program only
 * asks for what the engine has (no stacks, no kernel memory, no jump
 * backwards).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "validate.h"

#define FAIL(reply, ...) \
	({ \
		snprintf((reply)->err, sizeof((reply)->err), __VA_ARGS__); \
		-EINVAL; \
	})

static int check_maps(const struct st_ip_prog *p, const struct st_map_cfg *maps,
		      struct st_ip_reply *reply)
{
	uint32_t i;

	for (i = 0; i < p->nr_maps; i++) {
		const struct st_map_cfg *m = &maps[i];

		if (m->kind >= ST_NR_AGG_KINDS)
			return FAIL(reply, "map %u: unknown kind %u", i, m->kind);
		if ((m->flags & ST_MAPF_FLAT) &&
		    ((uint64_t)m->flat_base + m->flat_len > p->shm.nr_flat || !m->flat_len))
			return FAIL(reply, "map %u: slots %u+%u beyond the %u there are", i,
				    m->flat_base, m->flat_len, p->shm.nr_flat);
		if (m->key_size > ST_KEY_PARTS_MAX || m->key_size % 8)
			return FAIL(reply, "map %u: key of %u bytes", i, m->key_size);
		if (m->kind == ST_K_LHIST && m->lstep <= 0)
			return FAIL(reply, "map %u: lhist step %lld", i, (long long)m->lstep);
	}
	return 0;
}

static bool ends_in_nul(const char *s, size_t n)
{
	return memchr(s, '\0', n) != NULL;
}

/* A clause's code: known opcodes, maps that exist, forward jumps only. */
static int check_insns(uint32_t probe, const struct st_probe_cfg *c, uint32_t nr_maps,
		       struct st_ip_reply *reply)
{
	uint32_t pc;

	for (pc = 0; pc < c->nr_insns; pc++) {
		const struct st_insn *in = &c->insns[pc];

		if (in->op >= ST_NR_OPCODES)
			return FAIL(reply, "probe %u: instruction %u: unknown opcode %u", probe, pc,
				    in->op);
		switch (in->op) {
		case ST_I_AGG:
		case ST_I_MAP_GET:
		case ST_I_MAP_SET:
		case ST_I_MAP_ADD:
		case ST_I_MAP_DEL:
			if (in->a >= nr_maps)
				return FAIL(reply, "probe %u: instruction %u: no map %u", probe, pc,
					    in->a);
			break;
		case ST_I_OUT_INT:
		case ST_I_OUT_STR:
		case ST_I_OUT_LOAD:
		case ST_I_KEY_INT:
		case ST_I_KEY_STR:
			/*
			 * Stores of 8-byte words into a record or key, whose parts
			 * the collector aligns: C on the host wants them aligned.
			 */
			if (in->imm % 8)
				return FAIL(reply, "probe %u: instruction %u writes at %lld", probe,
					    pc, (long long)in->imm);
			break;
		case ST_I_OUT_JOIN:
			return FAIL(reply,
				    "probe %u: join() sends a record of %u bytes, more than a "
				    "process's engine sends (%u)",
				    probe, ST_JOIN_SIZE, ST_REC_MAX);
		case ST_I_SIGNAL:
			return FAIL(reply,
				    "probe %u: signal() is sent by the kernel's bpf_send_signal(), "
				    "which a process's engine has not",
				    probe);
		case ST_I_DEBUGF:
			return FAIL(reply,
				    "probe %u: debugf() prints with the kernel's "
				    "bpf_trace_printk(), which a process's engine has not",
				    probe);
		case ST_I_JUMP:
			/* Back to a while loop's condition too: the run's steps are bounded. */
			if (in->imm < 0 || in->imm > c->nr_insns || in->imm == pc)
				return FAIL(reply, "probe %u: instruction %u jumps to %lld", probe,
					    pc, (long long)in->imm);
			break;
		case ST_I_CLAUSE:
		case ST_I_JZ:
			if (in->imm <= pc || in->imm > c->nr_insns)
				return FAIL(reply, "probe %u: instruction %u jumps to %lld", probe,
					    pc, (long long)in->imm);
			break;
		}
	}
	return 0;
}

static int check_probe(uint32_t i, const struct st_ip_event *ev, const struct st_probe_cfg *c,
		       uint32_t nr_maps, struct st_ip_reply *reply)
{
	uint32_t l;

	if (!ends_in_nul(ev->provider, sizeof(ev->provider)) ||
	    !ends_in_nul(ev->name, sizeof(ev->name)))
		return FAIL(reply, "probe %u: event name without its end", i);
	if (ev->run >= ST_IP_NR_RUNS)
		return FAIL(reply, "probe %u: run by program %u, which this runtime has not", i,
			    ev->run);
	if (c->nr_loads > ST_MAX_LOADS || c->nr_insns > ST_MAX_INSNS)
		return FAIL(reply, "probe %u: %u loads, %u instructions", i, c->nr_loads,
			    c->nr_insns);
	if (c->stacks)
		return FAIL(reply,
			    "probe %u (%s:%s) reads stacks (ustack, kstack, usym), which only the "
			    "kernel takes",
			    i, ev->provider, ev->name);
	for (l = 0; l < c->nr_loads; l++) {
		const struct st_load *ld = &c->loads[l];

		if (ld->src > ST_SRC_MEM || ld->kernel || ld->nr_steps > ST_MAX_STEPS ||
		    ld->sdt_arg >= ST_MAX_SDT_ARGS)
			return FAIL(reply, "probe %u: load %u cannot be read in a process", i, l);
	}
	return check_insns(i, c, nr_maps, reply);
}

int st_validate(const void *buf, size_t len, uint64_t memfd_size, struct st_ip_parts *out,
		struct st_ip_reply *reply)
{
	const struct st_ip_prog *p = buf;
	struct st_shm_layout lay;
	uint64_t need;
	uint32_t i;
	int err;

	if (len < sizeof(*p) || p->version != ST_IP_VERSION)
		return FAIL(reply, "program of version %u, this runtime reads version %u",
			    len < sizeof(*p) ? 0 : p->version, ST_IP_VERSION);
	if (!p->nr_probes || p->nr_probes > ST_IP_MAX_PROBES || p->nr_maps > ST_MAX_MAPS ||
	    p->shm.nr_probes != p->nr_probes)
		return FAIL(reply, "program of %u probes and %u maps", p->nr_probes, p->nr_maps);
	need = sizeof(*p) + (uint64_t)p->nr_maps * sizeof(struct st_map_cfg) +
	       (uint64_t)p->nr_probes * (sizeof(struct st_ip_event) + sizeof(struct st_probe_cfg));
	if (len != need)
		return FAIL(reply, "program of %zu bytes, its counts say %llu", len,
			    (unsigned long long)need);
	if (p->key_words > (ST_KEY_MAX - ST_KEY_HDR) / 8 ||
	    p->ckey_words > (ST_KEY_MAX - ST_KEY_HDR) / 8 ||
	    p->shm.key_size != ST_KEY_HDR + p->key_words * 8 ||
	    p->shm.compact_key_size != ST_KEY_HDR + p->ckey_words * 8)
		return FAIL(reply, "keys of %u bytes (%u words), compact ones of %u (%u)",
			    p->shm.key_size, p->key_words, p->shm.compact_key_size, p->ckey_words);
	if (!p->shm.nr_slots || p->shm.nr_slots > 65536 || !st_shm_layout(&p->shm, &lay))
		return FAIL(reply, "shared memory that cannot be laid out");
	if (lay.size != p->shm_size || memfd_size < lay.size)
		return FAIL(reply, "shared memory of %llu bytes, %llu expected",
			    (unsigned long long)memfd_size, (unsigned long long)lay.size);
	out->maps = (const void *)(p + 1);
	out->events = (const void *)(out->maps + p->nr_maps);
	out->probes = (const void *)(out->events + p->nr_probes);
	out->lay = lay;
	err = check_maps(p, out->maps, reply);
	for (i = 0; !err && i < p->nr_probes; i++)
		err = check_probe(i, &out->events[i], &out->probes[i], p->nr_maps, reply);
	return err;
}
