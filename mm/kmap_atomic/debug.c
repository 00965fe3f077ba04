// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_DEBUG_KMAP_ATOMIC: each typed map and unmap is checked when it
 * happens, against a per-CPU record of who holds each slot.
 *
 * The slots themselves are claimed as in a release kernel, on their ptes
 * (core.c): a pte is claimed from none with one cmpxchg before the
 * record is written, so an NMI between the two finds the slot taken. In an
 * NMI only the NMI slots (KM_NMI, KM_NMI_PTE, KM_KDB) are used as named; any
 * other type there is reported and given a spare (any free one: the last
 * KM_NMI_SPARES are kept for NMIs), so that the NMI never takes the slot
 * of the context it interrupted.
 *
 * A misuse is reported through WARN once per call site and kind, and
 * counted every time, and loses nothing: a map into a held slot gets a
 * spare of its own (the spares are released in any order), an unmap that
 * stands for a map of this context (wrong type, wrong pointer) releases it,
 * and one that stands for no map changes nothing at all. What an unmap
 * stands for is the core's decision (kmap_atomic_find_held()). Reports print
 * after the record is consistent and interrupts are restored. A slot
 * still held when the context that took it ends is reported and reclaimed
 * there. A map of a lowmem page uses no slot and is not recorded, and a
 * lowmem address unmaps as in 2.6: only page faults and preemption.
 *
 * Each slot has an unmapped guard page above it, and a kernel fault on a
 * slot's address is described (slot, CPU, offset, who holds it or who last
 * unmapped it) before the fault is fixed up or oopses; an oops or panic
 * lists the slots held on its CPU; a task that dies of an oops has what it
 * held reclaimed as it dies, like a context that ends.
 */
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/init.h>
#include <linux/kdebug.h>
#include <linux/kgdb.h>
#include <linux/kprobes.h>
#include <linux/kmap_atomic_debug.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/pfn.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>

#include <trace/events/kmap_atomic.h>

#include "kmap_atomic.h"

/* The context a mapping was made in; 0 means the slot is free. */
enum holder_ctx { FREE, TASK, SOFTIRQ, HARDIRQ, NMI };

static const char * const ctx_names[] = {
	[FREE] = "free", [TASK] = "task", [SOFTIRQ] = "softirq",
	[HARDIRQ] = "hard interrupt", [NMI] = "NMI",
};

/*
 * The counts and pending reports are kept per context, and per NMI level:
 * an int3, #DB or #MC taken inside an NMI is an NMI one level deeper (its
 * own exit is checked for leaks), which must not see the outer one's.
 */
#define NMI_LEVELS	4
#define CTX_LEVELS	(NMI + NMI_LEVELS)

static unsigned int ctx_level(u8 ctx)
{
	unsigned int depth = (preempt_count() & NMI_MASK) >> NMI_SHIFT;

	return ctx == NMI ? NMI + clamp(depth, 1U, NMI_LEVELS) - 1 : ctx;
}

struct holder {
	unsigned long ip;		/* the kmap_atomic() call site */
	struct task_struct *task;	/* for TASK: compared, never followed */
	pid_t pid;			/* for reports */
	unsigned int level;		/* kmap_atomic_level(): nested NMIs apart */
	unsigned long pfn;
	u8 ctx;				/* written last: the record is whole */
	u8 type;			/* the slot asked for; KM_TYPE_NR if invalid */
	u8 unmap_ctx;			/* of the last unmap, for fault reports */
	unsigned long unmap_ip;		/* the last unmap's call site; 0: reclaimed */
};

struct kmap_cpu {
	struct holder slot[KM_SLOTS_USED];	/* the spares follow KM_TYPE_NR */
	/*
	 * Each context's typed maps not yet unmapped, lowmem ones (which
	 * hold no slot) included: what the counts they raised still owe. A
	 * context touches only its own, and contexts nest.
	 */
	unsigned int held[CTX_LEVELS];
	/* Each context's last lowmem map's call site, for a leak report. */
	unsigned long low_ip[CTX_LEVELS];
	unsigned long maps[KM_TYPE_NR];		/* of highmem pages or pfns */
	unsigned long high[KM_TYPE_NR];		/* of highmem pages */
	unsigned long above_4g[KM_TYPE_NR];	/* of pages above 4 GiB */
	unsigned long collisions[KM_TYPE_NR];
};

static DEFINE_PER_CPU(struct kmap_cpu, kmap_cpu);
static atomic_long_t kmap_reports[KMAP_REPORT_NR];

/**
 * kmap_atomic_debug_reports - how many reports of one kind were made
 * @kind: the kind of misuse
 *
 * Counts every report, printed or not (each call site prints a kind once).
 *
 * Return: the count since boot.
 */
unsigned long kmap_atomic_debug_reports(enum kmap_atomic_report kind)
{
	return atomic_long_read(&kmap_reports[kind]);
}
EXPORT_SYMBOL_GPL(kmap_atomic_debug_reports);

/*
 * Reports are composed while the record is being changed, interrupts off,
 * and printed once it is consistent and interrupts are restored.
 */
#define REPORT_LEN	320

struct pending {
	unsigned int n;
	/* For the trace events: the slot, the page mapped or address unmapped. */
	unsigned int type;
	unsigned long pfn, addr;
	struct {
		enum kmap_atomic_report kind;
		unsigned int type;
		unsigned long ip, pfn, addr;
		char msg[REPORT_LEN];
	} r[4];	/* a map's: its context, a reclaim, a collision, a spare's */
};

/*
 * One per context level and CPU, not on the stack (an NMI runs on the
 * interrupted stack): contexts nest, and each fills and prints its own
 * with preemption off; an #MC, #DB or int3 inside an NMI has its own.
 */
static DEFINE_PER_CPU(struct pending, pending[CTX_LEVELS]);

static struct pending *pending_for(u8 ctx, unsigned int type, unsigned long pfn,
				   unsigned long addr)
{
	struct pending *p = this_cpu_ptr(&pending[ctx_level(ctx)]);

	p->n = 0;
	p->type = type;
	p->pfn = pfn;
	p->addr = addr;
	return p;
}

static __printf(4, 5) void note(struct pending *p, enum kmap_atomic_report kind,
				unsigned long ip, const char *fmt, ...)
{
	va_list args;

	if (WARN_ON_ONCE(p->n >= ARRAY_SIZE(p->r)))
		return;
	p->r[p->n].kind = kind;
	p->r[p->n].ip = ip;
	p->r[p->n].type = p->type;
	p->r[p->n].pfn = p->pfn;
	p->r[p->n].addr = p->addr;
	va_start(args, fmt);
	vsnprintf(p->r[p->n].msg, REPORT_LEN, fmt, args);
	va_end(args);
	p->n++;
}

/* The reports' trace events, in the context and interrupt state they were made in. */
static void trace_reports(const struct pending *p)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		trace_kmap_atomic_report(p->r[i].kind, p->r[i].type, p->r[i].pfn,
					 p->r[i].addr, p->r[i].ip);
}

static void emit(struct pending *p)
{
	unsigned int i;

	trace_reports(p);
	for (i = 0; i < p->n; i++) {
		/* One call site's kinds are told apart: the key is never text. */
		unsigned long key = p->r[i].ip ^
			((unsigned long)p->r[i].kind << (BITS_PER_LONG - 4));

		if (kmap_atomic_report_site(key))
			WARN(1, "kmap_atomic: %s\n", p->r[i].msg);
		/* Counted once printed: a test that sees the count sees the report. */
		atomic_long_inc(&kmap_reports[p->r[i].kind]);
	}
}

static u8 current_ctx(void)
{
	if (in_nmi())
		return NMI;
	if (in_hardirq())
		return HARDIRQ;
	if (in_serving_softirq())
		return SOFTIRQ;
	return TASK;
}

static bool held_by_current(const struct holder *h, u8 ctx)
{
	if (h->ctx != ctx)
		return false;
	return ctx == TASK ? h->task == current : h->level == kmap_atomic_level();
}

static const char *slot_name(unsigned int idx)
{
	return idx < KM_TYPE_NR ? kmap_atomic_slot_name(idx) : "a spare slot";
}

static const char *const context_rules[] = {
	[KM_CTX_TASK] = "process context, not an interrupt",
	[KM_CTX_SOFTIRQ] =
		"softirq, or a task with bottom halves or interrupts off, not a hard interrupt",
	[KM_CTX_IRQ] = "use with local interrupts disabled, not in an NMI",
	[KM_CTX_NMI] = "NMI handlers only",
	[KM_CTX_DEBUGGER] = "the kernel debugger (an NMI, int3 or #DB) only",
};

/* May an NMI map @type as named? Any other type in an NMI gets a spare. */
static bool kmap_atomic_nmi_slot(unsigned int type)
{
	enum km_context rule;

	if (type >= KM_TYPE_NR)
		return false;
	rule = kmap_atomic_slot_context(type);
	return rule == KM_CTX_NMI || rule == KM_CTX_DEBUGGER;
}

static void check_context(struct pending *p, enum km_type type, u8 ctx, bool irqs_off,
			  unsigned long ip)
{
	enum km_context rule = kmap_atomic_slot_context(type);
	bool ok;

	switch (rule) {
	case KM_CTX_TASK:
		ok = ctx == TASK;
		break;
	case KM_CTX_SOFTIRQ:
		/* 2.6 allowed a task with interrupts off too: no softirq runs. */
		ok = ctx == SOFTIRQ || (ctx == TASK && (softirq_count() || irqs_off));
		break;
	case KM_CTX_NMI:
		/*
		 * Stricter than 2.6.33's check, which let a task with
		 * interrupts off map them too: an NMI may come there and
		 * collide. x86 code of 2.6 mapped them only in NMIs.
		 */
		ok = ctx == NMI;
		break;
	case KM_CTX_DEBUGGER:
		/* x86 enters the debugger from int3, #DB or an NMI: all NMIs. */
		ok = ctx == NMI || in_dbg_master();
		break;
	default:
		ok = irqs_off && ctx != NMI;
		break;
	}
	if (!ok)
		note(p, KMAP_REPORT_CONTEXT, ip,
		     "%s is for %s, but %pS maps it in %s context with interrupts %s%s",
		     kmap_atomic_slot_name(type), context_rules[rule], (void *)ip,
		     ctx_names[ctx], irqs_off ? "off" : "on",
		     ctx == TASK && softirq_count() ? " and bottom halves off" : "");
}

static void record(struct holder *h, unsigned int type, unsigned long pfn, u8 ctx,
		   unsigned long ip)
{
	h->ip = ip;
	h->task = current;
	h->pid = task_pid_nr(current);
	h->level = kmap_atomic_level();
	h->pfn = pfn;
	h->type = min_t(unsigned int, type, KM_TYPE_NR);
	barrier();	/* a fault report in an NMI reads a whole record */
	WRITE_ONCE(h->ctx, ctx);
}

/* Clear the slot's pte and the record; @ip is the unmap's call site. */
static void release(unsigned int idx, u8 ctx, unsigned long ip)
{
	struct holder *h = this_cpu_ptr(&kmap_cpu.slot[idx]);

	kmap_atomic_release(idx);
	h->unmap_ip = ip;
	h->unmap_ctx = ctx;
	WRITE_ONCE(h->ctx, FREE);
}

/*
 * A misuse of @type (a collision, a type that is no slot, an NMI): a spare,
 * recorded (one left behind by a map whose counts were given back, if
 * none is free); past the last one, a kmap_local fallback, which may be
 * released in any order too. An NMI gets NULL there, since kmap_local's
 * stack is the interrupted task's, and so does a task whose kmap_local
 * stack is full.
 */
static void *map_spare(struct pending *p, unsigned long pfn, unsigned int type, pgprot_t prot,
		       u8 ctx, unsigned long ip)
{
	bool reused;
	int i = kmap_atomic_claim_spare(pfn, prot, type, &reused);
	void *addr;

	if (i >= 0) {
		if (reused)
			note(p, KMAP_REPORT_LEAK, ip,
			     "%pS is given spare %u of CPU%u, reclaimed from a map whose counts were given back without it",
			     (void *)ip, i, smp_processor_id());
		record(this_cpu_ptr(&kmap_cpu.slot[KM_TYPE_NR + i]), type, pfn, ctx, ip);
		return (void *)kmap_atomic_slot_addr(smp_processor_id(), KM_TYPE_NR + i);
	}
	addr = ctx == NMI ? NULL : kmap_atomic_fallback_map(pfn, prot, type);
	if (!addr) {
		/* Its counts are given back: its unmap of NULL changes nothing. */
		note(p, KMAP_REPORT_NO_SPARE, ip,
		     "%pS maps %s with every spare of CPU%u in use and %s: not mapped, NULL returned",
		     (void *)ip, kmap_atomic_slot_name(type), smp_processor_id(),
		     ctx == NMI ? "in an NMI" : "kmap_local's stack half full");
		kmap_atomic_refuse();
		return NULL;
	}
	note(p, KMAP_REPORT_NO_SPARE, ip,
	     "CPU%u has its %d spare slots in use: %pS is mapped with kmap_local",
	     smp_processor_id(), KM_SPARE_SLOTS - KM_NMI_SPARES, (void *)ip);
	return addr;
}

/**
 * __kmap_atomic_debug - the checked kmap_atomic(page, type)
 * @page: the page, or NULL for kmap_atomic_pfn()
 * @pfn: its page frame
 * @type: the slot asked for
 * @prot: the protection
 *
 * Called by the inline map functions with preemption and page faults
 * disabled; use those, not this.
 *
 * Return: the address of the mapping: page_address() of a lowmem page;
 * else in @type's slot, or in a spare slot if @type is held already, is no
 * slot, or the caller is an NMI and @type no NMI slot.
 */
void *__kmap_atomic_debug(struct page *page, unsigned long pfn, enum km_type type,
			  pgprot_t prot)
{
	unsigned long ip = _RET_IP_;	/* inlined into the caller: its call site */
	bool irqs_off = irqs_disabled();
	u8 ctx = current_ctx();
	struct pending *p;
	unsigned int cpu;
	struct kmap_cpu *kc;
	unsigned long flags, vaddr;
	struct holder h;
	void *addr;

	/* 2.6: a lowmem page uses no slot, and its map was not checked. */
	if (page && !PageHighMem(page)) {
		this_cpu_inc(kmap_cpu.held[ctx_level(ctx)]);
		this_cpu_write(kmap_cpu.low_ip[ctx_level(ctx)], ip);
		addr = lowmem_page_address(page);
		trace_kmap_atomic_map(type, pfn, (unsigned long)addr, ip);
		return addr;
	}

	p = pending_for(ctx, type, pfn, 0);
	local_irq_save(flags);
	kc = this_cpu_ptr(&kmap_cpu);
	cpu = smp_processor_id();
	if (unlikely(ctx == NMI && !kmap_atomic_nmi_slot(type))) {
		addr = map_spare(p, pfn, type, prot, ctx, ip);
		note(p, KMAP_REPORT_CONTEXT, ip,
		     "%pS maps %s in an NMI: only KM_NMI, KM_NMI_PTE and KM_KDB are for NMI context; given a spare slot",
		     (void *)ip, kmap_atomic_slot_name(type));
	} else if ((unsigned int)type >= KM_TYPE_NR) {
		note(p, KMAP_REPORT_INVALID_TYPE, ip,
		     "%pS maps slot %d, which does not exist (KM_TYPE_NR is %d): given a spare slot",
		     (void *)ip, type, KM_TYPE_NR);
		addr = map_spare(p, pfn, type, prot, ctx, ip);
	} else {
		check_context(p, type, ctx, irqs_off, ip);
		kc->maps[type]++;
		if (page)
			kc->high[type]++;
		if (PFN_PHYS(pfn) >= SZ_4G)
			kc->above_4g[type]++;
		vaddr = kmap_atomic_map_idx(type, pfn, prot);
		if (!vaddr && kmap_atomic_reclaim_orphan(type)) {
			h = kc->slot[type];
			note(p, KMAP_REPORT_LEAK, ip,
			     "%s on CPU%u was still mapped by %pS (%s, pfn %#lx), whose counts were given back without it (a wrong pointer unmapped out of order?): reclaimed, and %pS maps it",
			     kmap_atomic_slot_name(type), cpu, (void *)h.ip, ctx_names[h.ctx],
			     h.pfn, (void *)ip);
			WRITE_ONCE(kc->slot[type].ctx, FREE);
			vaddr = kmap_atomic_map_idx(type, pfn, prot);
		}
		if (vaddr) {
			record(&kc->slot[type], type, pfn, ctx, ip);
			addr = (void *)vaddr;
		} else {
			kc->collisions[type]++;
			h = kc->slot[type];
			note(p, KMAP_REPORT_COLLISION, ip,
			     "%s on CPU%u is held by %pS (%s, pfn %#lx); %pS (%s) maps it too and is given a spare slot",
			     kmap_atomic_slot_name(type), cpu, (void *)h.ip, ctx_names[h.ctx],
			     h.pfn, (void *)ip, ctx_names[ctx]);
			addr = map_spare(p, pfn, type, prot, ctx, ip);
		}
	}
	if (addr)
		kc->held[ctx_level(ctx)]++;
	local_irq_restore(flags);
	if (addr)
		trace_kmap_atomic_map(type, pfn, (unsigned long)addr, ip);
	emit(p);
	return addr;
}
EXPORT_SYMBOL(__kmap_atomic_debug);

/* Why @addr does not unmap @type here: what the address is. */
static void explain_unmap(struct pending *p, struct kmap_cpu *kc, const void *addr,
			  unsigned int type, u8 ctx, unsigned long ip)
{
	unsigned long base = (unsigned long)addr & PAGE_MASK;
	unsigned int cpu = smp_processor_id();
	const char *name = kmap_atomic_slot_name(type);
	struct kmap_atomic_where w;
	const struct holder *h;

	if (!kmap_atomic_slot_of(base, &w) && kmap_atomic_is_local(base)) {
		note(p, KMAP_REPORT_WRONG_ADDRESS, ip,
		     "%pS unmaps %p from %s, but that is a kmap_local_page() or kmap_atomic(page) address (use kunmap_local() or kunmap_atomic(addr)): nothing changed",
		     (void *)ip, addr, name);
		return;
	}
	if (!kmap_atomic_slot_of(base, &w)) {
		note(p, KMAP_REPORT_WRONG_ADDRESS, ip,
		     "%pS unmaps %p from %s, but no typed slot maps it (a stale or made-up pointer?): nothing changed",
		     (void *)ip, addr, name);
		return;
	}
	if (w.guard) {
		note(p, KMAP_REPORT_WRONG_ADDRESS, ip,
		     "%pS unmaps %p from %s, but that is a guard page of CPU%u's slots, which maps nothing: nothing changed",
		     (void *)ip, addr, name, w.cpu);
		return;
	}
	if (w.cpu != cpu) {
		note(p, KMAP_REPORT_WRONG_ADDRESS, ip,
		     "%pS unmaps %p from %s on CPU%u, but that is CPU%u's %s: nothing changed",
		     (void *)ip, addr, name, cpu, w.cpu, slot_name(w.idx));
		return;
	}
	if (type >= KM_TYPE_NR) {
		note(p, KMAP_REPORT_INVALID_TYPE, ip,
		     "%pS unmaps %p from slot %u, which does not exist: nothing changed",
		     (void *)ip, addr, type);
		return;
	}
	h = &kc->slot[w.idx];
	if (h->ctx == FREE && h->type == type)
		note(p, KMAP_REPORT_NOT_HELD, ip,
		     "%pS unmaps %p from %s, but CPU%u's %s maps nothing (unmapped twice?): nothing changed",
		     (void *)ip, addr, name, cpu, slot_name(w.idx));
	else if (h->ctx == FREE)
		note(p, KMAP_REPORT_WRONG_ADDRESS, ip,
		     "%pS unmaps %p from %s, but that is CPU%u's %s, which maps nothing (a stale pointer, or the wrong type?): nothing changed",
		     (void *)ip, addr, name, cpu, slot_name(w.idx));
	else
		note(p, KMAP_REPORT_OTHER_CONTEXT, ip,
		     "%pS unmaps %s in %s context, but %pS mapped it in %s context: nothing changed",
		     (void *)ip, slot_name(w.idx), ctx_names[ctx], (void *)h->ip,
		     ctx_names[h->ctx]);
}

/* Take one map off @ctx's count; false if it has none left to give back. */
static bool give_back(struct kmap_cpu *kc, u8 ctx)
{
	unsigned int l = ctx_level(ctx);

	if (!kc->held[l])
		return false;
	kc->held[l]--;
	return true;
}

/*
 * Give back what one of @ctx's maps raised. held[] is per CPU: a task that
 * slept while mapped (a bug, which might_sleep() reports) left its count
 * here, and the task now running must not pay for it with its own counts.
 */
static void refuse_one(struct kmap_cpu *kc, u8 ctx)
{
	if (give_back(kc, ctx) && current->kmap_ctrl.typed_depth > 0)
		kmap_atomic_reclaim_counts();
}

/**
 * __kunmap_atomic_debug - the checked kunmap_atomic(addr, type)
 * @addr: the address passed
 * @type: the slot named
 *
 * Return: true if @addr is a lowmem address (2.6's rule) with page faults
 * disabled, or is what this CPU's slot @type, or a spare or kmap_local
 * fallback handed out for a misuse of @type, maps for this context: that
 * is released, and the caller enables page faults and preemption. False
 * after a report: nothing was changed.
 */
bool __kunmap_atomic_debug(const void *addr, enum km_type type)
{
	unsigned long ip = _RET_IP_;
	unsigned long base = (unsigned long)addr & PAGE_MASK;
	u8 ctx = current_ctx();
	unsigned int held_type;
	struct pending *p;
	struct kmap_cpu *kc;
	unsigned long flags;
	/*
	 * What was unmapped (its frame; -1 for a lowmem address), traced once
	 * interrupts are as the caller had them.
	 */
	unsigned long unmapped_pfn = -1UL;
	bool unmapped = false;
	bool ok = false;
	bool other, left;
	int idx, places;

	/* A misused unmap may come with preemption on: stay on this CPU. */
	preempt_disable();
	p = pending_for(ctx, type, 0, (unsigned long)addr);
	local_irq_save(flags);
	kc = this_cpu_ptr(&kmap_cpu);
	idx = kmap_atomic_find_held(base, type, &other);
	if (idx < 0 && kmap_atomic_is_lowmem(base)) {
		/*
		 * 2.6's rule: any map of this context may be given back; but
		 * with none left the counts would underflow.
		 */
		places = kc->held[ctx_level(ctx)];
		/* held[] is per CPU: a task's own stack must hold a map too. */
		ok = (ctx != TASK || current->kmap_ctrl.typed_depth > 0) && give_back(kc, ctx);
		unmapped = ok;
		if (ok)
			kmap_atomic_lowmem_popped(ctx == TASK ?
						  current->kmap_ctrl.typed_depth : places);
		if (!ok)
			note(p, KMAP_REPORT_NOT_HELD, ip,
			     "%pS unmaps %p from %s with nothing mapped in this context: nothing changed",
			     (void *)ip, addr, kmap_atomic_slot_name(type));
		goto out;
	}
	if (idx < 0) {
		struct kmap_atomic_where w;

		if (other && !kmap_atomic_slot_of(base, &w))
			note(p, KMAP_REPORT_OTHER_CONTEXT, ip,
			     "%pS unmaps %p from %s in %s context, but another context mapped it: nothing changed",
			     (void *)ip, addr, kmap_atomic_slot_name(type), ctx_names[ctx]);
		else
			explain_unmap(p, kc, addr, type, ctx, ip);
		goto out;
	}
	/* An unmap that stands for a map of this context releases it. */
	held_type = kmap_atomic_held_type(idx);
	left = kmap_atomic_held_left(idx);
	unmapped = true;
	if (idx < KM_SLOTS_USED) {
		unmapped_pfn = kc->slot[idx].pfn;
		release(idx, ctx, ip);
	} else {
		unmapped_pfn = kmap_atomic_release(idx);
	}
	p->pfn = unmapped_pfn;	/* for the reports' trace events */
	if (kmap_atomic_is_lowmem(base))
		note(p, KMAP_REPORT_WRONG_ADDRESS, ip, KMAP_WRONG_POINTER, (void *)ip, addr,
		     kmap_atomic_slot_name(type), idx < KM_SLOTS_USED ? slot_name(idx) :
		     "a kmap_local fallback");
	else if (held_type != min_t(unsigned int, type, KM_TYPE_NR))
		note(p, KMAP_REPORT_WRONG_ADDRESS, ip, KMAP_WRONG_TYPE, (void *)ip, addr,
		     kmap_atomic_slot_name(type), kmap_atomic_slot_name(held_type));
	/* A map left behind had its count given back by a lowmem unmap. */
	ok = !left && give_back(kc, ctx);
	if (!ok)
		note(p, KMAP_REPORT_WRONG_ADDRESS, ip, KMAP_COUNTS_GIVEN_BACK, (void *)ip,
		     slot_name(idx < KM_SLOTS_USED ? idx : KM_TYPE_NR));
out:
	local_irq_restore(flags);
	if (unmapped && trace_kmap_atomic_unmap_enabled())
		trace_kmap_atomic_unmap(type, unmapped_pfn == -1UL ? PFN_DOWN(__pa(base)) :
					unmapped_pfn, base, ip);
	emit(p);
	preempt_enable();
	return ok;
}
EXPORT_SYMBOL(__kunmap_atomic_debug);

/*
 * A task that an oops kills: its oops told the story, so what it held is
 * only listed, not reported as a misuse (no WARN: panic_on_warn would
 * turn a survivable oops into a panic).
 */
static void tell_dying(struct pending *p)
{
	unsigned int i;

	trace_reports(p);
	for (i = 0; i < p->n; i++)
		pr_emerg("kmap_atomic: %s\n", p->r[i].msg);
}

/* The task whose death is being reclaimed on this CPU, if any. */
static DEFINE_PER_CPU(struct task_struct *, reclaiming_dead);
/* An NMI's check under way here: a #DB or int3 taken inside it must not recurse. */
static DEFINE_PER_CPU(bool, checking_nmi);

static const char * const context_ends[] = {
	[KMAP_END_SYSCALL] = "its system call returns",
	[KMAP_END_TO_USER] = "its exception or interrupt returns to user space",
	[KMAP_END_WORK] = "its work item returns",
	[KMAP_END_KTHREAD] = "its kernel thread's function returns",
	[KMAP_END_HARDIRQ] = "its hard interrupt returns",
	[KMAP_END_SOFTIRQ] = "its softirq handler returns",
	[KMAP_END_NMI] = "its NMI returns",
	[KMAP_END_TASK_DIES] = "its task dies of an oops",
};

/**
 * kmap_atomic_check_leaks - reclaim the slots an ending context still holds
 * @end: which context ends, for the report
 *
 * Called before a system call's exit work, where an exception or interrupt
 * returns to user space, where a work item or a kernel thread's function
 * returns, where a hard interrupt, a softirq handler or an NMI (a real
 * one, not an #MC, #DB or int3) returns, and in make_task_dead() for a
 * task that an oops kills. Each
 * slot the context still holds, and each kmap_local fallback it was given
 * past the last spare, is reported (for a dying task, only listed) and
 * released, and the preemption and page-fault counts its map raised are
 * brought back.
 */
void kmap_atomic_check_leaks(enum kmap_atomic_context_end end)
{
	u8 ctx = current_ctx();
	struct kmap_cpu *kc;
	struct pending *p;
	unsigned long flags;
	unsigned int i = 0;

	if (end == KMAP_END_NMI) {
		if (this_cpu_read(checking_nmi))
			return;
		this_cpu_write(checking_nmi, true);
	}
	preempt_disable();
	/*
	 * A fault in here would kill the task again: do not loop. Only that
	 * task is skipped (its first reclaim never returns).
	 */
	if (end == KMAP_END_TASK_DIES) {
		if (this_cpu_read(reclaiming_dead) == current) {
			preempt_enable();
			return;
		}
		this_cpu_write(reclaiming_dead, current);
	}
	do {
		p = pending_for(ctx, KM_TYPE_NR, 0, 0);
		local_irq_save(flags);
		kc = this_cpu_ptr(&kmap_cpu);
		for (; i < KM_SLOTS_USED && p->n < ARRAY_SIZE(p->r); i++) {
			struct holder *h = &kc->slot[i];

			if (!held_by_current(h, ctx))
				continue;
			p->type = h->type;
			p->pfn = h->pfn;
			p->addr = kmap_atomic_slot_addr(smp_processor_id(), i);
			note(p, KMAP_REPORT_LEAK, h->ip,
			     "%s on CPU%u, mapped by %pS (pfn %#lx), is still held as %s: reclaimed",
			     slot_name(i), smp_processor_id(), (void *)h->ip, h->pfn,
			     context_ends[end]);
			release(i, ctx, 0);
			/* Unless a lowmem unmap gave its counts back already. */
			refuse_one(kc, ctx);
		}
		/* Past the last spare: on kmap_local's stack, popped here. */
		p->type = KM_TYPE_NR;
		p->pfn = 0;
		p->addr = 0;
		if (i == KM_SLOTS_USED && p->n < ARRAY_SIZE(p->r)) {
			unsigned int n = kmap_atomic_fallback_reclaim();

			if (n)
				note(p, KMAP_REPORT_LEAK, 0,
				     "%u kmap_local fallback(s) on CPU%u, mapped past the last spare, are still held as %s: released",
				     n, smp_processor_id(), context_ends[end]);
			while (n--)
				refuse_one(kc, ctx);
		}
		/* What is left is lowmem maps, which hold no slot to name. */
		if (i == KM_SLOTS_USED && kc->held[ctx_level(ctx)] && p->n < ARRAY_SIZE(p->r)) {
			unsigned long low_ip = kc->low_ip[ctx_level(ctx)];

			/* The same counts as a slot's leak: as much a leak. */
			note(p, KMAP_REPORT_LEAK, low_ip,
			     "%u map(s) of lowmem pages on CPU%u (the last by %pS), which hold no slot, are still held as %s: reclaimed, their counts given back",
			     kc->held[ctx_level(ctx)], smp_processor_id(), (void *)low_ip,
			     context_ends[end]);
			while (kc->held[ctx_level(ctx)])
				refuse_one(kc, ctx);
		}
		local_irq_restore(flags);
		if (end == KMAP_END_TASK_DIES)
			tell_dying(p);
		else
			emit(p);
	} while (p->n);
	if (end == KMAP_END_TASK_DIES)
		this_cpu_write(reclaiming_dead, NULL);
	preempt_enable();
	if (end == KMAP_END_NMI)
		this_cpu_write(checking_nmi, false);
}
EXPORT_SYMBOL_GPL(kmap_atomic_check_leaks);

/* Called where exceptions and NMIs return: no probes there. */
NOKPROBE_SYMBOL(kmap_atomic_check_leaks);

/**
 * kmap_atomic_describe - what an address in the typed slots' range is
 * @addr: the address, a faulting one say
 * @buf: where to write the description
 * @len: its size
 *
 * For example "fault at 0xffa3f008 is KM_USER1 on CPU2 + 0x1008: 8 bytes
 * past the page that foo+0x12/0x80 mapped (held)". The record of another
 * CPU may change as it is read: the description is a snapshot.
 *
 * Return: the length written (as scnprintf()), 0 if @addr is not in the
 * range.
 */
size_t kmap_atomic_describe(unsigned long addr, char *buf, size_t len)
{
	struct kmap_atomic_where w;
	struct holder h;
	unsigned long off;
	size_t n;

	if (!kmap_atomic_slot_of(addr & PAGE_MASK, &w) || !cpu_possible(w.cpu))
		return 0;
	if (w.idx >= KM_SLOTS_USED)
		return scnprintf(buf, len, "fault at %#lx is in the padding after CPU%u's slots",
				 addr, w.cpu);
	h = per_cpu_ptr(&kmap_cpu, w.cpu)->slot[w.idx];
	off = addr - kmap_atomic_slot_addr(w.cpu, w.idx);
	n = scnprintf(buf, len, "fault at %#lx is %s on CPU%u + %#lx: ", addr,
		      slot_name(w.idx), w.cpu, off);
	if (w.guard)
		n += scnprintf(buf + n, len - n, "%lu bytes past the page that ",
			       off - PAGE_SIZE);
	else
		n += scnprintf(buf + n, len - n, "in the page that ");
	if (h.ctx != FREE)
		n += scnprintf(buf + n, len - n, "%pS mapped (held, %s, pfn %#lx)",
			       (void *)h.ip, ctx_names[h.ctx], h.pfn);
	else if (h.unmap_ip)
		n += scnprintf(buf + n, len - n, "was unmapped by %pS (%s)",
			       (void *)h.unmap_ip, ctx_names[h.unmap_ctx]);
	else if (h.ip)
		n += scnprintf(buf + n, len - n, "%pS mapped, reclaimed when its context ended",
			       (void *)h.ip);
	else
		n += scnprintf(buf + n, len - n, "nothing has mapped since boot");
	return n;
}
EXPORT_SYMBOL_GPL(kmap_atomic_describe);

/**
 * kmap_atomic_debug_fault - describe a kernel fault on a typed slot's address
 * @address: the faulting address
 * @fixed_up: whether the faulting instruction has an exception fixup
 *
 * Called by the architecture's page fault handler for a kernel-mode fault
 * that it cannot resolve, before the fault is fixed up (a *_nofault()
 * access) or oopses. Each is counted; one about to oops is described, one
 * that will be fixed up is described the first time for the call site
 * that holds or last unmapped the slot (a probe of a stale pointer in a
 * loop prints once).
 */
void kmap_atomic_debug_fault(unsigned long address, bool fixed_up)
{
	struct kmap_atomic_where w;
	char msg[REPORT_LEN];
	unsigned long key;

	if (!kmap_atomic_describe(address, msg, sizeof(msg)))
		return;
	atomic_long_inc(&kmap_reports[KMAP_REPORT_FAULT]);
	if (fixed_up && kmap_atomic_slot_of(address & PAGE_MASK, &w) &&
	    w.idx < KM_SLOTS_USED) {
		const struct holder *h = &per_cpu_ptr(&kmap_cpu, w.cpu)->slot[w.idx];

		key = (READ_ONCE(h->ctx) != FREE ? h->ip : h->unmap_ip) ^
		      ((unsigned long)KMAP_REPORT_FAULT << (BITS_PER_LONG - 4));
		if (!kmap_atomic_site_first(key))
			return;
	}
	pr_err("kmap_atomic: %s\n", msg);
}

/* Like lockdep's held locks: what the CPU that oopsed or panicked holds. */
static void show_held(void)
{
	struct kmap_cpu *kc = this_cpu_ptr(&kmap_cpu);
	unsigned int i, n = 0;

	for (i = 0; i < KM_SLOTS_USED; i++) {
		struct holder h = kc->slot[i];

		if (h.ctx == FREE)
			continue;
		if (!n++)
			pr_emerg("kmap_atomic: typed slots held on CPU%u:\n", smp_processor_id());
		pr_emerg(" %s: pfn %#lx mapped by %pS (%s, pid %d)\n", slot_name(i), h.pfn,
			 (void *)h.ip, ctx_names[h.ctx], h.pid);
	}
}

static int held_on_oops(struct notifier_block *nb, unsigned long val, void *data)
{
	if (val == DIE_OOPS)
		show_held();
	return NOTIFY_DONE;
}

static int held_on_panic(struct notifier_block *nb, unsigned long val, void *data)
{
	show_held();
	return NOTIFY_DONE;
}

static struct notifier_block oops_nb = { .notifier_call = held_on_oops };
static struct notifier_block panic_nb = { .notifier_call = held_on_panic };

/*
 * /sys/kernel/debug/kmap_atomic/slots: per CPU and slot, the maps (of
 * highmem pages or page frames; of them of highmem pages, of frames above
 * 4 GiB), the collisions, and the holder now.
 */
static int slots_show(struct seq_file *m, void *v)
{
	unsigned int cpu, i;

	seq_puts(m, "cpu slot                    maps     high  above4G collisions holder\n");
	for_each_online_cpu(cpu) {
		struct kmap_cpu *kc = per_cpu_ptr(&kmap_cpu, cpu);

		for (i = 0; i < KM_SLOTS_USED; i++) {
			/* A snapshot: the holder may change as we print. */
			struct holder h = kc->slot[i];

			if (i < KM_TYPE_NR)
				seq_printf(m, "%3u %-20s %8lu %8lu %8lu %10lu ", cpu,
					   kmap_atomic_slot_name(i), kc->maps[i], kc->high[i],
					   kc->above_4g[i], kc->collisions[i]);
			else
				seq_printf(m, "%3u spare%-15u %8s %8s %8s %10s ", cpu,
					   i - KM_TYPE_NR, "-", "-", "-", "-");
			if (h.ctx == FREE)
				seq_puts(m, "-\n");
			else
				seq_printf(m, "%pS (%s, pfn %#lx)\n", (void *)h.ip,
					   ctx_names[h.ctx], h.pfn);
		}
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(slots);

/* /sys/kernel/debug/kmap_atomic/reports: how many of each kind. */
static int reports_show(struct seq_file *m, void *v)
{
	unsigned int i;

	for (i = 0; i < KMAP_REPORT_NR; i++)
		seq_printf(m, "%s %lu\n", kmap_atomic_report_name(i), kmap_atomic_debug_reports(i));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(reports);

static int __init kmap_atomic_debug_init(void)
{
	struct dentry *dir = debugfs_create_dir("kmap_atomic", NULL);

	debugfs_create_file("slots", 0444, dir, NULL, &slots_fops);
	debugfs_create_file("reports", 0444, dir, NULL, &reports_fops);
	register_die_notifier(&oops_nb);
	atomic_notifier_chain_register(&panic_notifier_list, &panic_nb);
	return 0;
}
late_initcall(kmap_atomic_debug_init);
