#include "CDeferredSync.h"

#include <stdio.h>
#include <stdlib.h>

#if defined(__APPLE__)
#include <os/lock.h>
#else
#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

static void cds_fail(const char *call, int code) {
  fprintf(stderr, "Deferred: %s failed with error %d\n", call, code);
  abort();
}

// MARK: Locks

#if defined(__APPLE__)

struct cds_lock {
  os_unfair_lock lock;
};

cds_lock *cds_lock_create(void) {
  cds_lock *lock = malloc(sizeof(cds_lock));
  if (lock == NULL) cds_fail("malloc", 0);
  lock->lock = OS_UNFAIR_LOCK_INIT;
  return lock;
}

void cds_lock_destroy(cds_lock *lock) { free(lock); }

// os_unfair_lock traps by itself when a thread takes a lock it holds, or releases one it
// does not.
void cds_lock_lock(cds_lock *lock) { os_unfair_lock_lock(&lock->lock); }
void cds_lock_unlock(cds_lock *lock) { os_unfair_lock_unlock(&lock->lock); }

// The pool: each lock on a cache line of its own, so that threads taking different locks do
// not slow each other down. OS_UNFAIR_LOCK_INIT is all zeros.
typedef struct {
  os_unfair_lock lock;
} __attribute__((aligned(64))) cds_pool_entry;

static cds_pool_entry cds_pool[CDS_POOL_LOCK_COUNT];

void cds_pool_lock(uint32_t index) { os_unfair_lock_lock(&cds_pool[index % CDS_POOL_LOCK_COUNT].lock); }

void cds_pool_unlock(uint32_t index) {
  os_unfair_lock_unlock(&cds_pool[index % CDS_POOL_LOCK_COUNT].lock);
}

#else

cds_pool_entry cds_pool[CDS_POOL_LOCK_COUNT];

cds_lock *cds_lock_create(void) {
  cds_lock *lock = malloc(sizeof(cds_lock));
  if (lock == NULL) cds_fail("malloc", 0);
  __atomic_store_n(&lock->word, 0, __ATOMIC_RELAXED);
  return lock;
}

void cds_lock_destroy(cds_lock *lock) { free(lock); }

static inline void cds_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

// The lock of "Futexes are tricky" (Drepper), third version. A thread that finds the lock
// held spins a little first (locks here are held for a few field updates), then marks it
// contended (2) and sleeps while it stays so; the owner's release of a contended lock wakes
// one sleeper, which takes the lock marked contended again, as others may still sleep.
void cds_futex_wait(uint32_t *word) {
  for (int spin = 0; spin < 100; spin++) {
    uint32_t expected = 0;
    if (__atomic_load_n(word, __ATOMIC_RELAXED) == 0
        && __atomic_compare_exchange_n(word, &expected, 1, false, __ATOMIC_ACQUIRE,
             __ATOMIC_RELAXED)) {
      return;
    }
    cds_cpu_relax();
  }
  while (__atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE) != 0) {
    if (syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0) != 0 && errno != EAGAIN
        && errno != EINTR) {
      cds_fail("futex (wait)", errno);
    }
  }
}

void cds_futex_wake(uint32_t *word, uint32_t previous) {
  // 0: the lock was not held, a bug of the caller's; 2: a waiter may sleep.
  if (previous != 2) cds_fail("releasing a lock that is not held", (int)previous);
  if (syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) < 0) {
    cds_fail("futex (wake)", errno);
  }
}

#endif

// MARK: Atomic words

// The first page is static: a process with up to 4,096 live words allocates none.
static uint64_t cds_first_page[1u << CDS_WORD_PAGE_SHIFT];
uint64_t *cds_word_pages[CDS_WORD_PAGE_COUNT] = {cds_first_page};

// The next word never handed out, taken without a lock: a word never handed out is 0 (the
// first page is static, the others come from calloc), so it needs no store either.
static uint32_t cds_words_next;
// Guarded by `cds_words_lock`: the list of words given back (each free word holds the next
// one's index plus one; 0 ends the list). Read without the lock only to tell whether it is
// empty: a word given back meanwhile waits for the next call.
static uint32_t cds_words_free;

// The library's lock (all zeros is free, on every platform), held for a few instructions.
static cds_lock cds_words_lock;
static void cds_words_acquire(void) { cds_lock_lock(&cds_words_lock); }
static void cds_words_release(void) { cds_lock_unlock(&cds_words_lock); }

// Makes the page of `word`, unless another thread has made it meanwhile, and returns `word`.
// Out of line, as the taking of a word given back: the common path makes no call.
__attribute__((noinline)) static cds_word cds_word_page_make(cds_word word) {
  uint32_t page = word >> CDS_WORD_PAGE_SHIFT;
  if (page >= CDS_WORD_PAGE_COUNT) cds_fail("cds_word_make (out of words)", 0);
  uint64_t *made = calloc(1u << CDS_WORD_PAGE_SHIFT, sizeof(uint64_t));
  if (made == NULL) cds_fail("calloc", 0);
  uint64_t *expected = NULL;
  if (!__atomic_compare_exchange_n(&cds_word_pages[page], &expected, made, false,
        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    free(made);
  }
  return word;
}

// A word never handed out: no lock, and no store (it is 0). Its page is made, once, by
// whichever thread first needs it, before the word is handed out.
static inline cds_word cds_word_make_new(void) {
  cds_word word = __atomic_fetch_add(&cds_words_next, 1, __ATOMIC_RELAXED);
  uint32_t page = word >> CDS_WORD_PAGE_SHIFT;
  if (__builtin_expect(page >= CDS_WORD_PAGE_COUNT ||
        __atomic_load_n(&cds_word_pages[page], __ATOMIC_ACQUIRE) == NULL, 0)) {
    return cds_word_page_make(word);
  }
  return word;
}

// A word given back, if there is one (else a new one), under the lock.
__attribute__((noinline)) static cds_word cds_word_reuse(void) {
  cds_words_acquire();
  uint32_t head = __atomic_load_n(&cds_words_free, __ATOMIC_RELAXED);
  if (head == 0) {
    cds_words_release();
    return cds_word_make_new();
  }
  cds_word word = head - 1;
  __atomic_store_n(&cds_words_free,
    (uint32_t)__atomic_load_n(cds_word_address(word), __ATOMIC_RELAXED), __ATOMIC_RELAXED);
  __atomic_store_n(cds_word_address(word), 0, __ATOMIC_RELAXED);
  cds_words_release();
  return word;
}

cds_word cds_word_make(void) {
  if (__atomic_load_n(&cds_words_free, __ATOMIC_RELAXED) != 0) return cds_word_reuse();
  return cds_word_make_new();
}

void cds_word_free(cds_word word) {
  cds_words_acquire();
  uint32_t head = __atomic_load_n(&cds_words_free, __ATOMIC_RELAXED);
  __atomic_store_n(cds_word_address(word), (uint64_t)head, __ATOMIC_RELAXED);
  __atomic_store_n(&cds_words_free, word + 1, __ATOMIC_RELAXED);
  cds_words_release();
}
