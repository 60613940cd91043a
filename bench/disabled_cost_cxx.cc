// SPDX-License-Identifier: MIT
/*
 * The method shape of the disabled-cost bench (see disabled_cost.c): a C++
 * member function that emits an event from its object's members, three
 * ways. Built with g++ and clang++.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <cstdlib>
#include <string>
#include <sys/sdt.h>
#include <side/trace.h>

side_static_event(ev_method, "bench", "method", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_u64("id"), side_field_string("path"),
				  side_field_s32("status")));
unsigned short bench_method_semaphore __attribute__((section(".probes"))) = 0;

static volatile unsigned long sink;

class conn
{
      public:
	conn(unsigned long id, const char *path) : id_(id), path_(path), status_(200)
	{
	}
	__attribute__((noinline)) void shape_method__plain(int delta)
	{
		status_ += delta;
		sink += id_;
	}
	__attribute__((noinline)) void shape_method__side(int delta)
	{
		status_ += delta;
		side_event(ev_method, side_arg_list(side_arg_u64(id_),
						    side_arg_string(path_.c_str()),
						    side_arg_s32(status_)));
		sink += id_;
	}
	__attribute__((noinline)) void shape_method__sdt(int delta)
	{
		status_ += delta;
		/* Read each time, as in disabled_cost.c. */
		if (__builtin_expect(*(volatile unsigned short *)&bench_method_semaphore, 0))
			STAP_PROBE3(bench, method, id_, path_.c_str(), status_);
		sink += id_;
	}

      private:
	unsigned long id_;
	std::string path_;
	int status_;
};

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? std::strtoul(argv[1], nullptr, 0) : 1000000;
	conn c(7, "/index.html");

	/* Unrolling would hide the per-call difference being measured. */
#pragma GCC unroll 1
	for (unsigned long i = 0; i < n; i++)
		c.shape_method__plain((int)(i & 1));
#pragma GCC unroll 1
	for (unsigned long i = 0; i < n; i++)
		c.shape_method__side((int)(i & 1));
#pragma GCC unroll 1
	for (unsigned long i = 0; i < n; i++)
		c.shape_method__sdt((int)(i & 1));
	return 0;
}
