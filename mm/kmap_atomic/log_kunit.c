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
	unsigned long reports;
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
	struct state start, before, after, final;
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
		raw_spin_lock(&r->lock);
		p = kmap_atomic(h, a);
		raw_spin_unlock(&r->lock);
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
	for (i = 0; i < LOOPS; i++)
		one_round(r, a, b);
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
 * counts of the task it ran on. Return: whether it ran here.
 */
static bool tasklet_here(struct tasklet_struct *t, struct completion *done,
			 struct task_struct *const *ran_in)
{
	local_bh_disable();
	tasklet_schedule(t);
	local_bh_enable();
	wait_for_completion(done);
	tasklet_kill(t);
	return *ran_in == current;
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
	expect_same(test, &before, &after, "the task's map unmapped");
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
