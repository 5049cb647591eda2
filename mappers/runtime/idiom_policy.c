/* The cost model of IDIOM_DEVICE=auto: whether a launch goes to the device or declines (the
 * original loop then runs on the host). See idiom_policy.h for the model.
 *
 * A launch site is a kernel of a program (the hash of its source and its name). Each site keeps what its launches measured
 * (the host time a launch costs beside its kernel, the kernel's time per unit of work) and the
 * state of its rental: the host time it spent declining while its data was not on the device.
 * Sites are remembered per program and kind of device in the cache folder ("policy"), so that
 * a second run of the same program starts from what the first one learnt.
 *
 * One mutex guards it all (launches from several threads, and the save at exit).
 */
#define _POSIX_C_SOURCE 200809L

#include "idiom_policy.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SITES 256
#define POLICY_MAGIC "IDIOMPL3"
/* The platform's start-up until one is measured (idiom_policy.h). */
#define DEFAULT_START_UP_S 0.3
/* The share of it that the launches must have gained before it is paid: the model's host
   estimates are lower bounds (a 27-point sweep of 2 M points, 2.8 ms by the model, took
   5.4 ms on the H200 machine's host), so that renting all of it pays about twice; a single
   Map of 1 M elements still never gains a quarter of it. */
#define START_UP_SHARE 0.25
/* A check's work times this is the work of the launch it checks for, until one is seen: a
   range check reads a row's two pointers, the product it guards about as many entries as
   a row of a typical sparse matrix holds. */
#define DEFAULT_CHAIN_RATIO 16.0
#define MAX_BACKOFF 1024.0
/* Launches of a site that measure its costs before its launches stop waiting for their
   kernels (idiom__policy_measuring). */
#define MEASURED_ENOUGH 4
/* A run whose launches gained less than this share of its time sends the next runs of the
   program to the original world (idiom__policy_runs_as_compiled): the rewritten world's own
   cost with nothing launched, its host accesses and the calls the original build inlines,
   was 3.8% of NAS BT class S's instructions (callgrind, 495.8 M against 477.8 M). */
#define WORTH_SHARE 0.05
/* The most runs in a row in the original world before the rewritten world is tried again. */
#define MAX_RUNS_AS_COMPILED 16

typedef struct {
    uint64_t key; /* 0: free */
    double overhead; /* seconds a launch costs beside its kernel (measured, else the default) */
    double kernel_per_work; /* seconds of kernel per unit of work (measured, else default) */
    int measured;           /* launches that measured the two above */
    int launched;           /* launches seen by measured(), the first not measured */
    int64_t host_faster;    /* declines as "the host is faster", for probes */
    double chain_ratio; /* a check's: the work of the launch after it over its own; 0: unseen */
    uint64_t next_site; /* a check's: the site of the launch after it; 0: unseen */
    int is_check;
    /* Its last choice: declined, what the launch would have gained, the upload it lacked. */
    int probing; /* its last choice launched to measure again (a probe) */
    int last_declined;
    double last_gain;
    double last_once;
    double declined; /* host seconds spent declining since the data was last on the device */
    double backoff;  /* the rental's threshold, as a multiple of the upload it would pay */
    int long_windows; /* a window of this site paid for its upload (here or in a run before) */
    /* The window opened by the last upload this site paid: what it saved so far. */
    int in_window;
    double window_saved;
    double window_paid;
} site;

static pthread_mutex_t policy_lock = PTHREAD_MUTEX_INITIALIZER;
static site sites[SITES];
/* What the program's windows that closed short taught every site: a site rents as dearly as
   its own windows or the program's, whichever fell shorter (NAS SP class B's first run
   opened 113 windows over its many sites, each learning alone, and uploaded 5.4 GB). */
static double program_backoff = 1.0;

static double rental_backoff(const site *s) {
    return s->backoff > program_backoff ? s->backoff : program_backoff;
}
static int loaded;          /* the remembered sites were read */
static char program_key[64]; /* the file they are remembered in, or "" */
static int dirty;

/* The OpenCL platform's start-up (idiom_policy.h). */
static double start_up_seen = -1.0; /* measured in this run or remembered; -1: never */
static double start_up_declined;    /* what the launches declined before it would have gained */
/* Whether the launches of the program's last run that loaded the platform gained more than
   its start-up (remembered): 1 they did, -1 they did not, 0 unknown. */
static int start_up_paid;
static int started_here;            /* the platform was loaded in this run */
static double run_gained;           /* what this run's launches gained, uploads paid */

/* Runs of the program as compiled (idiom__policy_runs_as_compiled), remembered per program
   and command line (a run of a tiny input says nothing of a large one): how many rewritten
   runs in a row gained too little, and how many runs are left before the next try. */
#define RUNS_MAGIC "IDIOMRC2"
/* The program's own wall times judge a rewritten run where a run as compiled with the same
   arguments was timed: slower than it by more than this share, the run lost whatever the
   model's estimates say; faster by as much, it gained. A quarter: the H200 machine's host ran
   the same binaries 20-50% apart within an hour. */
#define MEASURED_MARGIN 0.25
/* ... and by at least this many seconds: a short run moves by tens of milliseconds (the test
   suite's runs on two busy cores). */
#define MEASURED_MIN_S 0.1
/* A rewritten run that the estimates say gained, but that took less than this many of the
   platform's start-ups, sends the next run to the original world once, to be timed: the
   model's host estimates are not measurements, and such a run is short enough for the
   platform alone to make it lose (corpus/stencil_update_class.cpp: 0.185 s as compiled,
   0.39 s at every rewritten run on the H200 machine, its launches' estimated gains above
   the start-up). */
#define CHECKED_BELOW_START_UPS 4.0
static int16_t idle_runs;
static int16_t runs_as_compiled;
static int judged_run;     /* this run is in the rewritten world and says whether it paid */
static int compiled_run;   /* this run is in the original world */
/* Wall times with these arguments, seconds (-1: none): the last run as compiled, and the
   last rewritten run whose check by a run as compiled is pending. */
static double compiled_seconds = -1.0;
static double checked_seconds = -1.0;
static double run_started; /* when the process started (idiom__now) */

__attribute__((constructor)) static void note_run_start(void) {
    run_started = idiom__now();
}

static double env_double(const char *name, double fallback) {
    const char *text = getenv(name);
    if (text == NULL || *text == '\0') {
        return fallback;
    }
    char *end = NULL;
    double value = strtod(text, &end);
    return end != NULL && *end == '\0' && value >= 0.0 ? value : fallback;
}

/* The model's constants (idiom_policy.h), each overridable from the environment; read once,
   with the remembered sites (getenv scans the whole environment, at every launch else). */
static double host_per_work_s;
static double default_overhead_s;
static double seconds_per_byte_s;
static double host_seconds_per_byte;
static double large_work;
static double start_up_fixed; /* IDIOM_START_UP_MS, or -1 */
static int check_runs;        /* IDIOM_AUTO_CHECK: runs judged by their wall time too */

static void read_constants(void) {
    host_per_work_s = env_double("IDIOM_HOST_NS_PER_WORK", 0.5) * 1e-9;
    default_overhead_s = env_double("IDIOM_LAUNCH_US", 20.0) * 1e-6;
    double gbs = env_double("IDIOM_TRANSFER_GBS", 8.0);
    seconds_per_byte_s = gbs > 0.0 ? 1.0 / (gbs * 1e9) : 1.0;
    double host_gbs = env_double("IDIOM_HOST_GBS", 12.0);
    host_seconds_per_byte = host_gbs > 0.0 ? 1.0 / (host_gbs * 1e9) : 0.0;
    large_work = (double)idiom__env_int("IDIOM_GPU_MIN_WORK", IDIOM_DEFAULT_GPU_MIN_WORK);
    double start_up_ms = env_double("IDIOM_START_UP_MS", -1.0);
    start_up_fixed = start_up_ms >= 0.0 ? start_up_ms * 1e-3 : -1.0;
    check_runs = idiom__env_int("IDIOM_AUTO_CHECK", 1) != 0;
}

/* The platform's start-up: fixed, measured or remembered, else the default. */
static double start_up_cost(void) {
    if (start_up_fixed >= 0.0) {
        return start_up_fixed;
    }
    return start_up_seen >= 0.0 ? start_up_seen : DEFAULT_START_UP_S;
}

/* What the launches must have gained before the platform is loaded: a share of its start-up,
   all of it where the program's last run that loaded it did not gain that much. */
static double start_up_rent(void) {
    return (start_up_paid < 0 ? 1.0 : START_UP_SHARE) * start_up_cost();
}


static site *find(uint64_t key, int create) {
    key = key != 0 ? key : 1;
    for (unsigned i = 0; i < SITES; i++) {
        site *s = &sites[(key + i) % SITES];
        if (s->key == key) {
            return s;
        }
        if (s->key == 0) {
            if (!create) {
                return NULL;
            }
            memset(s, 0, sizeof *s);
            s->key = key;
            s->overhead = -1.0;
            s->kernel_per_work = -1.0;
            s->backoff = 1.0;
            return s;
        }
    }
    return NULL; /* full: the site is decided by the defaults alone */
}

/* ---- remembered per program and device ------------------------------------------------- */

typedef struct {
    uint64_t key;
    double overhead;
    double kernel_per_work;
    double backoff;
    double chain_ratio;
    int32_t measured;
    int32_t long_windows;
} stored_site;

/* After the magic: what is remembered of the program as a whole. */
typedef struct {
    double start_up; /* the platform's start-up, or -1 */
    int32_t start_up_paid; /* 1, -1 or 0 (start_up_paid above) */
    int32_t reserved;
} stored_program;

static int policy_path(char *out, size_t size) {
    char dir[4096];
    return program_key[0] != '\0' && idiom__cache_folder(dir, sizeof dir, "policy") &&
           snprintf(out, size, "%s/%s", dir, program_key) < (int)size;
}

/* The program's key: its executable (path, size, modification time) and the device kind. */
static void make_program_key(const char *device) {
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    struct stat st;
    if (n <= 0 || device == NULL) {
        return;
    }
    exe[n] = '\0';
    if (stat(exe, &st) != 0) {
        return;
    }
    uint64_t h = idiom__fnv1a(IDIOM_FNV_START, exe, (uint64_t)n);
    int64_t identity[2] = {(int64_t)st.st_size, (int64_t)st.st_mtime};
    h = idiom__fnv1a(h, identity, sizeof identity);
    h = idiom__fnv1a(h, device, strlen(device));
    snprintf(program_key, sizeof program_key, "%016llx", (unsigned long long)h);
}

/* A stored cost: -1 (never measured) or in [0, limit). */
static int unmeasured_or_in(double value, double limit) {
    return value == -1.0 || (value >= 0.0 && value < limit);
}

static void load(void) {
    char path[4300];
    if (!policy_path(path, sizeof path)) {
        return;
    }
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return;
    }
    char magic[8];
    stored_program program;
    stored_site record;
    if (fread(magic, 1, sizeof magic, f) == sizeof magic &&
        memcmp(magic, POLICY_MAGIC, sizeof magic) == 0 &&
        fread(&program, sizeof program, 1, f) == 1) {
        if (program.start_up >= 0.0 && program.start_up < 60.0) { /* else damaged: unused */
            start_up_seen = program.start_up;
            start_up_paid = program.start_up_paid == 1 ? 1 : program.start_up_paid == -1 ? -1 : 0;
        }
        while (fread(&record, sizeof record, 1, f) == 1) {
            site *s = find(record.key, 1);
            /* A record out of range is a damaged file: what it says is not used. A site
               never measured (its launches all moved data) keeps -1 for its costs and is
               restored too: its backoff is what it learnt. Without it, a program whose host
               rewrites its data between calls (the corpus's scan programs) rents its uploads
               and the platform's start-up afresh at every run that tries the device, and
               loses the start-up each time: 0.64-0.83 of the original's speed on the H200
               machine, docs/results/gpu_bench_auto_async_overhead_h200_2026-11-30.json. */
            if (s == NULL || !unmeasured_or_in(record.overhead, 1.0) ||
                !unmeasured_or_in(record.kernel_per_work, 1.0) ||
                !(record.backoff >= 1.0 && record.backoff <= MAX_BACKOFF) ||
                !(record.chain_ratio >= 0.0 && record.chain_ratio < 1e9)) {
                continue;
            }
            s->overhead = record.overhead;
            s->kernel_per_work = record.kernel_per_work;
            s->measured = record.measured > 0 ? 1 : 0;
            s->backoff = record.backoff;
            s->chain_ratio = record.chain_ratio;
            s->long_windows = record.long_windows != 0;
        }
    }
    fclose(f);
}

/* The file of the verdict for this command line: the program's key and a hash of its
   arguments (argv[0] aside: the executable is in the key). */
static int runs_path(char *out, size_t size) {
    char policy[4300];
    if (!policy_path(policy, sizeof policy)) {
        return 0;
    }
    uint64_t h = IDIOM_FNV_START;
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (f != NULL) {
        char buffer[4096];
        size_t n = fread(buffer, 1, sizeof buffer, f);
        fclose(f);
        size_t first = strnlen(buffer, n);
        h = idiom__fnv1a(h, buffer + first, n - first);
    }
    return snprintf(out, size, "%s-%016llx.runs", policy, (unsigned long long)h) < (int)size;
}

/* A temporary file beside `path` (its name in `tmp`), to be renamed over it by
   commit_temp: a reader sees an old file or a new one. NULL where it cannot be made. */
static FILE *open_temp(const char *path, char *tmp, size_t size) {
    if (snprintf(tmp, size, "%s.XXXXXX", path) >= (int)size) {
        return NULL;
    }
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (f == NULL && fd >= 0) {
        close(fd);
        unlink(tmp);
    }
    return f;
}

static void commit_temp(FILE *f, int written, const char *tmp, const char *path) {
    int ok = fclose(f) == 0 && written;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
    }
}

static void load_runs(void) {
    char path[4400];
    FILE *f = runs_path(path, sizeof path) ? fopen(path, "rb") : NULL;
    if (f == NULL) {
        return;
    }
    char magic[8];
    int16_t counts[2];
    double seconds[2];
    if (fread(magic, 1, sizeof magic, f) == sizeof magic &&
        memcmp(magic, RUNS_MAGIC, sizeof magic) == 0 && fread(counts, sizeof counts, 1, f) == 1 &&
        fread(seconds, sizeof seconds, 1, f) == 1 && counts[0] >= 0 && counts[1] >= 0 &&
        counts[1] <= MAX_RUNS_AS_COMPILED && seconds[0] < 1e9 && seconds[1] < 1e9) {
        idle_runs = counts[0]; /* else damaged: unused */
        runs_as_compiled = counts[1];
        compiled_seconds = seconds[0] > 0.0 ? seconds[0] : -1.0;
        checked_seconds = seconds[1] > 0.0 ? seconds[1] : -1.0;
    }
    fclose(f);
}

static void save_runs(void) {
    char path[4400];
    char tmp[4500];
    FILE *f = runs_path(path, sizeof path) ? open_temp(path, tmp, sizeof tmp) : NULL;
    if (f == NULL) {
        return;
    }
    int16_t counts[2] = {idle_runs, runs_as_compiled};
    double seconds[2] = {compiled_seconds, checked_seconds};
    int ok = fwrite(RUNS_MAGIC, 1, 8, f) == 8 && fwrite(counts, sizeof counts, 1, f) == 1 &&
             fwrite(seconds, sizeof seconds, 1, f) == 1;
    commit_temp(f, ok, tmp, path);
}

/* Whether a run of `seconds` was slower than one of `than` beyond the noise. */
static int slower(double seconds, double than) {
    return seconds > than * (1.0 + MEASURED_MARGIN) && seconds - than > MEASURED_MIN_S;
}

/* A rewritten run lost: the next 1, 2, 4, ... runs (at most MAX_RUNS_AS_COMPILED) run as
   compiled, one more each time. */
static void lost_run(void) {
    idle_runs = idle_runs < 15 ? (int16_t)(idle_runs + 1) : idle_runs;
    int wait = 1 << (idle_runs - 1);
    runs_as_compiled = (int16_t)(wait < MAX_RUNS_AS_COMPILED ? wait : MAX_RUNS_AS_COMPILED);
}

/* A rewritten run ends. Where a run as compiled with the same arguments was timed and this
   one is slower or faster than it by more than MEASURED_MARGIN, that decides; otherwise its
   launches, the platform's start-up paid, gained less than WORTH_SHARE of its time by the
   model's estimates (lost), or that much, and every run is rewritten: but a short run
   (CHECKED_BELOW_START_UPS) never compared sends the next run to the original world to be
   timed against it. */
static void judge_run(void) {
    double seconds = idiom__now() - run_started;
    double gained = run_gained - (started_here ? start_up_cost() : 0.0);
    int won = gained >= WORTH_SHARE * seconds;
    int timed = compiled_seconds > 0.0 && check_runs;
    if (timed && slower(seconds, compiled_seconds)) {
        won = 0;
    } else if (timed && slower(compiled_seconds, seconds)) {
        won = 1;
    }
    checked_seconds = -1.0;
    if (!won) {
        lost_run();
        return;
    }
    idle_runs = 0;
    runs_as_compiled = 0;
    if (check_runs && compiled_seconds <= 0.0 &&
        seconds < CHECKED_BELOW_START_UPS * start_up_cost()) {
        checked_seconds = seconds;
        runs_as_compiled = 1;
    }
}

/* A run as compiled ends: its time is what the rewritten runs with these arguments are
   compared with; a check of the rewritten run before it that finds it slower counts as that
   run's loss. */
static void judge_compiled_run(void) {
    compiled_seconds = idiom__now() - run_started;
    if (checked_seconds > 0.0 && slower(checked_seconds, compiled_seconds) &&
        runs_as_compiled == 0) {
        lost_run();
    }
    checked_seconds = -1.0;
}

static void save(void) {
    char path[4300];
    char tmp[4400];
    FILE *f = dirty && policy_path(path, sizeof path) ? open_temp(path, tmp, sizeof tmp) : NULL;
    if (f == NULL) {
        return;
    }
    if (started_here) { /* this run says whether loading the platform paid */
        start_up_paid = run_gained >= start_up_cost() ? 1 : -1;
    }
    stored_program program = {start_up_seen, start_up_paid, 0};
    int ok = fwrite(POLICY_MAGIC, 1, 8, f) == 8 && fwrite(&program, sizeof program, 1, f) == 1;
    for (unsigned i = 0; i < SITES && ok; i++) {
        const site *s = &sites[i];
        if (s->key == 0) {
            continue;
        }
        stored_site record = {s->key,         s->overhead, s->kernel_per_work, s->backoff,
                              s->chain_ratio, s->measured, s->long_windows};
        ok = fwrite(&record, sizeof record, 1, f) == 1;
    }
    commit_temp(f, ok, tmp, path);
}

static void save_at_exit(void) {
    pthread_mutex_lock(&policy_lock);
    save();
    if (judged_run) {
        judge_run();
        save_runs();
    } else if (compiled_run) {
        judge_compiled_run();
        save_runs();
    }
    pthread_mutex_unlock(&policy_lock);
}

/* ---- the decision ------------------------------------------------------------------------ */

static double overhead_of(const site *s) {
    return s != NULL && s->overhead >= 0.0 ? s->overhead : default_overhead_s;
}

static double kernel_of(const site *s, int64_t work) {
    double per_work = s != NULL && s->kernel_per_work >= 0.0 ? s->kernel_per_work : 0.0;
    return per_work * (double)work;
}

/* The check this thread launched last, whose next launch tells its chain ratio. */
static _Thread_local uint64_t pending_check;
static _Thread_local int64_t pending_work;

/* A launch after a check: the check's ratio learnt (a moving average). */
static void learn_chain(uint64_t key, int64_t work) {
    site *check = pending_check != 0 ? find(pending_check, 0) : NULL;
    if (check != NULL && pending_work > 0) {
        double ratio = (double)work / (double)pending_work;
        check->chain_ratio =
            check->chain_ratio > 0.0 ? 0.75 * check->chain_ratio + 0.25 * ratio : ratio;
        check->next_site = key; /* maybe another check: follow_chain walks on */
        dirty = 1;
    }
    pending_check = 0;
}

/* Whether this decline as "the host is faster" of a site with its data on the device launches
   once more to measure again: the 16th, 64th, 256th, ... (a measured launch cost may have
   been an accident; each probe costs at most one launch's loss). */
static int probe_due(site *s) {
    int64_t n = ++s->host_faster;
    return n >= 16 && (n & (n - 1)) == 0 && (n & INT64_C(0x5555555555555555)) != 0;
}

/* A check about to launch, whose launch after it declined last time for want of its upload:
   the chain rents as that launch does (the check's turn counts as the launch's), and the check
   goes only once that launch has lost enough to pay its upload; otherwise the check's own
   upload and launch would be wasted. A launch after it that found the host faster keeps the
   check on the host too (but for the check's probes). */
static void follow_chain(site *s, idiom_choice *choice) {
    site *next = s->next_site != 0 ? find(s->next_site, 0) : NULL;
    for (int hops = 0; next != NULL && next->is_check && hops < 4; hops++) {
        next = next->next_site != 0 ? find(next->next_site, 0) : NULL; /* checks in a row */
    }
    if (next == NULL || !next->last_declined) {
        return;
    }
    if (next->last_once > 0.0 && next->last_gain > 0.0) {
        next->declined += next->last_gain;
        if (next->declined >= next->last_once * rental_backoff(next)) {
            choice->reason = "the launch it checks for has paid its upload";
            return;
        }
        choice->reason = "declined: the launch it checks for has not paid its upload";
    } else if (probe_due(s)) {
        choice->reason = "probe: the launch it checks for may pay now";
        s->probing = 1;
        return;
    } else {
        choice->reason = "declined: the launch it checks for runs on the host";
    }
    choice->device = 0;
}

/* The work the host would do if the launch declined: a check's stands for the launch after
   it (the original loop runs in place of both). */
static double host_work(const site *s, const idiom_launch_cost *cost) {
    if (!cost->check) {
        return (double)cost->work;
    }
    double ratio = s != NULL && s->chain_ratio > 0.0 ? s->chain_ratio : DEFAULT_CHAIN_RATIO;
    return (double)cost->work * ratio;
}

/* The host's time for the loop: its iterations, or the memory it streams where that is
   more (a check's arrays are not those of the launch it stands for: its work only). */
static double host_seconds(const site *s, const idiom_launch_cost *cost) {
    double iterations = host_work(s, cost) * host_per_work_s;
    double memory = cost->check ? 0.0 : (double)cost->touched_bytes * host_seconds_per_byte;
    return iterations > memory ? iterations : memory;
}

/* The site's window ended (its data left the device): one that did not save its upload
   makes the next rental dearer, by as many times as it fell short (at least 2, at most 8):
   NAS SP's nests saved about a third of each upload before the host took their arrays back,
   and doubling let each site rent seven times over a run (209 windows, 9.8 GB uploaded). */
static void close_window(site *s) {
    if (s->window_saved < s->window_paid) {
        double shortfall = s->window_saved > s->window_paid / 8.0
                               ? s->window_paid / s->window_saved
                               : 8.0;
        double factor = shortfall > 2.0 ? shortfall : 2.0;
        s->backoff = s->backoff * factor < MAX_BACKOFF ? s->backoff * factor : MAX_BACKOFF;
        program_backoff = program_backoff * factor < MAX_BACKOFF ? program_backoff * factor
                                                                 : MAX_BACKOFF;
        s->long_windows = 0;
    }
    s->in_window = 0;
    dirty = 1;
}

/* Whether a launch that would go may load the platform: it is loaded already, the program's
   launches paid for it before, or what the launches so far (this one included) would have
   gained reaches its start-up. Counts this launch's gain divided by its site's backoff: a
   site whose windows fell short before (the host took its data back before they saved their
   uploads) gains that many times less than the model says, once its upload is rented too.
   Counted whole, the corpus's scan programs, whose host rewrites the scanned array between
   calls, rented the start-up again within each run that tried the device, and lost it there
   (1.79 s against 1.23-1.32 s for scan_inplace_counts.c's third run on the H200 machine). */
static int start_up_rented(const site *s, const idiom_launch_cost *cost, double gain) {
    if (cost->platform_loaded || start_up_paid > 0) {
        return 1;
    }
    double backoff = s != NULL ? rental_backoff(s) : 1.0;
    start_up_declined += gain > 0.0 ? gain / backoff : 0.0;
    return start_up_declined >= start_up_rent();
}

/* What the program's earlier runs on `device` learnt, read once; saved at exit. */
static void ensure_loaded(const char *device) {
    if (!loaded) {
        loaded = 1;
        read_constants();
        make_program_key(device);
        load();
        atexit(save_at_exit);
    }
}

static idiom_choice choose(uint64_t key, const char *device, const idiom_launch_cost *cost) {
    ensure_loaded(device);
    learn_chain(key, cost->work);
    site *s = find(key, 1);
    if (s != NULL) {
        s->is_check = cost->check;
        s->probing = 0;
    }
    double host = host_seconds(s, cost) + (double)cost->declining_bytes * seconds_per_byte_s;
    double each = overhead_of(s) + kernel_of(s, cost->work) +
                  (double)cost->every_call_bytes * seconds_per_byte_s;
    double once = (double)cost->upload_bytes * seconds_per_byte_s;
    if (once > 0.0) { /* a window opens: what it writes goes back when the host looks */
        once += (double)cost->written_bytes * seconds_per_byte_s;
    }
    /* Most of its data gone: what the window saved decides the next rental. A launch that
       only adds to what is there continues the window (corpus/stencil_3d27_global.c sweeps
       g1 from g0, then g0 from g1: the second sweep reads g1's boundary, which the first
       did not upload; counted as the window's end, each rental ended after one sweep). */
    if (once > 0.0 && s != NULL && s->in_window && cost->resident_bytes <= cost->upload_bytes) {
        close_window(s);
    }
    idiom_choice choice = {0, "declined: the host is faster", host, each + once};
    if (host_work(s, cost) >= large_work && (s == NULL || s->backoff <= 1.0) &&
        host - each >= once) {
        /* Large enough alone: it pays its own copies (NAS IS class B sent 134 MB of keys
           that the host changes between its 11 calls), unless a window of this site closed
           before it saved its upload: from then on it rents as the others do. */
        choice.device = 1;
        choice.reason = "large";
    } else if (each >= host && once <= 0.0 && s != NULL && probe_due(s)) {
        choice.device = 1; /* the figures that keep it on the host may be stale */
        choice.reason = "probe: measuring again";
        s->probing = 1;
    } else if (each >= host) {
        /* Even with its data there, a launch costs more than the loop. */
    } else if (once <= 0.0) {
        choice.device = 1;
        choice.reason = "data on the device";
    } else if (s != NULL && s->long_windows && s->backoff <= 1.0) {
        choice.device = 1;
        choice.reason = "its data stayed on the device before";
    } else if (s != NULL && s->declined + (host - each) >= once * rental_backoff(s)) {
        choice.device = 1;
        choice.reason = "declined enough to pay the upload";
    } else if (s != NULL) {
        s->declined += host - each;
        choice.reason = "declined: the upload is not paid yet";
    }
    if (choice.device && !start_up_rented(s, cost, host - each)) {
        choice.device = 0;
        choice.reason = "declined: the platform's start-up is not paid yet";
    }
    if (cost->check && choice.device && s != NULL) {
        follow_chain(s, &choice);
    }
    if (cost->check) { /* a chain: its next launch, if it comes, tells the ratio */
        pending_check = choice.device ? key : 0;
        pending_work = cost->work;
    }
    if (s != NULL) {
        s->last_declined = !choice.device;
        s->last_gain = host - each;
        s->last_once = once;
    }
    if (choice.device) {
        run_gained += host - each - once;
    }
    if (choice.device && s != NULL) {
        if (once > 0.0 && s->in_window) { /* more of its data on the device */
            s->window_paid += once;
            s->declined = 0.0;
        } else if (once > 0.0) { /* a new window */
            s->in_window = 1;
            s->window_paid = once;
            s->window_saved = 0.0;
            s->declined = 0.0;
        }
        s->window_saved += host - each;
        if (s->in_window && s->window_saved >= s->window_paid && !s->long_windows) {
            s->long_windows = 1;
            s->backoff = 1.0;
        }
        dirty = 1;
    }
    return choice;
}

idiom_choice idiom__policy_choose(uint64_t key, const char *device,
                                  const idiom_launch_cost *cost) {
    pthread_mutex_lock(&policy_lock);
    idiom_choice choice = choose(key, device, cost);
    pthread_mutex_unlock(&policy_lock);
    return choice;
}

static double settle(double estimate, double seen) {
    return seen < estimate ? seen : estimate + 0.1 * (seen - estimate);
}

static void measured(uint64_t key, int64_t work, double seconds, double kernel_seconds) {
    site *s = find(key, 0);
    /* A kernel's first launch pays for loading it on the device (hundreds of milliseconds
       for some drivers): a figure that would keep the site on the host for good. */
    if (s == NULL || s->launched++ == 0 || seconds < 0.0 || kernel_seconds < 0.0 ||
        work <= 0) {
        return;
    }
    double overhead = seconds > kernel_seconds ? seconds - kernel_seconds : 0.0;
    double per_work = kernel_seconds / (double)work;
    if (!s->measured) {
        s->overhead = overhead;
        s->kernel_per_work = per_work;
    } else { /* the lowest seen, drifting up slowly: an accident (a page fault, a
                 driver's allocation) does not keep a site on the host */
        s->overhead = settle(s->overhead, overhead);
        s->kernel_per_work = settle(s->kernel_per_work, per_work);
    }
    s->measured++;
    dirty = 1;
}

static void launched(uint64_t key, double seconds) {
    site *s = find(key, 0);
    /* Only once the site's kernel time is measured: `each` adds it to this. */
    if (s != NULL && s->measured > 0 && seconds >= 0.0 && seconds < s->overhead) {
        s->overhead = seconds;
        dirty = 1;
    }
}

void idiom__policy_launched(uint64_t key, double seconds) {
    pthread_mutex_lock(&policy_lock);
    launched(key, seconds);
    pthread_mutex_unlock(&policy_lock);
}

int idiom__policy_measuring(uint64_t key) {
    pthread_mutex_lock(&policy_lock);
    site *s = find(key, 0);
    int wanted = s != NULL && (s->measured < MEASURED_ENOUGH || s->probing);
    pthread_mutex_unlock(&policy_lock);
    return wanted;
}

void idiom__policy_measured(uint64_t key, int64_t work, double seconds, double kernel) {
    pthread_mutex_lock(&policy_lock);
    measured(key, work, seconds, kernel);
    pthread_mutex_unlock(&policy_lock);
}

void idiom__policy_started(double seconds) {
    pthread_mutex_lock(&policy_lock);
    if (seconds >= 0.0 && seconds < 60.0) {
        start_up_seen = seconds;
        started_here = 1;
        dirty = 1;
    }
    pthread_mutex_unlock(&policy_lock);
}

int idiom__policy_runs_as_compiled(const char *device) {
    pthread_mutex_lock(&policy_lock);
    ensure_loaded(device);
    load_runs();
    int as_compiled = runs_as_compiled > 0;
    if (as_compiled) {
        runs_as_compiled--;
        compiled_run = 1;
        save_runs(); /* now: a run that crashes or calls _exit still counts */
    } else {
        judged_run = 1;
    }
    pthread_mutex_unlock(&policy_lock);
    return as_compiled;
}

int idiom__policy_loads_at_first_launch(const char *device) {
    pthread_mutex_lock(&policy_lock);
    ensure_loaded(device);
    load_runs();
    int loads = start_up_paid > 0 &&
                (runs_as_compiled == 0 || idiom__env_int("IDIOM_AUTO_AS_COMPILED", 1) == 0);
    pthread_mutex_unlock(&policy_lock);
    return loads;
}
