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

#endif /* _MM_KMAP_ATOMIC_TEST_CONTEXTS_H */
