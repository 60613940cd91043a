// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: discovery of an object file (ELF headers, segments,
 * relocations, stapsdt notes, SDT arguments, SIDE descriptions) on any
 * bytes, then `list` rendering it as text and JSON; then its functions
 * (symbols, DWARF parameters and return values, RET instructions) as
 * uprobe: and uretprobe: probes, rendered as -lv shows them. The input is written
 * to a memfd that discovery opens by its /proc/self/fd path.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "discovery/discovery.h"
#include "discovery/functions.h"
#include "output/events_print.h"

static int memfd = -1;
static char path[64];
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memfd = memfd_create("fuzz_elf", MFD_CLOEXEC);
	devnull = fopen("/dev/null", "w");
	if (memfd < 0 || !devnull) {
		perror("fuzz_elf");
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	return 0;
}

/* -lv of every function found: their types, as the user sees them. */
static void print_probes(const struct st_event_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		st_probe_print_text(devnull, &l->events[i], true);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_event_list l = {0};
	char err[256];

	if (ftruncate(memfd, 0) || pwrite(memfd, data, size, 0) != (ssize_t)size)
		return 0;
	if (!st_discover_file(path, &l, err, sizeof(err))) {
		st_list_print_text(devnull, &l, true);
		st_list_print_json(devnull, &l);
	}
	st_event_list_free(&l);
	/* Functions: symbols, their DWARF with libdw, their RETs with libcapstone. */
	if (!st_discover_functions(path, "*", ST_VIEW_UPROBE, &l, err, sizeof(err)))
		print_probes(&l);
	st_event_list_free(&l);
	if (!st_discover_functions(path, "*", ST_VIEW_URETPROBE, &l, err, sizeof(err)))
		print_probes(&l);
	st_event_list_free(&l);
	return 0;
}
