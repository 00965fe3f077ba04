/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CONFIG_DEBUG_KMAP_ATOMIC: the checks on typed atomic kmaps, what they
 * count, and the hooks where a context ends (a hard interrupt, a softirq
 * handler, a return to user space) that reclaim slots left held.
 */
#ifndef _LINUX_KMAP_ATOMIC_DEBUG_H
#define _LINUX_KMAP_ATOMIC_DEBUG_H

/* What the checks report; each has a counter. */
enum kmap_atomic_report {
	KMAP_REPORT_COLLISION,		/* a map into a slot already held */
	KMAP_REPORT_CONTEXT,		/* a slot used from the wrong context */
	KMAP_REPORT_WRONG_ADDRESS,	/* unmap of an address the slot does not map */
	KMAP_REPORT_NOT_HELD,		/* unmap of a slot nobody holds */
	KMAP_REPORT_OTHER_CONTEXT,	/* unmap from another context than the map */
	KMAP_REPORT_INVALID_TYPE,	/* a type that is no slot */
	KMAP_REPORT_LEAK,		/* a slot still held when its context ends */
	KMAP_REPORT_NO_SPARE,		/* a collision with every spare in use */
	KMAP_REPORT_NR
};

#ifdef CONFIG_DEBUG_KMAP_ATOMIC
unsigned long kmap_atomic_debug_reports(enum kmap_atomic_report kind);
void kmap_atomic_check_leaks(void);
#else
static inline void kmap_atomic_check_leaks(void) { }
#endif

#endif /* _LINUX_KMAP_ATOMIC_DEBUG_H */
