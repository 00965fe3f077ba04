/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed atomic kmaps where a context ends: the per-CPU map logs
 * (mm/kmap_atomic/core.c), and the hook that releases and reports what a
 * context leaves in its log where it ends (a system call, an exception or
 * interrupt returning to user space, a work item, a kernel thread, a hard
 * interrupt, a softirq handler, an NMI, a task that an oops kills).
 * With CONFIG_DEBUG_KMAP_ATOMIC, the hook in the kernel's page fault path
 * that says which slot a faulting address is.
 */
#ifndef _LINUX_KMAP_ATOMIC_DEBUG_H
#define _LINUX_KMAP_ATOMIC_DEBUG_H

#include <linux/kmap_types.h>
#include <linux/types.h>

/* Where a context ends, for kmap_atomic_check_leaks(). */
enum kmap_atomic_context_end {
	KMAP_END_SYSCALL,	/* a system call, before its exit work */
	KMAP_END_TO_USER,	/* an exception or interrupt, returning to user space */
	KMAP_END_WORK,		/* a work item, in process_one_work() */
	KMAP_END_KTHREAD,	/* a kernel thread's function, returning to kthread() */
	KMAP_END_HARDIRQ,	/* a hard interrupt, in irq_exit() */
	KMAP_END_SOFTIRQ,	/* a softirq handler */
	KMAP_END_NMI,		/* an NMI, in exc_nmi(): not an #MC, #DB or int3 */
	KMAP_END_TASK_DIES,	/* a task killed by an oops, in make_task_dead() */
};

#ifdef CONFIG_KMAP_ATOMIC_SLOTS
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/preempt.h>

/*
 * The map log of a CPU's typed maps at one interrupt level
 * (mm/kmap_atomic/core.c): in map order, each map's slot (an enum km_type,
 * a spare after KM_TYPE_NR, or KM_LOG_LOWMEM for a lowmem page, which
 * takes none), the type it was mapped as, the address it returned and its
 * call site; whose counts the maps raised, and what they were before the
 * first (page faults off; preemption off, without the interrupt and
 * bottom-half counts a level may change and restore meanwhile).
 */
#define KM_SLOTS_USED		(KM_TYPE_NR + KM_SPARE_SLOTS)
#define KM_LOG_NR		KM_SLOTS_USED
#define KM_LOG_LOWMEM		0xff
/* A task, its softirq, then each hard interrupt or NMI-class nesting. */
#define KM_LEVELS		7

struct task_struct;

struct kmap_atomic_level_log {
	unsigned int		n;
	struct task_struct	*task;	/* compared, never followed */
	int			pf_base;	/* pagefault_disabled before the first map */
	int			pc_base;	/* ... & PREEMPT_MASK */
	u8			slot[KM_LOG_NR];
	u8			type[KM_LOG_NR];
	unsigned long		addr[KM_LOG_NR];
	unsigned long		ip[KM_LOG_NR];
};

DECLARE_PER_CPU(struct kmap_atomic_level_log, kmap_atomic_log[KM_LEVELS]);

/*
 * This CPU's interrupt level, the index of its log: 0 in a task, 1 in a
 * softirq, then one per hard interrupt nesting (an NMI, #MC, #DB or int3
 * counts as one too: its entry raises the hard interrupt count).
 */
static __always_inline unsigned int kmap_atomic_log_level(void)
{
	unsigned int pc = preempt_count(), hard = (pc & HARDIRQ_MASK) >> HARDIRQ_SHIFT;

	if (likely(!hard))
		return !!(pc & SOFTIRQ_OFFSET);
	return min(1 + hard, KM_LEVELS - 1U);
}

unsigned long kmap_atomic_debug_reports(enum kmap_atomic_report kind);
void __kmap_atomic_log_end(enum kmap_atomic_context_end end);

/*
 * Where a context ends, the maps its level's log still holds are released
 * and reported, their counts given back: one per-CPU load when it holds
 * none.
 */
static __always_inline void kmap_atomic_check_leaks(enum kmap_atomic_context_end end)
{
	if (unlikely(raw_cpu_read(kmap_atomic_log[kmap_atomic_log_level()].n)))
		__kmap_atomic_log_end(end);
}

#elif defined(CONFIG_KMAP_ATOMIC_ANY_ORDER)
#include <linux/percpu.h>
#include <linux/sched.h>

DECLARE_PER_CPU(struct kmap_atomic_log, kmap_atomic_nmi_log);
void __kmap_atomic_log_end(enum kmap_atomic_context_end end);

/*
 * Without the slots a context's end releases the typed maps it leaves in
 * its map log (the task's, or the CPU's for an NMI) and gives back their
 * counts: one load of the log's length when it is empty.
 */
static __always_inline void kmap_atomic_check_leaks(enum kmap_atomic_context_end end)
{
	if (end == KMAP_END_NMI ? unlikely(raw_cpu_read(kmap_atomic_nmi_log.n)) :
	    unlikely(current->kmap_ctrl.typed_log.n))
		__kmap_atomic_log_end(end);
}
#else
static inline void kmap_atomic_check_leaks(enum kmap_atomic_context_end end) { }
#endif

#if defined(CONFIG_KMAP_ATOMIC_SLOTS) && defined(CONFIG_DEBUG_KMAP_ATOMIC)
void kmap_atomic_debug_fault(unsigned long address, bool fixed_up);
size_t kmap_atomic_describe(unsigned long addr, char *buf, size_t len);
#else
/* A macro: the fixup search the caller passes is not made either. */
#define kmap_atomic_debug_fault(address, fixed_up)	do { } while (0)
#endif

#endif /* _LINUX_KMAP_ATOMIC_DEBUG_H */
