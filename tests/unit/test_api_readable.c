// SPDX-License-Identifier: MIT
/*
 * The in-process engine's reads of application memory
 * (userspace/lib/inproc/readable.c), as bpf_probe_read_user_str() reads:
 * every length and alignment of a string, a string cut at the slot's
 * size, a string that ends at the last byte before an unreadable page,
 * one that runs into it, and an address nothing is mapped at.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "unit.h"
#include "lib/inproc/host.h"
#include "lib/inproc/readable.h"
#include "sidetrace.h"

/* Every length from 0 to past the slot, at every alignment: length, bytes, NUL. */
static void test_lengths(void)
{
	char src[ST_STR_LEN + 16], dst[ST_STR_LEN];
	int bad = 0;
	long n, want;
	size_t len, off, i;

	for (off = 0; off < 8; off++) {
		for (len = 0; len < ST_STR_LEN + 8 && off + len < sizeof(src); len++) {
			for (i = 0; i < len; i++)
				src[off + i] = 'a' + (i + off) % 26;
			src[off + len] = '\0';
			memset(dst, 0, sizeof(dst));
			n = st_host_read_str(dst, ST_STR_LEN, src + off);
			want = len < ST_STR_LEN ? (long)len + 1 : ST_STR_LEN;
			bad += n != want || memcmp(dst, src + off, want - 1) || dst[want - 1];
		}
	}
	CHECK(bad == 0);
}

/* Nothing is written past the NUL, as bpf_probe_read_user_str() writes. */
static void test_bytes_written(void)
{
	char dst[ST_STR_LEN];
	int i, bad = 0;

	memset(dst, 0x55, sizeof(dst));
	CHECK(st_host_read_str(dst, ST_STR_LEN, "abc") == 4 && !strcmp(dst, "abc"));
	for (i = 4; i < ST_STR_LEN; i++)
		bad += dst[i] != 0x55;
	CHECK(bad == 0);
}

/* A string at the end of a readable page: read; one that runs past it: -EFAULT. */
static void test_page_end(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char dst[ST_STR_LEN];

	if (p == MAP_FAILED || mprotect(p + page, page, PROT_NONE)) {
		ok(false, "a readable page before an unreadable one");
		return;
	}
	/* The tables learn the new mapping on a read that misses (at most every 10 ms). */
	usleep(20000);
	memcpy(p + page - 4, "xyz", 4);
	CHECK(st_host_read_str(dst, ST_STR_LEN, p + page - 4) == 4 && !strcmp(dst, "xyz"));
	/* Learnt now: read in one piece, up to the page's last byte and no further. */
	CHECK(st_host_read_str(dst, ST_STR_LEN, p + page - 4) == 4 && !strcmp(dst, "xyz"));
	memcpy(p + page - 13, "twelve bytes", 13);
	CHECK(st_host_read_str(dst, ST_STR_LEN, p + page - 13) == 13 &&
	      !strcmp(dst, "twelve bytes"));
	memset(p + page - 11, 'q', 11);
	CHECK(st_host_read_str(dst, ST_STR_LEN, p + page - 11) == -EFAULT);
	memcpy(p + page - 1, "", 1);
	CHECK(st_host_read_str(dst, ST_STR_LEN, p + page - 1) == 1 && dst[0] == '\0');
	CHECK(st_host_read_str(dst, ST_STR_LEN, p + page) == -EFAULT);
	munmap(p, 2 * page);
}

int main(void)
{
	if (st_readable_init()) {
		ok(false, "st_readable_init");
		return unit_summary();
	}
	test_lengths();
	test_bytes_written();
	test_page_end();
	st_readable_free();
	return unit_summary();
}
