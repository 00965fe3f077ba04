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

#define WORDS (PAGE_SIZE / sizeof(u32))

static void fill(u32 *p, u32 seed)
{
	unsigned int i;

	for (i = 0; i < WORDS; i++)
		p[i] = seed + i;
}

static bool holds(const u32 *p, u32 seed)
{
	unsigned int i;

	for (i = 0; i < WORDS; i++)
		if (p[i] != seed + i)
			return false;
	return true;
}

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

/* Does page @n hold @seed's pattern? Read through a kmap_local mapping. */
static bool page_holds(struct debug_test *t, unsigned int n, u32 seed)
{
	u32 *p = kmap_local_page(t->page[n]);
	bool ok = holds(p, seed);

	kunmap_local(p);
	return ok;
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
	KUNIT_EXPECT_TRUE(test, page_holds(t, 1, 0xbeef));
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
	KUNIT_EXPECT_TRUE(test, page_holds(t, 1, 0xd00d));
}

/* Each slot class from each context: reported exactly when it breaks the rule. */
enum where { IN_TASK, IN_TASK_BH_OFF, IN_TASK_IRQS_OFF, IN_HARDIRQ, IN_SOFTIRQ };

static const char * const where_names[] = {
	[IN_TASK] = "task", [IN_TASK_BH_OFF] = "task, bottom halves off",
	[IN_TASK_IRQS_OFF] = "task, interrupts off", [IN_HARDIRQ] = "hard interrupt",
	[IN_SOFTIRQ] = "tasklet",
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
	bool ok;
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
	case IN_SOFTIRQ:
		init_completion(&r.done);
		tasklet_setup(&r.tasklet, context_tasklet);
		tasklet_schedule(&r.tasklet);
		wait_for_completion(&r.done);
		tasklet_kill(&r.tasklet);
		break;
	}
	expect_end(test);
	check_reports(test, KMAP_REPORT_CONTEXT, c->reported);
	KUNIT_EXPECT_TRUE_MSG(test, r.ok, "the mapping does not show the page");
}

/*
 * Unmaps that do not match what is held change nothing: the mapping stays
 * valid and the counts stay where the map put them, until the right unmap.
 */
enum bad_unmap { FOREIGN_POINTER, OTHER_SLOT_ADDRESS, WRONG_TYPE };

static const char * const bad_unmap_names[] = {
	[FOREIGN_POINTER] = "kunmap_atomic() given a foreign pointer (the bio, say)",
	[OTHER_SLOT_ADDRESS] = "kunmap_atomic() given another slot's address",
	[WRONG_TYPE] = "kunmap_atomic() with the wrong type",
};

static const enum bad_unmap bad_unmaps[] = { FOREIGN_POINTER, OTHER_SLOT_ADDRESS, WRONG_TYPE };

static void bad_unmap_desc(const enum bad_unmap *b, char *desc)
{
	strscpy(desc, bad_unmap_names[*b], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad_unmap, bad_unmaps, bad_unmap_desc);

static void unmap_mismatch(struct kunit *test)
{
	enum bad_unmap how = *(const enum bad_unmap *)test->param_value;
	void *bio = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct debug_test *t = test->priv;
	int before = preempt_count();
	int held_after_bad, after_good;
	bool valid_after_bad;
	u32 *p;

	KUNIT_ASSERT_NOT_NULL(test, bio);
	p = kmap_atomic(t->page[0], KM_USER0);
	expect_begin(test, bad_unmap_names[how]);
	if (how == FOREIGN_POINTER)
		kunmap_atomic(bio, KM_USER0);
	else if (how == OTHER_SLOT_ADDRESS)
		/* Fixmap addresses go down as the index goes up: KM_USER0 - 1. */
		kunmap_atomic((char *)p + PAGE_SIZE, KM_USER0);
	else
		kunmap_atomic(p, KM_USER1);
	expect_end(test);
	held_after_bad = preempt_count() - before;
	valid_after_bad = holds(p, seed_of(t, 0));
	kunmap_atomic(p, KM_USER0);
	after_good = preempt_count() - before;

	check_reports(test, KMAP_REPORT_WRONG_ADDRESS, 1);
	KUNIT_EXPECT_EQ_MSG(test, held_after_bad, 1, "the bad unmap changed the preemption count");
	KUNIT_EXPECT_TRUE_MSG(test, valid_after_bad, "the bad unmap took the mapping");
	KUNIT_EXPECT_EQ(test, after_good, 0);
	KUNIT_EXPECT_TRUE(test, preemptible());
	KUNIT_EXPECT_FALSE(test, pagefault_disabled());
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

/* A context that ends holding a slot: reported, reclaimed, counts restored. */
struct leaker {
	struct page *page;
	struct completion done;
	struct irq_work work;
	struct tasklet_struct tasklet;
	enum km_type type;
};

static void leak_in_irq(struct irq_work *work)
{
	struct leaker *l = container_of(work, struct leaker, work);

	(void)kmap_atomic(l->page, l->type);
	complete(&l->done);
}

static void leak_in_tasklet(struct tasklet_struct *tl)
{
	struct leaker *l = from_tasklet(l, tl, tasklet);

	(void)kmap_atomic(l->page, l->type);
	complete(&l->done);
}

struct leak_result {
	struct leaker l;
	bool hardirq;
	int preempt_after;
	bool pte_cleared;
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
	void *p;
	unsigned int level;

	init_completion(&l->done);
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
	preempt_disable();
	vaddr = kmap_atomic_slot_addr(smp_processor_id(), l->type);
	r->pte_cleared = !pte_present(ptep_get(lookup_address(vaddr, &level)));
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

static void leak_check(struct kunit *test, bool hardirq, enum km_type type, const char *what)
{
	struct debug_test *t = test->priv;
	struct leak_result r = { .hardirq = hardirq, .l = { .page = t->page[0], .type = type } };

	expect_begin(test, what);
	KUNIT_ASSERT_EQ(test, smp_call_on_cpu(raw_smp_processor_id(), leak_on_cpu, &r, false), 0);
	expect_end(test);
	check_reports(test, KMAP_REPORT_LEAK, 1);
	KUNIT_EXPECT_EQ_MSG(test, r.preempt_after, 0,
			    "the leak's preemption count was not restored");
	KUNIT_EXPECT_TRUE_MSG(test, r.pte_cleared, "the reclaimed slot still maps the page");
	KUNIT_EXPECT_EQ_MSG(test, r.collisions, 0UL, "the reclaimed slot is still held");
}

static void leak_from_hardirq(struct kunit *test)
{
	leak_check(test, true, KM_IRQ0, "a hard interrupt returns holding KM_IRQ0");
}

static void leak_from_softirq(struct kunit *test)
{
	leak_check(test, false, KM_SOFTIRQ1, "a tasklet returns holding KM_SOFTIRQ1");
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

/* A hot misuse is counted every time, however few reports are printed. */
static void hot_misuse_counted(struct kunit *test)
{
	struct debug_test *t = test->priv;
	unsigned int i;
	u32 *p;

	p = kmap_atomic(t->page[0], KM_USER0);
	kunmap_atomic(p, KM_USER0);
	expect_begin(test, "1000 double unmaps, rate-limited");
	for (i = 0; i < 1000; i++)
		kunmap_atomic(p, KM_USER0);
	expect_end(test);
	check_reports(test, KMAP_REPORT_NOT_HELD, 1000);
	KUNIT_EXPECT_TRUE(test, preemptible());
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
	KUNIT_CASE(use_after_unmap_faults),
	KUNIT_CASE(hot_misuse_counted),
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
