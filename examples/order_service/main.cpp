// SPDX-License-Identifier: MIT
/*
 * order_service: a matching engine fed with random orders, instrumented
 * with SIDE events defined in events.cpp and emitted from here and from
 * order_book.cpp. Deterministic for a seed; -v prints each placed and
 * rejected order so that tests can compute exact aggregates.
 *
 *   order_service [-n ORDERS] [-s SEED] [-w SECONDS] [-p] [-v]
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <unistd.h>

#include "order_book.h"

namespace
{

/* xorshift64*: small, deterministic for a given seed. */
class rng
{
      public:
	explicit rng(uint64_t seed) : s_(seed ? seed : 1)
	{
	}
	uint64_t next()
	{
		s_ ^= s_ >> 12;
		s_ ^= s_ << 25;
		s_ ^= s_ >> 27;
		return s_ * 0x2545F4914F6CDD1DULL;
	}

      private:
	uint64_t s_;
};

void usage(const char *argv0)
{
	std::fprintf(stderr, "usage: %s [-n ORDERS] [-s SEED] [-w SECONDS] [-p] [-v]\n", argv0);
	std::exit(2);
}

} // namespace

int main(int argc, char **argv)
{
	long orders = 1000;
	uint64_t seed = 1;
	double wait = 0;
	bool verbose = false;
	int c;

	while ((c = getopt(argc, argv, "n:s:w:pv")) != -1) {
		switch (c) {
		case 'n':
			orders = std::strtol(optarg, nullptr, 0);
			break;
		case 's':
			seed = std::strtoull(optarg, nullptr, 0);
			break;
		case 'w':
			wait = std::strtod(optarg, nullptr);
			break;
		case 'p':
			std::printf("%d\n", (int)getpid());
			std::fflush(stdout);
			break;
		case 'v':
			verbose = true;
			break;
		default:
			usage(argv[0]);
		}
	}
	/* Time for a tracer to attach before the first order. */
	if (wait > 0)
		std::this_thread::sleep_for(std::chrono::duration<double>(wait));

	order_book book("ACME");
	rng r(seed);
	uint64_t filled = 0;

	side_event_variadic(
		ev_service_log, side_arg_list(side_arg_string("starting")),
		side_arg_list(side_arg_dynamic_field("orders", side_arg_dynamic_s64(orders)),
			      side_arg_dynamic_field("seed", side_arg_dynamic_u64(seed))));
	for (long i = 0; i < orders; i++) {
		order o;
		o.id = static_cast<uint64_t>(i) + 1;
		o.side = r.next() & 1 ? ORDER_SELL : ORDER_BUY;
		/* One order in 50 has no quantity: the book rejects it. */
		o.qty = r.next() % 50 ? static_cast<uint32_t>(r.next() % 100 + 1) : 0;
		o.price_cents = 10000 + static_cast<int64_t>(r.next() % 41) - 20;
		if (verbose)
			std::printf("%s id=%llu side=%u price_cents=%lld qty=%u\n",
				    o.qty ? "orders:placed" : "orders:rejected",
				    (unsigned long long)o.id, (unsigned int)o.side,
				    (long long)o.price_cents, o.qty);
		filled += book.place(o);
		if (i % 100 == 99)
			book.report_depth(3);
	}
	side_event_variadic(
		ev_service_log, side_arg_list(side_arg_string("done")),
		side_arg_list(side_arg_dynamic_field("filled", side_arg_dynamic_u64(filled))));
	if (!verbose)
		std::printf("%ld orders, %llu filled\n", orders, (unsigned long long)filled);
	return 0;
}
