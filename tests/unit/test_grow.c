// SPDX-License-Identifier: MIT
/* util/grow.c: an array that doubles once full, and keeps itself when it cannot. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/grow.h"
#include "unit.h"

int main(void)
{
	uint64_t *v = NULL, *before;
	size_t cap = 0, i;
	int err = 0;

	for (i = 0; i < 100 && !err; i++) {
		err = st_grow(&v, &cap, i, sizeof(*v), 4);
		if (!err)
			v[i] = i;
	}
	ok(!err && cap == 128, "100 elements: 4 doubled to 128");
	for (i = 0; i < 100 && v[i] == i; i++)
		;
	ok(i == 100, "the elements kept through every move");
	ok(!st_grow(&v, &cap, 50, sizeof(*v), 4) && cap == 128, "room left: unchanged");
	before = v;
	ok(st_grow(&v, &cap, 128, SIZE_MAX / 4, 4) == -ENOMEM && v == before && cap == 128,
	   "too large: -ENOMEM, the array and its capacity kept");
	free(v);
	return unit_summary();
}
