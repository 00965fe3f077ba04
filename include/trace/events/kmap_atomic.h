/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed atomic kmaps: each map and unmap of a slot, and each misuse the
 * release paths or CONFIG_DEBUG_KMAP_ATOMIC report. The CPU is the
 * event's own; the context is the one the slot rules name. Names are
 * strings, so that perf and trace-cmd need no enum values; the slot's
 * number is there too, for filters.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kmap_atomic

#if !defined(_TRACE_KMAP_ATOMIC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KMAP_ATOMIC_H

#include <linux/highmem.h>
#include <linux/tracepoint.h>

#ifndef __KMAP_ATOMIC_TRACE_NAMES
#define __KMAP_ATOMIC_TRACE_NAMES
/* mm/kmap_atomic/core.c: "collision" and so on, as debugfs counts them too. */
const char *kmap_atomic_report_name(enum kmap_atomic_report kind);

/* The context an event comes from, as the slot rules of <linux/kmap_types.h> see it. */
static inline const char *kmap_atomic_trace_context(void)
{
	if (in_nmi())
		return "nmi";
	if (in_hardirq())
		return "hardirq";
	if (in_serving_softirq())
		return "softirq";
	return softirq_count() ? "task-bh-off" : "task";
}

/*
 * What __assign_str() does, in the form every kernel the series is for
 * takes: 6.10 dropped its source argument. __string() sized the field
 * from the same source, its NUL included.
 */
#define kmap_atomic_assign_str(field, src)				\
	strscpy(__get_str(field), (src), __get_dynamic_array_len(field))
#endif

/*
 * A map: @type as named, @addr where @pfn is mapped: the slot's, a
 * spare's for a misuse, or page_address() of a lowmem page, which uses no
 * slot. An unmap that is carried out; a refused one is a report instead.
 */
DECLARE_EVENT_CLASS(kmap_atomic_slot,
		    TP_PROTO(unsigned int type, unsigned long pfn, unsigned long addr,
			     unsigned long caller),
		    TP_ARGS(type, pfn, addr, caller),
		    TP_STRUCT__entry(__field(unsigned long, pfn)
				     __field(unsigned long, addr)
				     __field(unsigned long, caller)
				     __field(unsigned int, type)
				     __field(bool, irqs_off)
				     __string(slot, kmap_atomic_slot_name(type))
				     __string(context, kmap_atomic_trace_context())),
		    TP_fast_assign(__entry->pfn = pfn;
				   __entry->addr = addr;
				   __entry->caller = caller;
				   __entry->type = type;
				   __entry->irqs_off = irqs_disabled();
				   kmap_atomic_assign_str(slot, kmap_atomic_slot_name(type));
				   kmap_atomic_assign_str(context, kmap_atomic_trace_context());),
		    TP_printk("slot=%s pfn=0x%lx addr=0x%lx caller=%pS context=%s%s",
			      __get_str(slot), __entry->pfn, __entry->addr,
			      (void *)__entry->caller, __get_str(context),
			      __entry->irqs_off ? " irqs-off" : "")
);

DEFINE_EVENT(kmap_atomic_slot, kmap_atomic_map,
	     TP_PROTO(unsigned int type, unsigned long pfn, unsigned long addr,
		      unsigned long caller),
	     TP_ARGS(type, pfn, addr, caller)
);

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
	    TP_STRUCT__entry(__field(unsigned long, pfn)
			     __field(unsigned long, addr)
			     __field(unsigned long, caller)
			     __field(unsigned int, type)
			     __field(bool, irqs_off)
			     __string(kind, kmap_atomic_report_name(kind))
			     __string(slot, kmap_atomic_slot_name(type))
			     __string(context, kmap_atomic_trace_context())),
	    TP_fast_assign(__entry->pfn = pfn;
			   __entry->addr = addr;
			   __entry->caller = caller;
			   __entry->type = type;
			   __entry->irqs_off = irqs_disabled();
			   kmap_atomic_assign_str(kind, kmap_atomic_report_name(kind));
			   kmap_atomic_assign_str(slot, kmap_atomic_slot_name(type));
			   kmap_atomic_assign_str(context, kmap_atomic_trace_context());),
	    TP_printk("kind=%s slot=%s pfn=0x%lx addr=0x%lx caller=%pS context=%s%s",
		      __get_str(kind), __get_str(slot), __entry->pfn, __entry->addr,
		      (void *)__entry->caller, __get_str(context),
		      __entry->irqs_off ? " irqs-off" : "")
);

#endif /* _TRACE_KMAP_ATOMIC_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
