/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed atomic kmaps: each map and unmap of a slot, and each misuse the
 * release paths or CONFIG_DEBUG_KMAP_ATOMIC report. The CPU is the
 * event's own; the context is the one the slot rules name.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kmap_atomic

#if !defined(_TRACE_KMAP_ATOMIC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KMAP_ATOMIC_H

#include <linux/highmem.h>
#include <linux/kmap_atomic_debug.h>
#include <linux/tracepoint.h>

#ifndef __KMAP_ATOMIC_TRACE_ONCE
#define __KMAP_ATOMIC_TRACE_ONCE
/* The context of an event, for the slot rules of <linux/kmap_types.h>. */
enum kmap_atomic_trace_context {
	KMAP_TRACE_TASK,
	KMAP_TRACE_TASK_BH_OFF,
	KMAP_TRACE_SOFTIRQ,
	KMAP_TRACE_HARDIRQ,
	KMAP_TRACE_NMI,
};

static inline u8 kmap_atomic_trace_context(void)
{
	if (in_nmi())
		return KMAP_TRACE_NMI;
	if (in_hardirq())
		return KMAP_TRACE_HARDIRQ;
	if (in_serving_softirq())
		return KMAP_TRACE_SOFTIRQ;
	return softirq_count() ? KMAP_TRACE_TASK_BH_OFF : KMAP_TRACE_TASK;
}
#endif

#define KMAP_TRACE_SLOTS					\
	EM(KM_BOUNCE_READ) EM(KM_SKB_SUNRPC_DATA)		\
	EM(KM_SKB_DATA_SOFTIRQ) EM(KM_USER0) EM(KM_USER1)	\
	EM(KM_BIO_SRC_IRQ) EM(KM_BIO_DST_IRQ) EM(KM_PTE0)	\
	EM(KM_PTE1) EM(KM_IRQ0) EM(KM_IRQ1) EM(KM_SOFTIRQ0)	\
	EMe(KM_SOFTIRQ1)

#define KMAP_TRACE_CONTEXTS					\
	EMc(KMAP_TRACE_TASK, "task")				\
	EMc(KMAP_TRACE_TASK_BH_OFF, "task-bh-off")		\
	EMc(KMAP_TRACE_SOFTIRQ, "softirq")			\
	EMc(KMAP_TRACE_HARDIRQ, "hardirq")			\
	EMce(KMAP_TRACE_NMI, "nmi")

#define KMAP_TRACE_REPORTS					\
	EMc(KMAP_REPORT_COLLISION, "collision")			\
	EMc(KMAP_REPORT_CONTEXT, "wrong_context")		\
	EMc(KMAP_REPORT_WRONG_ADDRESS, "unmap_wrong_address")	\
	EMc(KMAP_REPORT_NOT_HELD, "unmap_not_held")		\
	EMc(KMAP_REPORT_OTHER_CONTEXT, "unmap_other_context")	\
	EMc(KMAP_REPORT_INVALID_TYPE, "invalid_type")		\
	EMc(KMAP_REPORT_LEAK, "leak")				\
	EMc(KMAP_REPORT_NO_SPARE, "no_spare")			\
	EMce(KMAP_REPORT_FAULT, "fault")

/* The enums' values, for perf and trace-cmd. */
#undef EM
#undef EMe
#undef EMc
#undef EMce
#define EM(a)		TRACE_DEFINE_ENUM(a);
#define EMe(a)		TRACE_DEFINE_ENUM(a);
#define EMc(a, b)	TRACE_DEFINE_ENUM(a);
#define EMce(a, b)	TRACE_DEFINE_ENUM(a);

KMAP_TRACE_SLOTS
KMAP_TRACE_CONTEXTS
KMAP_TRACE_REPORTS

#undef EM
#undef EMe
#undef EMc
#undef EMce
#define EM(a)		{ a, #a },
#define EMe(a)		{ a, #a }
#define EMc(a, b)	{ a, b },
#define EMce(a, b)	{ a, b }

DECLARE_EVENT_CLASS(kmap_atomic_slot,

	TP_PROTO(unsigned int type, unsigned long pfn, unsigned long addr,
		 unsigned long caller),

	TP_ARGS(type, pfn, addr, caller),

	TP_STRUCT__entry(
		__field(unsigned long, pfn)
		__field(unsigned long, addr)
		__field(unsigned long, caller)
		__field(unsigned int, type)
		__field(u8, context)
		__field(bool, irqs_off)
	),

	TP_fast_assign(
		__entry->pfn = pfn;
		__entry->addr = addr;
		__entry->caller = caller;
		__entry->type = type;
		__entry->context = kmap_atomic_trace_context();
		__entry->irqs_off = irqs_disabled();
	),

	TP_printk("slot=%s pfn=0x%lx addr=0x%lx caller=%pS context=%s%s",
		  __print_symbolic(__entry->type, KMAP_TRACE_SLOTS),
		  __entry->pfn, __entry->addr, (void *)__entry->caller,
		  __print_symbolic(__entry->context, KMAP_TRACE_CONTEXTS),
		  __entry->irqs_off ? " irqs-off" : "")
);

/*
 * A map: @type as named (a number past KM_SOFTIRQ1 for one that is no
 * slot), @addr where @pfn is mapped: the slot's, a spare's for a misuse,
 * or page_address() of a lowmem page, which uses no slot.
 */
DEFINE_EVENT(kmap_atomic_slot, kmap_atomic_map,
	TP_PROTO(unsigned int type, unsigned long pfn, unsigned long addr,
		 unsigned long caller),
	TP_ARGS(type, pfn, addr, caller)
);

/* An unmap that is carried out; a refused one is a report instead. */
DEFINE_EVENT(kmap_atomic_slot, kmap_atomic_unmap,
	TP_PROTO(unsigned int type, unsigned long pfn, unsigned long addr,
		 unsigned long caller),
	TP_ARGS(type, pfn, addr, caller)
);

/*
 * A misuse, each time (the console has each call site's first): @pfn is
 * the page being mapped or 0, @addr the address being unmapped or 0.
 */
TRACE_EVENT(kmap_atomic_report,

	TP_PROTO(enum kmap_atomic_report kind, unsigned int type,
		 unsigned long pfn, unsigned long addr, unsigned long caller),

	TP_ARGS(kind, type, pfn, addr, caller),

	TP_STRUCT__entry(
		__field(unsigned long, pfn)
		__field(unsigned long, addr)
		__field(unsigned long, caller)
		__field(unsigned int, type)
		__field(u8, kind)
		__field(u8, context)
		__field(bool, irqs_off)
	),

	TP_fast_assign(
		__entry->pfn = pfn;
		__entry->addr = addr;
		__entry->caller = caller;
		__entry->type = type;
		__entry->kind = kind;
		__entry->context = kmap_atomic_trace_context();
		__entry->irqs_off = irqs_disabled();
	),

	TP_printk("kind=%s slot=%s pfn=0x%lx addr=0x%lx caller=%pS context=%s%s",
		  __print_symbolic(__entry->kind, KMAP_TRACE_REPORTS),
		  __print_symbolic(__entry->type, KMAP_TRACE_SLOTS),
		  __entry->pfn, __entry->addr, (void *)__entry->caller,
		  __print_symbolic(__entry->context, KMAP_TRACE_CONTEXTS),
		  __entry->irqs_off ? " irqs-off" : "")
);

#endif /* _TRACE_KMAP_ATOMIC_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
