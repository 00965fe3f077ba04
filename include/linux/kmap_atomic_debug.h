/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CONFIG_DEBUG_KMAP_ATOMIC: the checks on typed atomic kmaps, what they
 * count, the hooks where a context ends (a system call, an exception or
 * interrupt returning to user space, a hard interrupt, a softirq handler,
 * an NMI, a task that an oops kills) that reclaim slots left held, and the
 * one in the kernel's page fault path that says which slot a faulting
 * address is.
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

#ifdef CONFIG_DEBUG_KMAP_ATOMIC
unsigned long kmap_atomic_debug_reports(enum kmap_atomic_report kind);
void kmap_atomic_check_leaks(enum kmap_atomic_context_end end);
void kmap_atomic_debug_fault(unsigned long address, bool fixed_up);
size_t kmap_atomic_describe(unsigned long addr, char *buf, size_t len);
#else
#ifdef CONFIG_KMAP_ATOMIC_SLOTS
#include <linux/percpu.h>
#include <linux/sched.h>

DECLARE_PER_CPU(unsigned int, kmap_atomic_outstanding);
void __kmap_atomic_reclaim(bool dying);

/*
 * Without the debug checks a context's end reclaims what it still holds
 * and gives back its counts: the spares and kmap_local fallbacks a misuse
 * took and the named slots an interrupt mapped, counted per CPU; a
 * task's named slots where it returns to user space, a work item or
 * kernel thread function returns, or an oops kills it, with typed maps
 * still on its stack. One per-CPU load when nothing is held (and a load
 * of the task's typed_depth where a task's context ends).
 */
static __always_inline void kmap_atomic_check_leaks(enum kmap_atomic_context_end end)
{
	bool task_ends = end <= KMAP_END_KTHREAD || end == KMAP_END_TASK_DIES;

	if (unlikely(raw_cpu_read(kmap_atomic_outstanding)) ||
	    (task_ends && unlikely(current->kmap_ctrl.typed_depth)))
		__kmap_atomic_reclaim(end == KMAP_END_TASK_DIES);
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
/* A macro: the fixup search the caller passes is not made either. */
#define kmap_atomic_debug_fault(address, fixed_up)	do { } while (0)
#endif

#endif /* _LINUX_KMAP_ATOMIC_DEBUG_H */
