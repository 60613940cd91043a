// SPDX-License-Identifier: MIT
/* Integers printed as text: see kept_text.h. */
#include <arpa/inet.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "output/cgroup_path.h"
#include "output/kept_text.h"
#include "output/printf_print.h"
#include "util/interned.h"

/* The user's name, as bpftrace's username; a uid without one as its number. */
static void user_name(uint32_t uid, char *buf, size_t size)
{
	struct passwd pw, *found = NULL;
	char room[4096];

	if (!getpwuid_r(uid, &pw, room, sizeof(room), &found) && found)
		snprintf(buf, size, "%s", found->pw_name);
	else
		snprintf(buf, size, "%u", uid);
}

void st_kept_text(enum st_kept k, uint64_t v, char *buf, size_t size)
{
	/* An IPv4 address is the integer's first 4 bytes in memory, as bpftrace reads it. */
	struct in_addr in = {.s_addr = (uint32_t)v};

	if (!size)
		return;
	buf[0] = '\0';
	switch (k) {
	case ST_KEPT_INET:
		if (!inet_ntop(AF_INET, &in, buf, size))
			buf[0] = '\0';
		break;
	case ST_KEPT_USER:
		user_name((uint32_t)v, buf, size);
		break;
	case ST_KEPT_ERRNO:
		snprintf(buf, size, "%s", strerror((int)v));
		break;
	case ST_KEPT_CGROUP:
		/* A filter's id in the top byte; a cgroup's id leaves it 0 (kernfs ids). */
		if (st_kept_arg(v))
			st_cgroup_path(st_kept_bare(v), st_interned(st_kept_arg(v)), buf, size);
		else
			st_cgroup_path(v, NULL, buf, size);
		break;
	case ST_KEPT_TIME:
		st_strftime_ns(buf, size, st_interned(st_kept_arg(v)) ?: "", st_kept_bare(v));
		break;
	case ST_KEPT_POINTER:
		snprintf(buf, size, "0x%llx", (unsigned long long)v);
		break;
	default:
		snprintf(buf, size, "%llu", (unsigned long long)v);
		break;
	}
}

/* The bytes as %r prints them: printable ASCII as it is, others \xNN; or every one \xNN. */
static void escaped(const uint8_t *b, uint32_t n, bool all_hex, char *buf)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (!all_hex && b[i] >= 32 && b[i] <= 126)
			*buf++ = (char)b[i];
		else
			buf += sprintf(buf, "\\x%02x", b[i]);
	}
	*buf = '\0';
}

/* A uint8 array as bpftrace prints one: [127,0,0,1]. */
static void array_text(const uint8_t *b, uint32_t n, char *buf)
{
	uint32_t i;

	*buf++ = '[';
	for (i = 0; i < n; i++)
		buf += sprintf(buf, "%s%u", i ? "," : "", b[i]);
	strcpy(buf, "]");
}

void st_buf_text(const void *slot, char style, char *buf)
{
	const uint8_t *b = (const uint8_t *)slot + 1;
	uint8_t hdr = *(const uint8_t *)slot;
	uint32_t n = ST_BUF_LEN(hdr), i;

	buf[0] = '\0';
	if (style == 'h') {
		for (i = 0; i < n; i++)
			buf += sprintf(buf, "%s%02x", i ? " " : "", b[i]);
		return;
	}
	if (style == 'x')
		return escaped(b, n, true, buf);
	switch (ST_BUF_KIND(hdr)) {
	case ST_BUF_INET:
		/* 16 bytes are IPv6, none no address (a family neither), any other count IPv4. */
		if (!n || !inet_ntop(n == 16 ? AF_INET6 : AF_INET, b, buf, ST_BUF_TEXT))
			buf[0] = '\0';
		return;
	case ST_BUF_MAC:
		for (i = 0; i < n; i++)
			buf += sprintf(buf, "%s%02X", i ? ":" : "", b[i]);
		return;
	case ST_BUF_ARRAY:
		return array_text(b, n, buf);
	default:
		return escaped(b, n, false, buf);
	}
}
