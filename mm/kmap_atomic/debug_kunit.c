// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for CONFIG_DEBUG_KMAP_ATOMIC: each misuse is committed on
 * purpose, and the test asserts that it was reported (by its counter) and
 * that no mapping lost its data. The reports are bracketed on the console
 * by KMAP-EXPECT-BEGIN/END lines, which the make test harness honours.
 *
 * What is seen in atomic context is recorded and asserted afterwards: a
 * failing expectation allocates and must not run with preemption off.
 */
#include <kunit/test.h>
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/kmap_atomic_debug.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/nmi.h>
#include <asm/apic.h>

#include "test_nmi.h"
#include "test_pattern.h"

struct debug_test {
	struct page *page[2];
	unsigned long reports[KMAP_REPORT_NR], rose[KMAP_REPORT_NR];
	const char *expecting;
};

static struct page *alloc_highmem_page(struct kunit *test)
{
	struct page *page = alloc_page(GFP_HIGHUSER);

	KUNIT_ASSERT_NOT_NULL(test, page);
	if (!PageHighMem(page)) {
		__free_page(page);
		kunit_skip(test, "no highmem page (boot with MEM=6G)");
	}
	return page;
}

static int debug_test_init(struct kunit *test)
{
	struct debug_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	for (i = 0; i < ARRAY_SIZE(t->page); i++) {
		t->page[i] = alloc_highmem_page(test);
		u32 *p = kmap_local_page(t->page[i]);

		fill(p, 0x1000 * (i + 1));
		kunmap_local(p);
	}
	return 0;
}

static void debug_test_exit(struct kunit *test)
{
	struct debug_test *t = test->priv;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t->page); i++)
		if (t->page[i])
			__free_page(t->page[i]);
}

/* Say on the console that reports follow, and note the counters. */
static void expect_begin(struct kunit *test, const char *what)
{
	struct debug_test *t = test->priv;
	unsigned int i;

	t->expecting = what;
	for (i = 0; i < KMAP_REPORT_NR; i++)
		t->reports[i] = kmap_atomic_debug_reports(i);
	pr_info("KMAP-EXPECT-BEGIN %s\n", what);
}

/* The end of the expected reports: note how much each counter rose. */
static void expect_end(struct kunit *test)
{
	struct debug_test *t = test->priv;
	unsigned int i;

	pr_info("KMAP-EXPECT-END %s\n", t->expecting);
	for (i = 0; i < KMAP_REPORT_NR; i++)
		t->rose[i] = kmap_atomic_debug_reports(i) - t->reports[i];
}

/* @kind rose by @n between expect_begin() and expect_end(), nothing else rose. */
static void check_reports(struct kunit *test, enum kmap_atomic_report kind, unsigned long n)
{
	struct debug_test *t = test->priv;
	unsigned int i;

	for (i = 0; i < KMAP_REPORT_NR; i++)
		KUNIT_EXPECT_EQ_MSG(test, t->rose[i], i == kind ? n : 0,
				    "reports of kind %u after %s", i, t->expecting);
}

static unsigned long t_rose(struct kunit *test, enum kmap_atomic_report kind)
{
	return ((struct debug_test *)test->priv)->rose[kind];
}

static u32 seed_of(struct debug_test *t, unsigned int i)
{
	return 0x1000 * (i + 1);
}

/* Run @fn in a real hard interrupt on this CPU and wait for it. */
struct in_irq {
	struct irq_work work;
	void (*fn)(void *arg);
	void *arg;
	bool done;
};

static void in_irq_fn(struct irq_work *work)
{
	struct in_irq *r = container_of(work, struct in_irq, work);

	r->fn(r->arg);
	WRITE_ONCE(r->done, true);
}

/* From atomic context too: interrupts must be on, the IPI comes at once. */
static void run_in_hardirq(void (*fn)(void *arg), void *arg)
{
	struct in_irq r = { .fn = fn, .arg = arg };

	init_irq_work(&r.work, in_irq_fn);
	preempt_disable();
	irq_work_queue(&r.work);
	/*
	 * Once this CPU sees done, the interrupt has returned, irq_work's own
	 * bookkeeping included: no irq_work_sync(), which may sleep.
	 */
	while (!READ_ONCE(r.done))
		cpu_relax();
	preempt_enable();
}

/*
 * The task holds KM_SOFTIRQ0 (bottom halves off) on page 0 while @fn runs
 * in a hard interrupt, between expect_begin() and expect_end(); *@holder is
 * the task's mapping, set before @fn runs.
 *
 * Return: whether the task's mapping still shows its page afterwards.
 */
static bool softirq0_held_across_irq(struct kunit *test, const char *what,
				     void (*fn)(void *arg), void *arg, u32 **holder)
{
	struct debug_test *t = test->priv;
	bool kept;

	local_bh_disable();
	*holder = kmap_atomic(t->page[0], KM_SOFTIRQ0);
	expect_begin(test, what);
	run_in_hardirq(fn, arg);
	expect_end(test);
	kept = holds(*holder, seed_of(t, 0));
	kunmap_atomic(*holder, KM_SOFTIRQ0);
	local_bh_enable();
	return kept;
}

/*
 * A second map of a held slot, in the same context: the intruder gets a
 * spare of its own and both keep their data.
 */
static void collision_same_context(struct kunit *test)
{
	struct debug_test *t = test->priv;
	bool intruder_apart, intruder_reads, holder_kept, holder_after;
	int before = preempt_count();
	u32 *holder, *intruder;
	int held, after;

	holder = kmap_atomic(t->page[0], KM_USER0);
	expect_begin(test, "a KM_USER0 collision");
	intruder = kmap_atomic(t->page[1], KM_USER0);
	intruder_apart = intruder != holder;
	intruder_reads = holds(intruder, seed_of(t, 1));
	fill(intruder, 0xbeef);
	holder_kept = holds(holder, seed_of(t, 0));
	held = preempt_count() - before;
	kunmap_atomic(intruder, KM_USER0);
	expect_end(test);
	holder_after = holds(holder, seed_of(t, 0));
	kunmap_atomic(holder, KM_USER0);
	after = preempt_count() - before;

	check_reports(test, KMAP_REPORT_COLLISION, 1);
	KUNIT_EXPECT_TRUE_MSG(test, intruder_apart, "the intruder was given the holder's slot");
	KUNIT_EXPECT_TRUE_MSG(test, intruder_reads, "the intruder's spare does not show its page");
	KUNIT_EXPECT_TRUE_MSG(test, holder_kept, "the holder lost its page to the intruder");
	KUNIT_EXPECT_TRUE_MSG(test, holder_after, "the intruder's unmap took the holder's page");
	KUNIT_EXPECT_EQ(test, held, 2);
	KUNIT_EXPECT_EQ(test, after, 0);
	KUNIT_EXPECT_TRUE(test, page_holds(t->page[1], 0xbeef));
}

/* A hard interrupt steps on the softirq slot a bottom-half section holds. */
struct intrusion {
	struct debug_test *t;
	bool apart, reads;
	u32 *holder;
};

static void intrude_softirq0(void *arg)
{
	struct intrusion *in = arg;
	u32 *p = kmap_atomic(in->t->page[1], KM_SOFTIRQ0);

	in->apart = p != in->holder;
	in->reads = holds(p, seed_of(in->t, 1));
	fill(p, 0xd00d);
	kunmap_atomic(p, KM_SOFTIRQ0);
}

static void collision_from_hardirq(struct kunit *test)
{
	struct debug_test *t = test->priv;
	struct intrusion in = { .t = t };
	bool holder_kept;

	holder_kept = softirq0_held_across_irq(test, "a hard interrupt maps the held KM_SOFTIRQ0",
					       intrude_softirq0, &in, &in.holder);

	/* Two reports: the wrong context, then the collision. */
	KUNIT_EXPECT_EQ(test, t->rose[KMAP_REPORT_COLLISION], 1UL);
	KUNIT_EXPECT_EQ(test, t->rose[KMAP_REPORT_CONTEXT], 1UL);
	KUNIT_EXPECT_TRUE(test, in.apart);
	KUNIT_EXPECT_TRUE_MSG(test, in.reads, "the interrupt's spare does not show its page");
	KUNIT_EXPECT_TRUE_MSG(test, holder_kept, "the holder lost its page to the interrupt");
	KUNIT_EXPECT_TRUE(test, page_holds(t->page[1], 0xd00d));
}

/* Each slot class from each context: reported exactly when it breaks the rule. */
enum where { IN_TASK, IN_TASK_BH_OFF, IN_TASK_IRQS_OFF, IN_HARDIRQ, IN_SOFTIRQ, IN_NMI };

static const char * const where_names[] = {
	[IN_TASK] = "task", [IN_TASK_BH_OFF] = "task, bottom halves off",
	[IN_TASK_IRQS_OFF] = "task, interrupts off", [IN_HARDIRQ] = "hard interrupt",
	[IN_SOFTIRQ] = "tasklet", [IN_NMI] = "NMI",
};

struct context_case {
	enum km_type type;
	enum where where;
	bool reported;
};

static const struct context_case context_cases[] = {
	{ KM_USER0, IN_TASK, false },
	{ KM_USER1, IN_TASK_IRQS_OFF, false },
	{ KM_USER0, IN_HARDIRQ, true },
	{ KM_USER1, IN_SOFTIRQ, true },
	{ KM_PTE0, IN_HARDIRQ, true },
	{ KM_SOFTIRQ0, IN_TASK, true },
	{ KM_SOFTIRQ0, IN_TASK_BH_OFF, false },
	{ KM_SOFTIRQ0, IN_TASK_IRQS_OFF, false },
	{ KM_SOFTIRQ1, IN_SOFTIRQ, false },
	{ KM_SOFTIRQ1, IN_HARDIRQ, true },
	{ KM_SKB_DATA_SOFTIRQ, IN_HARDIRQ, true },
	{ KM_SKB_SUNRPC_DATA, IN_TASK_BH_OFF, false },
	{ KM_IRQ0, IN_TASK, true },
	{ KM_IRQ0, IN_TASK_IRQS_OFF, false },
	{ KM_IRQ1, IN_HARDIRQ, false },
	{ KM_BIO_SRC_IRQ, IN_TASK_BH_OFF, true },
	{ KM_BIO_DST_IRQ, IN_TASK_IRQS_OFF, false },
	{ KM_BOUNCE_READ, IN_SOFTIRQ, true },
	/*
	 * The slots 2.6.33 added. KM_NMI* in NMIs only: stricter than
	 * 2.6.33's check, which took a task with interrupts off too.
	 */
	{ KM_SYNC_ICACHE, IN_TASK, false },
	{ KM_SYNC_DCACHE, IN_HARDIRQ, true },
	{ KM_UML_USERCOPY, IN_SOFTIRQ, true },
	{ KM_IRQ_PTE, IN_HARDIRQ, false },
	{ KM_IRQ_PTE, IN_TASK_IRQS_OFF, false },
	{ KM_IRQ_PTE, IN_TASK, true },
	{ KM_IRQ_PTE, IN_NMI, true },
	{ KM_NMI, IN_NMI, false },
	{ KM_NMI, IN_TASK_IRQS_OFF, true },
	{ KM_NMI, IN_TASK, true },
	{ KM_NMI, IN_HARDIRQ, true },
	{ KM_NMI_PTE, IN_NMI, false },
	{ KM_NMI_PTE, IN_SOFTIRQ, true },
	{ KM_KDB, IN_NMI, false },
	{ KM_KDB, IN_TASK_IRQS_OFF, true },
	{ KM_KDB, IN_HARDIRQ, true },
	{ KM_KDB, IN_TASK, true },
	{ KM_IRQ0, IN_NMI, true },
	{ KM_USER0, IN_NMI, true },
};

static void context_case_desc(const struct context_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s in %s%s", kmap_atomic_slot_name(c->type),
		 where_names[c->where], c->reported ? ": reported" : "");
}

KUNIT_ARRAY_PARAM(context, context_cases, context_case_desc);

struct context_run {
	const struct context_case *c;
	struct page *page;
	u32 seed;
	bool ok, nmi_ran;
	struct completion done;
	struct tasklet_struct tasklet;
};

static void context_map(void *arg)
{
	struct context_run *r = arg;
	u32 *p = kmap_atomic(r->page, r->c->type);

	r->ok = holds(p, r->seed);
	kunmap_atomic(p, r->c->type);
}

static void context_tasklet(struct tasklet_struct *tl)
{
	struct context_run *r = from_tasklet(r, tl, tasklet);

	context_map(r);
	complete(&r->done);
}

static void context_rules(struct kunit *test)
{
	const struct context_case *c = test->param_value;
	struct debug_test *t = test->priv;
	struct context_run r = { .c = c, .page = t->page[0], .seed = seed_of(t, 0) };
	unsigned long flags;

	expect_begin(test, "a slot used from the wrong context");
	switch (c->where) {
	case IN_TASK:
		context_map(&r);
		break;
	case IN_TASK_BH_OFF:
		local_bh_disable();
		context_map(&r);
		local_bh_enable();
		break;
	case IN_TASK_IRQS_OFF:
		local_irq_save(flags);
		context_map(&r);
		local_irq_restore(flags);
		break;
	case IN_HARDIRQ:
		run_in_hardirq(context_map, &r);
		break;
	case IN_NMI:
		r.nmi_ran = kmap_test_run_in_nmi(context_map, &r);
		break;
	case IN_SOFTIRQ:
		init_completion(&r.done);
		tasklet_setup(&r.tasklet, context_tasklet);
		tasklet_schedule(&r.tasklet);
		wait_for_completion(&r.done);
		tasklet_kill(&r.tasklet);
		break;
	}
	expect_end(test);
	if (c->where == IN_NMI)
		KUNIT_ASSERT_TRUE_MSG(test, r.nmi_ran, "the map did not run in an NMI");
	check_reports(test, KMAP_REPORT_CONTEXT, c->reported);
	KUNIT_EXPECT_TRUE_MSG(test, r.ok, "the mapping does not show the page");
}

/*
 * Unmaps that stand for no map of this context change nothing: the
 * mapping stays valid and the counts stay where the map put them, until
 * the right unmap. The wrong type passed with the mapping's own address
 * stands for that map: it is released, its counts given back, reported.
 */
enum bad_unmap {
	FOREIGN_POINTER, OTHER_SLOT_ADDRESS, WRONG_TYPE, KMAP_LOCAL_ADDRESS,
	UNTYPED_ATOMIC_ADDRESS, OTHER_CPU_SLOT, GUARD_PAGE, MADE_UP, STALE_SPARE,
};

static const char * const bad_unmap_names[] = {
	[FOREIGN_POINTER] = "kunmap_atomic() given a vmalloc pointer (the bio's, say)",
	[OTHER_SLOT_ADDRESS] = "kunmap_atomic() given another slot's address",
	[WRONG_TYPE] = "kunmap_atomic() with the wrong type",
	[KMAP_LOCAL_ADDRESS] = "kunmap_atomic(kmap_local_page(q), KM_USER0)",
	[UNTYPED_ATOMIC_ADDRESS] = "kunmap_atomic(kmap_atomic(q), KM_USER0)",
	[OTHER_CPU_SLOT] = "kunmap_atomic() given another CPU's KM_USER0",
	[GUARD_PAGE] = "kunmap_atomic() given the guard page above the slot",
	[MADE_UP] = "kunmap_atomic() given a made-up user address",
	[STALE_SPARE] = "kunmap_atomic() given a spare that was unmapped already",
};

static const enum bad_unmap bad_unmaps[] = {
	FOREIGN_POINTER, OTHER_SLOT_ADDRESS, WRONG_TYPE, KMAP_LOCAL_ADDRESS,
	UNTYPED_ATOMIC_ADDRESS, OTHER_CPU_SLOT, GUARD_PAGE, MADE_UP, STALE_SPARE,
};

static void bad_unmap_desc(const enum bad_unmap *b, char *desc)
{
	strscpy(desc, bad_unmap_names[*b], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad_unmap, bad_unmaps, bad_unmap_desc);

/* The address @how hands to kunmap_atomic(..., KM_USER0) while @p is mapped. */
static void *bad_address(struct kunit *test, enum bad_unmap how, u32 *p, void *vbuf,
			 void *local, void *untyped, void *stale)
{
	unsigned int cpu = smp_processor_id();

	switch (how) {
	case FOREIGN_POINTER:
		return vbuf;
	case OTHER_SLOT_ADDRESS:
		return (void *)kmap_atomic_slot_addr(cpu, KM_USER1);
	case KMAP_LOCAL_ADDRESS:
		return local;
	case UNTYPED_ATOMIC_ADDRESS:
		return untyped;
	case OTHER_CPU_SLOT:
		return (void *)kmap_atomic_slot_addr(cpu ? 0 : 1, KM_USER0);
	case GUARD_PAGE:
		return (char *)p + PAGE_SIZE;
	case MADE_UP:
		return (void *)0x12345678UL;
	case STALE_SPARE:
		return stale;
	default:
		return p;
	}
}

static void unmap_mismatch(struct kunit *test)
{
	enum bad_unmap how = *(const enum bad_unmap *)test->param_value;
	void *vbuf = vmalloc(64);
	struct debug_test *t = test->priv;
	int before = preempt_count(), pf_before = current->pagefault_disabled;
	int held_after_bad, pf_after_bad, after_good, pf_after_good;
	/* A slot of this CPU's that maps nothing stands for no map. */
	bool nothing = how == OTHER_SLOT_ADDRESS || how == STALE_SPARE;
	/* The top of kmap_local's stack, a one-argument map's: that map. */
	bool releases_p = !nothing && how != UNTYPED_ATOMIC_ADDRESS;
	unsigned long wrong, not_held, spare = how == STALE_SPARE;
	bool valid_after_bad;
	void *local = NULL, *untyped = NULL, *stale = NULL;
	u32 *p;

	KUNIT_ASSERT_NOT_NULL(test, vbuf);
	if (how == OTHER_CPU_SLOT && num_possible_cpus() < 2) {
		vfree(vbuf);
		kunit_skip(test, "one possible CPU: there is no other CPU's slot");
	}
	expect_begin(test, bad_unmap_names[how]);
	if (how == STALE_SPARE) {
		/* A collision's spare, unmapped: its address maps nothing now. */
		p = kmap_atomic(t->page[0], KM_USER0);
		stale = kmap_atomic(t->page[1], KM_USER0);
		kunmap_atomic(stale, KM_USER0);
		kunmap_atomic(p, KM_USER0);
	}
	if (how == KMAP_LOCAL_ADDRESS)
		local = kmap_local_page(t->page[1]);
	p = kmap_atomic(t->page[0], KM_USER0);
	if (how == UNTYPED_ATOMIC_ADDRESS)
		untyped = kmap_atomic(t->page[1]);
	if (how == WRONG_TYPE)
		kunmap_atomic(p, KM_USER1);
	else
		kunmap_atomic(bad_address(test, how, p, vbuf, local, untyped, stale), KM_USER0);
	expect_end(test);
	held_after_bad = preempt_count() - before;
	pf_after_bad = current->pagefault_disabled - pf_before;
	valid_after_bad = releases_p ? !faults(p) : holds(p, seed_of(t, 0));
	if (!releases_p)
		kunmap_atomic(p, KM_USER0);
	if (local)
		kunmap_local(local);
	after_good = preempt_count() - before;
	pf_after_good = current->pagefault_disabled - pf_before;
	vfree(vbuf);

	wrong = t->rose[KMAP_REPORT_WRONG_ADDRESS];
	not_held = t->rose[KMAP_REPORT_NOT_HELD];
	KUNIT_EXPECT_EQ_MSG(test, wrong, (unsigned long)!nothing, "wrong-address reports");
	KUNIT_EXPECT_EQ_MSG(test, not_held, (unsigned long)nothing, "not-held reports");
	KUNIT_EXPECT_EQ_MSG(test, t->rose[KMAP_REPORT_COLLISION], spare, "collisions");
	KUNIT_EXPECT_EQ(test, t->rose[KMAP_REPORT_OTHER_CONTEXT] +
			t->rose[KMAP_REPORT_INVALID_TYPE] + t->rose[KMAP_REPORT_CONTEXT] +
			t->rose[KMAP_REPORT_NO_SPARE] + t->rose[KMAP_REPORT_LEAK], 0UL);
	KUNIT_EXPECT_EQ_MSG(test, held_after_bad, releases_p ? 0 : 1,
			    "preemption count after the bad unmap");
	KUNIT_EXPECT_EQ_MSG(test, pf_after_bad, releases_p ? 0 : 1,
			    "page-fault count after the bad unmap");
	if (releases_p)
		KUNIT_EXPECT_FALSE_MSG(test, valid_after_bad,
				       "the map the bad unmap stands for is still in place");
	else
		KUNIT_EXPECT_TRUE_MSG(test, valid_after_bad, "the bad unmap took the mapping");
	if (untyped)
		KUNIT_EXPECT_TRUE_MSG(test, faults(untyped),
				      "the one-argument map the typed unmap stands for is still in place");
	KUNIT_EXPECT_EQ(test, after_good, 0);
	KUNIT_EXPECT_EQ(test, pf_after_good, 0);
	KUNIT_EXPECT_TRUE(test, preemptible());
}

static void unmap_twice(struct kunit *test)
{
	struct debug_test *t = test->priv;
	int before = preempt_count();
	int after_first, after_second;
	u32 *p;

	p = kmap_atomic(t->page[0], KM_USER0);
	kunmap_atomic(p, KM_USER0);
	after_first = preempt_count() - before;
	expect_begin(test, "kunmap_atomic() twice");
	kunmap_atomic(p, KM_USER0);
	expect_end(test);
	check_reports(test, KMAP_REPORT_NOT_HELD, 1);
	after_second = preempt_count() - before;
	KUNIT_EXPECT_EQ(test, after_first, 0);
	KUNIT_EXPECT_EQ_MSG(test, after_second, 0, "the second unmap changed the count");
	KUNIT_EXPECT_FALSE(test, pagefault_disabled());
}

struct other_ctx {
	u32 *addr;
	int irq_preempt_change;
};

static void unmap_from_irq(void *arg)
{
	struct other_ctx *o = arg;
	int before = preempt_count();

	kunmap_atomic(o->addr, KM_SOFTIRQ0);
	o->irq_preempt_change = preempt_count() - before;
}

static void unmap_in_other_context(struct kunit *test)
{
	struct other_ctx o = {};
	bool valid;

	valid = softirq0_held_across_irq(test, "a hard interrupt unmaps the task's KM_SOFTIRQ0",
					 unmap_from_irq, &o, &o.addr);
	check_reports(test, KMAP_REPORT_OTHER_CONTEXT, 1);
	KUNIT_EXPECT_EQ(test, o.irq_preempt_change, 0);
	KUNIT_EXPECT_TRUE_MSG(test, valid, "the interrupt's unmap took the task's mapping");
	KUNIT_EXPECT_TRUE(test, preemptible());
}

/* Not a constant: the compiler cannot reject it, the check must. */
static unsigned int invalid_slot = KM_TYPE_NR + 3;

static void invalid_type_at_run_time(struct kunit *test)
{
	enum km_type bad = READ_ONCE(invalid_slot);
	struct debug_test *t = test->priv;
	int before = preempt_count();
	struct page *to_page;
	int held, after;
	bool reads;
	u32 *p;

	expect_begin(test, "kmap_atomic() with an invalid type");
	p = kmap_atomic(t->page[0], bad);
	reads = holds(p, seed_of(t, 0));
	to_page = kmap_atomic_to_page(p);
	held = preempt_count() - before;
	kunmap_atomic(p, bad);
	after = preempt_count() - before;
	expect_end(test);
	check_reports(test, KMAP_REPORT_INVALID_TYPE, 1);

	KUNIT_EXPECT_TRUE_MSG(test, reads, "the fallback mapping does not show the page");
	KUNIT_EXPECT_PTR_EQ(test, to_page, t->page[0]);
	KUNIT_EXPECT_EQ(test, held, 1);
	KUNIT_EXPECT_EQ(test, after, 0);
}

#define TASK_SPARES	(KM_SPARE_SLOTS - KM_NMI_SPARES)

/* A context that ends holding a slot: reported, reclaimed, counts restored. */
struct leaker {
	struct page *page;
	void *give_back;	/* a lowmem page mapped, unmapped with kunmap_atomic(addr) */
	bool past_spares;	/* the slot and every spare mapped (and unmapped) around it */
	struct page *under;	/* with past_spares: a kmap_local page of the worker's */
	u32 under_seed;		/* what it holds */
	void *leaked;
	void *refused;		/* with past_spares: the map past the last spare */
	struct completion done;
	struct irq_work work;
	struct tasklet_struct tasklet;
	enum km_type type;
};

static void leak_in_irq(struct irq_work *work)
{
	struct leaker *l = container_of(work, struct leaker, work);
	void *held[TASK_SPARES];
	unsigned int i;

	l->leaked = kmap_atomic(l->page, l->type);
	/* With past_spares, every spare too, and a map that gets NULL. */
	for (i = 0; l->past_spares && i < ARRAY_SIZE(held); i++)
		held[i] = kmap_atomic(l->page, l->type);
	if (l->past_spares)
		l->refused = kmap_atomic(l->page, l->type);
	if (l->give_back) {
		/*
		 * A lowmem map unmapped by the one-argument form: its counts
		 * given back, its entry left for the interrupt's end, which
		 * must not give them back again.
		 */
		void *low = kmap_atomic(virt_to_page(l->give_back), KM_IRQ0);

		kunmap_atomic(low);
	}
	complete(&l->done);
}

static void leak_in_tasklet(struct tasklet_struct *tl)
{
	struct leaker *l = from_tasklet(l, tl, tasklet);

	l->leaked = kmap_atomic(l->page, l->type);
	complete(&l->done);
}

struct leak_result {
	struct leaker l;
	bool hardirq;
	int preempt_after, pagefault_after;
	int local_depth_before, local_depth_after;	/* kmap_local's stack */
	bool pte_cleared, leaked_cleared, under_intact;
	unsigned long collisions;
};

/*
 * On one CPU: the handler runs to its end, leak check included, before
 * this worker runs again, since neither interrupts nor softirqs are
 * preempted by a task.
 */
static int leak_on_cpu(void *arg)
{
	struct leak_result *r = arg;
	struct leaker *l = &r->l;
	unsigned long collisions = kmap_atomic_debug_reports(KMAP_REPORT_COLLISION);
	unsigned long vaddr;
	void *p, *under = NULL;
	unsigned int level;
	pte_t *ptep;

	init_completion(&l->done);
	/* A kmap_local mapping of the worker's, which the interrupt must not touch. */
	if (l->under)
		under = kmap_local_page(l->under);
	r->local_depth_before = current->kmap_ctrl.idx;
	if (r->hardirq) {
		init_irq_work(&l->work, leak_in_irq);
		irq_work_queue(&l->work);
		wait_for_completion(&l->done);
		irq_work_sync(&l->work);
	} else {
		tasklet_setup(&l->tasklet, leak_in_tasklet);
		tasklet_schedule(&l->tasklet);
		wait_for_completion(&l->done);
		tasklet_kill(&l->tasklet);
	}
	r->preempt_after = preempt_count();
	r->pagefault_after = current->pagefault_disabled;
	r->local_depth_after = current->kmap_ctrl.idx;
	if (under) {
		r->under_intact = holds(under, l->under_seed);
		kunmap_local(under);
	}
	preempt_disable();
	vaddr = kmap_atomic_slot_addr(smp_processor_id(), l->type);
	r->pte_cleared = !pte_present(ptep_get(lookup_address(vaddr, &level)));
	ptep = lookup_address((unsigned long)l->leaked, &level);
	r->leaked_cleared = ptep && !pte_present(ptep_get(ptep));
	preempt_enable();

	/* The slot is free again: no collision. */
	if (r->hardirq) {
		unsigned long flags;

		local_irq_save(flags);
		p = kmap_atomic(l->page, l->type);
		kunmap_atomic(p, l->type);
		local_irq_restore(flags);
	} else {
		local_bh_disable();
		p = kmap_atomic(l->page, l->type);
		kunmap_atomic(p, l->type);
		local_bh_enable();
	}
	r->collisions = kmap_atomic_debug_reports(KMAP_REPORT_COLLISION) - collisions;
	return 0;
}

static void run_leak(struct kunit *test, struct leak_result *r, const char *what)
{
	expect_begin(test, what);
	KUNIT_ASSERT_EQ(test, smp_call_on_cpu(raw_smp_processor_id(), leak_on_cpu, r, false), 0);
	expect_end(test);
	KUNIT_EXPECT_EQ_MSG(test, r->preempt_after, 0,
			    "the leak's preemption count was not restored");
	KUNIT_EXPECT_EQ_MSG(test, r->pagefault_after, 0,
			    "the leak's page-fault count was not restored");
	KUNIT_EXPECT_EQ_MSG(test, r->local_depth_after, r->local_depth_before,
			    "kmap_local's stack is not as it was");
	KUNIT_EXPECT_TRUE_MSG(test, r->leaked_cleared, "the leaked address still maps the page");
}

static void leak_check(struct kunit *test, bool hardirq, enum km_type type, const char *what,
		       void *give_back)
{
	struct debug_test *t = test->priv;
	struct leak_result r = {
		.hardirq = hardirq,
		.l = { .page = t->page[0], .type = type, .give_back = give_back },
	};

	run_leak(test, &r, what);
	check_reports(test, KMAP_REPORT_LEAK, 1);
	KUNIT_EXPECT_TRUE_MSG(test, r.pte_cleared, "the reclaimed slot still maps the page");
	KUNIT_EXPECT_EQ_MSG(test, r.collisions, 0UL, "the reclaimed slot is still held");
}

static void leak_from_hardirq(struct kunit *test)
{
	leak_check(test, true, KM_IRQ0, "a hard interrupt returns holding KM_IRQ0", NULL);
}

/*
 * A lowmem map unmapped by the one-argument form gave its counts back, and
 * the interrupt returns without the unmap of its KM_IRQ1: the slot is
 * released and reported, the lowmem map's entry dropped silently, and no
 * count is given back twice.
 */
static void leak_after_lowmem_unmap(struct kunit *test)
{
	void *slab = kunit_kzalloc(test, 64, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, slab);
	leak_check(test, true, KM_IRQ1,
		   "a hard interrupt returns holding KM_IRQ1 after a one-argument unmap of a lowmem map",
		   slab);
}

/*
 * A hard interrupt that leaks its slot and every spare it may take, and
 * gets NULL past them, over a worker's kmap_local_page(): each map is
 * released and reported where the interrupt returns, and the worker's
 * mapping and kmap_local's stack are as they were.
 */
static void leak_past_the_last_spare(struct kunit *test)
{
	struct debug_test *t = test->priv;
	struct leak_result r = {
		.hardirq = true,
		.l = { .page = t->page[0], .type = KM_IRQ0, .past_spares = true,
		       .under = t->page[1], .under_seed = seed_of(t, 1) },
	};
	unsigned int i;

	run_leak(test, &r, "a hard interrupt returns holding its slot and every spare");
	KUNIT_EXPECT_NULL_MSG(test, r.l.refused, "the map past the last spare");
	for (i = 0; i < KMAP_REPORT_NR; i++) {
		unsigned long want = i == KMAP_REPORT_COLLISION ? TASK_SPARES :
				     i == KMAP_REPORT_LEAK ? TASK_SPARES + 1 :
				     i == KMAP_REPORT_NO_SPARE ? 1 : 0;

		KUNIT_EXPECT_EQ_MSG(test, t_rose(test, i), want, "reports of kind %u", i);
	}
	KUNIT_EXPECT_TRUE_MSG(test, r.under_intact,
			      "the worker's kmap_local mapping lost its page");
}

static void leak_from_softirq(struct kunit *test)
{
	leak_check(test, false, KM_SOFTIRQ1, "a tasklet returns holding KM_SOFTIRQ1", NULL);
}

/* With debugging on, an unmapped slot maps nothing: a stale pointer faults. */
static void use_after_unmap_faults(struct kunit *test)
{
	struct debug_test *t = test->priv;
	struct page *stale_page;
	long ret;
	u32 *p, x;

	p = kmap_atomic(t->page[0], KM_USER1);
	kunmap_atomic(p, KM_USER1);
	ret = copy_from_kernel_nofault(&x, p, sizeof(x));
	stale_page = kmap_atomic_to_page(p);
	KUNIT_EXPECT_EQ_MSG(test, ret, (long)-EFAULT, "a read through the stale pointer worked");
	KUNIT_EXPECT_NULL(test, stale_page);
}

/*
 * A hot misuse is counted every time and printed once for its call site;
 * it hides no other call site's report.
 */
static noinline void double_unmap_at_a(u32 *p)
{
	kunmap_atomic(p, KM_USER0);
}

/* Another type, so that the compiler cannot fold the two sites into one. */
static noinline void double_unmap_at_b(u32 *p)
{
	kunmap_atomic(p, KM_USER1);
}

static void hot_misuse_hides_no_site(struct kunit *test)
{
	struct debug_test *t = test->priv;
	unsigned long printed, printed_a, printed_b;
	unsigned int i;
	u32 *p;

	p = kmap_atomic(t->page[0], KM_USER0);
	kunmap_atomic(p, KM_USER0);
	expect_begin(test, "1000 double unmaps from one call site, then one from another");
	printed = kmap_atomic_reports_printed();
	for (i = 0; i < 1000; i++)
		double_unmap_at_a(p);
	printed_a = kmap_atomic_reports_printed() - printed;
	double_unmap_at_b(p);
	printed_b = kmap_atomic_reports_printed() - printed - printed_a;
	expect_end(test);
	/* A slot of this CPU's that maps nothing: a double unmap, whatever the type. */
	KUNIT_EXPECT_EQ(test, t->rose[KMAP_REPORT_NOT_HELD], 1001UL);
	KUNIT_EXPECT_EQ_MSG(test, printed_a, 1UL, "a hot call site printed other than once");
	KUNIT_EXPECT_EQ_MSG(test, printed_b, 1UL, "the hot call site hid another's report");
	KUNIT_EXPECT_TRUE(test, preemptible());
}

/*
 * Correct 2.6-era usage draws no report and leaves the counts as they
 * were, each pattern as subsystems of 2.6 wrote it. Each writes only to
 * page 1 or to slab memory.
 */
struct counts_snap {
	int preempt, pagefault;
};

static void snap(struct counts_snap *c)
{
	c->preempt = preempt_count();
	c->pagefault = current->pagefault_disabled;
}

/* shmem (2.6.32): ZERO_PAGE in KM_USER1, unmapped with a slab pointer. */
static void shmem_zero_page(struct debug_test *t, void *slab)
{
	void *kaddr = kmap_atomic(ZERO_PAGE(0), KM_USER1);

	memcpy(slab, kaddr, 16);
	kunmap_atomic(slab, KM_USER1);
}

/* copy_user_highpage(): source KM_USER0, destination KM_USER1, unmapped in map order. */
static void copy_user_highpage_26(struct debug_test *t, void *slab)
{
	void *from = kmap_atomic(t->page[0], KM_USER0);
	void *to = kmap_atomic(t->page[1], KM_USER1);

	memcpy(to, from, 64);
	kunmap_atomic(from, KM_USER0);
	kunmap_atomic(to, KM_USER1);
}

/* loop's transfer_none(): unmapped through base + offset, inside the page. */
static void loop_transfer_none(struct debug_test *t, void *slab)
{
	char *raw = kmap_atomic(t->page[0], KM_USER0);
	char *loop = kmap_atomic(t->page[1], KM_USER1);

	memcpy(loop + 512, raw + 512, 64);
	kunmap_atomic(raw + 512, KM_USER0);
	kunmap_atomic(loop + 512, KM_USER1);
}

/* crypto_kmap_type(): KM_SOFTIRQ0/1 with bottom halves off, released out of order. */
static void crypto_scatterwalk(struct debug_test *t, void *slab)
{
	void *src, *dst;

	local_bh_disable();
	src = kmap_atomic(t->page[0], KM_SOFTIRQ0);
	dst = kmap_atomic(t->page[1], KM_SOFTIRQ1);
	memcpy(dst + 128, src + 128, 32);
	kunmap_atomic(src, KM_SOFTIRQ0);
	kunmap_atomic(dst, KM_SOFTIRQ1);
	local_bh_enable();
}

/* The block bounce code: KM_BOUNCE_READ and KM_BIO_SRC_IRQ with interrupts off. */
static void bounce_copy(struct debug_test *t, void *slab)
{
	unsigned long flags;
	void *vto, *vfrom;

	local_irq_save(flags);
	vto = kmap_atomic(t->page[1], KM_BOUNCE_READ);
	vfrom = kmap_atomic(t->page[0], KM_BIO_SRC_IRQ);
	memcpy(vto + 256, vfrom + 256, 16);
	kunmap_atomic(vfrom, KM_BIO_SRC_IRQ);
	kunmap_atomic(vto, KM_BOUNCE_READ);
	local_irq_restore(flags);
}

/* A lowmem page in a slot, then a highmem page in another: the pte_offset_map() pair. */
static void pte_pages(struct debug_test *t, void *slab)
{
	char *low = kmap_atomic(virt_to_page(slab), KM_PTE0);
	void *high = kmap_atomic(t->page[0], KM_PTE1);

	/* Into the slab object only: the rest of its page is others'. */
	memcpy(low + offset_in_page(slab), high, 8);
	kunmap_atomic(high, KM_PTE1);
	kunmap_atomic(low, KM_PTE0);
}

/* kmap_atomic_pfn() of a lowmem frame: always a slot, as in 2.6. */
static void pfn_of_lowmem(struct debug_test *t, void *slab)
{
	u8 *p = kmap_atomic_pfn(page_to_pfn(virt_to_page(slab)), KM_USER0);

	p[offset_in_page(slab)] ^= 1;
	kunmap_atomic(p, KM_USER0);
}

static const struct usage_26 {
	const char *name;
	void (*run)(struct debug_test *t, void *slab);
} usages_26[] = {
	{ "shmem: ZERO_PAGE in KM_USER1, unmapped with a slab pointer", shmem_zero_page },
	{ "copy_user_highpage: KM_USER0 and KM_USER1, unmapped in map order",
	  copy_user_highpage_26 },
	{ "loop transfer_none: unmapped at base + offset", loop_transfer_none },
	{ "crypto scatterwalk: KM_SOFTIRQ0/1, bottom halves off", crypto_scatterwalk },
	{ "bounce: KM_BOUNCE_READ and KM_BIO_SRC_IRQ, interrupts off", bounce_copy },
	{ "page tables: a lowmem and a highmem page in KM_PTE0/1", pte_pages },
	{ "kmap_atomic_pfn of a lowmem frame", pfn_of_lowmem },
};

static void usage_26_desc(const struct usage_26 *u, char *desc)
{
	strscpy(desc, u->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(usage_26, usages_26, usage_26_desc);

static void correct_26_usage_is_quiet(struct kunit *test)
{
	const struct usage_26 *u = test->param_value;
	struct debug_test *t = test->priv;
	void *slab = kunit_kzalloc(test, 256, GFP_KERNEL);
	unsigned long before = kmap_atomic_reports();
	struct counts_snap a, b;

	KUNIT_ASSERT_NOT_NULL(test, slab);
	snap(&a);
	u->run(t, slab);
	snap(&b);
	KUNIT_EXPECT_EQ_MSG(test, kmap_atomic_reports() - before, 0UL, "reports after %s", u->name);
	KUNIT_EXPECT_EQ(test, b.preempt, a.preempt);
	KUNIT_EXPECT_EQ(test, b.pagefault, a.pagefault);
	KUNIT_EXPECT_TRUE(test, page_holds(t->page[0], seed_of(t, 0)));
}

/*
 * Eight collisions nested on KM_USER0 under a live kmap_local_page(),
 * released first-in-first-out: the spares are released in any order and
 * never touch kmap_local's stack.
 */
#define NESTED	8

static void nested_collisions_any_order(struct kunit *test)
{
	struct debug_test *t = test->priv;
	struct page *pages[NESTED + 1];
	u32 *p[NESTED + 1], *local;
	unsigned int i, bad = 0;
	struct counts_snap a, b;
	bool local_kept;

	for (i = 0; i <= NESTED; i++) {
		pages[i] = alloc_highmem_page(test);
		p[i] = kmap_local_page(pages[i]);
		fill(p[i], 0x7000 + 0x100 * i);
		kunmap_local(p[i]);
	}
	local = kmap_local_page(t->page[1]);
	snap(&a);
	expect_begin(test, "eight collisions on KM_USER0, released first in first out");
	for (i = 0; i <= NESTED; i++)
		p[i] = kmap_atomic(pages[i], KM_USER0);
	for (i = 0; i <= NESTED; i++) {
		bad += !holds(p[i], 0x7000 + 0x100 * i);
		kunmap_atomic(p[i], KM_USER0);
	}
	expect_end(test);
	snap(&b);
	local_kept = holds(local, seed_of(t, 1));
	kunmap_local(local);
	for (i = 0; i <= NESTED; i++)
		__free_page(pages[i]);

	check_reports(test, KMAP_REPORT_COLLISION, NESTED);
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "mappings that lost their page");
	KUNIT_EXPECT_TRUE_MSG(test, local_kept, "the live kmap_local_page() lost its page");
	KUNIT_EXPECT_EQ(test, b.preempt, a.preempt);
	KUNIT_EXPECT_EQ(test, b.pagefault, a.pagefault);
}

/*
 * Past the last spare a task's map gets NULL: nothing is lost, the
 * spares are released last in first out, and the collisions and the NULL
 * are reported.
 */
#define PAST_LAST	(1 + TASK_SPARES + 1)

static void past_the_last_spare(struct kunit *test)
{
	struct page **pages = kunit_kcalloc(test, PAST_LAST, sizeof(*pages), GFP_KERNEL);
	u32 **p = kunit_kcalloc(test, PAST_LAST, sizeof(*p), GFP_KERNEL);
	unsigned int i, bad = 0;
	struct counts_snap a, b;
	bool refused;

	KUNIT_ASSERT_NOT_NULL(test, pages);
	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 0; i < PAST_LAST; i++) {
		pages[i] = alloc_highmem_page(test);
		p[i] = kmap_local_page(pages[i]);
		fill(p[i], 0x9000 + 0x100 * i);
		kunmap_local(p[i]);
	}
	snap(&a);
	expect_begin(test, "every spare of this CPU in use");
	for (i = 0; i < PAST_LAST; i++)
		p[i] = kmap_atomic(pages[i], KM_USER0);
	refused = !p[PAST_LAST - 1];
	for (i = PAST_LAST - 1; i-- > 0;) {
		bad += !holds(p[i], 0x9000 + 0x100 * i);
		kunmap_atomic(p[i], KM_USER0);
	}
	expect_end(test);
	snap(&b);
	for (i = 0; i < PAST_LAST; i++)
		__free_page(pages[i]);

	KUNIT_EXPECT_EQ(test, t_rose(test, KMAP_REPORT_COLLISION), (unsigned long)TASK_SPARES);
	KUNIT_EXPECT_EQ(test, t_rose(test, KMAP_REPORT_NO_SPARE), 1UL);
	KUNIT_EXPECT_TRUE_MSG(test, refused, "the map past the last spare was not refused");
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "mappings that lost their page");
	KUNIT_EXPECT_EQ(test, b.preempt, a.preempt);
	KUNIT_EXPECT_EQ(test, b.pagefault, a.pagefault);
}

/*
 * Real NMIs (an NMI IPI to this CPU) arrive while a hard interrupt maps,
 * uses and unmaps KM_IRQ0, thousands of times; each NMI maps KM_IRQ0 too.
 * The interrupt's data stays intact, and every NMI map is reported and
 * served in a spare, never in the interrupt's slot.
 */
#define NMI_ROUNDS	2000

struct nmi_run {
	struct debug_test *t;
	unsigned int cpu;
	atomic_t pending;
	unsigned long nmis, in_irq_slot, nulls, irq_bad, missed;
	u32 *irq_addr;
};

static struct nmi_run *nmi_run;

static int kmap_test_nmi(unsigned int cmd, struct pt_regs *regs)
{
	struct nmi_run *r = READ_ONCE(nmi_run);
	u32 *p;

	if (!r || smp_processor_id() != r->cpu || !atomic_xchg(&r->pending, 0))
		return NMI_DONE;
	p = kmap_atomic(r->t->page[1], KM_IRQ0);
	if (!p) {
		r->nulls++;
		return NMI_HANDLED;
	}
	r->in_irq_slot += (unsigned long)p == kmap_atomic_slot_addr(r->cpu, KM_IRQ0);
	p[WORDS - 1] = pattern(seed_of(r->t, 1), WORDS - 1);	/* what it held: unchanged */
	r->nmis++;
	kunmap_atomic(p, KM_IRQ0);
	return NMI_HANDLED;
}

static void nmi_rounds_in_irq(void *arg)
{
	struct nmi_run *r = arg;
	unsigned int i, spin;
	u32 *p;

	r->cpu = smp_processor_id();
	WRITE_ONCE(nmi_run, r);
	for (i = 0; i < NMI_ROUNDS; i++) {
		/* Before the map in even rounds, while the slot is held in odd ones. */
		atomic_set(&r->pending, 1);
		if (!(i & 1))
			apic->send_IPI_mask(cpumask_of(r->cpu), NMI_VECTOR);
		p = kmap_atomic(r->t->page[0], KM_IRQ0);
		if (i & 1)
			apic->send_IPI_mask(cpumask_of(r->cpu), NMI_VECTOR);
		r->irq_bad += p[0] != seed_of(r->t, 0) ||
			      p[WORDS / 2] != pattern(seed_of(r->t, 0), WORDS / 2);
		kunmap_atomic(p, KM_IRQ0);
		for (spin = 0; atomic_read(&r->pending) && spin < 1000000; spin++)
			cpu_relax();
		r->missed += atomic_xchg(&r->pending, 0);
	}
	WRITE_ONCE(nmi_run, NULL);
}

/*
 * An exception inside an NMI (int3, #DB, #MC) is one NMI level deeper, and
 * the leak check at its exit looks at that level's maps only: here an NMI
 * holds KM_NMI and a lowmem map when a nested level, entered and left as
 * __nmi_enter() and irqentry_nmi_exit() do, ends holding nothing.
 */
struct nested_nmi {
	struct debug_test *t;
	struct page *low;
	bool held_ok;
};

static void nmi_with_nested_level(void *arg)
{
	struct nested_nmi *n = arg;
	u32 *p = kmap_atomic(n->t->page[0], KM_NMI);
	void *low = kmap_atomic(n->low, KM_NMI_PTE);

	__preempt_count_add(NMI_OFFSET + HARDIRQ_OFFSET);
	kmap_atomic_check_leaks(KMAP_END_NMI);
	__preempt_count_sub(NMI_OFFSET + HARDIRQ_OFFSET);
	n->held_ok = holds(p, seed_of(n->t, 0));
	kunmap_atomic(low, KM_NMI_PTE);
	kunmap_atomic(p, KM_NMI);
}

static void nested_nmi_level_exit(struct kunit *test)
{
	struct debug_test *t = test->priv;
	struct nested_nmi n = { .t = t };
	unsigned long reports;
	bool ran;

	n.low = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, n.low);
	reports = kmap_atomic_reports();
	ran = kmap_test_run_in_nmi(nmi_with_nested_level, &n);
	reports = kmap_atomic_reports() - reports;
	__free_page(n.low);

	KUNIT_ASSERT_TRUE_MSG(test, ran, "no NMI ran");
	KUNIT_EXPECT_TRUE_MSG(test, n.held_ok, "the NMI's KM_NMI lost its page");
	KUNIT_EXPECT_EQ_MSG(test, reports, 0UL,
			    "the nested level's exit reported the outer NMI's maps");
	KUNIT_EXPECT_EQ(test, preempt_count(), 0);
}

static void nmi_while_irq_holds_slot(struct kunit *test)
{
	struct debug_test *t = test->priv;
	struct nmi_run r = { .t = t };
	int ret;

	ret = register_nmi_handler(NMI_LOCAL, kmap_test_nmi, 0, "kmap_atomic_test");
	KUNIT_ASSERT_EQ(test, ret, 0);
	expect_begin(test, "NMIs map KM_IRQ0 under a hard interrupt");
	run_in_hardirq(nmi_rounds_in_irq, &r);
	expect_end(test);
	unregister_nmi_handler(NMI_LOCAL, "kmap_atomic_test");

	KUNIT_ASSERT_GT_MSG(test, r.nmis, 0UL, "no NMI arrived");
	KUNIT_EXPECT_EQ_MSG(test, r.missed, 0UL, "NMIs that did not arrive");
	KUNIT_EXPECT_EQ(test, r.nmis, (unsigned long)NMI_ROUNDS);
	KUNIT_EXPECT_EQ_MSG(test, t->rose[KMAP_REPORT_CONTEXT], r.nmis, "NMI maps reported");
	KUNIT_EXPECT_EQ(test, t->rose[KMAP_REPORT_COLLISION], 0UL);
	KUNIT_EXPECT_EQ_MSG(test, r.in_irq_slot, 0UL, "NMIs given the interrupt's KM_IRQ0");
	KUNIT_EXPECT_EQ(test, r.nulls, 0UL);
	KUNIT_EXPECT_EQ_MSG(test, r.irq_bad, 0UL, "interrupt reads that saw another page");
	KUNIT_EXPECT_TRUE(test, page_holds(t->page[0], seed_of(t, 0)));
	KUNIT_EXPECT_TRUE(test, page_holds(t->page[1], seed_of(t, 1)));
}

/* An address in the slots is described: slot, CPU, offset, holder or last unmapper. */
static void describe_addresses(struct kunit *test)
{
	struct debug_test *t = test->priv;
	char *held = kunit_kzalloc(test, 256, GFP_KERNEL);
	char *unmapped = kunit_kzalloc(test, 256, GFP_KERNEL);
	char *inside = kunit_kzalloc(test, 256, GFP_KERNEL);
	char want[64], past[64], by[80];
	unsigned int cpu;
	size_t n_held;
	u32 *p;

	KUNIT_ASSERT_NOT_NULL(test, held);
	KUNIT_ASSERT_NOT_NULL(test, unmapped);
	KUNIT_ASSERT_NOT_NULL(test, inside);
	p = kmap_atomic(t->page[0], KM_USER1);
	cpu = smp_processor_id();
	n_held = kmap_atomic_describe((unsigned long)p + PAGE_SIZE + 8, held, 256);
	kunmap_atomic(p, KM_USER1);
	kmap_atomic_describe((unsigned long)p + 0x10, unmapped, 256);
	kmap_atomic_describe((unsigned long)kunit_kzalloc(test, 8, GFP_KERNEL), inside, 256);

	KUNIT_EXPECT_GT(test, n_held, (size_t)0);
	snprintf(want, sizeof(want), "is KM_USER1 on CPU%u + 0x1008: ", cpu);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(held, want), "%s", held);
	snprintf(past, sizeof(past), "8 bytes past the page that %s+", __func__);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(held, past), "%s", held);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(held, "mapped (held, task"), "%s", held);
	snprintf(by, sizeof(by), "+ 0x10: in the page that was unmapped by %s+", __func__);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(unmapped, by), "%s", unmapped);
	KUNIT_EXPECT_STREQ_MSG(test, inside, "", "a slab address is no slot");
}

/*
 * End to end: an overrun into the guard page and a use after unmap, both
 * through copy_from_kernel_nofault(), fault, are fixed up, and are
 * described on the console by the page fault handler.
 */
static void faults_are_described(struct kunit *test)
{
	struct debug_test *t = test->priv;
	long overrun, stale;
	u32 x, *p;

	expect_begin(test, "an overrun and a use after unmap of KM_USER1");
	p = kmap_atomic(t->page[0], KM_USER1);
	overrun = copy_from_kernel_nofault(&x, (char *)p + PAGE_SIZE + 8, sizeof(x));
	kunmap_atomic(p, KM_USER1);
	stale = copy_from_kernel_nofault(&x, p, sizeof(x));
	expect_end(test);

	KUNIT_EXPECT_EQ_MSG(test, overrun, (long)-EFAULT,
			    "the guard page above the slot is mapped");
	KUNIT_EXPECT_EQ_MSG(test, stale, (long)-EFAULT, "the slot still maps after its unmap");
	check_reports(test, KMAP_REPORT_FAULT, 2);
}

static struct kunit_case kmap_atomic_debug_cases[] = {
	KUNIT_CASE(collision_same_context),
	KUNIT_CASE(collision_from_hardirq),
	KUNIT_CASE_PARAM(context_rules, context_gen_params),
	KUNIT_CASE_PARAM(unmap_mismatch, bad_unmap_gen_params),
	KUNIT_CASE(unmap_twice),
	KUNIT_CASE(unmap_in_other_context),
	KUNIT_CASE(invalid_type_at_run_time),
	KUNIT_CASE(leak_from_hardirq),
	KUNIT_CASE(leak_from_softirq),
	KUNIT_CASE(leak_after_lowmem_unmap),
	KUNIT_CASE(leak_past_the_last_spare),
	KUNIT_CASE(use_after_unmap_faults),
	KUNIT_CASE(hot_misuse_hides_no_site),
	KUNIT_CASE_PARAM(correct_26_usage_is_quiet, usage_26_gen_params),
	KUNIT_CASE(nested_collisions_any_order),
	KUNIT_CASE(past_the_last_spare),
	KUNIT_CASE(nmi_while_irq_holds_slot),
	KUNIT_CASE(nested_nmi_level_exit),
	KUNIT_CASE(describe_addresses),
	KUNIT_CASE(faults_are_described),
	{}
};

static struct kunit_suite kmap_atomic_debug_suite = {
	.name = "kmap_atomic_debug",
	.init = debug_test_init,
	.exit = debug_test_exit,
	.test_cases = kmap_atomic_debug_cases,
};

kunit_test_suite(kmap_atomic_debug_suite);

MODULE_DESCRIPTION("KUnit tests for the typed atomic kmap debug checks");
MODULE_LICENSE("GPL");
