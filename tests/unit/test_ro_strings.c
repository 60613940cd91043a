// SPDX-License-Identifier: MIT
/*
 * Unit tests of bpfload/ro_strings.c on this test's own executable: the
 * read-only segment it finds for a site, and the bytes of a literal read
 * back as the kernel would have read them (cut at ST_STR_LEN - 1 bytes,
 * NUL-padded), or refused when the reference is not one of its strings.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpfload/ro_strings.h"

#include "unit.h"

/* The linker's symbol at the first byte of the image: the load base of a PIE. */
extern const char __executable_start[];

static const char short_str[] = "a literal";
static const char long_str[] =
	"0123456789012345678901234567890123456789012345678901234567890123456789";

/* Where p is in the file's address space. */
static uint64_t vaddr_of(const void *p)
{
	return (uintptr_t)p - (uintptr_t)__executable_start;
}

/* A function of this image stands for the probe site. */
static void site(void)
{
}

int main(void)
{
	struct st_site st_site = {.pc = vaddr_of((const void *)site)};
	struct st_event ev = {.path = "/proc/self/exe", .sites = &st_site, .nr_sites = 1};
	struct st_compiled_probe probe = {.event = &ev, .cfg = {.ro_loads = 1}};
	struct st_compiled c = {.probes = &probe, .nr_probes = 1};
	uint32_t site_base[2] = {0, 1};
	struct st_site_cfg cfg = {0};
	struct st_ro_strings ro;
	char out[ST_STR_LEN], want[ST_STR_LEN] = {0};
	struct st_ro_ref ref = {0};
	char *heap = strdup("a literal");
	bool cut = true;

	ok(heap && !st_ro_strings_open(&ro, 1) && !st_ro_strings_add(&ro, &c, NULL, site_base, 0),
	   "open");
	st_ro_strings_site(&ro, 0, &cfg);
	ok(cfg.ro_len > 0, "site: this image has a read-only segment");
	ok((uint64_t)(vaddr_of(short_str) - st_site.pc - cfg.ro_lo) < cfg.ro_len,
	   "site: a literal lies in it, from the site's address");
	ok((uint64_t)(vaddr_of(heap) - st_site.pc - cfg.ro_lo) >= cfg.ro_len,
	   "site: a heap string does not");

	ref.off = (int64_t)(vaddr_of(short_str) - st_site.pc);
	memset(out, 'x', sizeof(out));
	strcpy(want, short_str);
	ok(st_ro_strings_read(&ro, &ref, out, &cut) && !cut && !memcmp(out, want, sizeof(out)),
	   "read: a literal's bytes, NUL-padded, not cut");

	ref.off = (int64_t)(vaddr_of(long_str) - st_site.pc);
	memset(want, 0, sizeof(want));
	memcpy(want, long_str, ST_STR_LEN - 1);
	ok(st_ro_strings_read(&ro, &ref, out, &cut) && cut && !memcmp(out, want, sizeof(out)),
	   "read: a long literal cut to ST_STR_LEN - 1 bytes, and said so");

	ref.off = (int64_t)(vaddr_of(heap) - st_site.pc);
	ok(!st_ro_strings_read(&ro, &ref, out, &cut) && !out[0], "read: not outside the segment");
	ref.site = 1;
	ok(!st_ro_strings_read(&ro, &ref, out, &cut), "read: not for a site it does not know");

	st_ro_strings_close(&ro);
	free(heap);
	return unit_summary();
}
