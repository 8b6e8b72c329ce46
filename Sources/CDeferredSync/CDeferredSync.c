#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE  // PTHREAD_MUTEX_ADAPTIVE_NP
#endif

#include "CDeferredSync.h"

#include <stdio.h>
#include <stdlib.h>

#if defined(__APPLE__)
#include <os/lock.h>
#else
#include <pthread.h>
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

static void cds_raw_init(os_unfair_lock *lock) { *lock = OS_UNFAIR_LOCK_INIT; }
// os_unfair_lock traps by itself when a thread takes a lock it holds, or releases one it
// does not.
static void cds_raw_lock(os_unfair_lock *lock) { os_unfair_lock_lock(lock); }
static void cds_raw_unlock(os_unfair_lock *lock) { os_unfair_lock_unlock(lock); }
static void cds_raw_destroy(os_unfair_lock *lock) { (void)lock; }
typedef os_unfair_lock cds_raw_lock_t;

#else

struct cds_lock {
  pthread_mutex_t lock;
};

static void cds_check(int code, const char *call) {
  if (code != 0) cds_fail(call, code);
}

static void cds_raw_init(pthread_mutex_t *mutex) {
  pthread_mutexattr_t attributes;
  cds_check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init");
#if defined(DEBUG) && DEBUG
  // Taking a lock twice on one thread, or releasing it from another, traps (EDEADLK, EPERM).
  cds_check(pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_ERRORCHECK),
    "pthread_mutexattr_settype");
#elif defined(PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP)
  // Spins briefly before it sleeps: locks here are held for a few field updates.
  cds_check(pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_ADAPTIVE_NP),
    "pthread_mutexattr_settype");
#endif
  cds_check(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init");
  cds_check(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy");
}

static void cds_raw_lock(pthread_mutex_t *mutex) {
  cds_check(pthread_mutex_lock(mutex), "pthread_mutex_lock");
}

static void cds_raw_unlock(pthread_mutex_t *mutex) {
  cds_check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock");
}

static void cds_raw_destroy(pthread_mutex_t *mutex) {
  cds_check(pthread_mutex_destroy(mutex), "pthread_mutex_destroy");
}
typedef pthread_mutex_t cds_raw_lock_t;

#endif

cds_lock *cds_lock_create(void) {
  cds_lock *lock = malloc(sizeof(cds_lock));
  if (lock == NULL) cds_fail("malloc", 0);
  cds_raw_init(&lock->lock);
  return lock;
}

void cds_lock_destroy(cds_lock *lock) {
  cds_raw_destroy(&lock->lock);
  free(lock);
}

void cds_lock_lock(cds_lock *lock) { cds_raw_lock(&lock->lock); }
void cds_lock_unlock(cds_lock *lock) { cds_raw_unlock(&lock->lock); }

// The pool: each lock on a cache line of its own, so that threads taking different locks do
// not slow each other down. Initialised statically where the platform has an initialiser for
// the kind of lock `cds_raw_init` makes (no call on the path of each lock); otherwise set up
// once, by whichever thread first needs it.
typedef struct {
  cds_raw_lock_t lock;
} __attribute__((aligned(64))) cds_pool_entry;

#if defined(__APPLE__)
static cds_pool_entry cds_pool[CDS_POOL_LOCK_COUNT];
static void cds_pool_ready(void) {}  // OS_UNFAIR_LOCK_INIT is all zeros.
#else
#if defined(DEBUG) && DEBUG
#if defined(PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP)
#define CDS_POOL_INITIALIZER PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP
#endif
#elif defined(PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP)
#define CDS_POOL_INITIALIZER PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
#else
#define CDS_POOL_INITIALIZER PTHREAD_MUTEX_INITIALIZER
#endif

#if defined(CDS_POOL_INITIALIZER)
static cds_pool_entry cds_pool[CDS_POOL_LOCK_COUNT] = {
  [0 ... CDS_POOL_LOCK_COUNT - 1] = {CDS_POOL_INITIALIZER}};
static void cds_pool_ready(void) {}
#else
static cds_pool_entry cds_pool[CDS_POOL_LOCK_COUNT];
static pthread_once_t cds_pool_once = PTHREAD_ONCE_INIT;

static void cds_pool_init(void) {
  for (unsigned index = 0; index < CDS_POOL_LOCK_COUNT; index++) {
    cds_raw_init(&cds_pool[index].lock);
  }
}

static void cds_pool_ready(void) {
  cds_check(pthread_once(&cds_pool_once, cds_pool_init), "pthread_once");
}
#endif
#endif

void cds_pool_lock(uint32_t index) {
  cds_pool_ready();
  cds_raw_lock(&cds_pool[index % CDS_POOL_LOCK_COUNT].lock);
}

void cds_pool_unlock(uint32_t index) {
  cds_raw_unlock(&cds_pool[index % CDS_POOL_LOCK_COUNT].lock);
}

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

// Held for a few instructions: os_unfair_lock on Darwin; elsewhere a spin lock that yields
// its time slice while another thread holds it (a pthread mutex would cost more than the
// work it guards).
#if defined(__APPLE__)
static os_unfair_lock cds_words_lock = OS_UNFAIR_LOCK_INIT;
static void cds_words_acquire(void) { os_unfair_lock_lock(&cds_words_lock); }
static void cds_words_release(void) { os_unfair_lock_unlock(&cds_words_lock); }
#else
#include <sched.h>
static bool cds_words_locked;
static void cds_words_acquire(void) {
  while (__atomic_exchange_n(&cds_words_locked, true, __ATOMIC_ACQUIRE)) sched_yield();
}
static void cds_words_release(void) { __atomic_store_n(&cds_words_locked, false, __ATOMIC_RELEASE); }
#endif

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
