// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the map log's invariant against buggy 2.6 code, in a
 * kernel without the slots (KMAP_ATOMIC_SLOTS=n, every PREEMPT_RT
 * kernel), where the typed forms map through kmap_local: each mistake run
 * as buggy code runs it, 10,000 times in a task, in a tasklet and in a
 * hard hrtimer that fires while the task holds a one-argument
 * kmap_atomic(), with no corrective call. After each: the preemption,
 * migration and page-fault counts, kmap_local's depth and the log's length
 * are as before, every map showed its page, the outer mappings (a
 * kmap_local_page() held around the loop, the task's one-argument map)
 * still show theirs, and a correct pair of maps afterwards gets its pages
 * with no report.
 *
 * The reports are bracketed on the console by KMAP-EXPECT-BEGIN/END lines.
 */
#include <kunit/test.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/highmem.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "kmap_atomic.h"
#include "kunit_pages.h"
#include "test_contexts.h"

#define LOOPS		10000

enum bug {
	WRONG_KMALLOC,		/* kunmap_atomic(kmalloc'd buf, KM_USER0) */
	WRONG_VMALLOC,		/* kunmap_atomic(vmalloc'd buf, KM_USER0) */
	WRONG_STATIC,		/* kunmap_atomic(static buf, KM_USER0): module data */
	END_POINTER,		/* kunmap_atomic(p + PAGE_SIZE, KM_USER0) */
	TWO_IN_MAP_ORDER,	/* two maps, two wrong pointers unmapped in map order */
	WRONG_POINTER_AND_TYPE,	/* kmap_atomic(h, KM_USER0); kunmap_atomic(buf, KM_USER1) */
	END_POINTER_UNDER_LOCAL, /* the end pointer, under an outer kmap_local_page() */
	WRONG_OUTER_LOCAL,	/* an outer kmap_local_page()'s pointer unmapped */
	ONE_ARG_MAP,		/* kmap_atomic(page); kunmap_atomic(p, KM_USER0) */
	LOWMEM_ONE_ARG_UNMAP,	/* kmap_atomic(lowmem, KM_USER0); kunmap_atomic(p) */
	UNMAP_TWICE,		/* the first of two maps unmapped twice, in map order */
	WRONG_ONE_ARG_UNMAP,	/* kmap_atomic(h, KM_USER0); kunmap_atomic(buf) */
	KUNMAP_LOCAL,		/* kmap_atomic(h, KM_USER0); kunmap_local(p) */
	LOWMEM_RULE_OVER_HIGHMEM, /* correct 2.6: a lowmem pointer for a lowmem map */
	UNDER_A_LOCK,		/* correct: mapped under a lock, unmapped after it */
	PAGEFAULTS_INTERLEAVED,	/* correct: page faults enabled between map and unmap */
	BUG_NR
};

static const char * const bug_names[BUG_NR] = {
	[WRONG_KMALLOC] = "a kmalloc() pointer unmapped",
	[WRONG_VMALLOC] = "a vmalloc() pointer unmapped",
	[WRONG_STATIC] = "a static buffer's pointer unmapped",
	[END_POINTER] = "the end pointer unmapped",
	[TWO_IN_MAP_ORDER] = "two wrong pointers unmapped in map order",
	[WRONG_POINTER_AND_TYPE] = "the wrong pointer and the wrong type unmapped",
	[END_POINTER_UNDER_LOCAL] = "the end pointer unmapped under kmap_local_page()",
	[WRONG_OUTER_LOCAL] = "an outer kmap_local_page()'s pointer unmapped",
	[ONE_ARG_MAP] = "a one-argument map unmapped with the typed form",
	[LOWMEM_ONE_ARG_UNMAP] = "a typed lowmem map unmapped with kunmap_atomic(addr)",
	[UNMAP_TWICE] = "the first of two maps unmapped twice",
	[WRONG_ONE_ARG_UNMAP] = "a typed map unmapped with kunmap_atomic(wrong pointer)",
	[KUNMAP_LOCAL] = "a typed map unmapped with kunmap_local()",
	[LOWMEM_RULE_OVER_HIGHMEM] = "correct 2.6 code: the lowmem rule under a highmem map",
	[UNDER_A_LOCK] = "correct code: mapped under a lock, unmapped after the unlock",
	[PAGEFAULTS_INTERLEAVED] = "correct code: page faults enabled between map and unmap",
};

/* Reports per round: every misuse once; 2.6's lowmem rule none. */
static const unsigned int bug_reports[BUG_NR] = {
	[WRONG_KMALLOC] = 1, [WRONG_VMALLOC] = 1, [WRONG_STATIC] = 1, [END_POINTER] = 1,
	[TWO_IN_MAP_ORDER] = 2, [WRONG_POINTER_AND_TYPE] = 1, [END_POINTER_UNDER_LOCAL] = 1,
	[WRONG_OUTER_LOCAL] = 1, [ONE_ARG_MAP] = 1, [LOWMEM_ONE_ARG_UNMAP] = 0,
	[UNMAP_TWICE] = 1, [WRONG_ONE_ARG_UNMAP] = 1, [KUNMAP_LOCAL] = 1, [UNDER_A_LOCK] = 0,
	[LOWMEM_RULE_OVER_HIGHMEM] = 0,
	[PAGEFAULTS_INTERLEAVED] = 0,
};

struct bug_case {
	enum bug bug;
	enum where where;
};

static struct bug_case bug_cases[BUG_NR * WHERE_NR];

static void bug_case_desc(struct bug_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s in %s", bug_names[c->bug],
		 where_names[c->where]);
}

KUNIT_ARRAY_PARAM(bug, bug_cases, bug_case_desc);

/* A module's own data, in the vmalloc area where modules live on x86-32. */
static u32 static_buf[16];

struct state {
	int preempt, pagefault, migrate, local_depth, log_len;
	unsigned long reports, printed;
};

static void state_now(struct state *s)
{
	s->preempt = preempt_count();
	s->pagefault = current->pagefault_disabled;
#ifdef CONFIG_SMP
	s->migrate = current->migration_disabled;
#endif
	s->local_depth = current->kmap_ctrl.idx;
#if defined(CONFIG_KMAP_ATOMIC_ANY_ORDER) && !defined(CONFIG_KMAP_ATOMIC_SLOTS)
	s->log_len = current->kmap_ctrl.typed_log.n;
#endif
	s->reports = kmap_atomic_reports();
	s->printed = kmap_atomic_reports_printed();
}

static u32 seed_of(struct page *page)
{
	return 0x26106000 ^ page_to_pfn(page);
}

static void seed(struct page *page)
{
	u32 *p = kmap_local_page(page);

	*p = seed_of(page);
	kunmap_local(p);
}

struct bug_run {
	const struct bug_case *c;
	struct page *high[2], *outer[2], *low;
	u32 *buf;			/* the wrong pointer */
	u32 *outer_addr[2];		/* kmap_local_page() held around the loop */
	struct state start, before, first, after, final;
	unsigned int lost;		/* maps that did not show their page */
	unsigned int miscounted;	/* unmaps that gave back other than one map */
	raw_spinlock_t lock;
	struct task_struct *ran_in;	/* the task a tasklet ran on */
	bool outer_kept;		/* the outer kmap_local_page() kept its page */
	bool correct_ok;		/* a correct pair afterwards showed its pages */
	unsigned long correct_reports;	/* and was reported */
	struct completion done;
	struct tasklet_struct tasklet;
	struct hrtimer timer;
	bool fired;
};

/* One round of the bug with the context's slot pair @a, @b. */
static void one_round(struct bug_run *r, enum km_type a, enum km_type b)
{
	struct page *h = r->high[0], *h2 = r->high[1];
	int pf = current->pagefault_disabled;
	unsigned long flags;
	u32 *p, *q;

	switch (r->c->bug) {
	case WRONG_KMALLOC:
	case WRONG_VMALLOC:
	case WRONG_STATIC:
		p = kmap_atomic(h, a);
		r->lost += !p || *p != seed_of(h);
		r->buf[0] = 0x26;
		kunmap_atomic(r->buf, a);
		break;
	case END_POINTER:
	case END_POINTER_UNDER_LOCAL:
		p = kmap_atomic(h, a);
		r->lost += !p || *p != seed_of(h);
		kunmap_atomic((char *)p + PAGE_SIZE, a);
		break;
	case TWO_IN_MAP_ORDER:
		p = kmap_atomic(h, a);
		q = kmap_atomic(h2, b);
		r->lost += !p || !q || *p != seed_of(h) || *q != seed_of(h2);
		kunmap_atomic(r->buf, a);
		r->miscounted += current->pagefault_disabled != pf + 1;
		kunmap_atomic(r->buf, b);
		break;
	case WRONG_POINTER_AND_TYPE:
		p = kmap_atomic(h, a);
		r->lost += !p || *p != seed_of(h);
		kunmap_atomic(r->buf, b);
		break;
	case WRONG_OUTER_LOCAL:
		/* Two outer maps: the first is no end pointer of this map. */
		p = kmap_atomic(h, a);
		r->lost += !p || *p != seed_of(h);
		kunmap_atomic(r->outer_addr[0], a);
		break;
	case ONE_ARG_MAP:
		p = kmap_atomic(h);
		r->lost += *p != seed_of(h);
		kunmap_atomic(p, a);
		break;
	case LOWMEM_ONE_ARG_UNMAP:
		p = kmap_atomic(r->low, a);
		r->lost += p != page_address(r->low);
		kunmap_atomic(p);
		break;
	case WRONG_ONE_ARG_UNMAP:
		p = kmap_atomic(h, a);
		r->lost += !p || *p != seed_of(h);
		kunmap_atomic(r->buf);
		r->miscounted += current->pagefault_disabled != pf;
		break;
	case KUNMAP_LOCAL:
		/* Its counts come back at this context's next typed map or unmap. */
		p = kmap_atomic(h, a);
		r->lost += !p || *p != seed_of(h);
		kunmap_local(p);
		q = kmap_atomic(h2, b);
		r->lost += !q || *q != seed_of(h2);
		kunmap_atomic(q, b);
		r->miscounted += current->pagefault_disabled != pf;
		break;
	case LOWMEM_RULE_OVER_HIGHMEM:
		/* 2.6.32's shmem unmapped another lowmem address of the type. */
		q = kmap_atomic(r->low, a);
		p = kmap_atomic(h, a);
		kunmap_atomic(r->buf, a);
		r->lost += !p || q != page_address(r->low) || *p != seed_of(h);
		kunmap_atomic(p, a);
		break;
	case UNDER_A_LOCK:
		/* irqsave: the same lock class in a task, a tasklet and an hrtimer. */
		raw_spin_lock_irqsave(&r->lock, flags);
		p = kmap_atomic(h, a);
		raw_spin_unlock_irqrestore(&r->lock, flags);
		r->lost += !p || *p != seed_of(h);
		kunmap_atomic(p, a);
		break;
	case PAGEFAULTS_INTERLEAVED:
		pagefault_disable();
		p = kmap_atomic(h, a);
		pagefault_enable();
		q = kmap_atomic(r->low, b);
		r->lost += !p || !q || *p != seed_of(h);
		kunmap_atomic(q, b);
		kunmap_atomic(p, a);
		break;
	case UNMAP_TWICE:
		/* The first's address is the end of the second's: never taken for it. */
		p = kmap_atomic(h, a);
		q = kmap_atomic(h2, b);
		r->lost += !p || !q || *p != seed_of(h);
		kunmap_atomic(p, a);
		kunmap_atomic(p, a);
		r->miscounted += current->pagefault_disabled != pf + 1;
		r->lost += !q || *q != seed_of(h2);
		kunmap_atomic(q, b);
		break;
	case BUG_NR:
		break;
	}
}

/* The bug LOOPS times, then a correct pair of maps, in the context it runs in. */
static void run_bug(struct bug_run *r)
{
	enum km_type a = slot_pair[r->c->where][0], b = slot_pair[r->c->where][1];
	bool outer = r->c->bug == END_POINTER_UNDER_LOCAL || r->c->bug == WRONG_OUTER_LOCAL;
	unsigned long reports;
	unsigned int i;
	u32 *p, *q;

	state_now(&r->start);
	if (outer) {
		r->outer_addr[0] = kmap_local_page(r->outer[0]);
		r->outer_addr[1] = kmap_local_page(r->outer[1]);
	}
	state_now(&r->before);
	for (i = 0; i < LOOPS; i++) {
		one_round(r, a, b);
		if (!i)
			state_now(&r->first);
	}
	state_now(&r->after);
	if (outer) {
		r->outer_kept = *r->outer_addr[0] == seed_of(r->outer[0]) &&
				*r->outer_addr[1] == seed_of(r->outer[1]);
		kunmap_local(r->outer_addr[1]);
		kunmap_local(r->outer_addr[0]);
	}
	reports = kmap_atomic_reports();
	p = kmap_atomic(r->high[0], a);
	q = kmap_atomic(r->high[1], b);
	r->correct_ok = p && q && *p == seed_of(r->high[0]) && *q == seed_of(r->high[1]);
	if (q)
		kunmap_atomic(q, b);
	if (p)
		kunmap_atomic(p, a);
	r->correct_reports = kmap_atomic_reports() - reports;
	state_now(&r->final);
}

static void bug_tasklet(struct tasklet_struct *tl)
{
	struct bug_run *r = from_tasklet(r, tl, tasklet);

	r->ran_in = current;
	run_bug(r);
	complete(&r->done);
}

/*
 * Run a tasklet on this task: scheduled with bottom halves off, it runs as
 * they come back on, here, so that what its end releases is checked on the
 * counts of the task it ran on. The caller kills it (tasklet_kill() may
 * sleep: not under a map). Return: whether it ran here.
 */
static bool tasklet_here(struct tasklet_struct *t, struct completion *done,
			 struct task_struct *const *ran_in)
{
	bool here;

	local_bh_disable();
	tasklet_schedule(t);
	local_bh_enable();
	/* Done here already: no wait, which might sleep under the task's own map. */
	here = try_wait_for_completion(done);
	if (!here)
		wait_for_completion(done);
	return here && *ran_in == current;
}

static enum hrtimer_restart bug_hrtimer(struct hrtimer *timer)
{
	struct bug_run *r = container_of(timer, struct bug_run, timer);

	run_bug(r);
	WRITE_ONCE(r->fired, true);
	return HRTIMER_NORESTART;
}

/*
 * The hard hrtimer fires while the task holds a one-argument
 * kmap_atomic(): it must come back to its page and its counts.
 */
static void run_under_one_arg_map(struct kunit *test, struct bug_run *r, struct page *page)
{
	struct state held, back;
	u32 *held_map;

	hrtimer_init(&r->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	r->timer.function = bug_hrtimer;
	held_map = kmap_atomic(page);
	state_now(&held);
	hrtimer_start(&r->timer, ns_to_ktime(1000), HRTIMER_MODE_REL_PINNED_HARD);
	while (!READ_ONCE(r->fired))
		cpu_relax();
	state_now(&back);
	KUNIT_EXPECT_EQ_MSG(test, *held_map, seed_of(page),
			    "the task's one-argument map lost its page to the interrupt");
	kunmap_atomic(held_map);
	hrtimer_cancel(&r->timer);
	KUNIT_EXPECT_EQ_MSG(test, back.preempt, held.preempt,
			    "the task's preempt_count() after the interrupt");
	KUNIT_EXPECT_EQ_MSG(test, back.pagefault, held.pagefault,
			    "the task's page-fault count after the interrupt");
	KUNIT_EXPECT_EQ_MSG(test, back.local_depth, held.local_depth,
			    "the task's kmap_local depth after the interrupt");
}

static void expect_same(struct kunit *test, const struct state *a, const struct state *b,
			const char *what)
{
	KUNIT_EXPECT_EQ_MSG(test, b->preempt, a->preempt, "preempt_count() after %s", what);
	KUNIT_EXPECT_EQ_MSG(test, b->pagefault, a->pagefault,
			    "page-fault-disable count after %s", what);
	KUNIT_EXPECT_EQ_MSG(test, b->migrate, a->migrate, "migration-disable count after %s",
			    what);
	KUNIT_EXPECT_EQ_MSG(test, b->local_depth, a->local_depth,
			    "kmap_local's depth after %s", what);
	KUNIT_EXPECT_EQ_MSG(test, b->log_len, a->log_len, "the map log's length after %s", what);
}

/* The map log of the slots is not built yet: these cases run without them. */
static void need_log(struct kunit *test)
{
	if (IS_ENABLED(CONFIG_KMAP_ATOMIC_SLOTS) || !IS_ENABLED(CONFIG_KMAP_ATOMIC_ANY_ORDER))
		kunit_skip(test, "for kernels without the slots, with KMAP_ATOMIC_ANY_ORDER");
}

static void buggy_loop(struct kunit *test)
{
	const struct bug_case *c = test->param_value;
	struct bug_run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct state task_before, task_after;
	void *vbuf = NULL;

	need_log(test);
	need_kind(test, HIGHMEM_BELOW_4G);
	KUNIT_ASSERT_NOT_NULL(test, r);
	if (IS_ENABLED(CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP) &&
	    (c->bug == LOWMEM_ONE_ARG_UNMAP || c->bug == LOWMEM_RULE_OVER_HIGHMEM))
		kunit_skip(test, "kmap_local maps lowmem here (DEBUG_KMAP_LOCAL_FORCE_MAP)");
	r->c = c;
	raw_spin_lock_init(&r->lock);
	r->high[0] = test_page(HIGHMEM_BELOW_4G, 1);
	r->high[1] = test_page(HIGHMEM_BELOW_4G, 2);
	r->outer[0] = test_page(HIGHMEM_BELOW_4G, 3);
	r->outer[1] = test_page(HIGHMEM_BELOW_4G, 5);
	r->low = test_page(LOWMEM, 1);
	seed(r->high[0]);
	seed(r->high[1]);
	seed(r->outer[0]);
	seed(r->outer[1]);
	seed(test_page(HIGHMEM_BELOW_4G, 4));
	switch (c->bug) {
	case WRONG_VMALLOC:
		vbuf = vmalloc(PAGE_SIZE);
		r->buf = vbuf;
		break;
	case WRONG_STATIC:
		r->buf = static_buf;
		break;
	default:
		r->buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
		break;
	}
	KUNIT_ASSERT_NOT_NULL(test, r->buf);

	/* Pinned: an interrupt's maps go on this task's kmap_local stack. */
	migrate_disable();
	state_now(&task_before);
	pr_info("KMAP-EXPECT-BEGIN %s in %s\n", bug_names[c->bug], where_names[c->where]);
	switch (c->where) {
	case IN_TASK:
		run_bug(r);
		break;
	case IN_TASKLET:
		init_completion(&r->done);
		tasklet_setup(&r->tasklet, bug_tasklet);
		KUNIT_EXPECT_TRUE_MSG(test, tasklet_here(&r->tasklet, &r->done, &r->ran_in),
				      "the tasklet ran on ksoftirqd: its end is not checked");
		tasklet_kill(&r->tasklet);
		break;
	case IN_HRTIMER:
		run_under_one_arg_map(test, r, test_page(HIGHMEM_BELOW_4G, 4));
		break;
	case WHERE_NR:
		break;
	}
	pr_info("KMAP-EXPECT-END %s in %s\n", bug_names[c->bug], where_names[c->where]);
	state_now(&task_after);
	migrate_enable();
	vfree(vbuf);

	KUNIT_EXPECT_EQ_MSG(test, r->lost, 0U, "maps that did not show their page");
	KUNIT_EXPECT_EQ_MSG(test, r->miscounted, 0U,
			    "unmaps that gave back other than one map's counts");
	KUNIT_EXPECT_EQ_MSG(test, r->after.reports - r->before.reports,
			    (unsigned long)LOOPS * bug_reports[c->bug],
			    "reports after %s", bug_names[c->bug]);
	/* Each call site prints once: a misuse in a loop floods nothing. */
	KUNIT_EXPECT_LE_MSG(test, r->after.printed - r->before.printed,
			    (unsigned long)bug_reports[c->bug],
			    "reports printed after %s", bug_names[c->bug]);
	KUNIT_EXPECT_EQ_MSG(test, r->after.printed - r->first.printed, 0UL,
			    "reports printed again by the call sites of the first round");
	expect_same(test, &r->before, &r->after, bug_names[c->bug]);
	if (c->bug == END_POINTER_UNDER_LOCAL || c->bug == WRONG_OUTER_LOCAL)
		KUNIT_EXPECT_TRUE_MSG(test, r->outer_kept,
				      "the outer kmap_local_page() maps lost their pages");
	KUNIT_EXPECT_TRUE_MSG(test, r->correct_ok, "a correct pair of maps afterwards");
	KUNIT_EXPECT_EQ_MSG(test, r->correct_reports, 0UL,
			    "reports of the correct pair of maps afterwards");
	expect_same(test, &r->start, &r->final, "the correct pair");
	expect_same(test, &task_before, &task_after, "the context ended");
}

/*
 * A leak in a loop: maps of this context never unmapped. The maps past
 * this context's share of kmap_local's stack get NULL (never kmap_local's
 * BUG()), and the context's end releases every one and gives back their
 * counts, down to where the context began: not the map of the task it
 * came on, which keeps its page, its entry and its counts.
 */
struct leak_run {
	struct page *page;
	enum km_type type;
	unsigned int mapped, refused, lost;
	struct state before, after;
	struct task_struct *ran_in;
	struct completion done;
	struct tasklet_struct tasklet;
};

static void leak_loop(struct leak_run *l)
{
	unsigned int i;
	u32 *p;

	state_now(&l->before);
	for (i = 0; i < 2 * KM_MAX_IDX; i++) {
		p = kmap_atomic(l->page, l->type);
		if (!p) {
			l->refused++;
			continue;
		}
		l->mapped++;
		l->lost += *p != seed_of(l->page);
	}
	state_now(&l->after);
}

static void leak_tasklet(struct tasklet_struct *tl)
{
	struct leak_run *l = from_tasklet(l, tl, tasklet);

	l->ran_in = current;
	leak_loop(l);
	complete(&l->done);
}

static void leak_released_where_the_context_ends(struct kunit *test)
{
	struct leak_run l = { .page = test_page(HIGHMEM_BELOW_4G, 6), .type = KM_SOFTIRQ0 };
	struct page *task_page = test_page(HIGHMEM_BELOW_4G, 7);
	struct state before, held, after;
	bool task_map_kept;
	u32 *task_map;

	need_log(test);
	need_kind(test, HIGHMEM_BELOW_4G);
	seed(l.page);
	seed(task_page);
	migrate_disable();
	state_now(&before);
	task_map = kmap_atomic(task_page, KM_USER0);
	state_now(&held);
	init_completion(&l.done);
	tasklet_setup(&l.tasklet, leak_tasklet);
	pr_info("KMAP-EXPECT-BEGIN maps never unmapped in a tasklet\n");
	KUNIT_EXPECT_TRUE_MSG(test, tasklet_here(&l.tasklet, &l.done, &l.ran_in),
			      "the tasklet ran on ksoftirqd: its end is not checked");
	pr_info("KMAP-EXPECT-END maps never unmapped in a tasklet\n");
	task_map_kept = *task_map == seed_of(task_page);
	state_now(&after);
	expect_same(test, &held, &after, "the tasklet that leaked ended");
	kunmap_atomic(task_map, KM_USER0);
	tasklet_kill(&l.tasklet);
	state_now(&after);
	migrate_enable();

	KUNIT_EXPECT_EQ_MSG(test, l.lost, 0U, "maps that did not show their page");
	KUNIT_EXPECT_GT_MSG(test, l.refused, 0U, "no map was refused: the leak has no bound");
	KUNIT_EXPECT_LE_MSG(test, l.after.local_depth - l.before.local_depth,
			    KM_MAX_IDX / 2, "kmap_local entries the leak took");
	KUNIT_EXPECT_TRUE_MSG(test, task_map_kept,
			      "the task's map under the tasklet lost its page at the tasklet's end");
	/* Each refusal and each map the context's end released was reported. */
	KUNIT_EXPECT_EQ_MSG(test, after.reports - before.reports,
			    (unsigned long)(l.refused + l.mapped), "reports of the leak");
	/* One call site, two kinds (refused, released at the end): each printed once. */
	KUNIT_EXPECT_EQ_MSG(test, after.printed - before.printed, 2UL,
			    "reports of the leak printed");
	expect_same(test, &before, &after, "the task's map unmapped");
}

/*
 * A seeded random tester of the map log: runs of random operations,
 * correct and buggy, in a task (half of them under an outer
 * kmap_local_page()), a tasklet, and a hard hrtimer that fires while the
 * task holds a one-argument kmap_atomic(), checked against a model after
 * every step. The model is the run's maps in map order (typed maps of
 * highmem and lowmem pages, one-argument maps) and this CPU's kmap_local
 * stack above where the run began: each entry a map of the run, a typed
 * map released under the top (its marker, popped once it is the top), or
 * DEBUG_KMAP_LOCAL's guard. It predicts, from the model alone:
 *
 *   a typed map:    its address (a marker's entry, else a new top), or
 *                   NULL, reported, past the context's share
 *   a typed unmap:  which map it releases, by kunmap_atomic_any_order()'s
 *                   rule on the model (the address's map, the map whose
 *                   end it is, a released entry or a free one: nothing,
 *                   the one-argument map at the top, else the newest
 *                   lowmem map of the type, of the type, lowmem, any),
 *                   and whether it is reported (2.6's lowmem rule is not)
 *   kunmap_atomic(p) of a typed map: that map; kunmap_local(p) of one:
 *                   its counts come back, reported, at the next typed map
 *   an interrupt:   maps, unmaps a wrong pointer and leaks a map: two
 *                   reports, the task's maps and stack as before
 *
 * The unmaps are given a map's own address under its type or another,
 * its end pointer, a popped map's address, a one-argument map's address,
 * the outer kmap_local_page()'s, and kmalloc'd and vmalloc'd pointers.
 * After every step: the page-fault, preemption and migration counts,
 * kmap_local's depth and the log's length are the model's, every map and
 * the outer one show their pages, and the reports rose by the model's
 * count. A run ends with its maps unmapped, or, in a tasklet or an
 * interrupt, half the time left to its context's end, which releases and
 * reports each. The next run first maps a correct pair, with no report. A
 * failure names the seed, the run and the step; every operation must
 * have run.
 * kmap_atomic_log_kunit.random_ops sets the number of operations (make
 * matrix runs a million).
 */
static unsigned int random_ops = 100000;
module_param(random_ops, uint, 0444);
MODULE_PARM_DESC(random_ops, "operations of the random map-log test");

static u64 random_seed = 26;
module_param(random_seed, ullong, 0444);
MODULE_PARM_DESC(random_seed, "seed of the random map-log test");

#define RUN_OPS		64
#define RUN_PAGES	4
#define OP_NR		19
/* A context's share of kmap_local's stack (mm/kmap_atomic/any_order.c). */
#define LEVEL_ENTRIES	(KM_LOCAL_RESERVE / 2)

/* POPPED: a typed map kunmap_local() released, its counts still owed. */
enum model_kind { TYPED_HIGH, TYPED_LOW, ONE_ARG, POPPED };

struct model_map {
	enum model_kind kind;
	enum km_type type;
	struct page *page;
	u32 *addr;
	int idx;			/* its kmap_local entry; -1 for lowmem */
};

/* An entry of kmap_local's stack, as the model sees it. */
enum model_entry { E_BELOW, E_GUARD, E_MAP, E_MARKER };

struct log_run {
	struct rnd_state rnd;
	enum where where;
	unsigned int run, ops, step;
	bool leak;			/* this run leaves its maps to its context's end */
	struct page *pages[RUN_PAGES], *low, *outer_page;
	u32 *outer;			/* a kmap_local_page() held around a task's run */
	u32 *buf;			/* kmalloc'd: a lowmem wrong pointer */
	void *vm;			/* vmalloc'd: another wrong pointer */
	u32 *stale;			/* a released highmem map's address */
	enum km_type stale_type;
	struct model_map m[KM_MAX_IDX + 4];
	unsigned int n;
	enum model_entry stack[KM_MAX_IDX];
	int idx;			/* the model's kmap_ctrl.idx */
	struct state base;
	unsigned long reports;
	unsigned int owed;		/* reports of POPPED maps the next step gives back */
	unsigned int left;		/* maps left to the context's end */
	struct task_struct *ran_in;
	struct completion done;
	struct tasklet_struct tasklet;
	struct hrtimer timer;
	bool fired;
	bool ran;			/* the step ran: it checked the state */
	unsigned int did[OP_NR];	/* steps run, by operation */
	char failure[160];		/* the first failure */
};

static __printf(2, 3) void fail(struct log_run *r, const char *fmt, ...)
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
}

static unsigned int pick(struct log_run *r, unsigned int n)
{
	return prandom_u32_state(&r->rnd) % n;
}

/* Does @addr show @page (a lowmem map: is it the page's address)? */
static bool shows(const void *addr, struct page *page)
{
	u32 word;

	if (!PageHighMem(page))
		return addr == page_address(page);
	return !get_kernel_nofault(word, (u32 *)addr) && word == seed_of(page);
}

static unsigned int count_kind(struct log_run *r, enum model_kind kind)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->n; i++)
		n += r->m[i].kind == kind;
	return n;
}

/* The model's map of @kind at kmap_local entry @idx, or -1. */
static int model_at(struct log_run *r, int idx, enum model_kind kind)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (r->m[i].kind == kind && r->m[i].idx == idx)
			return i;
	return -1;
}

/* The model's typed map of a highmem page whose page is at @vaddr, or -1. */
static int model_high_at(struct log_run *r, unsigned long vaddr)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (r->m[i].kind == TYPED_HIGH && (unsigned long)r->m[i].addr == vaddr)
			return i;
	return -1;
}

/* kmap_local entry @idx's address on this CPU, as mm/highmem.c numbers them. */
static u32 *local_addr(int idx)
{
	return (u32 *)__fix_to_virt(FIX_KMAP_BEGIN + idx + KM_MAX_IDX * smp_processor_id());
}

/* The entry of this CPU's kmap_local stack @addr is in, or -1. */
static int local_index(const void *addr)
{
	unsigned long a = (unsigned long)addr & PAGE_MASK;
	int idx;

	if (a < __fix_to_virt(FIX_KMAP_END) || a > __fix_to_virt(FIX_KMAP_BEGIN))
		return -1;
	idx = __virt_to_fix(a) - FIX_KMAP_BEGIN - KM_MAX_IDX * smp_processor_id();
	return idx >= 0 && idx < KM_MAX_IDX ? idx : -1;
}

/* A new top entry (DEBUG_KMAP_LOCAL: with its guard under it). */
static int model_push(struct log_run *r)
{
	if (KM_LOCAL_INCR == 2)
		r->stack[r->idx] = E_GUARD;
	r->idx += KM_LOCAL_INCR;
	r->stack[r->idx - 1] = E_MAP;
	return r->idx - 1;
}

/*
 * The map at entry @idx goes: the top is popped, and every marker that
 * comes to the top after it; an entry under the top becomes a marker.
 */
static void model_release_entry(struct log_run *r, int idx)
{
	if (idx != r->idx - 1) {
		r->stack[idx] = E_MARKER;
		return;
	}
	do
		r->idx -= KM_LOCAL_INCR;
	while (r->idx > r->base.local_depth && r->stack[r->idx - 1] == E_MARKER);
}

/* Map @i of the model goes: from the stack if it has an entry, and from the list. */
static void model_release(struct log_run *r, unsigned int i)
{
	if (r->m[i].idx >= 0)
		model_release_entry(r, r->m[i].idx);
	memmove(&r->m[i], &r->m[i + 1], (r->n - i - 1) * sizeof(r->m[0]));
	r->n--;
}

/* The typed map a wrong pointer stands for: lowmem of @type, @type, lowmem, any. */
static int model_by_type(struct log_run *r, enum km_type type)
{
	int i, best = -1, rank = 0;

	for (i = r->n - 1; i >= 0; i--) {
		const struct model_map *m = &r->m[i];
		int k = 1 + (m->kind == TYPED_LOW) + 2 * (m->type == type);

		if ((m->kind == TYPED_HIGH || m->kind == TYPED_LOW) && k > rank) {
			rank = k;
			best = i;
		}
	}
	return best;
}

/*
 * What kunmap_atomic(@addr, @type) releases, by the model: the model
 * map's index, or -1 for nothing; whether it is reported in *@reported.
 */
static int predict_unmap(struct log_run *r, const void *addr, enum km_type type, bool *reported)
{
	unsigned long vaddr = (unsigned long)addr & PAGE_MASK;
	int j = local_index(addr), at, end = -1, i;

	*reported = true;
	/* The address of a map is the end of the map above it: the type says which. */
	at = model_high_at(r, vaddr);
	if (!offset_in_page(addr))
		end = model_high_at(r, vaddr - PAGE_SIZE);
	if (at >= 0 && !(end >= 0 && r->m[at].type != type && r->m[end].type == type)) {
		*reported = r->m[at].type != type;
		return at;
	}
	if (at < 0 && j >= r->base.local_depth && j < r->idx) {
		if (r->stack[j] == E_MARKER)
			return -1;
		if (j == r->idx - 1)
			return model_at(r, j, ONE_ARG);
	}
	if (end >= 0)
		return end;
	if (j >= r->idx)
		return -1;	/* a free entry: unmapped twice */
	i = model_by_type(r, type);
	*reported = !(i >= 0 && kmap_atomic_is_lowmem((unsigned long)addr) &&
		      r->m[i].kind == TYPED_LOW);
	return i;
}

static void check_state(struct log_run *r, unsigned long misuses, const char *op)
{
	unsigned long rose = kmap_atomic_reports() - r->reports;
	int entries = (r->idx - r->base.local_depth) / KM_LOCAL_INCR;
	unsigned int i, rt, typed = r->n - count_kind(r, ONE_ARG);
	struct state s = {};

	state_now(&s);
	if (s.pagefault != r->base.pagefault + (int)r->n)
		fail(r, "%s: page-fault count %d, model %d", op, s.pagefault,
		     r->base.pagefault + r->n);
	/* Each map raises preemption (migration on RT); each kmap_local entry, migration. */
	rt = IS_ENABLED(CONFIG_PREEMPT_RT) ? r->n : 0;
	if ((IS_ENABLED(CONFIG_PREEMPT_COUNT) && s.preempt != r->base.preempt + (int)(r->n - rt)) ||
	    (IS_ENABLED(CONFIG_SMP) && s.migrate != r->base.migrate + entries + (int)rt))
		fail(r, "%s: preempt_count() %#x, migration-disable %d; model %u maps, %d entries",
		     op, s.preempt, s.migrate, r->n, entries);
	if (s.local_depth != r->idx)
		fail(r, "%s: kmap_local's depth %d, model %d", op, s.local_depth, r->idx);
	if (s.log_len != r->base.log_len + (int)typed)
		fail(r, "%s: the log holds %d, model %u", op, s.log_len,
		     r->base.log_len + typed);
	misuses += r->owed;
	r->owed = 0;
	if (rose != misuses)
		fail(r, "%s: %lu reports, model %lu", op, rose, misuses);
	for (i = 0; i < r->n; i++)
		if (r->m[i].kind != POPPED && !shows(r->m[i].addr, r->m[i].page))
			fail(r, "%s: the map of type %u at %p lost its page", op, r->m[i].type,
			     r->m[i].addr);
	if (r->outer && !shows(r->outer, r->outer_page))
		fail(r, "%s: the outer kmap_local_page() lost its page", op);
	r->reports = kmap_atomic_reports();
	r->ran = true;
}

/* A typed map: into this level's highest marker, else a new top; or NULL. */
static void step_map(struct log_run *r, enum km_type type)
{
	bool low = !IS_ENABLED(CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP) && !pick(r, 4);
	unsigned int typed = r->n - count_kind(r, ONE_ARG);
	struct model_map m = { .kind = low ? TYPED_LOW : TYPED_HIGH, .type = type, .idx = -1 };
	u32 *want = NULL;
	bool refused;
	int j;

	m.page = low ? r->low : r->pages[pick(r, RUN_PAGES)];
	refused = r->base.log_len + typed >= KM_MAX_IDX ||
		  (!low && (count_kind(r, TYPED_HIGH) >= LEVEL_ENTRIES ||
			    r->idx + KM_LOCAL_INCR >= KM_MAX_IDX));
	if (!low && !refused) {
		for (j = r->idx - 1; j >= r->base.local_depth && r->stack[j] != E_MARKER; j--)
			;
		if (j >= r->base.local_depth)
			r->stack[j] = E_MAP;
		else
			j = model_push(r);
		m.idx = j;
		want = local_addr(j);
	}
	m.addr = kmap_atomic(m.page, type);
	if (refused) {
		if (m.addr)
			fail(r, "map of type %u: %p, model NULL", type, m.addr);
		check_state(r, 1, "a map past the context's share");
		return;
	}
	if (!m.addr || (!low && m.addr != want)) {
		fail(r, "map of type %u: %p, model %p", type, m.addr, want);
		return;
	}
	r->m[r->n++] = m;
	check_state(r, 0, "map");
}

/* kunmap_atomic(addr, type), as the model predicts it. */
static void step_unmap(struct log_run *r, const void *addr, enum km_type type, const char *op)
{
	bool reported;
	int i = predict_unmap(r, addr, type, &reported);

	kunmap_atomic(addr, type);
	if (i >= 0) {
		if (r->m[i].kind == TYPED_HIGH) {
			r->stale = r->m[i].addr;
			r->stale_type = r->m[i].type;
		}
		model_release(r, i);
	}
	check_state(r, reported, op);
}

static enum hrtimer_restart irq_mid_sequence(struct hrtimer *timer)
{
	struct log_run *r = container_of(timer, struct log_run, timer);
	u32 *p;

	p = kmap_atomic(r->pages[0], KM_IRQ0);
	if (!p || !shows(p, r->pages[0]))
		fail(r, "the interrupt's map did not show its page");
	kunmap_atomic(r->buf, KM_IRQ0);
	/* Left to the interrupt's end, which releases and reports it. */
	p = kmap_atomic(r->pages[1], KM_IRQ1);
	if (!p || !shows(p, r->pages[1]))
		fail(r, "the interrupt's second map did not show its page");
	WRITE_ONCE(r->fired, true);
	return HRTIMER_NORESTART;
}

/* A hard interrupt that misuses and leaks, mid-sequence: two reports. */
static void step_interrupt(struct log_run *r)
{
	hrtimer_init(&r->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	r->timer.function = irq_mid_sequence;
	r->fired = false;
	hrtimer_start(&r->timer, ns_to_ktime(1000), HRTIMER_MODE_REL_PINNED_HARD);
	while (!READ_ONCE(r->fired))
		cpu_relax();
	hrtimer_cancel(&r->timer);
	check_state(r, 2, "an interrupt that misused and leaked");
}

/* The model's one-argument map at kmap_local's top, or -1. */
static int one_arg_at_top(struct log_run *r)
{
	return model_at(r, r->idx - 1, ONE_ARG);
}

static void random_step(struct log_run *r)
{
	enum km_type type = slot_pair[r->where][pick(r, 2)];
	enum km_type other = slot_pair[r->where][type == slot_pair[r->where][0]];
	unsigned int op = pick(r, OP_NR), typed = r->n - count_kind(r, ONE_ARG);
	int i = r->n ? pick(r, r->n) : -1;
	struct model_map m = {};

	if (i >= 0)
		m = r->m[i];
	r->ran = false;
	if (op < 5) {
		step_map(r, type);
	} else if (op == 5 && !r->leak && count_kind(r, ONE_ARG) < 2 &&
		   r->idx + KM_LOCAL_INCR < KM_MAX_IDX) {
		m = (struct model_map){ .kind = ONE_ARG, .type = KM_TYPE_NR };
		m.page = r->pages[pick(r, RUN_PAGES)];
		m.idx = model_push(r);
		m.addr = kmap_atomic(m.page);
		if (m.addr != local_addr(m.idx))
			fail(r, "one-argument map: %p, model %p", m.addr, local_addr(m.idx));
		r->m[r->n++] = m;
		check_state(r, 0, "one-argument map");
	} else if (op < 8 && i >= 0 && m.kind != ONE_ARG) {
		step_unmap(r, m.addr, m.type, "unmap");
	} else if (op == 8 && one_arg_at_top(r) >= 0) {
		i = one_arg_at_top(r);
		kunmap_atomic(r->m[i].addr);
		model_release(r, i);
		check_state(r, 0, "one-argument unmap");
	} else if (op == 9 && i >= 0 && m.kind == TYPED_HIGH) {
		step_unmap(r, m.addr, other, "unmap, wrong type");
	} else if (op == 10 && i >= 0 && m.kind == TYPED_HIGH) {
		step_unmap(r, (char *)m.addr + PAGE_SIZE, m.type, "end pointer");
	} else if (op == 11) {
		step_unmap(r, pick(r, 2) ? r->vm : r->buf, type, "wrong pointer");
	} else if (op == 12 && i >= 0 && m.kind == TYPED_HIGH) {
		kunmap_atomic(m.addr);
		model_release(r, i);
		check_state(r, 1, "a typed map unmapped with kunmap_atomic(addr)");
	} else if (op == 13 && r->stale) {
		step_unmap(r, r->stale, r->stale_type, "a released map's address unmapped");
	} else if (op == 14 && r->where != IN_HRTIMER && r->base.log_len + typed + 2 < KM_MAX_IDX &&
		   r->idx + 2 * KM_LOCAL_INCR < KM_MAX_IDX) {
		step_interrupt(r);
	} else if (op == 15 && !typed) {
		step_unmap(r, r->vm, type, "unmap with no typed map");
	} else if (op == 16 && i >= 0 && m.kind == ONE_ARG) {
		step_unmap(r, m.addr, type, "a one-arg map unmapped with the typed form");
	} else if (op == 17 && i >= 0 && m.kind == TYPED_HIGH && m.idx == r->idx - 1) {
		/* Its counts come back, reported, at this context's next typed map. */
		kunmap_local(m.addr);
		model_release_entry(r, m.idx);
		r->m[i].kind = POPPED;
		r->m[i].idx = -1;
		check_state(r, 0, "a typed map unmapped with kunmap_local()");
		model_release(r, i);
		r->owed = 1;
		step_map(r, type);
	} else if (op == 18 && r->outer) {
		/* Another address: never the outer map, whatever is at the top. */
		step_unmap(r, r->outer, type, "an outer kmap_local_page()'s address unmapped");
	}
	r->did[op] += r->ran;
}

static void random_run_here(struct log_run *r)
{
	enum km_type a = slot_pair[r->where][0], b = slot_pair[r->where][1];
	int i;
	u32 *p, *q;

	state_now(&r->base);
	r->reports = r->base.reports;
	r->idx = r->base.local_depth;
	r->n = 0;
	r->stale = NULL;
	/* Every released entry of this task was popped: none under the run. */
	for (i = KM_LOCAL_INCR - 1; i < current->kmap_ctrl.idx; i += KM_LOCAL_INCR)
		if (!pte_none(current->kmap_ctrl.pteval[i]) &&
		    !pte_present(current->kmap_ctrl.pteval[i]))
			fail(r, "a released kmap_local entry waits as the run begins");
	/* Whatever the last run left is gone: a correct pair, no report. */
	p = kmap_atomic(r->pages[0], a);
	q = kmap_atomic(r->pages[1], b);
	if (!p || !q || !shows(p, r->pages[0]) || !shows(q, r->pages[1]))
		fail(r, "after run %u, a correct pair of maps did not show its pages",
		     r->run - 1);
	if (q)
		kunmap_atomic(q, b);
	if (p)
		kunmap_atomic(p, a);
	check_state(r, 0, "a correct pair after the last run");
	for (r->step = 0; r->step < r->ops && !r->failure[0]; r->step++)
		random_step(r);
	r->left = r->leak ? r->n : 0;
	if (r->leak)
		return;
	/* Unwind: the one-argument map at the top, else the newest typed map. */
	while (r->n && !r->failure[0]) {
		i = one_arg_at_top(r);
		if (i >= 0) {
			u32 *top = r->m[i].addr;

			kunmap_atomic(top);
		} else {
			for (i = r->n - 1; i >= 0 && r->m[i].kind == ONE_ARG; i--)
				;
			if (i < 0) {
				fail(r, "unwinding: a one-argument map under the top");
				return;
			}
			kunmap_atomic(r->m[i].addr, r->m[i].type);
		}
		model_release(r, i);
		check_state(r, 0, "unwinding");
	}
}

static void random_tasklet(struct tasklet_struct *tl)
{
	struct log_run *r = from_tasklet(r, tl, tasklet);

	r->ran_in = current;
	random_run_here(r);
	complete(&r->done);
}

static enum hrtimer_restart random_hrtimer(struct hrtimer *timer)
{
	struct log_run *r = container_of(timer, struct log_run, timer);

	random_run_here(r);
	WRITE_ONCE(r->fired, true);
	return HRTIMER_NORESTART;
}

/* One run in its context; then the task's counts, and what its end released. */
static void random_run(struct log_run *r)
{
	struct state before = {}, after = {};
	u32 *held = NULL;

	r->leak = r->where != IN_TASK && pick(r, 2);
	r->outer = NULL;
	if (r->where == IN_TASK && pick(r, 2))
		r->outer = kmap_local_page(r->outer_page);
	if (r->where == IN_HRTIMER)
		held = kmap_atomic(r->outer_page);
	state_now(&before);
	switch (r->where) {
	case IN_TASK:
		random_run_here(r);
		break;
	case IN_TASKLET:
		init_completion(&r->done);
		tasklet_setup(&r->tasklet, random_tasklet);
		if (!tasklet_here(&r->tasklet, &r->done, &r->ran_in))
			fail(r, "the tasklet ran on ksoftirqd: its end is not checked");
		tasklet_kill(&r->tasklet);
		break;
	case IN_HRTIMER:
		hrtimer_init(&r->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		r->timer.function = random_hrtimer;
		r->fired = false;
		hrtimer_start(&r->timer, ns_to_ktime(1000), HRTIMER_MODE_REL_PINNED_HARD);
		while (!READ_ONCE(r->fired))
			cpu_relax();
		hrtimer_cancel(&r->timer);
		break;
	case WHERE_NR:
		break;
	}
	state_now(&after);
	if (r->outer && !shows(r->outer, r->outer_page))
		fail(r, "the outer kmap_local_page() lost its page");
	if (held && !shows(held, r->outer_page))
		fail(r, "the task's one-argument map lost its page to the interrupt");
	if (held)
		kunmap_atomic(held);
	if (r->outer)
		kunmap_local(r->outer);
	r->outer = NULL;
	if (after.pagefault != before.pagefault || after.preempt != before.preempt ||
	    after.migrate != before.migrate || after.local_depth != before.local_depth ||
	    after.log_len != before.log_len)
		fail(r,
		     "after the run's context ended: page faults %d, preempt %#x, migrate %d, kmap_local %d, log %d; were %d, %#x, %d, %d, %d",
		     after.pagefault, after.preempt, after.migrate, after.local_depth,
		     after.log_len, before.pagefault, before.preempt, before.migrate,
		     before.local_depth, before.log_len);
	if (after.reports - r->reports != r->left)
		fail(r, "the context's end made %lu reports for %u maps left",
		     after.reports - r->reports, r->left);
}

static void random_sequences(struct kunit *test)
{
	struct log_run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	unsigned int done_ops = 0, i, n;
	struct state before, after;
	char did[OP_NR * 8];

	need_log(test);
	need_kind(test, HIGHMEM_BELOW_4G);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	r->vm = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, r->buf);
	KUNIT_ASSERT_NOT_NULL(test, r->vm);
	for (i = 0; i < RUN_PAGES; i++) {
		r->pages[i] = test_page(HIGHMEM_BELOW_4G, 8 + i);
		seed(r->pages[i]);
	}
	r->outer_page = test_page(HIGHMEM_BELOW_4G, 8 + RUN_PAGES);
	seed(r->outer_page);
	r->low = test_page(LOWMEM, 2);
	prandom_seed_state(&r->rnd, random_seed);
	kunit_info(test, "seed %llu, %u operations", random_seed, random_ops);

	migrate_disable();
	state_now(&before);
	pr_info("KMAP-EXPECT-BEGIN random map-log runs\n");
	for (r->run = 0; done_ops < random_ops && !r->failure[0]; r->run++) {
		r->where = r->run % WHERE_NR;
		r->ops = min(RUN_OPS, random_ops - done_ops);
		random_run(r);
		done_ops += r->ops;
	}
	pr_info("KMAP-EXPECT-END random map-log runs\n");
	state_now(&after);
	migrate_enable();
	vfree(r->vm);

	KUNIT_EXPECT_STREQ(test, r->failure, "");
	expect_same(test, &before, &after, "the random runs");
	kunit_info(test, "%u operations in %u runs", done_ops, r->run);
	/* A step whose condition never held tests nothing. */
	for (i = 0; i < OP_NR && random_ops >= 10000; i++)
		KUNIT_EXPECT_GT_MSG(test, r->did[i], 0U, "steps of operation %u that ran", i);
	for (i = 0, n = 0; i < OP_NR; i++)
		n += scnprintf(did + n, sizeof(did) - n, " %u", r->did[i]);
	kunit_info(test, "steps run, by operation:%s", did);
}

/*
 * A wrong pointer unmapped in a loop at a call site of its own: every
 * round counted, one printed; another call site prints its own once. The
 * two differ (no identical-code folding) and do not end in the unmap (no
 * tail call), so that each unmap's call site is its own.
 */
static noinline void wrong_pointer_at_a_site(struct page *page, u32 *buf)
{
	u32 *p = kmap_atomic(page, KM_USER0);

	if (p)
		kunmap_atomic(buf, KM_USER0);
	barrier();
}

static noinline void wrong_pointer_at_another_site(struct page *page, u32 *buf)
{
	u32 *p = kmap_atomic(page, KM_USER1);

	if (p)
		kunmap_atomic(buf, KM_USER1);
	barrier();
}

static void reports_print_once_per_call_site(struct kunit *test)
{
	struct page *page = test_page(HIGHMEM_BELOW_4G, 1);
	u32 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct state before, first, after;
	unsigned int i;

	need_log(test);
	need_kind(test, HIGHMEM_BELOW_4G);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	state_now(&before);
	pr_info("KMAP-EXPECT-BEGIN wrong pointers at two call sites\n");
	for (i = 0; i < 100; i++)
		wrong_pointer_at_a_site(page, buf);
	state_now(&first);
	for (i = 0; i < 100; i++)
		wrong_pointer_at_another_site(page, buf);
	pr_info("KMAP-EXPECT-END wrong pointers at two call sites\n");
	state_now(&after);
	KUNIT_EXPECT_EQ_MSG(test, first.reports - before.reports, 100UL, "reports, first site");
	KUNIT_EXPECT_EQ_MSG(test, first.printed - before.printed, 1UL, "prints, first site");
	KUNIT_EXPECT_EQ_MSG(test, after.reports - first.reports, 100UL, "reports, second site");
	KUNIT_EXPECT_EQ_MSG(test, after.printed - first.printed, 1UL, "prints, second site");
	expect_same(test, &before, &after, "the wrong pointers");
}

static void build_cases(void)
{
	unsigned int b, w;

	for (b = 0; b < BUG_NR; b++)
		for (w = 0; w < WHERE_NR; w++)
			bug_cases[b * WHERE_NR + w] = (struct bug_case){ b, w };
}

static int log_suite_init(struct kunit_suite *suite)
{
	build_cases();
	return test_chunks_get(suite);
}

static struct kunit_case log_cases[] = {
	KUNIT_CASE_PARAM(buggy_loop, bug_gen_params),
	KUNIT_CASE(leak_released_where_the_context_ends),
	KUNIT_CASE(reports_print_once_per_call_site),
	KUNIT_CASE(random_sequences),
	{}
};

static struct kunit_suite log_suite = {
	.name = "kmap_atomic_log",
	.suite_init = log_suite_init,
	.suite_exit = test_chunks_put,
	.test_cases = log_cases,
};

kunit_test_suite(log_suite);

MODULE_DESCRIPTION("KUnit tests of the typed atomic kmaps' map log against buggy 2.6 code");
MODULE_LICENSE("GPL");
