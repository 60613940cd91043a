// SPDX-License-Identifier: MIT
/*
 * A tiny in-memory key-value store, built as a shared library whose events
 * are traced like those of an executable (linked or dlopen()ed).
 */
#include <stdint.h>
#include <string.h>
#include <side/trace.h>
#include "libkv.h"

side_static_event(ev_get, "kv", "get", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_string("key"), side_field_bool("hit"),
				  side_field_u32("size"), ));

side_static_event(ev_put, "kv", "put", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_string("key"), side_field_u32("size"),
				  side_field_s64("delta"), ));

#define KV_SLOTS 64

static struct {
	char key[32];
	uint32_t size;
	int used;
} slots[KV_SLOTS];

static unsigned int slot_of(const char *key)
{
	unsigned int h = 5381;

	while (*key)
		h = h * 33 + (unsigned char)*key++;
	return h % KV_SLOTS;
}

void kv_put(const char *key, uint32_t size)
{
	unsigned int s = slot_of(key);
	int64_t delta = (int64_t)size - (slots[s].used ? (int64_t)slots[s].size : 0);

	strncpy(slots[s].key, key, sizeof(slots[s].key) - 1);
	slots[s].size = size;
	slots[s].used = 1;
	side_event(ev_put,
		   side_arg_list(side_arg_string(key), side_arg_u32(size), side_arg_s64(delta)));
}

int kv_get(const char *key, uint32_t *size)
{
	unsigned int s = slot_of(key);
	int hit = slots[s].used && !strcmp(slots[s].key, key);

	*size = hit ? slots[s].size : 0;
	side_event(ev_get,
		   side_arg_list(side_arg_string(key), side_arg_bool(hit), side_arg_u32(*size)));
	return hit;
}
