// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the misuse that every kernel catches and survives, the
 * release kernel included: a map into a slot in use, a type that is no
 * slot at run time, an unmap of an address that the slot does not map,
 * and more collisions than there are spare slots. Each misuse must be
 * reported (kmap_atomic_reports() rises: by exactly one per misuse in
 * release, by at least that with CONFIG_DEBUG_KMAP_ATOMIC, whose checks
 * report instead), lose no data, and leave the preemption and page-fault
 * counts as they were.
 *
 * The reports are bracketed on the console by KMAP-EXPECT-BEGIN/END lines.
 * What is seen with preemption off is recorded and asserted afterwards: a
 * failing expectation allocates.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/highmem.h>
#include <linux/hrtimer.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "kmap_atomic.h"
#include "kunit_pages.h"
#include "test_nmi.h"
#include "test_pattern.h"

/*
 * Read at run time, so that it compiles: a constant that is no slot does
 * not (the compiler would fold a plain static that is never written).
 */
static unsigned int bad_slot = KM_TYPE_NR + 5;
#define no_such_slot	READ_ONCE(bad_slot)

struct counts {
	int preempt, pagefault;
	unsigned long reports;
};

static void counts_now(struct counts *c)
{
	c->preempt = preempt_count();
	c->pagefault = current->pagefault_disabled;
	c->reports = kmap_atomic_reports();
}

/* The reports between @a and @b: @n misuses, each reported at least once. */
static void expect_reports(struct kunit *test, const struct counts *a,
			   const struct counts *b, unsigned long n, const char *what)
{
	unsigned long rose = b->reports - a->reports;

	/* Correct code draws no report in either flavor. */
	if (IS_ENABLED(CONFIG_DEBUG_KMAP_ATOMIC) && n)
		KUNIT_EXPECT_GE_MSG(test, rose, n, "reports after %s", what);
	else
		KUNIT_EXPECT_EQ_MSG(test, rose, n, "reports after %s", what);
}

static void expect_same_counts(struct kunit *test, const struct counts *a,
			       const struct counts *b, const char *what)
{
	KUNIT_EXPECT_EQ_MSG(test, b->preempt, a->preempt, "preempt_count() after %s", what);
	KUNIT_EXPECT_EQ_MSG(test, b->pagefault, a->pagefault,
			    "page-fault-disable count after %s", what);
}

static u32 seed_of(struct page *page)
{
	return 0x5eed0000 ^ page_to_pfn(page);
}

/* Write @page's seed in its first word, through a mapping of another kind. */
static struct page *seeded(enum page_kind kind, unsigned int n)
{
	struct page *page = test_page(kind, n);
	u32 *p = kmap_local_page(page);

	*p = seed_of(page);
	kunmap_local(p);
	return page;
}

static bool is_spare_of(const void *addr, unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < KM_SPARE_SLOTS; i++)
		if ((unsigned long)addr == kmap_atomic_slot_addr(cpu, KM_TYPE_NR + i))
			return true;
	return false;
}

static bool is_spare(const void *addr)
{
	return is_spare_of(addr, smp_processor_id());
}

/*
 * The index of the spare at @addr on this CPU (KM_TYPE_NR and up): a type
 * that is no slot, but the spare's own record; UINT_MAX if @addr is none.
 */
static unsigned int spare_index(const void *addr)
{
	unsigned int i;

	for (i = KM_TYPE_NR; i < KM_TYPE_NR + KM_SPARE_SLOTS; i++)
		if ((unsigned long)addr == kmap_atomic_slot_addr(smp_processor_id(), i))
			return i;
	return UINT_MAX;
}

/* KM_USER0 mapped twice: the second map gets a spare, both keep their page. */
static void collision_gets_spare(struct kunit *test)
{
	struct counts before, after;
	struct page *a, *b;
	bool a_ok, b_ok, spare;
	u32 *pa, *pb;

	need_kind(test, HIGHMEM_BELOW_4G);
	a = seeded(HIGHMEM_BELOW_4G, 0);
	b = seeded(chunks[HIGHMEM_ABOVE_4G] ? HIGHMEM_ABOVE_4G : HIGHMEM_BELOW_4G, 1);

	counts_now(&before);
	pr_info("KMAP-EXPECT-BEGIN collision\n");
	pa = kmap_atomic(a, KM_USER0);
	pb = kmap_atomic(b, KM_USER0);
	spare = is_spare(pb);
	a_ok = *pa == seed_of(a);
	b_ok = *pb == seed_of(b);
	/* The slot first: typed slots may be released in any order. */
	kunmap_atomic(pa, KM_USER0);
	kunmap_atomic(pb, KM_USER0);
	pr_info("KMAP-EXPECT-END collision\n");
	counts_now(&after);

	KUNIT_EXPECT_PTR_NE_MSG(test, pa, pb, "the second map took the slot in use");
	KUNIT_EXPECT_TRUE_MSG(test, spare, "the second map is not in one of this CPU's spares");
	KUNIT_EXPECT_TRUE_MSG(test, a_ok, "the first mapping lost its page");
	KUNIT_EXPECT_TRUE_MSG(test, b_ok, "the second mapping does not show its page");
	expect_reports(test, &before, &after, 1, "a collision");
	expect_same_counts(test, &before, &after, "both unmaps");
	KUNIT_EXPECT_TRUE_MSG(test, faults(pa), "the slot still maps a page after the unmap");
	KUNIT_EXPECT_TRUE_MSG(test, faults(pb), "the spare still maps a page after the unmap");
}

/*
 * 2.6.33's check let a task with interrupts off, or a hard interrupt, map
 * KM_NMI (the debug flavor reports it: only NMIs may); an NMI that comes
 * then and maps KM_NMI too (or an exception inside an NMI that does)
 * collides: it gets a spare, and both keep their pages.
 */
struct nmi_intruder {
	struct page *page;
	u32 *addr;
	bool ok;
};

static void nmi_maps_km_nmi(void *arg)
{
	struct nmi_intruder *in = arg;

	in->addr = kmap_atomic(in->page, KM_NMI);
	if (!in->addr)
		return;
	in->ok = *in->addr == seed_of(in->page);
	kunmap_atomic(in->addr, KM_NMI);
}

/*
 * What a holder of KM_NMI saw while an NMI ran on its CPU: a task with
 * interrupts off, or a hard interrupt. The counts are taken where it runs:
 * a hard interrupt's land on whatever task it interrupted.
 */
struct km_nmi_holder {
	struct page *page;	/* what it maps */
	void (*fn)(void *arg);	/* the NMI's work */
	void *arg;
	u32 *addr;		/* its KM_NMI mapping */
	unsigned int cpu;
	bool kept;		/* it still showed its page after the NMI */
	bool ran;		/* the NMI ran */
	struct counts before, after;
	struct hrtimer timer;
	struct completion done;
};

static void hold_km_nmi(struct km_nmi_holder *h)
{
	unsigned long flags;

	counts_now(&h->before);
	local_irq_save(flags);
	h->cpu = smp_processor_id();
	h->addr = kmap_atomic(h->page, KM_NMI);
	h->ran = kmap_test_nmi_now(h->fn, h->arg);
	h->kept = *h->addr == seed_of(h->page);
	kunmap_atomic(h->addr, KM_NMI);
	local_irq_restore(flags);
	counts_now(&h->after);
}

static enum hrtimer_restart hold_km_nmi_in_irq(struct hrtimer *t)
{
	struct km_nmi_holder *h = container_of(t, struct km_nmi_holder, timer);

	hold_km_nmi(h);
	complete(&h->done);
	return HRTIMER_NORESTART;
}

static const char * const holder_names[] = { "a task, interrupts off", "a hard interrupt" };

static void holder_desc(const char * const *name, char *desc)
{
	strscpy(desc, *name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(holder, holder_names, holder_desc);

/*
 * Run @fn(@arg) in a real NMI on this CPU while the holder the case's
 * parameter names holds KM_NMI on page 2, between the KMAP-EXPECT lines
 * for @what.
 */
static void nmi_under_km_nmi(struct kunit *test, const char *what, void (*fn)(void *arg),
			     void *arg, struct km_nmi_holder *h)
{
	bool in_irq = test->param_value != &holder_names[0];

	h->page = seeded(HIGHMEM_BELOW_4G, 2);
	h->fn = fn;
	h->arg = arg;
	KUNIT_ASSERT_EQ(test, kmap_test_nmi_register(), 0);
	pr_info("KMAP-EXPECT-BEGIN %s\n", what);
	if (in_irq) {
		init_completion(&h->done);
		hrtimer_init(&h->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
		h->timer.function = hold_km_nmi_in_irq;
		hrtimer_start(&h->timer, ns_to_ktime(1000), HRTIMER_MODE_REL_HARD);
		wait_for_completion(&h->done);
		hrtimer_cancel(&h->timer);
	} else {
		hold_km_nmi(h);
	}
	pr_info("KMAP-EXPECT-END %s\n", what);
	kmap_test_nmi_unregister();
}

static void nmi_collides_with_holder(struct kunit *test)
{
	struct nmi_intruder in = {};
	struct km_nmi_holder h = {};

	need_kind(test, HIGHMEM_BELOW_4G);
	in.page = seeded(chunks[HIGHMEM_ABOVE_4G] ? HIGHMEM_ABOVE_4G : HIGHMEM_BELOW_4G, 3);
	nmi_under_km_nmi(test, "an NMI maps the KM_NMI its holder holds", nmi_maps_km_nmi, &in, &h);

	KUNIT_ASSERT_TRUE_MSG(test, h.ran, "no NMI ran");
	KUNIT_EXPECT_PTR_NE_MSG(test, in.addr, h.addr, "the NMI took the KM_NMI slot in use");
	KUNIT_EXPECT_TRUE_MSG(test, in.addr && is_spare_of(in.addr, h.cpu),
			      "the NMI's map is not in one of this CPU's spares");
	KUNIT_EXPECT_TRUE_MSG(test, in.ok, "the NMI's mapping does not show its page");
	KUNIT_EXPECT_TRUE_MSG(test, h.kept, "the holder's KM_NMI lost its page to the NMI");
	expect_reports(test, &h.before, &h.after, 1, "an NMI's collision");
	expect_same_counts(test, &h.before, &h.after, "both unmaps");
}

/*
 * An NMI, under a holder of KM_NMI (a task with interrupts off, or a hard
 * interrupt), maps KM_NMI again and again without unmapping: each is a collision given a spare
 * (an NMI may take them all, the one kept for NMIs too), each shows its
 * page, and past the last spare the map returns NULL with its counts
 * given back: kmap_local's stack is the task's, and no fallback is made.
 */
struct nmi_burst {
	struct page *page;
	u32 *addr[KM_SPARE_SLOTS + 2];
	unsigned int mapped, lost, spares;
	int pagefault_before, pagefault_mapped, pagefault_after;
};

static void nmi_maps_till_null(void *arg)
{
	struct nmi_burst *b = arg;
	unsigned int i;

	b->pagefault_before = current->pagefault_disabled;
	for (i = 0; i < ARRAY_SIZE(b->addr); i++) {
		b->addr[i] = kmap_atomic(b->page, KM_NMI);
		if (!b->addr[i])
			break;
		b->lost += *b->addr[i] != seed_of(b->page);
		b->spares += is_spare(b->addr[i]);
	}
	b->mapped = i;
	b->pagefault_mapped = current->pagefault_disabled;
	while (i--)
		kunmap_atomic(b->addr[i], KM_NMI);
	b->pagefault_after = current->pagefault_disabled;
}

static void nmi_spares_then_null(struct kunit *test)
{
	struct nmi_burst b = {};
	struct km_nmi_holder h = {};

	need_kind(test, HIGHMEM_BELOW_4G);
	b.page = seeded(HIGHMEM_BELOW_4G, 3);
	nmi_under_km_nmi(test, "an NMI takes every spare, then gets NULL", nmi_maps_till_null,
			 &b, &h);

	KUNIT_ASSERT_TRUE_MSG(test, h.ran, "no NMI ran");
	KUNIT_EXPECT_EQ_MSG(test, b.mapped, (unsigned int)KM_SPARE_SLOTS,
			    "maps the NMI got before NULL (every spare, the NMI's one included)");
	KUNIT_EXPECT_EQ_MSG(test, b.spares, b.mapped, "the NMI's maps that are spares");
	KUNIT_EXPECT_EQ_MSG(test, b.lost, 0U, "the NMI's maps that do not show their page");
	KUNIT_EXPECT_EQ_MSG(test, b.pagefault_mapped, b.pagefault_before + (int)b.mapped,
			    "the NULL map's counts were not given back");
	KUNIT_EXPECT_EQ_MSG(test, b.pagefault_after, b.pagefault_before,
			    "page-fault count after the NMI's unmaps");
	KUNIT_EXPECT_TRUE_MSG(test, h.kept, "the holder's KM_NMI lost its page to the NMI");
	expect_reports(test, &h.before, &h.after, KM_SPARE_SLOTS + 1,
		       "an NMI's collisions and its NULL");
	expect_same_counts(test, &h.before, &h.after, "every unmap");
}

/*
 * An exception in the middle of a map of the slot it maps too: a data
 * breakpoint on the pte of this CPU's KM_KDB traps (#DB, an NMI-class
 * context) right after the task's map first touches it, and its handler
 * maps KM_KDB itself and returns holding it, as int3, #DB and #MC may
 * (their exits reclaim nothing). The task's claim must see the pte the
 * handler wrote, whichever came first, and neither map may take the
 * other's slot: a check-then-set claim would write the task's page over
 * the handler's map. Then the handler, on a trap the task asks for,
 * unmaps its map, and the task unmaps its own: with its address, or as
 * the buggy loop does, with a lowmem pointer, which stands for
 * the map only if the map's depth was read before the handler raised the
 * count. Either way the counts come back as they were.
 */
/*
 * KM_KDB: kdb's slot, which the debug flavor lets an NMI-class context map
 * as a named slot, so that its map claims the pte there too.
 */
#define DB_SLOT	KM_KDB

enum db_state { DB_IDLE, DB_MAP, DB_HELD, DB_UNMAP, DB_DONE };

struct db_intruder {
	struct page *page;
	u32 *addr;
	enum db_state state;
	bool ok;		/* its mapping showed its page */
	unsigned int traps;
};

/* What @addr shows, or 0 if it faults. */
static u32 word_at(const u32 *addr)
{
	u32 word;

	return get_kernel_nofault(word, addr) ? 0 : word;
}

static void db_intrude(struct perf_event *bp, struct perf_sample_data *data,
		       struct pt_regs *regs)
{
	struct db_intruder *in = bp->overflow_handler_context;

	in->traps++;
	switch (in->state) {
	case DB_MAP:
		in->addr = kmap_atomic(in->page, DB_SLOT);
		in->ok = in->addr && word_at(in->addr) == seed_of(in->page);
		in->state = DB_HELD;
		break;
	case DB_UNMAP:
		if (in->addr)
			kunmap_atomic(in->addr, DB_SLOT);
		in->state = DB_DONE;
		break;
	default:
		break;
	}
}

static void exception_mid_claim(struct kunit *test, u32 *wrong_pointer)
{
	struct db_intruder in = {};
	struct perf_event_attr attr;
	struct counts before, after;
	struct perf_event *bp;
	unsigned long flags;
	unsigned int cpu, level;
	u32 *p, task_word, db_word;
	bool held, spare, faulted;
	struct page *a;
	pte_t *ptep;

	if (!IS_ENABLED(CONFIG_HAVE_HW_BREAKPOINT))
		kunit_skip(test, "no data breakpoints (CONFIG_HAVE_HW_BREAKPOINT) in this kernel");
	need_kind(test, HIGHMEM_BELOW_4G);
	a = seeded(HIGHMEM_BELOW_4G, 2);
	in.page = seeded(HIGHMEM_BELOW_4G, 3);

	migrate_disable();
	cpu = smp_processor_id();
	ptep = lookup_address(kmap_atomic_slot_addr(cpu, DB_SLOT), &level);
	if (!ptep || level != PG_LEVEL_4K) {
		migrate_enable();
		KUNIT_FAIL(test, "no 4 KiB pte for KM_KDB on CPU%u", cpu);
		return;
	}
	hw_breakpoint_init(&attr);
	attr.bp_addr = (unsigned long)ptep;
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	attr.bp_type = HW_BREAKPOINT_RW;
	bp = perf_event_create_kernel_counter(&attr, cpu, NULL, db_intrude, &in);
	if (IS_ERR(bp)) {
		migrate_enable();
		kunit_skip(test, "no data breakpoint on CPU%u's KM_KDB pte: %ld", cpu, PTR_ERR(bp));
	}

	counts_now(&before);
	pr_info("KMAP-EXPECT-BEGIN an exception maps a slot mid-claim\n");
	local_irq_save(flags);
	WRITE_ONCE(in.state, DB_MAP);	/* armed only here: no other map comes now */
	p = kmap_atomic(a, DB_SLOT);
	held = READ_ONCE(in.state) == DB_HELD;
	task_word = word_at(p);
	db_word = word_at(READ_ONCE(in.addr));
	spare = is_spare(READ_ONCE(in.addr));
	/* Nothing held: nothing to unmap, and no map may come late. */
	WRITE_ONCE(in.state, held ? DB_UNMAP : DB_DONE);
	READ_ONCE(*(u32 *)ptep);	/* the trap whose handler unmaps */
	kunmap_atomic(wrong_pointer ?: p, DB_SLOT);
	local_irq_restore(flags);
	pr_info("KMAP-EXPECT-END an exception maps a slot mid-claim\n");
	counts_now(&after);
	faulted = faults(p);
	unregister_hw_breakpoint(bp);
	migrate_enable();

	KUNIT_ASSERT_TRUE_MSG(test, held, "no trap came during the map (%u traps)", in.traps);
	KUNIT_EXPECT_EQ_MSG(test, in.state, DB_DONE, "the handler's unmap did not come");
	KUNIT_EXPECT_TRUE_MSG(test, in.ok, "the handler's mapping did not show its page");
	KUNIT_EXPECT_PTR_NE_MSG(test, p, in.addr, "the task's map took the handler's slot");
	KUNIT_EXPECT_EQ_MSG(test, task_word, seed_of(a), "the task's mapping after the trap");
	KUNIT_EXPECT_EQ_MSG(test, db_word, seed_of(in.page),
			    "the handler's mapping after the task's map returned");
	KUNIT_EXPECT_TRUE_MSG(test, spare, "the handler's map is not in one of this CPU's spares");
	KUNIT_EXPECT_TRUE_MSG(test, faulted, "KM_KDB still maps a page after both unmaps");
	expect_reports(test, &before, &after, wrong_pointer ? 2 : 1,
		       wrong_pointer ? "the collision and the wrong pointer" :
		       "the handler's collision");
	expect_same_counts(test, &before, &after, "both unmaps");
}

static void exception_maps_mid_claim(struct kunit *test)
{
	exception_mid_claim(test, NULL);
}

static void exception_maps_mid_claim_wrong_pointer(struct kunit *test)
{
	u32 *buf = kunit_kzalloc(test, sizeof(*buf), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	exception_mid_claim(test, buf);
}

/* A type that is no slot, at run time: mapped safely in a spare. */
static void bad_type_at_run_time(struct kunit *test)
{
	struct counts before, mapped, after;
	bool ok, spare;
	struct page *a;
	u32 *p;

	need_kind(test, HIGHMEM_BELOW_4G);
	a = seeded(HIGHMEM_BELOW_4G, 2);

	counts_now(&before);
	pr_info("KMAP-EXPECT-BEGIN bad type\n");
	p = kmap_atomic(a, no_such_slot);
	counts_now(&mapped);
	spare = is_spare(p);
	ok = *p == seed_of(a);
	kunmap_atomic(p, no_such_slot);
	pr_info("KMAP-EXPECT-END bad type\n");
	counts_now(&after);

	KUNIT_EXPECT_TRUE_MSG(test, spare, "slot %u is not given one of this CPU's spares",
			      no_such_slot);
	KUNIT_EXPECT_TRUE_MSG(test, ok, "the mapping does not show its page");
	expect_reports(test, &before, &mapped, 1, "the map of a bad type");
	expect_reports(test, &mapped, &after, 0, "the unmap of the spare with its own type");
	expect_same_counts(test, &before, &after, "the unmap");
	KUNIT_EXPECT_TRUE_MSG(test, faults(p), "the spare still maps a page after the unmap");
}

/*
 * Unmaps that do not match what the slot maps, while KM_USER0 is held,
 * each reported. A map's own address with the wrong type stands for that
 * map; the top of kmap_local's stack while page faults are off more often
 * than the typed maps owe, for the one-argument map there; a slot of this
 * CPU's that nothing holds, for no map, and nothing changes; any other
 * address (a kmap_local_page()'s under the typed maps' counts, another
 * CPU's slot, vmalloc) for the newest map of its type. What an unmap stands
 * for is released and its counts given back, as 2.6's unmap gave them.
 */
enum bad_unmap {
	LOCAL_ADDR, UNTYPED_ADDR, WRONG_TYPE, OTHER_CPU_SLOT, UNMAPPED_TWICE,
	VMALLOC_ADDR, BAD_TYPE, SPARE_WRONG_TYPE, SPARE_AS_ITS_INDEX, BAD_UNMAP_NR
};

static const char * const bad_unmap_names[BAD_UNMAP_NR] = {
	[LOCAL_ADDR] = "a kmap_local_page() address",
	[UNTYPED_ADDR] = "a one-argument kmap_atomic() address",
	[WRONG_TYPE] = "the wrong type (KM_USER1 for KM_USER0)",
	[OTHER_CPU_SLOT] = "another CPU's KM_USER0 address",
	[UNMAPPED_TWICE] = "KM_USER1 unmapped twice",
	[VMALLOC_ADDR] = "a vmalloc address",
	[BAD_TYPE] = "a slot number out of range",
	[SPARE_WRONG_TYPE] = "a collision's spare with another type",
	[SPARE_AS_ITS_INDEX] = "a collision's spare with its index as the type",
};

static const enum bad_unmap bad_unmaps[] = {
	LOCAL_ADDR, UNTYPED_ADDR, WRONG_TYPE, OTHER_CPU_SLOT, UNMAPPED_TWICE,
	VMALLOC_ADDR, BAD_TYPE, SPARE_WRONG_TYPE, SPARE_AS_ITS_INDEX,
};

static void bad_unmap_desc(const enum bad_unmap *c, char *desc)
{
	strscpy(desc, bad_unmap_names[*c], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad_unmap, bad_unmaps, bad_unmap_desc);

/* A possible CPU that is not this one (there is one: see the skip). */
static unsigned int other_cpu(void)
{
	unsigned int cpu = cpumask_next(smp_processor_id(), cpu_possible_mask);

	return cpu < nr_cpu_ids ? cpu : cpumask_first(cpu_possible_mask);
}

static void unmap_mismatch(struct kunit *test)
{
	enum bad_unmap c = *(const enum bad_unmap *)test->param_value;
	bool spare = c == SPARE_WRONG_TYPE || c == SPARE_AS_ITS_INDEX;
	/* Only a slot of this CPU's that nothing here holds stands for no map. */
	bool releases = c != UNMAPPED_TWICE;
	struct counts before, held, misused, after;
	unsigned int index = 0;
	struct page *a, *b;
	void *other = NULL, *released;
	void *vm = NULL;
	bool ok, gone;
	u32 *pa;

	need_kind(test, HIGHMEM_BELOW_4G);
	if (c == OTHER_CPU_SLOT && num_possible_cpus() == 1)
		kunit_skip(test, "one possible CPU: there is no other CPU's slot");
	a = seeded(HIGHMEM_BELOW_4G, 3);
	b = seeded(HIGHMEM_BELOW_4G, 4);
	if (c == VMALLOC_ADDR) {
		vm = vmalloc(PAGE_SIZE);
		KUNIT_ASSERT_NOT_NULL(test, vm);
	}

	counts_now(&before);
	pr_info("KMAP-EXPECT-BEGIN unmap of %s\n", bad_unmap_names[c]);
	pa = kmap_atomic(a, KM_USER0);
	switch (c) {
	case LOCAL_ADDR:
		other = kmap_local_page(b);
		break;
	case UNTYPED_ADDR:
		other = kmap_atomic(b);
		break;
	case WRONG_TYPE:
	case BAD_TYPE:
		other = pa;
		break;
	case OTHER_CPU_SLOT:
		other = (void *)kmap_atomic_slot_addr(other_cpu(), KM_USER0);
		break;
	case UNMAPPED_TWICE:
		other = kmap_atomic(b, KM_USER1);
		kunmap_atomic(other, KM_USER1);
		break;
	case VMALLOC_ADDR:
		other = vm;
		break;
	case SPARE_WRONG_TYPE:
	case SPARE_AS_ITS_INDEX:
		other = kmap_atomic(b, KM_USER0);	/* a collision: a spare */
		break;
	case BAD_UNMAP_NR:
		break;
	}
	/* The collision's own report is not this case's. */
	counts_now(&held);
	switch (c) {
	case WRONG_TYPE:
	case UNMAPPED_TWICE:
	case SPARE_WRONG_TYPE:
		kunmap_atomic(other, KM_USER1);
		break;
	case BAD_TYPE:
		kunmap_atomic(other, no_such_slot);
		break;
	case SPARE_AS_ITS_INDEX:
		/* No slot's type, but in range of the records: the bound decides. */
		index = spare_index(other);
		kunmap_atomic(other, index);
		break;
	default:
		kunmap_atomic(other, KM_USER0);
		break;
	}
	counts_now(&misused);
	/* The one-argument map is the top of kmap_local's stack: released as that. */
	released = spare || c == UNTYPED_ADDR ? other : pa;
	gone = faults(released);
	ok = (releases && released == pa) || *pa == seed_of(a);
	if (c == LOCAL_ADDR)
		kunmap_local(other);
	if (!releases || released != pa)
		kunmap_atomic(pa, KM_USER0);
	pr_info("KMAP-EXPECT-END unmap of %s\n", bad_unmap_names[c]);
	counts_now(&after);
	vfree(vm);

	if (c == SPARE_AS_ITS_INDEX)
		KUNIT_EXPECT_TRUE_MSG(test,
				      index >= KM_TYPE_NR && index < KM_TYPE_NR + KM_SPARE_SLOTS,
				      "the collision's map is not in a spare (%u)", index);
	expect_reports(test, &held, &misused, 1, bad_unmap_names[c]);
	if (releases) {
		/* One map's counts given back: what held has over misused. */
		misused.preempt++;
		misused.pagefault++;
		KUNIT_EXPECT_TRUE_MSG(test, gone, "the map %s stands for still maps its page",
				      bad_unmap_names[c]);
	}
	expect_same_counts(test, &held, &misused, bad_unmap_names[c]);
	KUNIT_EXPECT_TRUE_MSG(test, ok, "KM_USER0 lost its page after the unmap of %s",
			      bad_unmap_names[c]);
	expect_same_counts(test, &before, &after, "the real unmaps");
	KUNIT_EXPECT_TRUE_MSG(test, faults(pa), "KM_USER0 still maps a page after its unmap");
}

/*
 * More collisions than spares: the slot, then the spares a task may take
 * (all but the KM_NMI_SPARES kept for NMIs), then NULL, with its counts
 * given back. All are released first in first out, under a live
 * kmap_local_page() they never touch. Every mapping keeps its page until
 * its unmap, and faults after it.
 */
#define TASK_SPARES	(KM_SPARE_SLOTS - KM_NMI_SPARES)
#define OVERFLOW_MAPS	(1 + TASK_SPARES + 1)

static void spares_exhausted(struct kunit *test)
{
	struct counts before, mapped, after;
	struct page *pages[OVERFLOW_MAPS];
	struct page *under_page;
	u32 *p[OVERFLOW_MAPS], *under;
	unsigned int i, bad = 0, lost_early = 0, stale = 0;
	int depth = current->kmap_ctrl.idx, deepest;
	bool spare1, last_spare, refused, kept_under;

	need_kind(test, HIGHMEM_BELOW_4G);
	for (i = 0; i < OVERFLOW_MAPS; i++)
		pages[i] = seeded(HIGHMEM_BELOW_4G, 5 + i);
	under_page = seeded(HIGHMEM_BELOW_4G, 2);

	under = kmap_local_page(under_page);
	depth = current->kmap_ctrl.idx;
	counts_now(&before);
	pr_info("KMAP-EXPECT-BEGIN spares exhausted\n");
	for (i = 0; i < OVERFLOW_MAPS; i++)
		p[i] = kmap_atomic(pages[i], KM_USER0);
	deepest = current->kmap_ctrl.idx;
	spare1 = is_spare(p[1]);
	last_spare = is_spare(p[TASK_SPARES]);
	refused = !p[OVERFLOW_MAPS - 1];
	counts_now(&mapped);
	for (i = 0; i < OVERFLOW_MAPS - 1; i++) {
		unsigned int j;

		bad += *p[i] != seed_of(pages[i]);
		kunmap_atomic(p[i], KM_USER0);
		stale += !faults(p[i]);
		for (j = i + 1; j < OVERFLOW_MAPS - 1; j++)
			lost_early += *p[j] != seed_of(pages[j]);
	}
	pr_info("KMAP-EXPECT-END spares exhausted\n");
	counts_now(&after);
	kept_under = *under == seed_of(under_page);
	kunmap_local(under);

	/* Each collision given a spare, and the NULL. */
	expect_reports(test, &before, &mapped, OVERFLOW_MAPS - 1, "the collisions");
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "mappings that lost their page");
	KUNIT_EXPECT_EQ_MSG(test, lost_early, 0U, "mappings that lost their page to an unmap");
	KUNIT_EXPECT_EQ_MSG(test, stale, 0U, "mappings still there after their unmap");
	KUNIT_EXPECT_TRUE_MSG(test, spare1, "the first collision was not given a spare");
	KUNIT_EXPECT_TRUE_MSG(test, last_spare, "the last task spare was not used");
	KUNIT_EXPECT_TRUE_MSG(test, refused, "a map past the task's spares was not refused");
	KUNIT_EXPECT_EQ_MSG(test, mapped.pagefault, before.pagefault + OVERFLOW_MAPS - 1,
			    "the NULL map kept its counts");
	KUNIT_EXPECT_EQ_MSG(test, deepest, depth, "a collision used kmap_local");
	KUNIT_EXPECT_TRUE_MSG(test, kept_under, "the kmap_local_page() under them lost its page");
	expect_same_counts(test, &before, &after, "every unmap, first in first out");
}

/*
 * A one-argument unmap of a typed lowmem map under pagefault_disable()
 * (the two forms mixed) gives its counts back and leaves its entry in the
 * map log. A one-argument kmap_local map after it, in a
 * loop, must still be released by its own unmap, with no report: sent to
 * the typed unmap, its entry would stay, up to kmap_local's BUG().
 */
static void one_arg_maps_after_a_mixed_unmap(struct kunit *test)
{
	int depth = current->kmap_ctrl.idx;
	struct counts before, after;
	unsigned int i, lost = 0;
	struct page *high;
	u32 *buf, *l, *x;
	int deepest = 0;

	need_kind(test, HIGHMEM_BELOW_4G);
	high = seeded(HIGHMEM_BELOW_4G, 6);
	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	counts_now(&before);
	/*
	 * With DEBUG_KMAP_LOCAL_FORCE_MAP (the debug flavor) kmap_local's
	 * unmap warns of a lowmem address: the one-argument unmap's own report.
	 */
	pr_info("KMAP-EXPECT-BEGIN a mixed unmap [reports: at mm/highmem\\.c:[0-9]+ kunmap_local_indexed]\n");
	pagefault_disable();
	l = kmap_atomic(virt_to_page(buf), KM_USER0);
	kunmap_atomic(l);
	pagefault_enable();
	pr_info("KMAP-EXPECT-END a mixed unmap\n");
	for (i = 0; i < 2 * KM_MAX_IDX; i++) {
		x = kmap_atomic(high);
		lost += *x != seed_of(high);
		deepest = max(deepest, current->kmap_ctrl.idx);
		kunmap_atomic(x);
	}
	/*
	 * Its typed unmap, too: the entry goes, and the counts, which the
	 * one-argument unmap gave back already, are not taken below zero.
	 */
	kunmap_atomic(l, KM_USER0);
	counts_now(&after);

	KUNIT_EXPECT_EQ_MSG(test, lost, 0U, "one-argument maps that did not show their page");
	KUNIT_EXPECT_LE_MSG(test, deepest, depth + 2,
			    "one-argument maps piled up on kmap_local's stack");
	KUNIT_EXPECT_EQ_MSG(test, current->kmap_ctrl.idx, depth, "kmap_local's stack depth");
	expect_reports(test, &before, &after, 0, "one-argument maps after a mixed unmap");
	expect_same_counts(test, &before, &after, "one-argument maps after a mixed unmap");
}

/*
 * A lowmem address takes 2.6's path: any lowmem pointer unmaps the slot.
 * But one with nothing mapped would take counts below zero: reported, and
 * nothing changes.
 */
static void lowmem_unmap_of_another_pointer(struct kunit *test)
{
	struct counts before, after, unmapped;
	struct page *low = seeded(LOWMEM, 0);
	void *slab = kunit_kmalloc(test, 64, GFP_KERNEL);
	u32 *p;

	KUNIT_ASSERT_NOT_NULL(test, slab);
	counts_now(&before);
	p = kmap_atomic(low, KM_USER1);
	kunmap_atomic(slab, KM_USER1);
	counts_now(&after);
	pr_info("KMAP-EXPECT-BEGIN a lowmem unmap with nothing mapped\n");
	kunmap_atomic(slab, KM_USER1);
	pr_info("KMAP-EXPECT-END a lowmem unmap with nothing mapped\n");
	counts_now(&unmapped);

	KUNIT_EXPECT_PTR_EQ(test, (void *)p, page_address(low));
	expect_reports(test, &before, &after, 0, "a lowmem map and another lowmem unmap");
	expect_same_counts(test, &before, &after, "a lowmem map and another lowmem unmap");
	expect_reports(test, &after, &unmapped, 1, "a lowmem unmap with nothing mapped");
	expect_same_counts(test, &after, &unmapped, "a lowmem unmap with nothing mapped");
}

/*
 * A lowmem pointer passed for a highmem map, at its very depth (the bio
 * instead of the mapping, say): 2.6 gave the counts back and left the
 * slot to the next map; here the map is released too, and the wrong
 * pointer reported. The map's own unmap after it is an unmap of nothing.
 */
static void lowmem_gives_back(struct kunit *test, unsigned int type, const char *what)
{
	unsigned long map_reports = type < KM_TYPE_NR ? 0 : 1;	/* an invalid type */
	struct counts before, mapped, after_lowmem, after;
	struct page *high;
	void *slab = kunit_kmalloc(test, 64, GFP_KERNEL);
	bool gone;
	u32 *p;

	kunit_info(test, "%s", what);
	high = seeded(HIGHMEM_BELOW_4G, 3);
	KUNIT_ASSERT_NOT_NULL(test, slab);
	counts_now(&before);
	preempt_disable();	/* the slot's address must stay this CPU's */
	pr_info("KMAP-EXPECT-BEGIN a lowmem pointer unmaps a highmem map\n");
	p = kmap_atomic(high, type);
	counts_now(&mapped);
	kunmap_atomic(slab, type);
	counts_now(&after_lowmem);
	gone = faults(p);
	kunmap_atomic(p, type);
	pr_info("KMAP-EXPECT-END a lowmem pointer unmaps a highmem map\n");
	preempt_enable();
	counts_now(&after);

	expect_reports(test, &mapped, &after_lowmem, 1, "a lowmem unmap of a highmem map");
	after_lowmem.preempt--;	/* our own preempt_disable() */
	expect_same_counts(test, &before, &after_lowmem, "a lowmem unmap of a highmem map");
	KUNIT_EXPECT_TRUE_MSG(test, gone, "the lowmem unmap left the highmem map in place");
	expect_reports(test, &before, &mapped, map_reports, "the map");
	expect_reports(test, &after_lowmem, &after, 1, "the map's own unmap, after it");
	expect_same_counts(test, &before, &after, "the map's own unmap, after it");
}

static void lowmem_unmap_of_a_highmem_map(struct kunit *test)
{
	need_kind(test, HIGHMEM_BELOW_4G);
	lowmem_gives_back(test, KM_USER0, "KM_USER0");
	lowmem_gives_back(test, no_such_slot, "an invalid type, mapped in a spare");
}

/*
 * A lowmem pointer for the type of a highmem map under a lowmem map of
 * another type releases the highmem map (reported); the lowmem map's
 * unmap is correct; then the highmem map's own unmap comes, with nothing
 * mapped: reported, and the counts are left alone, not taken below zero.
 */
static void unmap_after_counts_given_back(struct kunit *test)
{
	struct counts before, after;
	void *slab = kunit_kmalloc(test, 64, GFP_KERNEL);
	struct page *high;
	void *l;
	u32 *p;

	need_kind(test, HIGHMEM_BELOW_4G);
	KUNIT_ASSERT_NOT_NULL(test, slab);
	high = seeded(HIGHMEM_BELOW_4G, 3);
	preempt_disable();	/* the slot's address must stay this CPU's */
	counts_now(&before);
	pr_info("KMAP-EXPECT-BEGIN an unmap after its counts were given back\n");
	p = kmap_atomic(high, KM_USER0);
	l = kmap_atomic(virt_to_page(slab), KM_USER1);
	kunmap_atomic(slab, KM_USER0);	/* KM_USER0's map goes */
	kunmap_atomic(l, KM_USER1);
	kunmap_atomic(p, KM_USER0);	/* nothing mapped any more */
	pr_info("KMAP-EXPECT-END an unmap after its counts were given back\n");
	counts_now(&after);
	preempt_enable();

	expect_reports(test, &before, &after, 2, "an unmap after its counts were given back");
	expect_same_counts(test, &before, &after, "an unmap after its counts were given back");
	KUNIT_EXPECT_TRUE_MSG(test, faults(p), "the slot still maps after its own unmap");
}

static struct kunit_case kmap_atomic_misuse_cases[] = {
	KUNIT_CASE(collision_gets_spare),
	KUNIT_CASE_PARAM(nmi_collides_with_holder, holder_gen_params),
	KUNIT_CASE_PARAM(nmi_spares_then_null, holder_gen_params),
	KUNIT_CASE(exception_maps_mid_claim),
	KUNIT_CASE(exception_maps_mid_claim_wrong_pointer),
	KUNIT_CASE(bad_type_at_run_time),
	KUNIT_CASE_PARAM(unmap_mismatch, bad_unmap_gen_params),
	KUNIT_CASE(spares_exhausted),
	KUNIT_CASE(one_arg_maps_after_a_mixed_unmap),
	KUNIT_CASE(lowmem_unmap_of_another_pointer),
	KUNIT_CASE(lowmem_unmap_of_a_highmem_map),
	KUNIT_CASE(unmap_after_counts_given_back),
	{}
};

static struct kunit_suite kmap_atomic_misuse_suite = {
	.name = "kmap_atomic_misuse",
	.suite_init = test_chunks_get,
	.suite_exit = test_chunks_put,
	.test_cases = kmap_atomic_misuse_cases,
};

kunit_test_suite(kmap_atomic_misuse_suite);

MODULE_DESCRIPTION("KUnit tests for the misuse of typed atomic kmaps caught in every kernel");
MODULE_LICENSE("GPL");
