# SPDX-License-Identifier: GPL-2.0
"""The call lists the kmap_atomic_*.cocci checks share.

kmap_atomic_context.cocci and kmap_atomic_sleep.cocci import this module
from their own folder (see their initialize rules), so that every rule
works from one list.
"""

import re

# Calls after which interrupts are off on this CPU. The trylock forms turn
# them off on the path that took the lock, the one that maps.
IRQS_OFF = frozenset((
    "local_irq_save", "local_irq_disable",
    "raw_local_irq_save", "raw_local_irq_disable",
    "local_lock_irqsave", "local_lock_irq",
    "spin_lock_irqsave", "spin_lock_irqsave_nested",
    "spin_lock_irqsave_nest_lock", "spin_lock_irq",
    "spin_trylock_irqsave", "spin_trylock_irq",
    "raw_spin_lock_irqsave", "raw_spin_lock_irqsave_nested",
    "raw_spin_lock_irq", "raw_spin_trylock_irqsave", "raw_spin_trylock_irq",
    "read_lock_irqsave", "read_lock_irq",
    "write_lock_irqsave", "write_lock_irq", "write_trylock_irqsave",
))

# Calls that give the interrupt state back to what the matching save found:
# still off in a function its callers call with interrupts off.
IRQS_RESTORE = frozenset((
    "local_irq_restore", "raw_local_irq_restore", "local_unlock_irqrestore",
    "spin_unlock_irqrestore", "raw_spin_unlock_irqrestore",
    "read_unlock_irqrestore", "write_unlock_irqrestore",
))

# Calls that turn interrupts on whatever they were.
IRQS_ENABLE = frozenset((
    "local_irq_enable", "raw_local_irq_enable", "local_unlock_irq",
    "spin_unlock_irq", "raw_spin_unlock_irq",
    "read_unlock_irq", "write_unlock_irq",
))

# Calls after which bottom halves are off.
BH_OFF = frozenset((
    "local_bh_disable", "spin_lock_bh", "spin_trylock_bh",
    "raw_spin_lock_bh", "read_lock_bh", "write_lock_bh", "rcu_read_lock_bh",
    "local_lock_bh",
))

# Calls that turn bottom halves back on (unless nested in another section).
BH_ON = frozenset((
    "local_bh_enable", "spin_unlock_bh", "raw_spin_unlock_bh",
    "read_unlock_bh", "write_unlock_bh", "rcu_read_unlock_bh",
    "local_unlock_bh",
))

# Calls that sleep or may. copy_{to,from}_user() and clear_user() fault the
# page in, which a map with page faults off does not allow.
SLEEPERS = frozenset((
    "msleep", "msleep_interruptible", "ssleep", "usleep_range",
    "schedule", "schedule_timeout", "schedule_timeout_interruptible",
    "schedule_timeout_uninterruptible", "schedule_timeout_killable",
    "schedule_timeout_idle", "io_schedule", "io_schedule_timeout",
    "cond_resched", "might_sleep",
    "mutex_lock", "mutex_lock_interruptible", "mutex_lock_killable",
    "mutex_lock_nested", "mutex_lock_io",
    "down", "down_interruptible", "down_killable", "down_timeout",
    "down_read", "down_read_killable", "down_read_interruptible",
    "down_write", "down_write_killable",
    "vmalloc", "vzalloc", "vmalloc_user", "vfree",
    "copy_to_user", "copy_from_user", "clear_user",
))
# wait_event*() and wait_for_completion*(): every one of them sleeps.
SLEEPER_PREFIXES = ("wait_event", "wait_for_completion")

# GFP masks that let the allocator sleep (direct reclaim).
SLEEPING_GFP = frozenset((
    "GFP_KERNEL", "GFP_KERNEL_ACCOUNT", "GFP_USER", "GFP_NOFS", "GFP_NOIO",
    "GFP_HIGHUSER", "GFP_HIGHUSER_MOVABLE",
))
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def sleeps(name):
    """Whether a call of the function NAME sleeps or may."""
    return str(name) in SLEEPERS or str(name).startswith(SLEEPER_PREFIXES)


def _split_top(s, sep):
    """S split at each SEP outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(s):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(s[start:i])
            start = i + 1
    return parts + [s[start:]]


def _wrapped(s):
    """Whether S is one parenthesised expression: (a | b), not (a) | (b)."""
    if not (s.startswith("(") and s.endswith(")")):
        return False
    depth = 0
    for ch in s[:-1]:
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return False
    return True


def _choice(s):
    """The two branches of S if it is a choice (c ? a : b), else None."""
    q = _split_top(s, "?")
    if len(q) < 2:
        return None
    rest = "?".join(q[1:])
    depth = nested = 0
    for i, ch in enumerate(rest):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and ch == "?":
            nested += 1
        elif depth == 0 and ch == ":":
            if nested == 0:
                return rest[:i], rest[i + 1:]
            nested -= 1
    return None


_NO_RECLAIM = frozenset(("__GFP_DIRECT_RECLAIM", "__GFP_RECLAIM", "__GFP_WAIT"))
_CAST_OR_CALL = re.compile(r"^(?:\(\s*[A-Za-z_][\w\s]*\)|[A-Za-z_]\w*)\s*(\(.*\))$", re.S)


def sleeping_gfp(mask):
    """Whether the expression MASK names a sleeping GFP mask, alone or in an
    expression (GFP_KERNEL | __GFP_NOWARN). A choice (may_sleep ? GFP_KERNEL
    : GFP_ATOMIC, crypto's idiom for code that also runs in softirqs) sleeps
    only if every branch does; GFP_KERNEL | (z ? __GFP_ZERO : 0) sleeps;
    GFP_KERNEL & ~__GFP_DIRECT_RECLAIM (2.6: & ~__GFP_WAIT) does not."""
    s = str(mask).strip()
    while _wrapped(s):
        s = s[1:-1].strip()
    # C's precedence: ?: binds loosest, then |, then &.
    branches = _choice(s)
    if branches:
        return all(sleeping_gfp(b) for b in branches)
    terms = _split_top(s, "|")
    if len(terms) > 1:
        return any(sleeping_gfp(t) for t in terms)
    terms = _split_top(s, "&")
    if len(terms) > 1:
        if any(t.strip().startswith("~") and _NO_RECLAIM & set(_IDENT.findall(t))
               for t in terms):
            return False
        return any(sleeping_gfp(t) for t in terms if not t.strip().startswith("~"))
    m = _CAST_OR_CALL.match(s)
    if m and _wrapped(m.group(1)):
        return sleeping_gfp(m.group(1))
    return any(w in SLEEPING_GFP for w in _IDENT.findall(s))
