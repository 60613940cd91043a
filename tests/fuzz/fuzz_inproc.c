// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the in-process engine (userspace/lib/inproc/) on a
 * program a hostile collector could hand it. An input is a one-liner, a
 * NUL, then patches of 4 bytes each:
 *
 *   byte 0    bit 0: the patch is to the shared memory, after the engine
 *             took it (a collector writing while the session runs);
 *             clear: to the program, before the engine sees it
 *   bytes 1-2 where, little-endian, modulo the program's length or the
 *             first ST_FUZZ_SHM_REACH bytes of the memory
 *   byte 3    XORed into the byte there
 *
 * The one-liner is compiled against httpd_sim's events, built into this
 * fuzzer (examples/httpd_sim.c, included below), and the program and
 * memory are made as the collector makes them (inproc/inproc_prog.c).
 * The engine validates what it is handed; what it accepts it runs on
 * every event of the example, then ends the session. ASan, UBSan and
 * libFuzzer's timeout stand for the application it runs in: a read or
 * write outside what the session may touch, or code that does not end,
 * is a bug in the validation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compile/compile.h"
#include "events/events.h"
#include "check/checker.h"
#include "parse/parser.h"
#include "inproc/inproc.h"
#include "inproc/inproc_prog.h"
#include "lib/inproc/engine.h"

#include "httpd_events.h"

/* How far into the shared memory a patch reaches: its header and first parts. */
#define ST_FUZZ_SHM_REACH 65536
#define ST_FUZZ_PATCH_SIZE 4
#define ST_FUZZ_PATCH_SHM 1

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	own_events_read("fuzz_inproc");
	return 0;
}

/* The patches of one kind (shm or not) applied to len bytes at buf. */
static void apply(const uint8_t *patches, size_t size, bool shm, uint8_t *buf, size_t len)
{
	size_t i;

	if (!len)
		return;
	for (i = 0; i + ST_FUZZ_PATCH_SIZE <= size; i += ST_FUZZ_PATCH_SIZE) {
		const uint8_t *p = patches + i;

		if (!(p[0] & ST_FUZZ_PATCH_SHM) != !shm)
			continue;
		buf[(p[1] | p[2] << 8) % len] ^= p[3];
	}
}

/* Every event of the example, twice: its values drawn from a fixed seed. */
static void emit_all(void)
{
	uint64_t rng = 7;
	int i;

	for (i = 0; i < 2; i++) {
		emit_request(&rng, 0);
		emit_query(&rng, 0);
		emit_state(&rng, 0);
	}
	/* An error and the variadic log come with a status of 500 and more. */
	for (i = 0; i < 40; i++)
		emit_request(&rng, 0);
}

static void run(const struct st_compiled *c, const uint8_t *patches, size_t size)
{
	struct st_inproc ip = {.fd = -1};
	struct st_ip_reply reply;
	void *prog = NULL;
	int memfd = -1;
	size_t len = 0;
	uint32_t i;

	ip.served = calloc(c->nr_probes + 1, sizeof(*ip.served));
	if (!ip.served)
		return;
	for (i = 0; i < c->nr_probes; i++)
		ip.served[i] = st_probe_served_in_process(&c->probes[i]);
	st_inproc_shm_params(c, &ip.params);
	if (st_inproc_memory(&ip, &memfd))
		goto cleanup;
	prog = st_inproc_program(&ip, c, false, &len);
	if (!prog)
		goto cleanup;
	apply(patches, size, false, prog, len);
	if (st_engine_attach(prog, len, memfd, &reply))
		goto cleanup;
	apply(patches, size, true, (uint8_t *)ip.shm,
	      ip.lay.size < ST_FUZZ_SHM_REACH ? ip.lay.size : ST_FUZZ_SHM_REACH);
	emit_all();
	st_engine_detach();
cleanup:
	if (ip.shm)
		munmap(ip.shm, ip.lay.size);
	if (memfd >= 0)
		close(memfd);
	free(prog);
	free(ip.served);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_event_source src = {.probe_events = own_side_events};
	struct st_compiled compiled = {0};
	struct st_program *prog = NULL;
	const uint8_t *nul = memchr(data, '\0', size);
	size_t text_len = nul ? (size_t)(nul - data) : size;
	struct st_diag diag;
	char *text;

	text = malloc(text_len + 1);
	if (!text)
		return 0;
	memcpy(text, data, text_len);
	text[text_len] = '\0';
	if (!st_parse(text, "fuzz", &prog, &diag) && !st_check(prog, &src, &diag) &&
	    !st_compile(prog, 0, &compiled, &diag))
		run(&compiled, data + text_len + 1, nul ? size - text_len - 1 : 0);
	st_compiled_free(&compiled);
	if (prog)
		st_program_free(prog);
	free(text);
	return 0;
}
