// SPDX-License-Identifier: MIT
/*
 * The in-process engine's check of a program before it runs inside the
 * application (userspace/lib/inproc/validate.c): a well-formed program
 * passes, and each way a program can be wrong is refused with a message
 * that names it.
 */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "lib/inproc/validate.h"

#define NR_PROBES 2
#define NR_MAPS 2

struct prog {
	struct st_ip_prog hdr;
	struct st_map_cfg maps[NR_MAPS];
	struct st_ip_event events[NR_PROBES];
	struct st_probe_cfg probes[NR_PROBES];
};

/* @[args.name] = count() and @h = hist(...) on two events, laid out for 2 CPU slots. */
static void well_formed(struct prog *p)
{
	struct st_shm_layout lay;
	uint32_t i;

	memset(p, 0, sizeof(*p));
	p->hdr.version = ST_IP_VERSION;
	p->hdr.nr_probes = NR_PROBES;
	p->hdr.nr_maps = NR_MAPS;
	p->hdr.key_words = 9;
	p->hdr.ckey_words = 2;
	p->hdr.shm = (struct st_shm_params){.nr_slots = 2,
					    .nr_probes = NR_PROBES,
					    .nr_flat = 66,
					    .key_size = ST_KEY_HDR + 72,
					    .aggr_entries = 64,
					    .values_entries = 64,
					    .ring_size = 4096,
					    .compact_key_size = ST_KEY_HDR + 16,
					    .compact_entries = 64};
	st_shm_layout(&p->hdr.shm, &lay);
	p->hdr.shm_size = lay.size;
	p->maps[0] = (struct st_map_cfg){.kind = ST_K_COUNT, .key_size = 64};
	p->maps[1] = (struct st_map_cfg){.kind = ST_K_HIST, .flags = ST_MAPF_FLAT, .flat_len = 66};
	for (i = 0; i < NR_PROBES; i++) {
		strcpy(p->events[i].provider, "http");
		strcpy(p->events[i].name, "request");
		p->probes[i].nr_loads = 1;
		p->probes[i].nr_insns = 3;
		p->probes[i].insns[0] = (struct st_insn){.op = ST_I_CLAUSE, .imm = 3};
		p->probes[i].insns[1] = (struct st_insn){.op = ST_I_CONST, .imm = 1};
		p->probes[i].insns[2] = (struct st_insn){.op = ST_I_AGG, .a = 1};
	}
}

/* Validates p on a memfd as large as it says; the error text in err. */
static int check(struct prog *p, char *err)
{
	struct st_ip_reply reply = {0};
	struct st_ip_parts parts;
	int ret = st_validate(p, sizeof(*p), p->hdr.shm_size, &parts, &reply);

	strcpy(err, reply.err);
	return ret;
}

#define REFUSED(what, change, text) \
	do { \
		struct prog p; \
		char err[ST_IP_ERR_LEN]; \
		well_formed(&p); \
		change; \
		ok(check(&p, err) < 0 && strstr(err, text), what); \
	} while (0)

int main(void)
{
	struct prog p;
	char err[ST_IP_ERR_LEN];

	well_formed(&p);
	ok(check(&p, err) == 0, "a well-formed program passes");
	REFUSED("another version", p.hdr.version = 99, "version 99");
	REFUSED("a length its counts do not give", p.hdr.nr_maps = 1, "its counts say");
	REFUSED("no probe", p.hdr.nr_probes = 0, "0 probes");
	REFUSED("keys longer than the kernel's", p.hdr.key_words = 200, "keys of");
	REFUSED("compact keys of another size than their hash's", p.hdr.ckey_words = 3,
		"compact ones of 24 (3)");
	REFUSED("memory smaller than its layout", p.hdr.shm_size -= 4096, "shared memory of");
	REFUSED("a map of an unknown kind", p.maps[0].kind = 77, "unknown kind 77");
	REFUSED("slots beyond the array", p.maps[1].flat_len = 67, "beyond the 66");
	REFUSED("an unknown opcode", p.probes[1].insns[1].op = 200, "unknown opcode 200");
	REFUSED("a conditional jump backwards",
		(p.probes[0].insns[1].op = ST_I_JZ, p.probes[0].insns[1].imm = 0), "jumps to 0");
	REFUSED("a jump to itself",
		(p.probes[0].insns[1].op = ST_I_JUMP, p.probes[0].insns[1].imm = 1), "jumps to 1");
	REFUSED("a key store off its 8-byte words",
		(p.probes[0].insns[1].op = ST_I_KEY_INT, p.probes[0].insns[1].imm = 12),
		"writes at 12");
	REFUSED("a record store off its 8-byte words",
		(p.probes[1].insns[1].op = ST_I_OUT_STR, p.probes[1].insns[1].imm = 3),
		"writes at 3");
	REFUSED("a map that is not there", p.probes[0].insns[2].a = NR_MAPS, "no map 2");
	REFUSED("more instructions than a probe has", p.probes[0].nr_insns = ST_MAX_INSNS + 1,
		"instructions");
	REFUSED("stacks, which only the kernel takes", p.probes[1].stacks = ST_STACK_USER,
		"only the kernel takes");
	REFUSED("a read of kernel memory", p.probes[0].loads[0].kernel = 1,
		"cannot be read in a process");
	REFUSED("an event name without its end",
		memset(p.events[0].name, 'x', sizeof(p.events[0].name)), "without its end");
	REFUSED("a program to run that the runtime has not", p.events[1].run = ST_IP_NR_RUNS,
		"which this runtime has not");
	well_formed(&p);
	p.events[0].run = ST_IP_RUN_KEYED;
	ok(check(&p, err) == 0, "a probe run as sidetrace_keyed passes");
	return unit_summary();
}
