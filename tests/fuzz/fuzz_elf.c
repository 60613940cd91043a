// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: discovery of an object file (ELF headers, segments,
 * relocations, stapsdt notes, SDT arguments, SIDE descriptions) on any
 * bytes, then `list` rendering it as text and JSON; then its functions
 * (symbols, DWARF parameters and return values, RET instructions) as
 * uprobe: and uretprobe: probes, rendered as -lv shows them; then its
 * compressed DWARF inflated however little there is (discovery only does
 * past ST_DWARF_INFLATE_MIN) and the units of the ELF made read by libdw.
 * The input is written to a memfd that discovery opens by its
 * /proc/self/fd path.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <elfutils/libdw.h>

#include "side/discover.h"
#include "objfile/dwarf_inflate.h"
#include "objfile/elf.h"
#include "dwarf/functions.h"
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

/* Inflates the DWARF, if compressed, and walks its units' first DIEs. */
static void inflate(void)
{
	Dwarf_Off off = 0, next;
	struct st_inflated in;
	struct st_elf e;
	char err[256];
	Dwarf_Die cu;
	Dwarf *dw;
	size_t hdr;

	if (st_elf_open(path, &e, err, sizeof(err)))
		return;
	if (!st_dwarf_inflate(&e, 1, &in)) {
		dw = dwarf_begin_elf(in.elf, DWARF_C_READ, NULL);
		while (dw && !dwarf_nextcu(dw, off, &next, &hdr, NULL, NULL, NULL)) {
			if (dwarf_offdie(dw, off + hdr, &cu))
				dwarf_diename(&cu);
			off = next;
		}
		if (dw)
			dwarf_end(dw);
		st_dwarf_inflated_free(&in);
	}
	st_elf_close(&e);
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
	if (!st_discover_functions(path, "*", ST_AP_UPROBE, false, false, &l, err, sizeof(err)))
		print_probes(&l);
	st_event_list_free(&l);
	if (!st_discover_functions(path, "*", ST_AP_URETPROBE, false, false, &l, err, sizeof(err)))
		print_probes(&l);
	st_event_list_free(&l);
	inflate();
	return 0;
}
