// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests that buggy 2.6 code survives in every kernel with the slots,
 * the release kernel included: the mistakes real 2.6 drivers made, run as
 * buggy code runs them, 10,000 times in a loop, in a task, in a tasklet
 * and in a hard interrupt (a hard hrtimer), with no corrective unmap; and
 * the 2.6-correct code that looks like them, which must draw no report.
 *
 * After each: the preemption and page-fault counts and kmap_local's depth
 * are as before, nothing is left held, and a correct map of the same slot
 * gets the named slot with no report. Every 2.6 unmap gave the counts
 * back; here an unmap that stands for a map releases it too, so that
 * nothing piles up, and is reported.
 *
 * The reports are bracketed on the console by KMAP-EXPECT-BEGIN/END lines.
 */
#include <kunit/test.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kmap_atomic_debug.h>
#include <linux/highmem.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "kmap_atomic.h"
#include "kunit_pages.h"
#include "test_contexts.h"
#include "test_pattern.h"

#define LOOPS		10000
#define LOOP_PAGES	8

enum bug {
	WRONG_POINTER,		/* kunmap_atomic(buf, KM_USER0): a lowmem buffer */
	WRONG_TYPE,		/* kmap_atomic(page, KM_USER1); kunmap_atomic(p, KM_USER0) */
	LEAK_WITH_SPARE,	/* the slot and a spare mapped, neither unmapped */
	ONE_ARG_UNMAP,		/* kmap_atomic(page, KM_USER0); kunmap_atomic(p) */
	ONE_ARG_UNMAP_LOWMEM,	/* the same with a lowmem page: 2.6's rule */
	BUG_NR
};

static const char * const bug_names[BUG_NR] = {
	[WRONG_POINTER] = "the wrong pointer unmapped",
	[WRONG_TYPE] = "the wrong type unmapped",
	[LEAK_WITH_SPARE] = "a slot and a spare never unmapped",
	[ONE_ARG_UNMAP] = "a typed map unmapped with kunmap_atomic(addr)",
	[ONE_ARG_UNMAP_LOWMEM] = "a typed lowmem map unmapped with kunmap_atomic(addr)",
};

struct bug_case {
	enum bug bug;
	enum where where;
};

static const struct bug_case bug_cases[] = {
	{ WRONG_POINTER, IN_TASK }, { WRONG_POINTER, IN_TASKLET }, { WRONG_POINTER, IN_HRTIMER },
	{ WRONG_TYPE, IN_TASK }, { WRONG_TYPE, IN_TASKLET }, { WRONG_TYPE, IN_HRTIMER },
	{ LEAK_WITH_SPARE, IN_TASKLET }, { LEAK_WITH_SPARE, IN_HRTIMER },
	{ ONE_ARG_UNMAP, IN_TASK }, { ONE_ARG_UNMAP, IN_TASKLET }, { ONE_ARG_UNMAP, IN_HRTIMER },
	{ ONE_ARG_UNMAP_LOWMEM, IN_TASK }, { ONE_ARG_UNMAP_LOWMEM, IN_TASKLET },
	{ ONE_ARG_UNMAP_LOWMEM, IN_HRTIMER },
};

static void bug_case_desc(const struct bug_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s in %s", bug_names[c->bug],
		 where_names[c->where]);
}

KUNIT_ARRAY_PARAM(bug, bug_cases, bug_case_desc);

struct state {
	int preempt, pagefault, logged, local_depth;
	unsigned long reports;
};

static void state_now(struct state *s)
{
	s->preempt = preempt_count();
	s->pagefault = current->pagefault_disabled;
	s->logged = kmap_atomic_logged_here();
	s->local_depth = current->kmap_ctrl.idx;
	s->reports = kmap_atomic_reports();
}

static u32 seed_of(struct page *page)
{
	return 0x26bad000 ^ page_to_pfn(page);
}

/*
 * Run @fn(@arg) in @where on this CPU (the caller has migration off), to
 * its end, the context's end (and its reclaim) included.
 */
struct ctx_run {
	void (*fn)(void *arg);
	void *arg;
	struct completion done;
	struct tasklet_struct tasklet;
	struct hrtimer timer;
};

static void ctx_tasklet(struct tasklet_struct *tl)
{
	struct ctx_run *c = from_tasklet(c, tl, tasklet);

	c->fn(c->arg);
	complete(&c->done);
}

static enum hrtimer_restart ctx_hrtimer(struct hrtimer *timer)
{
	struct ctx_run *c = container_of(timer, struct ctx_run, timer);

	c->fn(c->arg);
	complete(&c->done);
	return HRTIMER_NORESTART;
}

static void run_in_context(enum where where, void (*fn)(void *arg), void *arg)
{
	struct ctx_run c = { .fn = fn, .arg = arg };

	switch (where) {
	case IN_TASK:
		fn(arg);
		break;
	case IN_TASKLET:
		init_completion(&c.done);
		tasklet_setup(&c.tasklet, ctx_tasklet);
		tasklet_schedule(&c.tasklet);
		wait_for_completion(&c.done);
		tasklet_kill(&c.tasklet);
		break;
	case IN_HRTIMER:
		init_completion(&c.done);
		hrtimer_init(&c.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		c.timer.function = ctx_hrtimer;
		hrtimer_start(&c.timer, ns_to_ktime(1000), HRTIMER_MODE_REL_PINNED_HARD);
		wait_for_completion(&c.done);
		hrtimer_cancel(&c.timer);
		break;
	case WHERE_NR:
		break;
	}
}

/* What a run saw, in the context it ran in. */
struct bug_run {
	const struct bug_case *c;
	struct page *pages[LOOP_PAGES];
	u32 *buf;			/* lowmem: what the wrong pointer points at */
	unsigned int runs;		/* iterations: LOOPS, or 1 for a leak */
	struct state before, after, final;
	unsigned int lost;		/* maps that did not show their page */
	bool named[2];			/* correct maps afterwards got the named slots */
	bool correct_ok;		/* and showed their pages */
	unsigned int logged;		/* this CPU's log entries after the loop */
};

static void run_bug(void *arg)
{
	struct bug_run *r = arg;
	enum km_type a = slot_pair[r->c->where][0], b = slot_pair[r->c->where][1];
	unsigned int i, cpu = smp_processor_id();
	u32 *p, *q;

	state_now(&r->before);
	for (i = 0; i < r->runs; i++) {
		struct page *page = r->pages[i % LOOP_PAGES];

		switch (r->c->bug) {
		case WRONG_POINTER:
			p = kmap_atomic(page, a);
			r->buf[i % LOOP_PAGES] = *p;
			r->lost += r->buf[i % LOOP_PAGES] != seed_of(page);
			kunmap_atomic(r->buf, a);
			break;
		case WRONG_TYPE:
			p = kmap_atomic(page, b);
			r->lost += *p != seed_of(page);
			kunmap_atomic(p, a);
			break;
		case LEAK_WITH_SPARE:
			p = kmap_atomic(page, a);
			q = kmap_atomic(r->pages[1], a);	/* a collision: a spare */
			r->lost += *p != seed_of(page);
			r->lost += *q != seed_of(r->pages[1]);
			break;
		case ONE_ARG_UNMAP:
			p = kmap_atomic(page, a);
			r->lost += *p != seed_of(page);
			kunmap_atomic(p);
			break;
		case ONE_ARG_UNMAP_LOWMEM:
			q = kmap_atomic(virt_to_page(r->buf), a);
			r->lost += (unsigned long)q != ((unsigned long)r->buf & PAGE_MASK);
			kunmap_atomic(q);
			break;
		case BUG_NR:
			break;
		}
	}
	state_now(&r->after);
	if (r->c->bug == LEAK_WITH_SPARE)
		return;		/* the correct maps run in the next one */
	r->logged = kmap_atomic_logged();
	p = kmap_atomic(r->pages[0], a);
	q = kmap_atomic(r->pages[1], b);
	r->named[0] = (unsigned long)p == kmap_atomic_slot_addr(cpu, a);
	r->named[1] = (unsigned long)q == kmap_atomic_slot_addr(cpu, b);
	r->correct_ok = *p == seed_of(r->pages[0]) && *q == seed_of(r->pages[1]);
	kunmap_atomic(q, b);
	kunmap_atomic(p, a);
	state_now(&r->final);
}

/* Run @r in its context on this CPU, to its end, the context's end included. */
static void run_in(struct bug_run *r)
{
	run_in_context(r->c->where, run_bug, r);
}

/* Correct code draws no report in either flavor; each misuse at least one. */
static void expect_reports(struct kunit *test, unsigned long rose, unsigned long n,
			   const char *what)
{
	if (IS_ENABLED(CONFIG_DEBUG_KMAP_ATOMIC) && n)
		KUNIT_EXPECT_GE_MSG(test, rose, n, "reports after %s", what);
	else
		KUNIT_EXPECT_EQ_MSG(test, rose, n, "reports after %s", what);
}

static void expect_same(struct kunit *test, const struct state *a, const struct state *b,
			const char *what)
{
	KUNIT_EXPECT_EQ_MSG(test, b->preempt, a->preempt, "preempt_count() after %s", what);
	KUNIT_EXPECT_EQ_MSG(test, b->pagefault, a->pagefault,
			    "page-fault-disable count after %s", what);
	KUNIT_EXPECT_EQ_MSG(test, b->logged, a->logged, "the map log's length after %s", what);
	KUNIT_EXPECT_EQ_MSG(test, b->local_depth, a->local_depth,
			    "kmap_local's depth after %s", what);
}

static void seed_pages(struct page *pages[LOOP_PAGES])
{
	unsigned int i;

	for (i = 0; i < LOOP_PAGES; i++) {
		u32 *p;

		pages[i] = test_page(HIGHMEM_BELOW_4G, i);
		p = kmap_local_page(pages[i]);
		*p = seed_of(pages[i]);
		kunmap_local(p);
	}
}

/*
 * The bug, LOOPS times in its context with no corrective unmap; then a
 * correct map of both slots, in a second run of the context for a leak.
 */
static void buggy_loop(struct kunit *test)
{
	const struct bug_case *c = test->param_value;
	struct bug_run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct state task_before, task_after;
	unsigned long misuses;

	need_kind(test, HIGHMEM_BELOW_4G);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->buf = kunit_kzalloc(test, LOOP_PAGES * sizeof(u32), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->buf);
	r->c = c;
	r->runs = c->bug == LEAK_WITH_SPARE ? 1 : LOOPS;
	seed_pages(r->pages);

	/* Pinned: an interrupt's slots are this CPU's, and so are the checks. */
	migrate_disable();
	state_now(&task_before);
	pr_info("KMAP-EXPECT-BEGIN %s in %s\n", bug_names[c->bug], where_names[c->where]);
	run_in(r);
	pr_info("KMAP-EXPECT-END %s in %s\n", bug_names[c->bug], where_names[c->where]);
	if (c->bug == LEAK_WITH_SPARE) {
		/* Reclaimed as the context ended: a correct run finds it all free. */
		const struct bug_case correct = { WRONG_TYPE, c->where };

		r->c = &correct;
		r->runs = 0;
		run_in(r);
		r->c = c;
	}
	state_now(&task_after);
	migrate_enable();

	/* The one-argument unmap of a lowmem map is 2.6's rule: no report. */
	/* A leak: the collision, and each map where the context ends. */
	misuses = c->bug == LEAK_WITH_SPARE ? 3 : c->bug == ONE_ARG_UNMAP_LOWMEM ? 0 : LOOPS;
	KUNIT_EXPECT_EQ_MSG(test, r->lost, 0U, "maps that did not show their page");
	if (c->bug == LEAK_WITH_SPARE) {
		/* The collision, and the reclaim of what the context left held. */
		expect_reports(test, r->before.reports - task_before.reports, misuses,
			       "the collision and the leak");
		/* The task the next run interrupted, after the reclaim. */
		KUNIT_EXPECT_EQ_MSG(test, r->before.pagefault, 0,
				    "page-fault count the leak left behind");
	} else if (c->bug == ONE_ARG_UNMAP_LOWMEM) {
		/*
		 * Upstream's unmap gave the counts back and left the entry, which
		 * owes none: each map drops the one before, so one is left, which
		 * the next map drops.
		 */
		struct state want = r->before;

		want.logged++;
		expect_reports(test, r->after.reports - r->before.reports, 0, bug_names[c->bug]);
		expect_same(test, &want, &r->after, bug_names[c->bug]);
		KUNIT_EXPECT_EQ_MSG(test, r->logged, 1U, "entries the one-argument unmaps left");
	} else {
		expect_reports(test, r->after.reports - r->before.reports, misuses,
			       bug_names[c->bug]);
		expect_same(test, &r->before, &r->after, bug_names[c->bug]);
	}
	expect_same(test, &task_before, &task_after, "the context ended");
	if (c->bug != ONE_ARG_UNMAP_LOWMEM)
		KUNIT_EXPECT_EQ_MSG(test, r->logged, 0U,
				    "maps still in this CPU's logs afterwards");
	KUNIT_EXPECT_TRUE_MSG(test, r->named[0], "a correct map of %s did not get its slot",
			      kmap_atomic_slot_name(slot_pair[c->where][0]));
	KUNIT_EXPECT_TRUE_MSG(test, r->named[1], "a correct map of %s did not get its slot",
			      kmap_atomic_slot_name(slot_pair[c->where][1]));
	KUNIT_EXPECT_TRUE_MSG(test, r->correct_ok, "the correct maps do not show their pages");
	expect_reports(test, r->final.reports - r->after.reports, 0,
		       "correct maps after the misuse");
	if (c->bug == ONE_ARG_UNMAP_LOWMEM) {
		struct state want = r->after;

		want.logged--;	/* the entry left, dropped by the first map */
		expect_same(test, &want, &r->final, "correct maps after the misuse");
	} else {
		expect_same(test, &r->after, &r->final, "correct maps after the misuse");
	}
}

/* Does @p map @page still? Read safely: a lost mapping faults. */
static bool shows(const u32 *p, struct page *page)
{
	return !faults(p) && *p == seed_of(page);
}

/*
 * 2.6-correct code that a wrong-pointer rule could mistake for a bug. The
 * lowmem map takes no slot, so each is legal with highmem pages anywhere.
 */
enum pattern {
	NESTED_LOWMEM,		/* inside a highmem KM_USER1, a lowmem KM_USER1 map and unmap */
	COPY_USER_HIGHPAGE,	/* lowmem KM_USER0, highmem KM_USER1, KM_USER0 unmapped first */
	/* highmem USER0, USER1; USER0 unmapped; a lowmem USER1 map and unmap */
	OUT_OF_ORDER_THEN_NESTED,
	/* copy_user_highpage() from lowmem, then a lowmem KM_USER1 inside the KM_USER1 */
	COPY_THEN_NESTED,
	/* today's forms beside: a one-argument map unmapped under a typed one */
	ONE_ARG_UNMAPPED_FIRST,
	/* a pagefault_disable() enabled again under a typed map */
	PAGEFAULT_ENABLED_FIRST,
	PATTERN_NR
};

static const char * const pattern_names[PATTERN_NR] = {
	[NESTED_LOWMEM] = "a lowmem KM_USER1 inside a highmem one",
	[COPY_USER_HIGHPAGE] = "copy_user_highpage() from lowmem, KM_USER0 unmapped first",
	[OUT_OF_ORDER_THEN_NESTED] = "an out-of-order unmap, then a lowmem map of a held type",
	[COPY_THEN_NESTED] = "a lowmem KM_USER0 unmapped under KM_USER1, then a lowmem KM_USER1",
	[ONE_ARG_UNMAPPED_FIRST] = "one-argument map unmapped under KM_USER1, then lowmem KM_USER1",
	[PAGEFAULT_ENABLED_FIRST] = "pagefault_enable() under KM_USER1, then a lowmem KM_USER1",
};

static const enum pattern patterns[] = {
	NESTED_LOWMEM, COPY_USER_HIGHPAGE, OUT_OF_ORDER_THEN_NESTED, COPY_THEN_NESTED,
	ONE_ARG_UNMAPPED_FIRST, PAGEFAULT_ENABLED_FIRST,
};

static void pattern_desc(const enum pattern *p, char *desc)
{
	strscpy(desc, pattern_names[*p], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pattern, patterns, pattern_desc);

static void correct_26_code(struct kunit *test)
{
	enum pattern pat = *(const enum pattern *)test->param_value;
	struct bug_run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct page *low = test_page(LOWMEM, 0);
	struct state before, after;
	bool kept = false;
	u32 *h0 = NULL, *h1 = NULL, *l;

	need_kind(test, HIGHMEM_BELOW_4G);
	KUNIT_ASSERT_NOT_NULL(test, r);
	seed_pages(r->pages);

	state_now(&before);
	switch (pat) {
	case NESTED_LOWMEM:
		h1 = kmap_atomic(r->pages[1], KM_USER1);
		l = kmap_atomic(low, KM_USER1);
		kunmap_atomic(l, KM_USER1);
		kept = shows(h1, r->pages[1]);
		kunmap_atomic(h1, KM_USER1);
		break;
	case COPY_USER_HIGHPAGE:
		l = kmap_atomic(low, KM_USER0);
		h1 = kmap_atomic(r->pages[1], KM_USER1);
		*h1 = seed_of(r->pages[1]);
		kunmap_atomic(l, KM_USER0);
		kept = shows(h1, r->pages[1]);
		kunmap_atomic(h1, KM_USER1);
		break;
	case OUT_OF_ORDER_THEN_NESTED:
		h0 = kmap_atomic(r->pages[0], KM_USER0);
		h1 = kmap_atomic(r->pages[1], KM_USER1);
		kunmap_atomic(h0, KM_USER0);
		l = kmap_atomic(low, KM_USER1);
		kunmap_atomic(l, KM_USER1);
		kept = shows(h1, r->pages[1]);
		kunmap_atomic(h1, KM_USER1);
		break;
	case COPY_THEN_NESTED:
		l = kmap_atomic(low, KM_USER0);
		h1 = kmap_atomic(r->pages[1], KM_USER1);
		kunmap_atomic(l, KM_USER0);
		l = kmap_atomic(low, KM_USER1);
		kunmap_atomic(l, KM_USER1);
		kept = shows(h1, r->pages[1]);
		kunmap_atomic(h1, KM_USER1);
		break;
	case ONE_ARG_UNMAPPED_FIRST:
		h0 = kmap_atomic(r->pages[0]);
		h1 = kmap_atomic(r->pages[1], KM_USER1);
		kunmap_atomic(h0);
		l = kmap_atomic(low, KM_USER1);
		kunmap_atomic(l, KM_USER1);
		kept = shows(h1, r->pages[1]);
		kunmap_atomic(h1, KM_USER1);
		break;
	case PAGEFAULT_ENABLED_FIRST:
		pagefault_disable();
		h1 = kmap_atomic(r->pages[1], KM_USER1);
		pagefault_enable();
		l = kmap_atomic(low, KM_USER1);
		kunmap_atomic(l, KM_USER1);
		kept = shows(h1, r->pages[1]);
		kunmap_atomic(h1, KM_USER1);
		break;
	case PATTERN_NR:
		break;
	}
	state_now(&after);

	KUNIT_EXPECT_TRUE_MSG(test, kept, "the highmem KM_USER1 map lost its page");
	expect_reports(test, after.reports - before.reports, 0, pattern_names[pat]);
	expect_same(test, &before, &after, pattern_names[pat]);
	KUNIT_EXPECT_TRUE_MSG(test, faults(h1), "KM_USER1 still maps a page after its unmap");
}

/*
 * A lowmem pointer passed with the type of a highmem map, under a lowmem
 * map of another type: it stands for the newest map of its type (no
 * lowmem map has it), which is released and reported, and faults from
 * then on; the lowmem map's own unmap is correct. Nothing is left behind:
 * the next map gets the named slot, with no report.
 */
static void wrong_pointer_takes_its_types_map(struct kunit *test)
{
	struct bug_run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	void *slab = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct state before, released, after;
	bool named, shows, gone;
	unsigned int logged;
	u32 *p, *q;
	void *l;

	need_kind(test, HIGHMEM_BELOW_4G);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, slab);
	seed_pages(r->pages);

	preempt_disable();	/* the slots are this CPU's */
	state_now(&before);
	pr_info("KMAP-EXPECT-BEGIN a wrong pointer under a lowmem map of another type\n");
	p = kmap_atomic(r->pages[0], KM_USER0);
	l = kmap_atomic(virt_to_page(slab), KM_USER1);
	kunmap_atomic(slab, KM_USER0);	/* KM_USER0's map is the one it stands for */
	kunmap_atomic(l, KM_USER1);
	pr_info("KMAP-EXPECT-END a wrong pointer under a lowmem map of another type\n");
	state_now(&released);
	gone = faults(p);
	q = kmap_atomic(r->pages[1], KM_USER0);
	named = (unsigned long)q == kmap_atomic_slot_addr(smp_processor_id(), KM_USER0);
	shows = *q == seed_of(r->pages[1]);
	kunmap_atomic(q, KM_USER0);
	state_now(&after);
	logged = kmap_atomic_logged();
	preempt_enable();

	KUNIT_EXPECT_PTR_EQ(test, (void *)p, (void *)q);
	expect_reports(test, released.reports - before.reports, 1, "the wrong pointer");
	expect_same(test, &before, &released, "the wrong pointer and the lowmem unmap");
	KUNIT_EXPECT_TRUE_MSG(test, gone, "KM_USER0 still maps its page after the wrong pointer");
	KUNIT_EXPECT_TRUE_MSG(test, named, "the next map did not get the named slot");
	KUNIT_EXPECT_TRUE_MSG(test, shows, "the next map does not show its page");
	expect_reports(test, after.reports - released.reports, 0, "the next map and unmap");
	expect_same(test, &released, &after, "the next map and unmap");
	KUNIT_EXPECT_EQ_MSG(test, logged, 0U, "maps still in this CPU's logs");
}

/*
 * A lowmem pointer passed with another type than the only map, a highmem
 * one: no map has the type, none is lowmem, so it stands for the newest
 * map, which is released and reported (2.6 gave its counts back and left
 * it mapped). Correct code after it draws no report, and the end of the
 * context finds nothing.
 */
static void wrong_pointer_and_type_then_correct_code(struct kunit *test)
{
	void *slab = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct state before, released, correct, after;
	struct page *pages[LOOP_PAGES];
	u32 *p, *l;
	bool gone;

	need_kind(test, HIGHMEM_BELOW_4G);
	KUNIT_ASSERT_NOT_NULL(test, slab);
	seed_pages(pages);

	preempt_disable();
	state_now(&before);
	pr_info("KMAP-EXPECT-BEGIN the wrong pointer and type, then correct code\n");
	p = kmap_atomic(pages[0], KM_USER0);
	kunmap_atomic(slab, KM_USER1);	/* the wrong pointer and type */
	pr_info("KMAP-EXPECT-END the wrong pointer and type, then correct code\n");
	state_now(&released);
	gone = faults(p);
	l = kmap_atomic(test_page(LOWMEM, 0), KM_USER0);
	kunmap_atomic(l, KM_USER0);
	state_now(&correct);
	kmap_atomic_check_leaks(KMAP_END_SYSCALL);
	state_now(&after);
	preempt_enable();

	expect_reports(test, released.reports - before.reports, 1, "the wrong pointer and type");
	expect_same(test, &before, &released, "the wrong pointer and type");
	KUNIT_EXPECT_TRUE_MSG(test, gone, "KM_USER0 still maps its page after its release");
	expect_reports(test, correct.reports - released.reports, 0,
		       "a correct lowmem map and unmap");
	expect_same(test, &released, &correct, "a correct lowmem map and unmap");
	expect_reports(test, after.reports - correct.reports, 0, "the context's end");
	expect_same(test, &correct, &after, "the context's end");
}

/*
 * A hard interrupt that unmaps a lowmem pointer twice: the second stands
 * for no map of the interrupt's, and the counts there are the task's it
 * interrupted, which holds KM_USER0: reported, and nothing given back.
 * The interrupt's map is a lowmem one (the first unmap is 2.6's rule), or
 * a highmem KM_IRQ0, the newest map, which the first unmap (of KM_IRQ1)
 * releases, reported.
 */
struct irq_double {
	struct hrtimer timer;
	struct page *page;	/* what the interrupt maps */
	void *low;		/* the lowmem pointer it unmaps */
	bool done;
};

static enum hrtimer_restart double_lowmem_unmap(struct hrtimer *timer)
{
	struct irq_double *d = container_of(timer, struct irq_double, timer);

	kmap_atomic(d->page, KM_IRQ0);	/* its unmaps are the lowmem pointer's */
	kunmap_atomic(d->low, KM_IRQ1);
	kunmap_atomic(d->low, KM_IRQ1);
	WRITE_ONCE(d->done, true);
	return HRTIMER_NORESTART;
}

static const char * const irq_maps[] = { "a lowmem map", "a highmem map" };

static void irq_map_desc(const char * const *name, char *desc)
{
	strscpy(desc, *name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(irq_map, irq_maps, irq_map_desc);

static void irq_unmap_takes_no_task_counts(struct kunit *test)
{
	bool left = test->param_value != &irq_maps[0];
	struct bug_run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct page *low = test_page(LOWMEM, 0);
	struct irq_double d = { .page = low, .low = page_address(low) };
	struct state held, after;
	bool kept;
	u32 *p;

	need_kind(test, HIGHMEM_BELOW_4G);
	KUNIT_ASSERT_NOT_NULL(test, r);
	seed_pages(r->pages);
	if (left)
		d.page = r->pages[1];
	hrtimer_init(&d.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	d.timer.function = double_lowmem_unmap;

	pr_info("KMAP-EXPECT-BEGIN an interrupt unmaps a lowmem pointer twice\n");
	p = kmap_atomic(r->pages[0], KM_USER0);
	state_now(&held);
	/* Interrupts on: the timer comes here, on this CPU, while we hold it. */
	hrtimer_start(&d.timer, ns_to_ktime(1000), HRTIMER_MODE_REL_PINNED_HARD);
	while (!READ_ONCE(d.done))
		cpu_relax();
	state_now(&after);
	kept = shows(p, r->pages[0]);
	kunmap_atomic(p, KM_USER0);
	pr_info("KMAP-EXPECT-END an interrupt unmaps a lowmem pointer twice\n");
	hrtimer_cancel(&d.timer);

	expect_reports(test, after.reports - held.reports, left ? 2 : 1,
		       "the interrupt's second unmap");
	expect_same(test, &held, &after, "the interrupt's unmaps");
	KUNIT_EXPECT_TRUE_MSG(test, kept, "the task's KM_USER0 lost its page");
}

/*
 * Collisions past every spare a task may take: the map that finds none
 * gets NULL, a report, and its counts back; nothing reaches kmap_local,
 * whose own maps still work.
 */
#define MAX_MAPS	(KM_SPARE_SLOTS + 2)

static void collisions_until_null(struct kunit *test)
{
	struct bug_run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	u32 **p = kunit_kcalloc(test, MAX_MAPS, sizeof(*p), GFP_KERNEL);
	struct state before, at_null, after;
	unsigned int i, n, nulled, lost = 0, reserve_ok = 0;
	void *local[4];

	need_kind(test, HIGHMEM_BELOW_4G);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, p);
	seed_pages(r->pages);

	state_now(&before);
	pr_info("KMAP-EXPECT-BEGIN collisions until NULL\n");
	for (n = 0; n < MAX_MAPS; n++) {
		p[n] = kmap_atomic(r->pages[n % LOOP_PAGES], KM_USER0);
		if (!p[n])
			break;
		lost += *p[n] != seed_of(r->pages[n % LOOP_PAGES]);
	}
	state_now(&at_null);
	nulled = n;
	/* The task's own kmap_local maps still have room. */
	for (i = 0; i < ARRAY_SIZE(local); i++) {
		local[i] = kmap_local_page(r->pages[i]);
		reserve_ok += *(u32 *)local[i] == seed_of(r->pages[i]);
	}
	while (i--)
		kunmap_local(local[i]);
	while (n--)
		kunmap_atomic(p[n], KM_USER0);
	pr_info("KMAP-EXPECT-END collisions until NULL\n");
	state_now(&after);

	KUNIT_ASSERT_EQ_MSG(test, nulled, 1U + KM_SPARE_SLOTS - KM_NMI_SPARES,
			    "maps before the NULL one: the slot and a task's spares");
	KUNIT_EXPECT_EQ_MSG(test, at_null.pagefault, before.pagefault + (int)nulled,
			    "page-fault-disable count with the maps before the NULL one held");
	KUNIT_EXPECT_EQ_MSG(test, lost, 0U, "maps that did not show their page");
	KUNIT_EXPECT_EQ_MSG(test, reserve_ok, (unsigned int)ARRAY_SIZE(local),
			    "kmap_local_page() maps after the NULL");
	expect_same(test, &before, &after, "every map unmapped");
}

/*
 * A seeded random tester of the whole state machine: runs of random
 * operations, correct and buggy, in a task, a tasklet and a hard hrtimer
 * in turn, checked against a model after every step. The model is the
 * context's map log: each map in order, a lowmem map (no slot) or a
 * mapping (named slot or spare) with its type, page and address. From it
 * alone each step's effect is predicted:
 *
 *   map:           a lowmem page is appended; a highmem one gets its named
 *                  slot if free, else a spare, else NULL (so does any map
 *                  with the log full)
 *   unmap:         a map's own address: the newest map there (of the type,
 *                  if one is: lowmem maps share an address) goes, unless
 *                  the type is wrong and the mapping below it in memory
 *                  has that type (the address is that one's end pointer);
 *                  reported for a mapping of another type
 *   wrong pointer: a lowmem or vmalloc address: the newest lowmem map of
 *                  the type, else the newest map of the type, else the
 *                  newest lowmem map, else the newest map; reported
 *                  unless a lowmem address takes a lowmem map
 *   double unmap:  a named slot's address unmapped already: the mapping
 *                  whose end it is if that has the type, else nothing
 *   unmap of nothing: nothing changes
 *
 * After every step: the counts are the model's, every mapping shows its
 * page, and the reports rose by one for a misuse (by at least one with the
 * debug checks) and not at all for correct code. A run ends with its
 * mappings unmapped, or, in a tasklet or an interrupt, left for the
 * context's end to release; the next run first maps its slots correctly
 * and must get them, with no report. A failure names the seed, the run
 * and the step. kmap_atomic_survive_kunit.random_ops sets the number of
 * operations (make matrix runs more).
 */
static unsigned int random_ops = 100000;
module_param(random_ops, uint, 0444);
MODULE_PARM_DESC(random_ops, "operations of the random state-machine test");

static u64 random_seed = 26;
module_param(random_seed, ullong, 0444);
MODULE_PARM_DESC(random_seed, "seed of the random state-machine test");

#define RUN_OPS		64
#define STACK_MAX	(KM_LOG_NR + 8)

enum entry_kind { LOWMEM_MAP, NAMED, SPARE };

struct entry {
	enum entry_kind kind;
	enum km_type type;
	struct page *page;
	void *addr;
};

struct random_run {
	struct rnd_state rnd;
	enum where where;
	unsigned int run, ops, step;
	bool leak;			/* this run leaves its maps to its context's end */
	struct page *pages[LOOP_PAGES];
	struct page *low;
	u32 *buf;
	void *vm;
	void *stale;			/* a named slot's address, unmapped */
	enum km_type stale_type;
	struct entry stack[STACK_MAX];
	unsigned int n;
	int preempt0, pagefault0, local0;
	unsigned long reports;
	char failure[160];		/* the first failure */
	const char *history[8];		/* the last steps, for a failure */
};

/* On the first failure: the last steps, the model and the log. */
static void dump_run(struct random_run *r)
{
	const struct kmap_atomic_level_log *log;
	unsigned int i;

	log = raw_cpu_ptr(&kmap_atomic_log[kmap_atomic_log_level()]);
	for (i = 0; i < ARRAY_SIZE(r->history); i++)
		pr_info("kmap_atomic_survive: step %d: %s\n", (int)r->step - (int)i,
			r->history[(r->step - i) % ARRAY_SIZE(r->history)] ?: "-");
	for (i = 0; i < r->n; i++)
		pr_info("kmap_atomic_survive: model %u: kind %d %s %p\n", i, r->stack[i].kind,
			kmap_atomic_slot_name(r->stack[i].type), r->stack[i].addr);
	for (i = 0; i < log->n; i++)
		pr_info("kmap_atomic_survive: log %u: slot %u %s\n", i, log->slot[i],
			kmap_atomic_slot_name(log->type[i]));
}

static __printf(2, 3) void fail(struct random_run *r, const char *fmt, ...)
{
	va_list args;
	int n;

	if (r->failure[0])
		return;
	n = scnprintf(r->failure, sizeof(r->failure), "seed %llu run %u step %u in %s: ",
		      random_seed, r->run, r->step, where_names[r->where]);
	va_start(args, fmt);
	vscnprintf(r->failure + n, sizeof(r->failure) - n, fmt, args);
	va_end(args);
	dump_run(r);
}

static unsigned int pick(struct random_run *r, unsigned int n)
{
	return prandom_u32_state(&r->rnd) % n;
}

static int kind_of(const void *addr, enum km_type type)
{
	unsigned int cpu = smp_processor_id();
	unsigned long a = (unsigned long)addr;

	if (a == kmap_atomic_slot_addr(cpu, type))
		return NAMED;
	if (a >= kmap_atomic_slot_addr(cpu, KM_TYPE_NR + KM_SPARE_SLOTS - 1) &&
	    a <= kmap_atomic_slot_addr(cpu, KM_TYPE_NR))
		return SPARE;
	return -1;
}

static unsigned int count_kind(struct random_run *r, enum entry_kind kind, enum km_type type)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->n; i++)
		n += r->stack[i].kind == kind && (kind != NAMED || r->stack[i].type == type);
	return n;
}

/* What the model says a highmem map of @type gets now. */
static int predict_map(struct random_run *r, enum km_type type)
{
	if (!count_kind(r, NAMED, type))
		return NAMED;
	if (count_kind(r, SPARE, 0) < KM_SPARE_SLOTS - KM_NMI_SPARES)
		return SPARE;
	return -1;	/* NULL */
}

/* The entry a wrong pointer unmapped as @type stands for: see kmap_atomic_pick(). */
static int model_rank(struct random_run *r, enum km_type type)
{
	int i, best = -1, rank = 0;

	for (i = r->n - 1; i >= 0; i--) {
		int k = 1 + (r->stack[i].kind == LOWMEM_MAP) + 2 * (r->stack[i].type == type);

		if (k > rank) {
			rank = k;
			best = i;
		}
	}
	return best;
}

/* As kmap_atomic_pick()'s entry_at(): the newest entry at @addr, of @type if one is. */
static int model_at(struct random_run *r, unsigned long addr, enum km_type type, bool slots)
{
	int i, found = -1;

	for (i = r->n - 1; i >= 0; i--) {
		if ((unsigned long)r->stack[i].addr != addr ||
		    (slots && r->stack[i].kind == LOWMEM_MAP))
			continue;
		if (r->stack[i].type == type)
			return i;
		if (found < 0)
			found = i;
	}
	return found;
}

static void remove_entry(struct random_run *r, unsigned int i)
{
	memmove(&r->stack[i], &r->stack[i + 1], (r->n - i - 1) * sizeof(r->stack[0]));
	r->n--;
}

static void check_state(struct random_run *r, unsigned long misuses, const char *op)
{
	unsigned long rose = kmap_atomic_reports() - r->reports;
	unsigned int i;

	r->history[r->step % ARRAY_SIZE(r->history)] = op;
	if (current->pagefault_disabled != r->pagefault0 + (int)r->n)
		fail(r, "%s: page-fault count %d, model %d", op,
		     current->pagefault_disabled, r->pagefault0 + r->n);
	if (preempt_count() != r->preempt0 + (int)r->n)
		fail(r, "%s: preempt_count() %#x, model %#x", op, preempt_count(),
		     r->preempt0 + r->n);
	if (IS_ENABLED(CONFIG_DEBUG_KMAP_ATOMIC) && misuses ? rose < misuses : rose != misuses)
		fail(r, "%s: %lu reports, model %lu", op, rose, misuses);
	for (i = 0; i < r->n; i++) {
		const struct entry *e = &r->stack[i];

		/* Read safely: a mapping the kernel released where the model did not faults. */
		if (e->kind != LOWMEM_MAP && !shows(e->addr, e->page))
			fail(r, "%s: the mapping of %s at %p lost its page", op,
			     kmap_atomic_slot_name(e->type), e->addr);
	}
	r->reports = kmap_atomic_reports();
}

static void random_step(struct random_run *r)
{
	enum km_type type = slot_pair[r->where][pick(r, 2)];
	unsigned int op = pick(r, 16);
	struct entry e = { .type = type };
	int want, i, below;
	bool misuse;

	if (op < 6) {					/* map */
		bool low = !pick(r, 4);

		e.page = low ? r->low : r->pages[pick(r, LOOP_PAGES)];
		want = r->n >= KM_LOG_NR ? -1 : low ? LOWMEM_MAP : predict_map(r, type);
		e.addr = kmap_atomic(e.page, type);
		if (want < 0) {
			if (e.addr)
				fail(r, "map of %s: %p, model NULL",
				     kmap_atomic_slot_name(type), e.addr);
			check_state(r, 1, "a map with no room left");
			return;
		}
		e.kind = low ? LOWMEM_MAP : kind_of(e.addr, type);
		if (e.kind != want)
			fail(r, "map of %s: kind %d, model %d", kmap_atomic_slot_name(type),
			     e.kind, want);
		r->stack[r->n++] = e;
		check_state(r, want != LOWMEM_MAP && want != NAMED, "map");
	} else if (op < 11 && r->n) {			/* unmap a map by its address */
		e = r->stack[pick(r, r->n)];
		if (pick(r, 3))
			type = e.type;
		/* The newest at the address, of the type if one is (lowmem maps share one). */
		i = model_at(r, (unsigned long)e.addr, type, false);
		/* A wrong type, and the mapping whose end this is has it: that one. */
		below = e.kind == LOWMEM_MAP ? -1 :
			model_at(r, (unsigned long)e.addr - PAGE_SIZE, type, true);
		/* Another map's type, not a lowmem one's: reported. */
		misuse = r->stack[i].type != type && r->stack[i].kind != LOWMEM_MAP;
		/* An end pointer: reported. */
		if (r->stack[i].type != type && below >= 0 && r->stack[below].type == type)
			i = below;
		kunmap_atomic(e.addr, type);
		e = r->stack[i];
		remove_entry(r, i);
		if (e.kind == NAMED) {
			r->stale = e.addr;
			r->stale_type = e.type;
		}
		check_state(r, misuse, !misuse ? "unmap" : "unmap, wrong type");
	} else if (op < 13 && r->n) {			/* a lowmem or vmalloc pointer */
		bool low = pick(r, 2);

		i = model_rank(r, type);
		e = r->stack[i];
		kunmap_atomic(low ? (void *)r->buf : r->vm, type);
		remove_entry(r, i);
		check_state(r, !(low && e.kind == LOWMEM_MAP), "a wrong pointer");
	} else if (op == 13 && r->stale && model_at(r, (unsigned long)r->stale, 0, false) < 0) {
		/* The end of the slot below it, only if that one has the type. */
		i = model_at(r, (unsigned long)r->stale - PAGE_SIZE, r->stale_type, true);
		if (i >= 0 && r->stack[i].type != r->stale_type)
			i = -1;
		kunmap_atomic(r->stale, r->stale_type);
		if (i >= 0)
			remove_entry(r, i);
		check_state(r, 1, i >= 0 ? "double unmap, an end pointer" : "double unmap");
	} else if (op == 14 && !r->n) {
		kunmap_atomic(pick(r, 2) ? (void *)r->buf : r->vm, type);
		check_state(r, 1, "unmap of nothing");
	}
}

static void random_run_here(void *arg)
{
	struct random_run *r = arg;
	enum km_type a = slot_pair[r->where][0], b = slot_pair[r->where][1];
	unsigned int cpu = smp_processor_id();
	u32 *p, *q;

	r->preempt0 = preempt_count();
	r->pagefault0 = current->pagefault_disabled;
	r->local0 = current->kmap_ctrl.idx;
	r->reports = kmap_atomic_reports();
	r->n = 0;
	r->stale = NULL;
	/*
	 * An interrupted task (idle, ksoftirqd) holds no count of its own:
	 * one here is what a reclaim at the last interrupt's end left.
	 */
	if (r->where != IN_TASK && r->pagefault0)
		fail(r, "the task an interrupt ran on has page faults disabled %d times",
		     r->pagefault0);
	r->leak = r->where != IN_TASK && pick(r, 2);
	/* Whatever the last run left: its slots are free, and no report. */
	p = kmap_atomic(r->pages[0], a);
	q = kmap_atomic(r->pages[1], b);
	if ((unsigned long)p != kmap_atomic_slot_addr(cpu, a) ||
	    (unsigned long)q != kmap_atomic_slot_addr(cpu, b))
		fail(r, "after run %u, correct maps did not get the named slots", r->run - 1);
	kunmap_atomic(q, b);
	kunmap_atomic(p, a);
	check_state(r, 0, "correct maps after the last run");
	for (r->step = 0; r->step < r->ops && !r->failure[0]; r->step++)
		random_step(r);
	/* Unwind, or leave it to the context's end; a task unwinds. */
	if (!r->leak) {
		while (r->n) {
			struct entry *e = &r->stack[r->n - 1];

			kunmap_atomic(e->addr, e->type);
			r->n--;
		}
		check_state(r, 0, "unwinding");
		if (current->kmap_ctrl.idx != r->local0)
			fail(r, "kmap_local's depth %d after unwinding, was %d",
			     current->kmap_ctrl.idx, r->local0);
	}
	/*
	 * After a failure the model no longer knows what the log holds: what
	 * is left goes as at a context's end, so that the case ends (a task
	 * left holding counts would hang it) and reports its failure.
	 */
	if (r->failure[0])
		kmap_atomic_check_leaks(KMAP_END_KTHREAD);
}

static void random_sequences(struct kunit *test)
{
	struct random_run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct state before, after;
	unsigned int done_ops = 0, outstanding;

	need_kind(test, HIGHMEM_BELOW_4G);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	r->vm = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, r->buf);
	KUNIT_ASSERT_NOT_NULL(test, r->vm);
	prandom_seed_state(&r->rnd, random_seed);
	seed_pages(r->pages);
	r->low = test_page(LOWMEM, 0);
	kunit_info(test, "seed %llu, %u operations", random_seed, random_ops);

	migrate_disable();
	state_now(&before);
	pr_info("KMAP-EXPECT-BEGIN random state machine\n");
	for (r->run = 0; done_ops < random_ops && !r->failure[0]; r->run++) {
		r->where = r->run % WHERE_NR;
		r->ops = min(RUN_OPS, random_ops - done_ops);
		run_in_context(r->where, random_run_here, r);
		done_ops += r->ops;
	}
	pr_info("KMAP-EXPECT-END random state machine\n");
	state_now(&after);
	outstanding = kmap_atomic_logged();
	migrate_enable();
	vfree(r->vm);

	KUNIT_EXPECT_STREQ(test, r->failure, "");
	expect_same(test, &before, &after, "the random runs");
	KUNIT_EXPECT_EQ_MSG(test, outstanding, 0U, "maps still held after the last run");
	kunit_info(test, "%u operations in %u runs", done_ops, r->run);
}

static struct kunit_case kmap_atomic_survive_cases[] = {
	KUNIT_CASE_PARAM(buggy_loop, bug_gen_params),
	KUNIT_CASE_PARAM(correct_26_code, pattern_gen_params),
	KUNIT_CASE(wrong_pointer_takes_its_types_map),
	KUNIT_CASE(wrong_pointer_and_type_then_correct_code),
	KUNIT_CASE_PARAM(irq_unmap_takes_no_task_counts, irq_map_gen_params),
	KUNIT_CASE(collisions_until_null),
	KUNIT_CASE(random_sequences),
	{}
};

static struct kunit_suite kmap_atomic_survive_suite = {
	.name = "kmap_atomic_survive",
	.suite_init = test_chunks_get,
	.suite_exit = test_chunks_put,
	.test_cases = kmap_atomic_survive_cases,
};

kunit_test_suite(kmap_atomic_survive_suite);

MODULE_DESCRIPTION("KUnit tests that buggy 2.6 code of typed atomic kmaps survives");
MODULE_LICENSE("GPL");
