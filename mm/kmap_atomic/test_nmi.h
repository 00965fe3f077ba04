/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the KUnit suites of typed atomic kmaps: run a function in a real NMI
 * on this CPU (an NMI IPI to itself), as an NMI handler does.
 */
#ifndef _MM_KMAP_ATOMIC_TEST_NMI_H
#define _MM_KMAP_ATOMIC_TEST_NMI_H

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/preempt.h>
#include <linux/threads.h>
#include <asm/apic.h>
#include <asm/nmi.h>

struct kmap_test_nmi {
	void (*fn)(void *arg);
	void *arg;
	bool in_nmi;		/* what in_nmi() said in the handler */
	bool done;
};

/* Each suite has its own: the request a CPU's next IPI is for. */
static struct kmap_test_nmi *kmap_test_nmi_request[NR_CPUS];
/*
 * The IPIs sent to each CPU and not yet seen: each is claimed, even after
 * its sender gave up waiting, while the handler is registered (one that
 * comes later is an unknown NMI); another source's NMI (perf's, the
 * watchdog's) is left alone.
 */
static atomic_t kmap_test_nmi_sent[NR_CPUS];

static int kmap_test_nmi_handler(unsigned int cmd, struct pt_regs *regs)
{
	unsigned int cpu = smp_processor_id();
	struct kmap_test_nmi *r;

	if (!atomic_add_unless(&kmap_test_nmi_sent[cpu], -1, 0))
		return NMI_DONE;
	r = READ_ONCE(kmap_test_nmi_request[cpu]);
	if (r && !READ_ONCE(r->done)) {
		r->in_nmi = in_nmi();
		r->fn(r->arg);
		WRITE_ONCE(r->done, true);
	}
	return NMI_HANDLED;
}

static int __maybe_unused kmap_test_nmi_register(void)
{
	return register_nmi_handler(NMI_LOCAL, kmap_test_nmi_handler, 0, KBUILD_MODNAME);
}

/* May sleep. */
static void __maybe_unused kmap_test_nmi_unregister(void)
{
	unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
}

/*
 * Run @fn(@arg) in an NMI on this CPU, between kmap_test_nmi_register()
 * and _unregister(); from any context, interrupts off included.
 * Return: whether the NMI came and ran it, in NMI context, within a second.
 */
static bool __maybe_unused kmap_test_nmi_now(void (*fn)(void *arg), void *arg)
{
	struct kmap_test_nmi r = { .fn = fn, .arg = arg };
	unsigned int cpu, us;

	cpu = get_cpu();
	WRITE_ONCE(kmap_test_nmi_request[cpu], &r);
	atomic_inc(&kmap_test_nmi_sent[cpu]);
	apic->send_IPI_mask(cpumask_of(cpu), NMI_VECTOR);
	for (us = 0; us < USEC_PER_SEC && !READ_ONCE(r.done); us++)
		udelay(1);
	WRITE_ONCE(kmap_test_nmi_request[cpu], NULL);
	put_cpu();
	return READ_ONCE(r.done) && r.in_nmi;
}

/* kmap_test_nmi_now() with the handler registered for it; may sleep. */
static bool __maybe_unused kmap_test_run_in_nmi(void (*fn)(void *arg), void *arg)
{
	bool ran;

	if (kmap_test_nmi_register())
		return false;
	ran = kmap_test_nmi_now(fn, arg);
	kmap_test_nmi_unregister();
	return ran;
}

#endif /* _MM_KMAP_ATOMIC_TEST_NMI_H */
