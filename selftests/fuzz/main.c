// SPDX-License-Identifier: GPL-2.0
/*
 * nictl_fuzz: send the nictl family random and mutated messages and judge
 * every answer (see engine.h). Everything comes from the seed: the same
 * --seed, --start and --count send the same messages again.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "run.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: nictl_fuzz [--seed S] [--start K] [--count N] [--seconds T]\n"
		   "                  [--unprivileged] [--verbose] [--summary FILE]\n"
		   "Runs steps K (default 0) to K+N-1 (default N 10000) of seed S (default:\n"
		   "from the clock, printed), for T seconds at most; --unprivileged first\n"
		   "switches to uid %d. Exits 1 when anything unexpected happened.\n",
		UNPRIV_ID);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end ? -EINVAL : 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "start", required_argument, NULL, 'k' },
		{ "count", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 't' },
		{ "unprivileged", no_argument, NULL, 'u' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "summary", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct fuzz_opts o = { .seed = time(NULL), .count = 10000 };
	const char *summary = NULL;
	struct fuzz_summary s;
	uint64_t seconds = 0;
	FILE *f;
	int c, ret;

	while ((c = getopt_long(argc, argv, "s:k:n:t:uvo:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			ret = parse_u64(optarg, &o.seed);
			break;
		case 'k':
			ret = parse_u64(optarg, &o.start);
			break;
		case 'n':
			ret = parse_u64(optarg, &o.count);
			break;
		case 't':
			ret = parse_u64(optarg, &seconds);
			break;
		case 'u':
			o.unprivileged = true;
			ret = 0;
			break;
		case 'v':
			o.verbose = true;
			ret = 0;
			break;
		case 'o':
			summary = optarg;
			ret = 0;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			ret = -EINVAL;
			break;
		}
		if (ret) {
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	o.seconds = seconds;
	/* Before anything is opened: no socket may carry root's credentials. */
	if (o.unprivileged && drop_privileges()) {
		fprintf(stderr, "nictl_fuzz: could not switch to uid %d\n", UNPRIV_ID);
		return 1;
	}
	ret = fuzz_run(&o, &s);
	if (ret) {
		fprintf(stderr, "nictl_fuzz: %s\n", ret == -ENOENT ?
			"the nictl family is not registered (module not loaded?)" : strerror(-ret));
		return 1;
	}
	fuzz_print(stdout, &s);
	if (summary) {
		f = fopen(summary, "a");
		if (!f) {
			fprintf(stderr, "nictl_fuzz: %s: %s\n", summary, strerror(errno));
			return 1;
		}
		fuzz_print_line(f, &s);
		fclose(f);
	}
	return s.unexpected ? 1 : 0;
}
