/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed atomic kmaps: kmap_atomic(page, KM_USER0) and kunmap_atomic(addr,
 * KM_USER0) beside the one-argument forms, in one kernel. Included by
 * <linux/highmem.h>; include that instead.
 */
#ifndef _LINUX_HIGHMEM_TYPED_H
#define _LINUX_HIGHMEM_TYPED_H

#include <linux/build_bug.h>
#include <linux/kmap_types.h>

/* Where a slot may be used; the table is in <linux/kmap_types.h>. */
enum km_context {
	KM_CTX_TASK,		/* process context, not in any interrupt */
	KM_CTX_SOFTIRQ,		/* softirq, or bottom halves disabled */
	KM_CTX_IRQ,		/* local interrupts disabled, not an NMI */
	KM_CTX_NMI,		/* an NMI handler */
	KM_CTX_DEBUGGER,	/* the kernel debugger: an NMI, int3 or #DB */
};

/*
 * The number of arguments picks the form: kmap_atomic(page) is the untyped
 * kmap_atomic() of highmem-internal.h, kmap_atomic(page, type) the typed one.
 * Inside its own expansion a macro's name is not expanded again, so the
 * untyped name below reaches the untyped function.
 */
#define __kmap_pick2(_1, _2, name, ...)		name
#define __kmap_pick3(_1, _2, _3, name, ...)	name

#define kmap_atomic(...)						\
	__kmap_pick2(__VA_ARGS__, kmap_atomic_typed, kmap_atomic)(__VA_ARGS__)
#define kmap_atomic_prot(...)						\
	__kmap_pick3(__VA_ARGS__, kmap_atomic_prot_typed,		\
		     kmap_atomic_prot)(__VA_ARGS__)
#define kmap_atomic_pfn(...)						\
	__kmap_pick2(__VA_ARGS__, kmap_atomic_pfn_typed,		\
		     kmap_atomic_pfn)(__VA_ARGS__)
#define kunmap_atomic(...)						\
	__kmap_pick2(__VA_ARGS__, kunmap_atomic_typed,			\
		     kunmap_atomic_one)(__VA_ARGS__)

/* A constant that is no slot does not compile. */
#define __kmap_atomic_check_type(type)					\
	BUILD_BUG_ON_MSG(__builtin_constant_p(type) &&			\
			 (unsigned int)(type) >= KM_TYPE_NR,		\
			 "kmap_atomic: no such slot, use an enum km_type")

/*
 * The page behind an address from any kind of kmap, or a lowmem, vmalloc or
 * (with HIGHMEM, or where modules live in the vmalloc area) module address;
 * NULL for anything else. See mm/kmap_atomic/to_page.c.
 */
#ifdef CONFIG_HIGHMEM
struct page *kmap_atomic_to_page(void *addr);
#else
/*
 * Modules call this too, and is_vmalloc_or_module_addr() is not exported.
 * x86-32's modules live in the vmalloc area, which is_vmalloc_addr() tests;
 * a module address outside it (where modules have an area of their own)
 * gives NULL.
 */
static inline struct page *kmap_atomic_to_page(void *addr)
{
	if (is_vmalloc_addr(addr))
		return vmalloc_to_page(addr);
	return virt_addr_valid(addr) ? virt_to_page(addr) : NULL;
}
#endif

#ifdef CONFIG_KMAP_ATOMIC_SLOTS
#include <asm/fixmap.h>

void *__kmap_atomic_page(struct page *page, enum km_type type);
void *__kmap_atomic_pfn(unsigned long pfn, enum km_type type);
void *__kmap_atomic_prot(struct page *page, enum km_type type, pgprot_t prot);
void __kunmap_atomic_addr(const void *addr, enum km_type type);
void __kunmap_atomic_one(const void *addr);
unsigned long kmap_atomic_reports(void);
unsigned long kmap_atomic_reports_printed(void);
const char *kmap_atomic_slot_name(enum km_type type);
enum km_context kmap_atomic_slot_context(enum km_type type);

/*
 * The fixmap address of slot @idx on @cpu: an enum km_type, or one of the
 * KM_SPARE_SLOTS spares after KM_TYPE_NR. With a guard page per slot
 * (KM_SLOT_STRIDE 2) the guard is the page above the slot's.
 */
static inline unsigned long kmap_atomic_slot_addr(unsigned int cpu,
						  unsigned int idx)
{
	return __fix_to_virt(FIX_KMAP_ATOMIC_BEGIN + cpu * KM_SLOTS_PER_CPU +
			     idx * KM_SLOT_STRIDE + KM_SLOT_STRIDE - 1);
}

/*
 * kunmap_atomic(addr), the one-argument form: an address in the slots'
 * range (every CPU's; the fixmap grows down from FIX_KMAP_ATOMIC_BEGIN, the
 * top page) is a typed map's, which the typed unmap releases under no
 * type and reports; any other is upstream's. One range compare.
 */
#define kunmap_atomic_one(__addr)					\
do {									\
	const void *__ka_addr = (__addr);				\
									\
	BUILD_BUG_ON(__same_type(typeof(__addr), struct page *));	\
	if (unlikely((unsigned long)__ka_addr >=			\
		     __fix_to_virt(FIX_KMAP_ATOMIC_END) &&		\
		     ((unsigned long)__ka_addr & PAGE_MASK) <=		\
		     __fix_to_virt(FIX_KMAP_ATOMIC_BEGIN))) {		\
		__kunmap_atomic_one(__ka_addr);				\
		barrier();						\
	} else								\
		kunmap_atomic_untyped(__ka_addr);			\
} while (0)

/*
 * One call each: the counts, the log and the slot are out of line. Never
 * a tail call (barrier()): the map's log entry and every report name the
 * call site by its return address.
 */
static __always_inline void *__kmap_atomic_typed(struct page *page,
						 enum km_type type,
						 pgprot_t prot)
{
	void *addr = __kmap_atomic_prot(page, type, prot);

	barrier();
	return addr;
}

static __always_inline void *__kmap_atomic_default(struct page *page,
						   enum km_type type)
{
	void *addr = __kmap_atomic_page(page, type);

	barrier();
	return addr;
}

static __always_inline void *__kmap_atomic_pfn_typed(unsigned long pfn,
						     enum km_type type)
{
	void *addr = __kmap_atomic_pfn(pfn, type);

	barrier();
	return addr;
}

static __always_inline void __kunmap_atomic_typed(const void *addr,
						  enum km_type type)
{
	__kunmap_atomic_addr(addr, type);
	barrier();
}

#else /* !CONFIG_KMAP_ATOMIC_SLOTS: the type is a name only */

/*
 * With KMAP_ATOMIC_ANY_ORDER (HIGHMEM where the architecture has the
 * slots): any order, as 2.6's slots (mm/kmap_atomic/any_order.c); elsewhere
 * kmap_local's reverse order.
 */
void *kmap_atomic_any_order(struct page *page, unsigned long pfn, pgprot_t prot,
			    unsigned int type);
void kunmap_atomic_any_order(const void *addr, unsigned int type);
void kunmap_atomic_any_order_one(const void *addr);

#ifdef CONFIG_KMAP_ATOMIC_ANY_ORDER
/*
 * kunmap_atomic(addr), the one-argument form, while the task has typed
 * maps, or in an NMI-class context (whose are in a log of the CPU's): the
 * map log tells whether it stands for one of them, whose counts it then
 * gives back once (kunmap_atomic_any_order_one()). A load and a branch
 * otherwise.
 */
#define kunmap_atomic_one(__addr)					\
do {									\
	const void *__ka_addr = (__addr);				\
									\
	BUILD_BUG_ON(__same_type(typeof(__addr), struct page *));	\
	if (unlikely(current->kmap_ctrl.typed_log.n || in_nmi()))	\
		kunmap_atomic_any_order_one(__ka_addr);			\
	else								\
		kunmap_atomic_untyped(__ka_addr);			\
} while (0)
#else
#define kunmap_atomic_one(__addr)	kunmap_atomic_untyped(__addr)
#endif

static inline void *__kmap_atomic_typed(struct page *page, enum km_type type,
					pgprot_t prot)
{
	if (IS_ENABLED(CONFIG_KMAP_ATOMIC_ANY_ORDER))
		return kmap_atomic_any_order(page, page_to_pfn(page), prot, type);
	return kmap_atomic_prot(page, prot);
}

/* kmap_prot exists with HIGHMEM only; without it the protection is unused. */
#ifdef CONFIG_HIGHMEM
#define __KMAP_ATOMIC_DEFAULT_PROT	kmap_prot
#else
#define __KMAP_ATOMIC_DEFAULT_PROT	PAGE_KERNEL
#endif

static inline void *__kmap_atomic_default(struct page *page,
					  enum km_type type)
{
	return __kmap_atomic_typed(page, type, __KMAP_ATOMIC_DEFAULT_PROT);
}

static inline void *__kmap_atomic_pfn_typed(unsigned long pfn,
					    enum km_type type)
{
	if (IS_ENABLED(CONFIG_KMAP_ATOMIC_ANY_ORDER))
		return kmap_atomic_any_order(NULL, pfn, __KMAP_ATOMIC_DEFAULT_PROT, type);
	return kmap_atomic_pfn(pfn);
}

static inline void __kunmap_atomic_typed(const void *addr, enum km_type type)
{
	if (IS_ENABLED(CONFIG_KMAP_ATOMIC_ANY_ORDER))
		kunmap_atomic_any_order(addr, type);
	else
		__kunmap_atomic(addr);
}

#ifdef CONFIG_KMAP_ATOMIC_ANY_ORDER
unsigned long kmap_atomic_reports(void);
unsigned long kmap_atomic_reports_printed(void);
#else
/* No slots, no checks: nothing is reported. */
static inline unsigned long kmap_atomic_reports(void)
{
	return 0;
}

static inline unsigned long kmap_atomic_reports_printed(void)
{
	return 0;
}
#endif
#endif /* CONFIG_KMAP_ATOMIC_SLOTS */

/**
 * kmap_atomic_prot_typed - map a page in this CPU's slot @type, with @prot
 * @page: the page to map
 * @type: the slot, an enum km_type, for the context the caller is in
 * @prot: the page protection, kmap_prot for ordinary use
 *
 * Written kmap_atomic_prot(page, type, prot). Never sleeps. Disables
 * preemption and page faults until kunmap_atomic(addr, type). A lowmem
 * page gives page_address() and uses no slot; a highmem page gets the
 * slot's pte, written into a pte that must be none. If it is not (the
 * slot is in use on this CPU) or @type is no slot, that is reported once
 * per call site and the page is mapped in a spare slot instead (so is an
 * NMI's map of a slot that is not an NMI's). The map is logged with its
 * call site for the unmap and for the end of the context.
 *
 * Return: the kernel virtual address of @page; NULL, with a report and
 * preemption and page faults as before, only for misuse: every spare in
 * use, or the context holding as many maps as the log takes.
 */
#define kmap_atomic_prot_typed(page, type, prot)			\
({									\
	__kmap_atomic_check_type(type);					\
	__kmap_atomic_typed(page, type, prot);				\
})

/**
 * kmap_atomic_typed - map a page in this CPU's slot @type
 * @page: the page to map
 * @type: the slot, an enum km_type, for the context the caller is in
 *
 * Written kmap_atomic(page, type): kmap_atomic_prot_typed() with kmap_prot.
 *
 * Return: the kernel virtual address of @page; NULL only for misuse,
 * where kmap_atomic_prot_typed() says.
 */
#define kmap_atomic_typed(page, type)					\
({									\
	__kmap_atomic_check_type(type);					\
	__kmap_atomic_default(page, type);				\
})

/**
 * kmap_atomic_pfn_typed - map a page frame in this CPU's slot @type
 * @pfn: the page frame; it need not have a struct page
 * @type: the slot, an enum km_type, for the context the caller is in
 *
 * Written kmap_atomic_pfn(pfn, type). Always uses the slot, lowmem or not.
 *
 * Return: the kernel virtual address of the page frame; NULL only for
 * misuse, where kmap_atomic_prot_typed() says.
 */
#define kmap_atomic_pfn_typed(pfn, type)				\
({									\
	__kmap_atomic_check_type(type);					\
	__kmap_atomic_pfn_typed(pfn, type);				\
})

/**
 * kunmap_atomic_typed - undo kmap_atomic(page, type)
 * @addr: any address inside the page that kmap_atomic() mapped
 * @type: the slot it was mapped in
 *
 * Written kunmap_atomic(addr, type). Clears the slot's pte and flushes that
 * one address on this CPU, so that the old address faults from now on,
 * then enables page faults and preemption again. A lowmem address (from a
 * lowmem page, which used no slot) only does the latter, as in 2.6. Every
 * unmap releases exactly one map of this context, or none: the map at
 * @addr's page (or whose end @addr is); for any other address, the map it
 * stands for by the rules of Documentation/mm/kmap-atomic.rst (2.6's
 * lowmem rule: a lowmem pointer for a lowmem map of @type). Each misuse is
 * reported once per call site; one that stands for no map (twice, a free
 * slot, another context's, NULL, nothing mapped) changes nothing: no pte,
 * and no preemption or page-fault count. Passing the page instead of the
 * address does not compile.
 */
#define kunmap_atomic_typed(addr, type)					\
do {									\
	/* typeof() does not evaluate @addr: it is evaluated once, below. */ \
	BUILD_BUG_ON(__same_type(typeof(addr), struct page *));	\
	__kmap_atomic_check_type(type);					\
	__kunmap_atomic_typed(addr, type);				\
} while (0)

#endif /* _LINUX_HIGHMEM_TYPED_H */
