// SPDX-License-Identifier: GPL-2.0
/*
 * The one report path of typed atomic kmaps, with the slots and without
 * them: a misuse is counted, and printed once per call site, so that a
 * driver that misuses in a loop neither floods the console nor hides
 * another site's report.
 */
#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/hash.h>
#include <linux/init.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/ratelimit.h>

#include "kmap_atomic.h"

/*
 * Misuse reports: every one is counted; each call site prints once (a
 * table of 1024 call sites that have printed, claimed with cmpxchg so
 * that any context, NMI included, may report). When the table is full,
 * a new call site still prints, rate-limited. A module's call sites are
 * forgotten as it unloads (another may load at its addresses): their
 * entries become tombstones, which a lookup passes and nothing reuses.
 */
#define REPORT_SITES_BITS	10
#define REPORT_SITE_GONE	(~0UL)
static unsigned long report_sites[1 << REPORT_SITES_BITS];
static atomic_long_t report_count, printed_count;
static DEFINE_RATELIMIT_STATE(report_overflow_rs, 5 * HZ, 10);

/*
 * Is this the first time @key (a call site, with the slots a report's
 * kind in its top bits) asks? Return: whether to print.
 */
bool kmap_atomic_site_first(unsigned long key)
{
	unsigned int i, h = hash_long(key, REPORT_SITES_BITS);
	unsigned long old;

	for (i = 0; i < ARRAY_SIZE(report_sites); i++) {
		unsigned long *site = &report_sites[(h + i) % ARRAY_SIZE(report_sites)];

		old = READ_ONCE(*site);
		if (!old)
			old = cmpxchg(site, 0, key);
		if (!old)
			return true;
		if (old == key)
			return false;
	}
	return __ratelimit(&report_overflow_rs);
}

/* Reports come from where an NMI returns too: no probes there. */
NOKPROBE_SYMBOL(kmap_atomic_site_first);

static int forget_module_sites(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;
	unsigned int i, kind;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	for (i = 0; i < ARRAY_SIZE(report_sites); i++) {
		unsigned long key = READ_ONCE(report_sites[i]);

		if (!key || key == REPORT_SITE_GONE)
			continue;
		/* The slots' keys carry the kind in their top bits. */
		for (kind = 0; kind < 16; kind++) {
			unsigned long ip = key ^ ((unsigned long)kind << (BITS_PER_LONG - 4));

			if (within_module(ip, mod)) {
				cmpxchg(&report_sites[i], key, REPORT_SITE_GONE);
				break;
			}
		}
	}
	return NOTIFY_DONE;
}

static struct notifier_block report_sites_nb = { .notifier_call = forget_module_sites };

static int __init kmap_atomic_report_sites_init(void)
{
	return register_module_notifier(&report_sites_nb);
}
core_initcall(kmap_atomic_report_sites_init);

/*
 * Count a report made at call site @ip. Return: whether to print it: the
 * first from each call site, so that a hot misuse hides no other site's.
 */
bool kmap_atomic_report_site(unsigned long ip)
{
	atomic_long_inc(&report_count);
	if (!kmap_atomic_site_first(ip))
		return false;
	atomic_long_inc(&printed_count);
	return true;
}

NOKPROBE_SYMBOL(kmap_atomic_report_site);

/* Count a report that prints its own way: a task that an oops kills. */
void kmap_atomic_report_count(void)
{
	atomic_long_inc(&report_count);
}

NOKPROBE_SYMBOL(kmap_atomic_report_count);

/**
 * kmap_atomic_reports_printed() - how many of the reports were printed
 *
 * Return: the count since boot of reports printed: the first of each call
 * site, and rate-limited ones once the table of call sites is full. For
 * tests.
 */
unsigned long kmap_atomic_reports_printed(void)
{
	return atomic_long_read(&printed_count);
}
EXPORT_SYMBOL(kmap_atomic_reports_printed);

/**
 * kmap_atomic_reports() - how many misuses of typed atomic kmaps were reported
 *
 * Return: the count of every report since boot, the printed ones and those
 * a call site that had printed already made again; with
 * CONFIG_DEBUG_KMAP_ATOMIC the debug checks' reports too. For tests.
 */
unsigned long kmap_atomic_reports(void)
{
	return atomic_long_read(&report_count);
}
EXPORT_SYMBOL(kmap_atomic_reports);
