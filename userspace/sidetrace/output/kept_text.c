// SPDX-License-Identifier: MIT
/* Integers printed as text: see kept_text.h. */
#include <arpa/inet.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>

#include "output/kept_text.h"

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
	default:
		snprintf(buf, size, "%llu", (unsigned long long)v);
		break;
	}
}
