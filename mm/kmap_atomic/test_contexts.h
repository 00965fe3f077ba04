/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the KUnit suites that run buggy 2.6 code in a loop: the contexts it
 * runs in (a task, a tasklet, a hard hrtimer) and each one's pair of
 * slots, as 2.6 drivers used them.
 */
#ifndef _MM_KMAP_ATOMIC_TEST_CONTEXTS_H
#define _MM_KMAP_ATOMIC_TEST_CONTEXTS_H

#include <linux/kmap_types.h>

enum where { IN_TASK, IN_TASKLET, IN_HRTIMER, WHERE_NR };

static const char * const where_names[WHERE_NR] = {
	[IN_TASK] = "a task", [IN_TASKLET] = "a tasklet", [IN_HRTIMER] = "a hard hrtimer",
};

static const enum km_type slot_pair[WHERE_NR][2] = {
	[IN_TASK] = { KM_USER0, KM_USER1 },
	[IN_TASKLET] = { KM_SOFTIRQ0, KM_SOFTIRQ1 },
	[IN_HRTIMER] = { KM_IRQ0, KM_IRQ1 },
};

#ifdef CONFIG_KMAP_ATOMIC_SLOTS
#include <linux/kmap_atomic_debug.h>

/* The maps this CPU's map log holds at the level it runs at. */
static inline unsigned int kmap_atomic_logged_here(void)
{
	return raw_cpu_read(kmap_atomic_log[kmap_atomic_log_level()].n);
}

/* The maps this CPU's map logs hold, every level's. */
static inline unsigned int kmap_atomic_logged(void)
{
	unsigned int l, n = 0;

	for (l = 0; l < KM_LEVELS; l++)
		n += raw_cpu_read(kmap_atomic_log[l].n);
	return n;
}
#endif

#endif /* _MM_KMAP_ATOMIC_TEST_CONTEXTS_H */
