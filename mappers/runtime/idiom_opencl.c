/* idiom_cl_run: OpenCL launches of generated kernels.
 *
 * State, created lazily under one mutex and kept for the life of the process: the chosen CPU
 * and GPU devices, one context and in-order queue per device, and the built programs keyed by
 * (source text, device). Each launch creates its own kernel object and buffers and releases
 * them before returning, so launches from several threads share nothing mutable but the queue,
 * which OpenCL makes safe. Host memory is written only by the final blocking reads, after the
 * kernel is known to have completed. Queues are created with profiling enabled, so that each
 * launch knows its kernel's device time (for IDIOM_STATS).
 */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120

#include <dirent.h>
#ifdef __linux__
#include <malloc.h> /* mallopt: glibc's */
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CL/cl.h>

#include "idiom_internal.h"
#include "idiom_memo.h"
#include "idiom_policy.h"
#include "idiom_resident.h"
#include "idiom_tune.h"


enum { SLOT_CPU = 0, SLOT_GPU = 1, SLOTS = 2 };

typedef struct {
    int present;
    int broken; /* context creation failed: reported once, never retried */
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    char name[256];
    char driver[256];
    char platform_version[256];
    const char *options; /* the build options: float division and sqrt rounded as C's */
    uint64_t budget; /* bytes that resident copies may take: half the device's memory */
    int64_t fill; /* work-items that fill the device (IDIOM_CL_FILL); 0: as asked */
} device_slot;

typedef struct program_entry {
    struct program_entry *next;
    uint64_t hash;
    int slot;
    char *source;       /* a copy: the key is the text, whatever pointer it came from */
    cl_program program; /* NULL when the build failed (already reported) */
} program_entry;

/* Where a launch spent its time; kernel and transfer are negative until measured. */
typedef struct {
    double kernel;   /* the kernel's device execution time, from the event's profiling info */
    double transfer; /* host wall time of the blocking buffer writes and reads */
    double build;    /* building or loading the program during this call */
    idiom_traffic traffic;
    idiom_choice choice; /* auto's, when it chose (reason NULL otherwise) */
    int replayed;        /* a check's outputs written again, nothing launched */
    int asynchronous;    /* returned before the kernel ran (its kernel time unknown) */
    double wait; /* host time waiting for the device to finish the kernel and what was queued
                    before it (a launch after ones that did not wait finishes theirs too) */
    double enqueue; /* host time in clEnqueueNDRangeKernel: the driver's, which blocks there
                       while its queue to the device is full */
    /* The runtime's own parts of the host time (IDIOM_STATS): choosing the device and
       finding the program; placing the buffers (residency); setting the arguments; what
       follows the enqueue but the wait (copies queued, results kept, flushes); protecting
       the device copies again. */
    double choose, prepare, bind, after, guard;
} cl_timing;

static pthread_mutex_t cl_lock = PTHREAD_MUTEX_INITIALIZER;
static int discovered;
static char discovery_problem[256];
static device_slot slots[SLOTS];
static program_entry *programs;

/* Names of the errors a launch can meet, for warnings a user can act on. */
static const char *cl_error_name(cl_int err) {
    switch (err) {
    case CL_DEVICE_NOT_AVAILABLE:
        return "CL_DEVICE_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
        return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES:
        return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY:
        return "CL_OUT_OF_HOST_MEMORY";
    case CL_BUILD_PROGRAM_FAILURE:
        return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_VALUE:
        return "CL_INVALID_VALUE";
    case CL_INVALID_BINARY:
        return "CL_INVALID_BINARY";
    case CL_INVALID_KERNEL_NAME:
        return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_ARG_INDEX:
        return "CL_INVALID_ARG_INDEX";
    case CL_INVALID_ARG_VALUE:
        return "CL_INVALID_ARG_VALUE";
    case CL_INVALID_ARG_SIZE:
        return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_KERNEL_ARGS:
        return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_GROUP_SIZE:
        return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE:
        return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_WORK_SIZE:
        return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_INVALID_BUFFER_SIZE:
        return "CL_INVALID_BUFFER_SIZE";
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST:
        return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
    default:
        return "see CL/cl.h";
    }
}

static const char *slot_kind(int slot) {
    return slot == SLOT_GPU ? "GPU" : "CPU";
}

/* Finds the first CPU and the first GPU device over all platforms. Called under cl_lock. */
static void discover(void) {
    if (discovered) {
        return;
    }
    discovered = 1;
    cl_uint count = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &count);
    if (err != CL_SUCCESS || count == 0) {
        snprintf(discovery_problem, sizeof discovery_problem,
                 "no OpenCL platform found, clGetPlatformIDs returned %d", (int)err);
        return;
    }
    cl_platform_id *platforms = calloc(count, sizeof *platforms);
    if (platforms == NULL || clGetPlatformIDs(count, platforms, NULL) != CL_SUCCESS) {
        snprintf(discovery_problem, sizeof discovery_problem, "cannot list OpenCL platforms");
        free(platforms);
        return;
    }
    static const cl_device_type types[SLOTS] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU};
    for (cl_uint p = 0; p < count; p++) {
        for (int s = 0; s < SLOTS; s++) {
            cl_device_id device = NULL;
            if (slots[s].present ||
                clGetDeviceIDs(platforms[p], types[s], 1, &device, NULL) != CL_SUCCESS) {
                continue;
            }
            device_slot *slot = &slots[s];
            slot->present = 1;
            slot->platform = platforms[p];
            slot->device = device;
            clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof slot->name - 1, slot->name, NULL);
            clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof slot->driver - 1, slot->driver,
                            NULL);
            clGetPlatformInfo(platforms[p], CL_PLATFORM_VERSION,
                              sizeof slot->platform_version - 1, slot->platform_version, NULL);
            /* OpenCL's float division and sqrt may be 2.5 and 3 ulp off unless asked to
               round them correctly, as C does; a device that can is asked. */
            cl_device_fp_config single = 0;
            clGetDeviceInfo(device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof single, &single, NULL);
            cl_uint units = 0;
            clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
            slot->fill = types[s] == CL_DEVICE_TYPE_GPU ? (int64_t)units * 2048 : 0;
            /* NVIDIA's devices run warps of 32 and take inline PTX: the generated kernels
               use its warp instructions where this macro is defined (lift/opencl/
               lookback.py, WARP_DEVICE; nothing its compiler defines says so itself). */
            char vendor[256] = {0};
            clGetDeviceInfo(device, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL);
            int warps = types[s] == CL_DEVICE_TYPE_GPU && strstr(vendor, "NVIDIA") != NULL;
            int rounded = (single & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
            slot->options = rounded ? (warps ? "-cl-fp32-correctly-rounded-divide-sqrt "
                                               "-DIDIOM_NVIDIA_WARPS=1"
                                             : "-cl-fp32-correctly-rounded-divide-sqrt")
                                    : (warps ? "-DIDIOM_NVIDIA_WARPS=1" : "");
        }
    }
    free(platforms);
    if (!slots[SLOT_CPU].present && !slots[SLOT_GPU].present) {
        snprintf(discovery_problem, sizeof discovery_problem,
                 "%u OpenCL platform(s) but no CPU or GPU device", (unsigned)count);
    }
}

#define SLOT_DECLINED (-2)

/* The work-items of a grid launched with IDIOM_CL_FILL on `slot` (idiom_runtime.h): at least
   `asked`, at most the device's fill, each taking IDIOM_CL_FILL_SHARE of `work` or more;
   whole work-groups of `local` (or of 256 where the driver chooses). */
static int64_t fill_items(const device_slot *slot) {
    static int64_t forced = -1; /* IDIOM_CL_FILL_ITEMS, read once (under cl_lock) */
    if (forced < 0) {
        const char *text = getenv("IDIOM_CL_FILL_ITEMS");
        long long items = text != NULL ? atoll(text) : 0;
        forced = items > 0 ? items : 0;
    }
    return forced > 0 ? forced : slot->fill;
}

static int64_t filled_grid(const device_slot *slot, int64_t asked, const int64_t *local,
                           int64_t work) {
    int64_t fill = fill_items(slot);
    int64_t group = local != NULL ? local[0] : 256;
    int64_t iterations = work < 0 ? -(work + 1) : work;
    int64_t items = iterations / IDIOM_CL_FILL_SHARE;
    items = items < fill ? items : fill;
    items = (items + group - 1) / group * group;
    return items > asked ? items : asked;
}

/* The most work-items a group of `kernel` of `program` may have on `slot`'s device
   (CL_KERNEL_WORK_GROUP_SIZE), asked once a kernel of a program (programs are never freed);
   0 where it cannot be asked. Under cl_lock. */
static size_t kernel_group_limit(const device_slot *slot, cl_program program, const char *kernel) {
    enum { REMEMBERED = 64 };
    static cl_program programs[REMEMBERED];
    static char names[REMEMBERED][64];
    static size_t limits[REMEMBERED];
    static int count;
    for (int i = 0; i < count; i++) {
        if (programs[i] == program && strncmp(names[i], kernel, sizeof names[i]) == 0) {
            return limits[i];
        }
    }
    size_t allowed = 0;
    cl_int err = CL_SUCCESS;
    cl_kernel object = clCreateKernel(program, kernel, &err);
    if (object == NULL || err != CL_SUCCESS ||
        clGetKernelWorkGroupInfo(object, slot->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof allowed,
                                 &allowed, NULL) != CL_SUCCESS) {
        allowed = 0;
    }
    if (object != NULL) {
        clReleaseKernel(object);
    }
    if (count < REMEMBERED && strlen(kernel) < sizeof names[0]) {
        programs[count] = program;
        strcpy(names[count], kernel);
        limits[count++] = allowed;
    }
    return allowed;
}

/* A grid launched with IDIOM_CL_FILL | IDIOM_CL_WIDE (idiom_runtime.h), once `filled_grid`
   has sized it: where it fills the device, its work-groups widened to IDIOM_CL_FILL_GROUP
   work-items, a power of two times those asked and at most what the kernel allows, and the
   grid rounded up to whole groups (its items stride: any number computes the same). A grid
   that does not fill the device keeps its groups, so that it still spreads over every
   compute unit. Under cl_lock. */
static void widen_filled_groups(const device_slot *slot, cl_program program, const char *kernel,
                                int64_t *global, int64_t *local) {
    int64_t fill = fill_items(slot);
    if (fill <= 0 || global[0] < fill) {
        return;
    }
    size_t allowed = kernel_group_limit(slot, program, kernel);
    int64_t group = local[0];
    while (group * 2 <= IDIOM_CL_FILL_GROUP && (size_t)(group * 2) <= allowed) {
        group *= 2;
    }
    local[0] = group;
    global[0] = (global[0] + group - 1) / group * group;
}

/* Launches moving at most this many bytes measure the site's overhead (idiom_policy.h). */
#define MEASURED_TRAFFIC ((int64_t)64 << 10)

/* `auto` found no device to use: from now on every launch declines, and the guards learn it
   first (idiom_cl_min_work_known), so they stop calling here. */
static int auto_found_no_gpu; /* under cl_lock */

static int no_gpu_for_auto(void) {
    if (!auto_found_no_gpu) {
        auto_found_no_gpu = 1;
        idiom__trace("auto: no %s here; loops run as compiled",
                     idiom__auto_device_is_cpu() ? "OpenCL CPU device" : "GPU");
    }
    atomic_store_explicit(&idiom_cl_min_work_known, INT64_MAX, memory_order_relaxed);
    return SLOT_DECLINED;
}

/* The device slot IDIOM_DEVICE=cpu or gpu names, or -1 after a warning. (`auto` goes through
 * auto_choice: it uses a GPU only, IDIOM_AUTO_DEVICE=cpu making it consider the CPU device
 * instead, for tests: measured on a 2-core machine, PoCL kernels copying their data at every
 * call ran bandwidth-bound loops 2 to 15 times slower than the compiled originals,
 * docs/acceleration.md.) Called under cl_lock. */
static int choose_slot(idiom_mode mode) {
    discover();
    if (!slots[SLOT_CPU].present && !slots[SLOT_GPU].present) {
        idiom__warn_once("no OpenCL device (%s); running the original code", discovery_problem);
        return -1;
    }
    int want = mode == IDIOM_MODE_CPU ? SLOT_CPU : SLOT_GPU;
    if (!slots[want].present) {
        idiom__warn_once("IDIOM_DEVICE=%s but no OpenCL %s device; running the original code",
                         mode == IDIOM_MODE_CPU ? "cpu" : "gpu", slot_kind(want));
        return -1;
    }
    return want;
}

/* A context and an in-order queue on `device`, and half the device's memory as the runtime's
   budget; 0 (with the error in *err) where the device cannot be opened. Touches no shared
   state: the platform's loader calls it outside cl_lock. */
static int open_context(cl_platform_id platform, cl_device_id device, cl_context *context_out,
                        cl_command_queue *queue_out, cl_ulong *budget, cl_int *err) {
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    *err = CL_SUCCESS;
    cl_context context = clCreateContext(props, 1, &device, NULL, NULL, err);
    if (context == NULL || *err != CL_SUCCESS) {
        return 0;
    }
    cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, err);
    if (queue == NULL || *err != CL_SUCCESS) { /* profiling is mandatory, but be lenient */
        queue = clCreateCommandQueue(context, device, 0, err);
    }
    if (queue == NULL || *err != CL_SUCCESS) {
        clReleaseContext(context);
        return 0;
    }
    cl_ulong memory = 0;
    clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof memory, &memory, NULL);
    *budget = memory / 2;
    *context_out = context;
    *queue_out = queue;
    return 1;
}

/* The slot takes what open_context gave, or is marked broken (warned once). Under cl_lock. */
static int settle_context(device_slot *slot, int opened, cl_context context,
                          cl_command_queue queue, cl_ulong budget, cl_int err) {
    if (opened) {
        slot->budget = budget;
        slot->context = context;
        slot->queue = queue;
        return 1;
    }
    slot->broken = 1;
    idiom__warn_once("cannot open the OpenCL device '%s' (error %d); running the original code",
                     slot->name, (int)err);
    return 0;
}

/* The slot's context and queue, created on first use. Called under cl_lock. */
static int ensure_context(int s) {
    device_slot *slot = &slots[s];
    if (slot->context != NULL) {
        return 1;
    }
    if (slot->broken) {
        return 0;
    }
    cl_context context = NULL;
    cl_command_queue queue = NULL;
    cl_ulong budget = 0;
    cl_int err = CL_SUCCESS;
    int opened = open_context(slot->platform, slot->device, &context, &queue, &budget, &err);
    return settle_context(slot, opened, context, queue, budget, err);
}

/* ---- on-disk cache of program binaries ------------------------------------------------- */

/* The cache key: everything that makes a binary valid for a device. */
static char *cache_key(const char *source, const device_slot *slot, size_t *len) {
    size_t source_len = strlen(source);
    size_t n = source_len + strlen(slot->name) + strlen(slot->driver) +
               strlen(slot->platform_version) + strlen(slot->options) + 5;
    char *key = malloc(n);
    if (key != NULL) {
        /* NUL separators: the parts cannot run into each other. */
        char *p = key;
        memcpy(p, source, source_len + 1);
        p += source_len + 1;
        p = stpcpy(p, slot->name) + 1;
        p = stpcpy(p, slot->driver) + 1;
        p = stpcpy(p, slot->platform_version) + 1;
        p = stpcpy(p, slot->options) + 1;
        *len = (size_t)(p - key);
    }
    return key;
}

/* A program built from the cached binary, or NULL (no entry, stale, rejected by the driver). */
static cl_program cache_load(const device_slot *slot, const char *key, size_t key_len) {
    unsigned char *binary = NULL;
    size_t len = 0;
    if (!idiom__cache_read(key, key_len, &binary, &len)) {
        return NULL;
    }
    const unsigned char *bins[1] = {binary};
    cl_int bin_status = CL_SUCCESS;
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithBinary(slot->context, 1, &slot->device, &len, bins,
                                                   &bin_status, &err);
    free(binary);
    if (program != NULL && (err != CL_SUCCESS || bin_status != CL_SUCCESS ||
                            clBuildProgram(program, 1, &slot->device, slot->options, NULL, NULL) !=
                                CL_SUCCESS)) {
        clReleaseProgram(program);
        program = NULL;
    }
    return program;
}

/* Stores the program's binary; any failure just leaves the cache without it. */
static void cache_store(cl_program program, const char *key, size_t key_len) {
    size_t len = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) !=
            CL_SUCCESS ||
        len == 0) {
        return;
    }
    unsigned char *binary = malloc(len);
    unsigned char *bins[1] = {binary};
    if (binary != NULL &&
        clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS) {
        idiom__cache_write(key, key_len, binary, len);
    }
    free(binary);
}

/* ---- programs ---------------------------------------------------------------------------- */

static void print_build_log(const device_slot *slot, cl_program program, const char *kernel,
                            cl_int err) {
    size_t size = 0;
    char *log = NULL;
    if (clGetProgramBuildInfo(program, slot->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) ==
            CL_SUCCESS &&
        size > 0) {
        log = calloc(size + 1, 1);
        if (log != NULL && clGetProgramBuildInfo(program, slot->device, CL_PROGRAM_BUILD_LOG,
                                                 size, log, NULL) != CL_SUCCESS) {
            log[0] = '\0';
        }
    }
    fprintf(stderr,
            "idiom: cannot build the OpenCL program of kernel '%s' for '%s' (error %d); "
            "running the original code\n%s%s",
            kernel, slot->name, (int)err, log != NULL ? log : "",
            log != NULL && *log != '\0' && log[strlen(log) - 1] != '\n' ? "\n" : "");
    free(log);
}

/* The hash of `source`, remembered by pointer: the rewritten program passes each kernel's
   source as a constant, tens of kilobytes for some, and hashing it at every launch cost more
   than the rest of the lookup. A pointer reused for another text gives a stale hash: the
   program lookup below then misses (the text is compared too) and builds again, never
   launching the wrong kernel. NAS BT embeds a few hundred kernels, two sources each: with
   64 places, hashing them again and again took 3.5% of BT class W's samples where every
   call reaches the runtime (0.2% with 1024). Called under cl_lock. */
static uint64_t source_hash(const char *source) {
    enum { MEMO_BITS = 10, MEMO = 1 << MEMO_BITS };
    static struct {
        const char *source;
        uint64_t hash;
    } memo[MEMO];
    size_t at = (size_t)(((uint64_t)(uintptr_t)source * UINT64_C(0x9e3779b97f4a7c15)) >>
                         (64 - MEMO_BITS));
    if (memo[at].source != source) {
        memo[at].source = source;
        memo[at].hash = idiom__fnv1a(IDIOM_FNV_START, source, strlen(source));
    }
    return memo[at].hash;
}

/* The built program of `source` (`hash`: source_hash's) on slot `s`, or NULL after a report.
   Called under cl_lock: a build happens once per (source, device), whichever thread asks
   first. `build_seconds` gets the time spent building or loading it, 0 when in memory. */
static cl_program get_program(int s, const char *source, uint64_t hash, const char *kernel,
                              double *build_seconds) {
    *build_seconds = 0.0;
    for (program_entry *e = programs; e != NULL; e = e->next) {
        if (e->hash == hash && e->slot == s && strcmp(e->source, source) == 0) {
            return e->program;
        }
    }
    double start = idiom__now();
    program_entry *entry = calloc(1, sizeof *entry);
    char *copy = strdup(source);
    if (entry == NULL || copy == NULL) {
        free(entry);
        free(copy);
        idiom__warn_once("out of memory; running the original code");
        return NULL;
    }
    entry->hash = hash;
    entry->slot = s;
    entry->source = copy;

    device_slot *slot = &slots[s];
    size_t key_len = 0;
    char *key = cache_key(source, slot, &key_len);
    cl_program program = key != NULL ? cache_load(slot, key, key_len) : NULL;
    const char *origin = "disk cache";
    if (program == NULL) {
        origin = "source";
        cl_int err = CL_SUCCESS;
        program = clCreateProgramWithSource(slot->context, 1, &source, NULL, &err);
        if (program == NULL || err != CL_SUCCESS) {
            idiom__warn_once("clCreateProgramWithSource failed (error %d) for kernel '%s'; "
                             "running the original code",
                             (int)err, kernel);
            program = NULL;
        } else {
            err = clBuildProgram(program, 1, &slot->device, slot->options, NULL, NULL);
            if (err != CL_SUCCESS) {
                print_build_log(slot, program, kernel, err);
                clReleaseProgram(program);
                program = NULL;
            } else if (key != NULL) {
                cache_store(program, key, key_len);
            }
        }
    }
    free(key);
    if (program != NULL) {
        idiom__trace("built the program of kernel '%s' for '%s' from %s", kernel, slot->name,
                     origin);
    }
    /* A failed build is remembered too, so its log is printed once and never rebuilt. */
    entry->program = program;
    entry->next = programs;
    programs = entry;
    *build_seconds = idiom__now() - start;
    return program;
}

/* ---- launches ---------------------------------------------------------------------------- */

static int is_buffer(int32_t kind) {
    return kind == IDIOM_ARG_IN || kind == IDIOM_ARG_OUT || kind == IDIOM_ARG_INOUT;
}

/* What is wrong with the call, or NULL. A caller's mistake is reported (once) rather than
   crashing: the original code still runs. */
static const char *invalid_call(const char *source, const char *kernel, int32_t dims,
                                const int64_t *global, const int64_t *local, int32_t nargs,
                                const idiom_arg *args) {
    if (source == NULL || kernel == NULL) {
        return "no source or kernel name";
    }
    if (dims < 1 || dims > 3 || global == NULL) {
        return "dims must be 1, 2 or 3, with a global size";
    }
    for (int32_t d = 0; d < dims; d++) {
        if (global[d] < 0) {
            return "negative global size";
        }
        if (local != NULL && (local[d] <= 0 || global[d] % local[d] != 0)) {
            return "a local size that does not divide the global size";
        }
    }
    if (nargs < 0 || (nargs > 0 && args == NULL)) {
        return "no argument array";
    }
    for (int32_t i = 0; i < nargs; i++) {
        const idiom_arg *arg = &args[i];
        if (arg->bytes < 0 || arg->kind < IDIOM_ARG_IN || arg->kind > IDIOM_ARG_SCRATCH) {
            return "an argument of unknown kind or negative size";
        }
        if (is_buffer(arg->kind) && arg->bytes > 0 && arg->ptr == NULL) {
            return "a buffer argument without a host pointer";
        }
        if (arg->kind == IDIOM_ARG_SCALAR && (arg->bytes == 0 || arg->ptr == NULL)) {
            return "a scalar argument without a value";
        }
    }
    return NULL;
}

static void cl_warn(cl_int err, const char *what, const char *kernel, const device_slot *slot) {
    idiom__warn_once("OpenCL error %d (%s) in %s for kernel '%s' on '%s'; running the original "
                     "code",
                     (int)err, cl_error_name(err), what, kernel, slot->name);
}

/* The device time of a completed command, or -1 when the driver cannot say. */
static double event_seconds(cl_event event) {
    cl_ulong start = 0;
    cl_ulong end = 0;
    if (clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) !=
            CL_SUCCESS ||
        clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) !=
            CL_SUCCESS ||
        end < start) {
        return -1.0;
    }
    return (double)(end - start) * 1e-9;
}

/* ---- outputs handed to the launch that continues it --------------------------------------
 *
 * A reduction's first kernel writes partial results that only its final fold, the next launch
 * on this thread, reads (IDIOM_ARG_HANDOFF, then IDIOM_ARG_CONTINUES): they stay in the first
 * launch's device buffer instead of going to the host and back (two transfers and a wait).
 * The host's copy of them is then stale: a continuing launch that finds such a pointer handed
 * off but not to its device, or no longer held, fails (the original code runs) rather than
 * read it. Called under the residency lock, like every launch. */

#define HANDOFFS 32 /* a reduction hands off a buffer per lane and its flags */

typedef struct {
    int slot;
    const void *ptr;
    int64_t bytes;
    cl_mem mem; /* NULL: released; the host's bytes are stale all the same */
} handoff;

static _Thread_local handoff handoffs[HANDOFFS];
static _Thread_local int handoff_count;

/* Gives the held buffers back to the pool; `forget` also drops what says the host's bytes
   are stale (a launch handing off new ones). */
static void release_handoffs(int forget) {
    for (int i = 0; i < handoff_count; i++) {
        if (handoffs[i].mem != NULL) {
            idiom__pool_give(handoffs[i].slot, handoffs[i].mem, (size_t)handoffs[i].bytes);
            handoffs[i].mem = NULL;
        }
    }
    if (forget) {
        handoff_count = 0;
    }
}

/* The buffer handed off for a continuing input, taken (NULL with CL_SUCCESS: none was). */
static cl_mem take_handoff(int s, const idiom_arg *arg, cl_int *err) {
    *err = CL_SUCCESS;
    for (int i = 0; i < handoff_count; i++) {
        handoff *h = &handoffs[i];
        if (h->ptr == arg->ptr && h->bytes == arg->bytes) {
            cl_mem mem = h->slot == s ? h->mem : NULL;
            h->mem = NULL;
            *err = mem != NULL ? CL_SUCCESS : CL_INVALID_MEM_OBJECT;
            return mem;
        }
    }
    return NULL;
}

/* Keeps `mem` for the continuing launch; where no room is left, its bytes go to the host
   instead (0 on success). */
static cl_int keep_handoff(const device_slot *slot, int s, const idiom_arg *arg, cl_mem mem) {
    if (handoff_count < HANDOFFS) {
        handoffs[handoff_count++] = (handoff){s, arg->ptr, arg->bytes, mem};
        return CL_SUCCESS;
    }
    cl_int err = clEnqueueReadBuffer(slot->queue, mem, CL_TRUE, 0, (size_t)arg->bytes, arg->ptr,
                                     0, NULL, NULL);
    idiom__pool_give(s, mem, (size_t)arg->bytes);
    return err;
}

static int handed_off(const idiom_arg *arg) {
    return arg->kind == IDIOM_ARG_OUT && (arg->flags & IDIOM_ARG_HANDOFF) && arg->bytes > 0;
}

/* After a launch that completed (or will): its handed-off outputs' buffers are kept for the
   launch that continues it, instead of going back to the pool. */
static cl_int keep_handoffs(const device_slot *slot, int s, int32_t nargs, const idiom_arg *args,
                            cl_mem *mems) {
    int first = 1;
    cl_int err = CL_SUCCESS;
    for (int32_t i = 0; i < nargs && err == CL_SUCCESS; i++) {
        if (handed_off(&args[i]) && mems[i] != NULL) {
            if (first) {
                release_handoffs(1);
                first = 0;
            }
            err = keep_handoff(slot, s, &args[i], mems[i]);
            mems[i] = NULL;
        }
    }
    return err;
}

/* ---- small inputs copied through memory of the runtime's own -------------------------------
 *
 * A launch's small host inputs (its packed parameters, a row's bounds) are copied to the
 * device without waiting. Read straight from the program's memory, the copy would make the
 * launch wait for it (the program may change those bytes, or release the stack holding them,
 * as soon as the call returns); copied first into a staging area that the runtime keeps until
 * the queue has run past them, they let the launch return at once. The area is reused after a
 * clFinish once it is full. Called under the residency lock. */

#define STAGED_MAX 4096          /* bytes: larger inputs are read from the program's memory */
#define STAGING_BYTES (1 << 20) /* per device */

static struct {
    unsigned char *base;
    size_t used;
} staging[SLOTS];

const void *idiom__stage(int s, cl_command_queue queue, const void *data, size_t bytes) {
    if (bytes > STAGED_MAX) {
        return NULL;
    }
    size_t rounded = (bytes + 63) & ~(size_t)63;
    if (staging[s].base == NULL) {
        staging[s].base = malloc(STAGING_BYTES);
        if (staging[s].base == NULL) {
            return NULL;
        }
    }
    if (staging[s].used + rounded > STAGING_BYTES) {
        if (clFinish(queue) != CL_SUCCESS) {
            return NULL;
        }
        staging[s].used = 0;
    }
    unsigned char *copy = staging[s].base + staging[s].used;
    staging[s].used += rounded;
    memcpy(copy, data, bytes);
    return copy;
}

/* Queues the copy of `arg`'s first `bytes` bytes into `mem`, without waiting: from a staged
   copy where the bytes are small (counted in `staged`), else from the program's memory. */
static cl_int upload(const device_slot *slot, int s, cl_mem mem, const idiom_arg *arg,
                     size_t bytes, idiom_traffic *traffic, int64_t *staged) {
    double start = idiom__now();
    const void *from = idiom__stage(s, slot->queue, arg->ptr, bytes);
    *staged += from != NULL ? arg->bytes : 0;
    cl_int err = clEnqueueWriteBuffer(slot->queue, mem, CL_FALSE, 0, bytes,
                                      from != NULL ? from : arg->ptr, 0, NULL, NULL);
    traffic->seconds += idiom__now() - start;
    traffic->uploaded += arg->bytes;
    return err;
}

/* ---- small inputs that did not change since the kernel's last launch ----------------------
 *
 * A kernel's packed parameters (its loop's bounds and strides) are mostly the same from one
 * launch to the next (a solver's vector update, a time loop's sweep). Each small input of a
 * kernel keeps a device buffer of its own with the bytes last copied into it: equal bytes are
 * not copied again (the copy is a command of its own: about 10 us on the H100 machine), new
 * ones are copied into it behind the launches already queued, which read the old ones first
 * (the queue is in order). Called under the residency lock. */

#define KEPT_INPUTS 128

typedef struct {
    cl_kernel kernel; /* NULL: free */
    cl_uint index;
    int slot;
    size_t bytes;
    cl_mem mem;
    unsigned char *data; /* the bytes the device buffer holds */
    uint64_t used;       /* for replacing the least recently used */
} kept_input;

static kept_input kept_inputs[KEPT_INPUTS];
static uint64_t kept_uses;

static kept_input *kept_input_for(cl_kernel kernel, cl_uint index, int s, size_t bytes) {
    kept_input *oldest = &kept_inputs[0];
    for (int i = 0; i < KEPT_INPUTS; i++) {
        kept_input *k = &kept_inputs[i];
        if (k->kernel == kernel && k->index == index && k->slot == s && k->bytes == bytes) {
            return k;
        }
        oldest = k->used < oldest->used ? k : oldest;
    }
    if (oldest->kernel != NULL) { /* a queued launch may still read it: released when done */
        clReleaseMemObject(oldest->mem);
        free(oldest->data);
    }
    memset(oldest, 0, sizeof *oldest);
    return oldest;
}

/* The device buffer holding `arg`'s bytes for this kernel argument, copied there only where
   they changed; NULL where none can be kept (the launch copies the bytes as any input's). */
static cl_mem kept_input_buffer(const device_slot *slot, int s, cl_kernel kernel, cl_uint index,
                                const idiom_arg *arg, idiom_traffic *traffic, int64_t *staged,
                                cl_int *err) {
    size_t bytes = (size_t)arg->bytes;
    kept_input *k = kept_input_for(kernel, index, s, bytes);
    k->used = ++kept_uses;
    if (k->kernel != NULL && memcmp(k->data, arg->ptr, bytes) == 0) {
        return k->mem;
    }
    if (k->kernel == NULL) {
        k->data = malloc(bytes);
        k->mem = k->data != NULL
                     ? clCreateBuffer(slot->context, CL_MEM_READ_ONLY, bytes, NULL, err)
                     : NULL;
        if (k->mem == NULL || *err != CL_SUCCESS) {
            free(k->data);
            memset(k, 0, sizeof *k);
            *err = CL_SUCCESS;
            return NULL;
        }
        k->kernel = kernel;
        k->index = index;
        k->slot = s;
        k->bytes = bytes;
    }
    *err = upload(slot, s, k->mem, arg, bytes, traffic, staged);
    if (*err != CL_SUCCESS) {
        clReleaseMemObject(k->mem);
        free(k->data);
        memset(k, 0, sizeof *k);
        return NULL;
    }
    memcpy(k->data, arg->ptr, bytes);
    return k->mem;
}

/* Sets up buffer argument `i`: a resident one is bound to its entry (acquired beforehand), any
   other gets a buffer of its own, filled from the host unless it is an output. Returns the
   kernel argument index after it. */
static cl_int bind_buffer(const device_slot *slot, int s, cl_kernel kernel, cl_uint index,
                          idiom_arg *arg, int resident, cl_mem *own, idiom_traffic *traffic,
                          int64_t *staged) {
    cl_int err = CL_SUCCESS;
    cl_mem mem = NULL;
    cl_long offset = 0;
    if (resident) {
        size_t at = 0;
        uintptr_t lo = (uintptr_t)arg->ptr;
        mem = idiom__resident_find(s, lo, lo + (uintptr_t)arg->bytes, &at);
        if (mem == NULL) {
            return CL_INVALID_MEM_OBJECT; /* acquired just before: cannot happen */
        }
        offset = (cl_long)at;
        int shift = IDIOM_ARG_ELEMENT_SHIFT(arg->flags);
        if (shift >= 0) {
            if (at % ((size_t)1 << shift) != 0) {
                idiom__warn_once("a buffer of kernel argument %u starts inside an element of "
                                 "its device buffer; running the original code",
                                 (unsigned)index);
                return CL_MISALIGNED_SUB_BUFFER_OFFSET;
            }
            offset = (cl_long)(at >> shift);
        }
    } else if (arg->kind == IDIOM_ARG_IN && (arg->flags & IDIOM_ARG_CONTINUES) &&
               (*own = take_handoff(s, arg, &err)) != NULL) {
        mem = *own; /* the launch before left it on the device */
    } else if (err == CL_SUCCESS && arg->kind == IDIOM_ARG_IN &&
               !(arg->flags & IDIOM_ARG_CONTINUES) && arg->bytes > 0 &&
               arg->bytes <= STAGED_MAX &&
               (mem = kept_input_buffer(slot, s, kernel, index, arg, traffic, staged, &err)) !=
                   NULL) {
        /* kept by the runtime, not the launch's own: nothing to give back to the pool */
    } else {
        if (err != CL_SUCCESS) {
            return err; /* handed off, not to this device: the host's bytes are stale */
        }
        /* OpenCL forbids empty buffers: a 0-byte argument gets 1 byte nobody reads. */
        size_t size = arg->bytes > 0 ? (size_t)arg->bytes : 1;
        *own = idiom__pool_take(s, slot->context, size, &err);
        if (*own == NULL || err != CL_SUCCESS) {
            *own = NULL;
            return err != CL_SUCCESS ? err : CL_MEM_OBJECT_ALLOCATION_FAILURE;
        }
        mem = *own;
        if (arg->kind != IDIOM_ARG_OUT && arg->bytes > 0) {
            /* Not blocking: the in-order queue runs it before the kernel, which the launch
               waits for (and a failed launch waits with clFinish before returning), unless
               the bytes were staged: then the launch need not wait for the copy. */
            err = upload(slot, s, mem, arg, size, traffic, staged);
            if (err != CL_SUCCESS) {
                return err;
            }
        }
    }
    err = idiom__set_arg(kernel, index, sizeof(cl_mem), &mem, 0);
    if (err == CL_SUCCESS && (arg->flags & IDIOM_ARG_RESIDENT)) {
        err = idiom__set_arg(kernel, index + 1, sizeof offset, &offset, 1);
    }
    return err;
}

/* An early launch's queue is flushed when the last flush is older than this. NVIDIA's queue
   starts kernels without a flush, which costs 1.3 us a launch there (6.8 against 8.1 us for an
   enqueue, H200, docs/results/gpu_host_cost_h200_2026-11-30.txt): short launches pay it once an
   interval, and a queue that waits for a flush leaves its device idle for at most this long
   (every wait flushes too: clFinish, a blocking read). */
#define FLUSH_INTERVAL_S 50e-6

static void flush_now_and_then(const device_slot *slot, int s) {
    static double last_flush[SLOTS]; /* under the residency lock, as every launch */
    double now = idiom__now();
    if (now - last_flush[s] >= FLUSH_INTERVAL_S) {
        clFlush(slot->queue);
        last_flush[s] = now;
    }
}

/* Sets up scratch argument `index`: a buffer of its own, zeroed on the device (the host has no
   copy of it, so nothing of the host's is evicted, uploaded or read back). */
static cl_int bind_scratch(const device_slot *slot, int s, cl_kernel kernel, cl_uint index,
                           const idiom_arg *arg, cl_mem *own) {
    size_t size = arg->bytes > 0 ? (size_t)arg->bytes : 1; /* OpenCL forbids empty buffers */
    cl_int err = CL_SUCCESS;
    *own = idiom__pool_take(s, slot->context, size, &err);
    if (*own == NULL || err != CL_SUCCESS) {
        *own = NULL;
        return err != CL_SUCCESS ? err : CL_MEM_OBJECT_ALLOCATION_FAILURE;
    }
    const cl_uchar zero = 0;
    /* Not blocking: the in-order queue runs it before the kernel. */
    err = clEnqueueFillBuffer(slot->queue, *own, &zero, sizeof zero, 0, size, 0, NULL, NULL);
    if (err == CL_SUCCESS) {
        err = idiom__set_arg(kernel, index, sizeof(cl_mem), own, 0);
    }
    return err;
}

/* Before any buffer is made: non-resident buffers evict the device copies they overlap (so the
   host holds the latest bytes), then the resident ones get their entries. */
static cl_int prepare_residency(const device_slot *slot, int s, int32_t nargs,
                                const idiom_arg *args, int resident_mode,
                                idiom_traffic *traffic) {
    cl_int err = CL_SUCCESS;
    for (int32_t i = 0; i < nargs && err == CL_SUCCESS; i++) {
        const idiom_arg *arg = &args[i];
        if (is_buffer(arg->kind) && arg->bytes > 0 &&
            !(resident_mode && (arg->flags & IDIOM_ARG_RESIDENT))) {
            uintptr_t lo = (uintptr_t)arg->ptr;
            err = idiom__resident_evict(lo, lo + (uintptr_t)arg->bytes, traffic);
        }
    }
    uint64_t generation = idiom__resident_generation();
    for (int32_t pass = 0; pass < 2 && resident_mode; pass++) {
        /* Twice: an entry made for one argument may grow into another's, evicting it. */
        for (int32_t i = 0; i < nargs && err == CL_SUCCESS; i++) {
            const idiom_arg *arg = &args[i];
            if (is_buffer(arg->kind) && arg->bytes > 0 && (arg->flags & IDIOM_ARG_RESIDENT)) {
                uintptr_t lo = (uintptr_t)arg->ptr;
                /* An output's edges too: the kernel may not write every byte of its range,
                   and the bytes it does not write go back to the host with the rest. */
                err = idiom__resident_acquire(s, slot->context, slot->queue, slot->budget,
                                              generation, lo, lo + (uintptr_t)arg->bytes,
                                              pass == 0, traffic);
            }
        }
    }
    return err;
}

static int continues(int32_t nargs, const idiom_arg *args);

/* ---- small outputs read back in the launch's one wait --------------------------------------
 *
 * A launch with outputs that go back to the host at every call (a reduction's total, a
 * check's range) used to wait twice: for its kernel, then for each blocking read. Small ones
 * are instead read, without waiting, into a landing area of the runtime's own, queued behind
 * the kernel: the one wait for the kernel brings them too, and they are copied into the
 * program's memory only once the kernel is known to have completed. Called under the
 * residency lock. */

#define LANDING_BYTES 65536

static unsigned char landing[SLOTS][LANDING_BYTES];

static int read_back(const idiom_arg *arg, const cl_mem mem) {
    return (arg->kind == IDIOM_ARG_OUT || arg->kind == IDIOM_ARG_INOUT) && arg->bytes > 0 &&
           mem != NULL && !handed_off(arg);
}

/* ---- small outputs gathered in one device buffer ------------------------------------------
 *
 * A launch whose outputs all go back to the host at every call, two or more of them and each
 * small (a reduction's lanes, a check's range), writes them into sub-buffers of one device
 * buffer of its slot, a device alignment apart, so that one read brings them all back rather
 * than one read each: an enqueued read costs the host 8-15 us on the H200
 * (docs/acceleration.md). The sub-buffers are the slot's, made once, shared by such launches
 * under the residency lock; each such launch waits for its read before it returns. */

#define GATHERED_MAX 8

static cl_mem gathered_mem[SLOTS];
static cl_mem gathered_sub[SLOTS][GATHERED_MAX];
static size_t gathered_step[SLOTS]; /* the sub-buffers' spacing and size */
static int gathered_refused[SLOTS]; /* making them failed: not tried again */

static void release_gathered(int s) {
    for (int k = 0; k < GATHERED_MAX; k++) {
        if (gathered_sub[s][k] != NULL) {
            clReleaseMemObject(gathered_sub[s][k]);
            gathered_sub[s][k] = NULL;
        }
    }
    if (gathered_mem[s] != NULL) {
        clReleaseMemObject(gathered_mem[s]);
        gathered_mem[s] = NULL;
    }
}

/* Whether slot `s` has its gathered sub-buffers, making them on first use. */
static int gathered_ready(const device_slot *slot, int s) {
    if (gathered_mem[s] != NULL || gathered_refused[s]) {
        return gathered_mem[s] != NULL;
    }
    gathered_refused[s] = 1; /* until made whole */
    cl_uint bits = 0;
    cl_int err = clGetDeviceInfo(slot->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits,
                                 NULL);
    size_t step = bits >= 64 ? (size_t)bits / 8 : 8;
    if (err != CL_SUCCESS || step * GATHERED_MAX > LANDING_BYTES) {
        return 0;
    }
    gathered_mem[s] =
        clCreateBuffer(slot->context, CL_MEM_READ_WRITE, step * GATHERED_MAX, NULL, &err);
    for (int k = 0; k < GATHERED_MAX && err == CL_SUCCESS; k++) {
        cl_buffer_region region = {(size_t)k * step, step};
        gathered_sub[s][k] = clCreateSubBuffer(gathered_mem[s], CL_MEM_READ_WRITE,
                                               CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    }
    if (err != CL_SUCCESS) {
        release_gathered(s);
        return 0;
    }
    gathered_step[s] = step;
    gathered_refused[s] = 0;
    return 1;
}

/* The gathered place of each of the launch's arguments (-1: none), and how many have one: 0
   unless every output read back at every call fits a place (a write-only output of at most
   a step, not resident nor handed off) and there are two to GATHERED_MAX of them. */
static int plan_gathered(const device_slot *slot, int s, int32_t nargs, const idiom_arg *args,
                         int resident_mode, int *place) {
    int count = 0;
    for (int32_t i = 0; i < nargs && count >= 0; i++) {
        const idiom_arg *arg = &args[i];
        int resident = resident_mode && (arg->flags & IDIOM_ARG_RESIDENT) && arg->bytes > 0;
        if ((arg->kind != IDIOM_ARG_OUT && arg->kind != IDIOM_ARG_INOUT) || arg->bytes <= 0 ||
            resident || handed_off(arg)) {
            continue; /* not read back at every call */
        }
        /* (a resident one's kernel takes an offset beside it) */
        int fits = arg->kind == IDIOM_ARG_OUT && !(arg->flags & IDIOM_ARG_RESIDENT) &&
                   count < GATHERED_MAX && gathered_ready(slot, s) &&
                   (size_t)arg->bytes <= gathered_step[s];
        place[i] = fits ? count : -1;
        count = fits ? count + 1 : -1;
    }
    if (count < 2) {
        for (int32_t i = 0; i < nargs; i++) {
            place[i] = -1;
        }
        return 0;
    }
    return count;
}

/* Queues the reads of the outputs read back at every call into the landing area: 1 when
   queued (all fit), 0 when they are read after the wait, one by one. Gathered outputs
   (`place`, `gathered` of them) come back in one read. */
static int land_outputs(const device_slot *slot, int s, int32_t nargs, const idiom_arg *args,
                        const cl_mem *mems, const int *place, int gathered, cl_int *err) {
    if (gathered > 0) {
        size_t last = 0;
        for (int32_t i = 0; i < nargs; i++) {
            if (place[i] == gathered - 1) {
                last = (size_t)args[i].bytes;
            }
        }
        *err = clEnqueueReadBuffer(slot->queue, gathered_mem[s], CL_FALSE, 0,
                                   (size_t)(gathered - 1) * gathered_step[s] + last, landing[s],
                                   0, NULL, NULL);
        return 1;
    }
    size_t total = 0;
    for (int32_t i = 0; i < nargs; i++) {
        total += read_back(&args[i], mems[i]) ? (size_t)args[i].bytes : 0;
    }
    if (total == 0 || total > LANDING_BYTES) {
        return 0;
    }
    size_t at = 0;
    for (int32_t i = 0; i < nargs && *err == CL_SUCCESS; i++) {
        if (read_back(&args[i], mems[i])) {
            *err = clEnqueueReadBuffer(slot->queue, mems[i], CL_FALSE, 0, (size_t)args[i].bytes,
                                       landing[s] + at, 0, NULL, NULL);
            at += (size_t)args[i].bytes;
        }
    }
    return 1;
}

/* After the wait, the kernel completed: the landed outputs go to the program's memory. */
static cl_int place_landed(int s, int32_t nargs, const idiom_arg *args, const cl_mem *mems,
                           const int *place, idiom_traffic *traffic) {
    size_t at = 0;
    cl_int err = CL_SUCCESS;
    for (int32_t i = 0; i < nargs && err == CL_SUCCESS; i++) {
        if (read_back(&args[i], mems[i])) {
            size_t from = place[i] >= 0 ? (size_t)place[i] * gathered_step[s] : at;
            memcpy(args[i].ptr, landing[s] + from, (size_t)args[i].bytes);
            at += (size_t)args[i].bytes;
            traffic->downloaded += args[i].bytes;
            uintptr_t lo = (uintptr_t)args[i].ptr;
            err = idiom__resident_refresh(lo, lo + (uintptr_t)args[i].bytes, traffic);
        }
    }
    return err;
}

/* Asynchronous dispatch is on unless IDIOM_ASYNC is "0" (read once). */
static int async_enabled(void) {
    static int enabled = -1;
    if (enabled < 0) {
        const char *text = getenv("IDIOM_ASYNC");
        enabled = text == NULL || text[0] != '0' || text[1] != '\0';
    }
    return enabled;
}

/* Whether the launch may return before its kernel has run: nothing was copied from the
   program's memory but staged inputs (a copy could still be reading it when the program
   changes it), every output stays
   on the device (handed off, or resident with no partial page to copy back: the host reaches
   the results only through idiom_host_access or a protected page, which wait for them), and
   the launch is not being measured. */
static int may_return_early(int s, int32_t nargs, const idiom_arg *args, const cl_mem *mems,
                            const idiom_traffic *traffic, int64_t staged) {
    if (!async_enabled() || traffic->uploaded > staged + traffic->staged) {
        return 0;
    }
    for (int32_t i = 0; i < nargs; i++) {
        const idiom_arg *arg = &args[i];
        if ((arg->kind != IDIOM_ARG_OUT && arg->kind != IDIOM_ARG_INOUT) || arg->bytes <= 0 ||
            handed_off(arg)) {
            continue;
        }
        uintptr_t lo = (uintptr_t)arg->ptr;
        if (mems[i] != NULL || idiom__resident_wrote_copies(s, lo, lo + (uintptr_t)arg->bytes)) {
            return 0;
        }
    }
    return 1;
}

/* Runs the kernel on an opened device. Host memory is only written after the kernel has
   completed: by the reads of non-resident outputs, and later by idiom_host_access(). A launch
   whose outputs all stay on the device returns without waiting (may_return_early): a failure
   of its kernel surfaces when its results are copied back, and stops the program. */
static int32_t run_kernel(const device_slot *slot, int s, cl_program program,
                          const char *kernel_name, int32_t dims, const int64_t *global,
                          const int64_t *local, int32_t nargs, idiom_arg *args,
                          int resident_mode, int measuring, cl_timing *timing) {
    int32_t status = IDIOM_FAILED;
    cl_int err = CL_SUCCESS;
    cl_event done = NULL;
    idiom_traffic *traffic = &timing->traffic;
    cl_mem *mems = calloc(nargs > 0 ? (size_t)nargs : 1, sizeof *mems);
    int *place = malloc(sizeof *place * (nargs > 0 ? (size_t)nargs : 1)); /* plan_gathered's */
    for (int32_t i = 0; place != NULL && i < nargs; i++) {
        place[i] = -1;
    }
    int gathered = 0;
    double enqueued = 0.0, moved_before = 0.0; /* when the enqueue returned, the copies' time */
    cl_uint wanted = 0;
    cl_kernel kernel = idiom__kernel_for(program, kernel_name, &wanted, &err);
    if (mems == NULL || place == NULL || kernel == NULL || err != CL_SUCCESS) {
        cl_warn(err, "clCreateKernel", kernel_name, slot);
        goto out;
    }
    if (!continues(nargs, args)) {
        release_handoffs(0); /* nobody will read them */
    }
    /* A kernel object keeps the arguments of its last launch: check that this one sets them
       all, as a fresh kernel would have. */
    cl_uint given = 0;
    for (int32_t i = 0; i < nargs; i++) {
        given += is_buffer(args[i].kind) && (args[i].flags & IDIOM_ARG_RESIDENT) ? 2 : 1;
    }
    if (wanted != given) {
        cl_warn(CL_INVALID_KERNEL_ARGS, "setting the arguments", kernel_name, slot);
        goto out;
    }
    double preparing = idiom__now();
    err = prepare_residency(slot, s, nargs, args, resident_mode, traffic);
    double binding = idiom__now();
    timing->prepare = binding - preparing;
    if (err != CL_SUCCESS) {
        cl_warn(err, "keeping buffers on the device", kernel_name, slot);
        goto out;
    }
    gathered = plan_gathered(slot, s, nargs, args, resident_mode, place);
    cl_uint index = 0;
    int64_t staged = 0; /* bytes uploaded from the runtime's staging area (stage) */
    for (int32_t i = 0; i < nargs; i++) {
        idiom_arg *arg = &args[i];
        int resident = resident_mode && (arg->flags & IDIOM_ARG_RESIDENT) && arg->bytes > 0;
        if (place[i] >= 0) { /* the slot's, not the launch's: never given to the pool */
            mems[i] = gathered_sub[s][place[i]];
            err = idiom__set_arg(kernel, index++, sizeof(cl_mem), &mems[i], 0);
        } else if (is_buffer(arg->kind)) {
            err = bind_buffer(slot, s, kernel, index, arg, resident, &mems[i], traffic,
                              &staged);
            index += (arg->flags & IDIOM_ARG_RESIDENT) ? 2 : 1;
        } else if (arg->kind == IDIOM_ARG_SCALAR) {
            err = idiom__set_arg(kernel, index++, (size_t)arg->bytes, arg->ptr, 1);
        } else if (arg->kind == IDIOM_ARG_SCRATCH) {
            err = bind_scratch(slot, s, kernel, index++, arg, &mems[i]);
        } else {
            size_t bytes = arg->bytes > 0 ? (size_t)arg->bytes : 1; /* local memory */
            err = idiom__set_arg(kernel, index++, bytes, NULL, 0);
        }
        if (err != CL_SUCCESS) {
            idiom__warn_once("OpenCL error %d (%s) setting argument %d of kernel '%s' on "
                             "'%s'; running the original code",
                             (int)err, cl_error_name(err), (int)i, kernel_name, slot->name);
            goto out;
        }
    }
    size_t gsize[3] = {1, 1, 1};
    size_t lsize[3] = {1, 1, 1};
    for (int32_t d = 0; d < dims; d++) {
        gsize[d] = (size_t)global[d];
        lsize[d] = local != NULL ? (size_t)local[d] : 1;
    }
    int early = resident_mode && !measuring &&
                may_return_early(s, nargs, args, mems, traffic, staged);
    double enqueuing = idiom__now();
    timing->bind = enqueuing - binding;
    err = clEnqueueNDRangeKernel(slot->queue, kernel, (cl_uint)dims, NULL, gsize,
                                 local != NULL ? lsize : NULL, 0, NULL, early ? NULL : &done);
    enqueued = idiom__now();
    moved_before = traffic->seconds;
    timing->enqueue = enqueued - enqueuing;
    if (err != CL_SUCCESS) {
        done = NULL;
        cl_warn(err, "clEnqueueNDRangeKernel", kernel_name, slot);
        goto out;
    }
    /* The resident outputs' partial pages are queued for copying back before the wait, so
       that one round trip to the device waits for the kernel and them. Should the kernel
       fail, those bytes are ones it writes (the original code, run next, writes them all)
       or the host's own (an entry's bytes that no kernel wrote equal the host's). */
    for (int32_t i = 0; i < nargs; i++) {
        idiom_arg *arg = &args[i];
        if ((arg->kind == IDIOM_ARG_OUT || arg->kind == IDIOM_ARG_INOUT) && arg->bytes > 0 &&
            mems[i] == NULL) {
            uintptr_t lo = (uintptr_t)arg->ptr;
            err = idiom__resident_wrote(s, lo, lo + (uintptr_t)arg->bytes, traffic);
            if (err != CL_SUCCESS) {
                cl_warn(err, "copying an output back", kernel_name, slot);
                goto out;
            }
        }
    }
    if (early) {
        flush_now_and_then(slot, s);
        timing->kernel = -1.0;
        timing->asynchronous = 1;
        cl_int kept = keep_handoffs(slot, s, nargs, args, mems);
        if (kept != CL_SUCCESS) {
            cl_warn(kept, "keeping results on the device", kernel_name, slot);
            goto out;
        }
        status = IDIOM_DONE;
        goto out;
    }
    /* Wait for the kernel and check it really completed before touching host memory: the
       queue is in order, so waiting for the copies queued after it waits for it too. */
    int landed = land_outputs(slot, s, nargs, args, mems, place, gathered, &err);
    if (err != CL_SUCCESS) {
        cl_warn(err, "copying an output back", kernel_name, slot);
        goto out;
    }
    cl_int exec = CL_COMPLETE;
    double waiting = idiom__now();
    err = idiom__resident_settle();
    if (err == CL_SUCCESS) { /* the landed reads are queued behind the kernel: wait for all */
        err = landed ? clFinish(slot->queue) : clWaitForEvents(1, &done);
    }
    timing->wait = idiom__now() - waiting;
    if (err == CL_SUCCESS) {
        err = clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof exec, &exec, NULL);
    }
    if (err != CL_SUCCESS || exec != CL_COMPLETE) {
        cl_warn(err != CL_SUCCESS ? err : exec, "the kernel's execution", kernel_name, slot);
        /* A resident output may be half written; the original code, run next, writes every
           position the kernel writes (and the kernel writes no input). */
        goto out;
    }
    timing->kernel = event_seconds(done);
    if (landed && (err = place_landed(s, nargs, args, mems, place, traffic)) != CL_SUCCESS) {
        cl_warn(err, "copying an output back", kernel_name, slot);
        goto out;
    }
    for (int32_t i = 0; i < nargs && !landed; i++) {
        idiom_arg *arg = &args[i];
        if (!read_back(arg, mems[i])) { /* resident, handed to the next launch, or an input */
            continue;
        }
        uintptr_t lo = (uintptr_t)arg->ptr;
        double start = idiom__now();
        err = clEnqueueReadBuffer(slot->queue, mems[i], CL_TRUE, 0, (size_t)arg->bytes,
                                  arg->ptr, 0, NULL, NULL);
        traffic->seconds += idiom__now() - start;
        traffic->downloaded += arg->bytes;
        if (err == CL_SUCCESS) {
            err = idiom__resident_refresh(lo, lo + (uintptr_t)arg->bytes, traffic);
        }
        if (err != CL_SUCCESS) {
            /* Only a lost device gets here, after the kernel succeeded. */
            cl_warn(err, "copying an output back", kernel_name, slot);
            goto out;
        }
    }
    err = idiom__resident_settle(); /* the outputs' partial pages are back */
    if (err != CL_SUCCESS) {
        cl_warn(err, "copying an output back", kernel_name, slot);
        goto out;
    }
    err = keep_handoffs(slot, s, nargs, args, mems);
    if (err != CL_SUCCESS) {
        cl_warn(err, "keeping results on the device", kernel_name, slot);
        goto out;
    }
    status = IDIOM_DONE;
out:
    if (status != IDIOM_DONE) {
        idiom__resident_settle();
        clFinish(slot->queue); /* no write may still read the caller's memory */
    }
    double guarding = idiom__now();
    if (timing->enqueue > 0.0) {
        timing->after = guarding - enqueued - timing->wait - (traffic->seconds - moved_before);
    }
    timing->transfer = traffic->seconds;
    if (done != NULL) {
        clReleaseEvent(done);
    }
    for (int32_t i = 0; mems != NULL && i < nargs; i++) {
        if (mems[i] != NULL && (place == NULL || place[i] < 0)) {
            idiom__pool_give(s, mems[i], args[i].bytes > 0 ? (size_t)args[i].bytes : 1);
        }
    }
    /* Whatever happened, every device copy is protected before the program runs again. */
    if (idiom__resident_guard(traffic) != CL_SUCCESS) {
        cl_warn(CL_INVALID_VALUE, "protecting the device copies", kernel_name, slot);
    }
    free(mems);
    free(place);
    timing->guard = idiom__now() - guarding;
    return status;
}

/* Runs the kernel on an opened device, under the residency lock (entries, kernels, scratch
   buffers are shared). A check whose inputs did not change since it last ran is not launched:
   its outputs are written again (idiom_memo.h). */
static int32_t launch(const device_slot *slot, int s, cl_program program, uint64_t site,
                      int check, int measuring, const char *kernel_name, int32_t dims,
                      const int64_t *global, const int64_t *local, int32_t nargs,
                      idiom_arg *args, cl_timing *timing) {
    int resident_mode = idiom__resident_on();
    idiom_memo_launch memo = {site, kernel_name, s, dims, global, local, nargs, args};
    idiom_memo_key key = {NULL, 0, 0};
    idiom__resident_lock();
    int remember = check && idiom__memo_key(&memo, resident_mode, &key);
    int32_t status = IDIOM_FAILED;
    if (remember && idiom__memo_replay(&memo, resident_mode, &key)) {
        timing->replayed = 1;
        timing->kernel = 0.0;
        status = IDIOM_DONE;
    } else {
        status = run_kernel(slot, s, program, kernel_name, dims, global, local, nargs, args,
                            resident_mode, measuring, timing);
        if (status == IDIOM_DONE && remember) {
            idiom__memo_keep(&memo, resident_mode, &key);
        }
    }
    idiom__memo_key_free(&key);
    idiom__resident_unlock();
    return status;
}

/* What the launch would cost on slot `s`: which of its buffers stay there and are there
   already (idiom_policy.h). Called under cl_lock. */
static idiom_launch_cost launch_cost(int s, int64_t work, int32_t nargs, const idiom_arg *args) {
    /* A negative work marks a check (idiom_runtime.h). */
    int check = work < 0;
    idiom_launch_cost cost = {check ? (work == INT64_MIN ? INT64_MAX : -work) : work, 0, 0, 0,
                              0, 0, 0, check, 0}; /* auto_choice says whether the platform is up */
    int resident_mode = idiom__resident_on();
    idiom__resident_lock();
    for (int32_t i = 0; i < nargs; i++) {
        const idiom_arg *arg = &args[i];
        if (!is_buffer(arg->kind) || arg->bytes <= 0) {
            continue;
        }
        uintptr_t lo = (uintptr_t)arg->ptr;
        int64_t held = 0;
        int64_t newer = 0;
        idiom__resident_coverage(s, lo, lo + (uintptr_t)arg->bytes, &held, &newer);
        cost.declining_bytes += newer;
        cost.touched_bytes += arg->bytes;
        if (resident_mode && (arg->flags & IDIOM_ARG_RESIDENT)) {
            cost.upload_bytes += arg->bytes - held;
            cost.resident_bytes += held;
            if (arg->kind != IDIOM_ARG_IN) {
                cost.written_bytes += arg->bytes;
            }
        } else {
            cost.every_call_bytes += arg->kind == IDIOM_ARG_INOUT ? 2 * arg->bytes : arg->bytes;
        }
    }
    idiom__resident_unlock();
    return cost;
}

/* Whether a launch finishes the work of the launch before it (IDIOM_ARG_CONTINUES). */
static int continues(int32_t nargs, const idiom_arg *args) {
    for (int32_t i = 0; i < nargs; i++) {
        if (is_buffer(args[i].kind) && (args[i].flags & IDIOM_ARG_CONTINUES)) {
            return 1;
        }
    }
    return 0;
}

static int loader_busy(void);
static void join_ahead(void);

/* auto's last choice on this thread: whether it launched, for a launch that continues it. */
static _Thread_local int auto_launched_last;

/* auto's slot for this launch, or SLOT_DECLINED: the cost model decides before the OpenCL
   platforms are loaded, so that a program whose launches all decline never pays for loading
   them (0.35 s on the H100 machine). Called under cl_lock. */
static int auto_choice(uint64_t site, int64_t work, int32_t nargs, const idiom_arg *args,
                       cl_timing *timing, int *measurable) {
    int s = idiom__auto_device_is_cpu() ? SLOT_CPU : SLOT_GPU;
    if (auto_found_no_gpu || (!discovered && s == SLOT_GPU && !idiom__gpu_node_present())) {
        return no_gpu_for_auto();
    }
    if (idiom_cl_min_work() == INT64_MAX) { /* a run as compiled: the original world runs
                                                without host accesses, so nothing may launch */
        timing->choice = (idiom_choice){0, "declined: the program runs as compiled", 0.0, 0.0};
        return SLOT_DECLINED;
    }
    idiom_launch_cost cost = launch_cost(s, work, nargs, args);
    cost.platform_loaded = discovered && slots[s].context != NULL;
    *measurable = cost.upload_bytes == 0 && cost.every_call_bytes <= MEASURED_TRAFFIC;
    if (continues(nargs, args)) { /* where the launch it finishes went, whatever it costs */
        timing->choice = (idiom_choice){auto_launched_last,
                                        auto_launched_last
                                            ? "finishes the launch before"
                                            : "declined: the launch it finishes declined",
                                        0.0, 0.0};
    } else {
        timing->choice = idiom__policy_choose(site, slot_kind(s), &cost);
    }
    auto_launched_last = timing->choice.device;
    if (!timing->choice.device) {
        return SLOT_DECLINED;
    }
    if (!cost.platform_loaded && loader_busy()) { /* the context it is creating */
        pthread_mutex_unlock(&cl_lock);
        join_ahead();
        pthread_mutex_lock(&cl_lock);
    }
    double start = idiom__now();
    discover();
    if (!slots[s].present) {
        return no_gpu_for_auto();
    }
    if (slots[s].context == NULL && ensure_context(s)) {
        idiom__policy_started(idiom__now() - start); /* what the next run weighs */
    }
    return s;
}

/* ---- the platform loaded ahead ------------------------------------------------------------
 *
 * Loading the OpenCL platform and creating the device's context takes 0.3 s on the H200
 * machine, paid at the first launch. Where that launch is sure to come (IDIOM_DEVICE=gpu; under
 * auto, a program whose last run that loaded the platform gained more than it, and which is not
 * to run as compiled this time), a thread loads it from the program's start, beside the
 * program's own set-up (NAS CG builds its matrix for 3 s before its first launch). The drivers'
 * start (clGetPlatformIDs' first call) and the context's creation happen outside cl_lock, so a
 * launch that declines meanwhile never waits; the context is then handed to the slot under it.
 * While the thread runs, a launch that will use the device waits for it (join_ahead) rather
 * than open a second context. The thread is joined before a fork (a child must not inherit
 * cl_lock held) and at exit, before the drivers' own exit handlers where it can be (they must
 * not tear the platform down beside it).
 */
static pthread_t ahead_thread;
static pthread_mutex_t ahead_lock = PTHREAD_MUTEX_INITIALIZER; /* joins, one at a time */
static _Atomic int ahead_running; /* started and not yet joined */
static _Atomic int ahead_done;    /* the thread has finished its work */

static void *load_ahead(void *slot) {
    int s = (int)(intptr_t)slot;
    double start = idiom__now();
    cl_uint count = 0;
    clGetPlatformIDs(0, NULL, &count); /* the drivers' own start (the ICD loader is thread-safe) */
    /* Handlers run at exit last registered first: registered after the drivers' own, this
       join comes before their teardown, which would else free what the thread is using (a
       program that exits while the context is being created). */
    atexit(join_ahead);
    double drivers = idiom__now() - start;
    pthread_mutex_lock(&cl_lock);
    discover();
    device_slot found = slots[s];
    pthread_mutex_unlock(&cl_lock);
    if (found.present && found.context == NULL && !found.broken) {
        cl_context context = NULL;
        cl_command_queue queue = NULL;
        cl_ulong budget = 0;
        cl_int err = CL_SUCCESS;
        int opened = open_context(found.platform, found.device, &context, &queue, &budget, &err);
        pthread_mutex_lock(&cl_lock);
        if (settle_context(&slots[s], opened, context, queue, budget, err)) {
            double seconds = idiom__now() - start;
            if (idiom__device_mode() == IDIOM_MODE_AUTO) {
                idiom__policy_started(seconds); /* what the next run weighs */
            }
            idiom__trace("the OpenCL platform of the %s device was loaded ahead (%.3f s, the "
                         "drivers' start %.3f s of it)",
                         slot_kind(s), seconds, drivers);
        }
        pthread_mutex_unlock(&cl_lock);
    }
    atomic_store(&ahead_done, 1);
    return NULL;
}

static void join_ahead(void) {
    pthread_mutex_lock(&ahead_lock);
    if (atomic_load(&ahead_running)) {
        pthread_join(ahead_thread, NULL);
        atomic_store(&ahead_running, 0);
    }
    pthread_mutex_unlock(&ahead_lock);
}

/* Whether the thread is loading the platform now. */
static int loader_busy(void) {
    return atomic_load(&ahead_running) && !atomic_load(&ahead_done);
}

/* The slot whose platform this run will load at its first launch, or -1. */
static int slot_loaded_ahead(void) {
    switch (idiom__device_mode()) {
    case IDIOM_MODE_GPU:
        return idiom__gpu_node_present() ? SLOT_GPU : -1;
    case IDIOM_MODE_AUTO: {
        int cpu = idiom__auto_device_is_cpu();
        if (!cpu && !idiom__gpu_node_present()) {
            return -1;
        }
        return idiom__policy_loads_at_first_launch(cpu ? "CPU" : "GPU") ? (cpu ? SLOT_CPU : SLOT_GPU)
                                                                        : -1;
    }
    default:
        return -1;
    }
}

/* glibc raises its mmap threshold each time the program frees a mapped block larger than it
   (up to 32 MiB), after which large arrays come from the brk heap and share their first and last
   pages with other blocks: a launch writing one then copies those pages back and waits for its
   kernel (idiom_guard.c, pages a claim has to itself). corpus/jds_matrix.cpp frees the
   temporaries of its matrix's construction, and each of its products and vector updates waited:
   2 launches an iteration, 7.9 and 3.8 KiB copied back, against none waiting with the threshold
   fixed. So a run that will launch on a device fixes the threshold at glibc's default (128 KiB),
   which keeps every large block in a mapping of its own; not where the user set it
   (MALLOC_MMAP_THRESHOLD_), nor with IDIOM_OWN_MAPPINGS=0, nor in a run that uses no device
   (auto with no GPU: the program's allocations are as they were). */
static void keep_large_blocks_mapped(int loaded_ahead) {
    int mode = idiom__device_mode();
    int device = mode == IDIOM_MODE_GPU || mode == IDIOM_MODE_CPU || loaded_ahead >= 0;
    if (!device || getenv("MALLOC_MMAP_THRESHOLD_") != NULL ||
        idiom__env_int("IDIOM_OWN_MAPPINGS", 1) == 0) {
        return;
    }
#if defined(__linux__) && defined(M_MMAP_THRESHOLD)
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

__attribute__((constructor)) static void start_loading_ahead(void) {
    int s = slot_loaded_ahead();
    keep_large_blocks_mapped(s);
    if (s < 0 || idiom__env_int("IDIOM_LOAD_AHEAD", 1) == 0) {
        return;
    }
    atexit(join_ahead);
    pthread_atfork(join_ahead, NULL, NULL);
    atomic_store(&ahead_running, 1);
    if (pthread_create(&ahead_thread, NULL, load_ahead, (void *)(intptr_t)s) != 0) {
        atomic_store(&ahead_running, 0);
    }
}

/* Copies left on the device by launches that stopped: once any copy is there, every host
   access of the program calls the runtime (mappers/residency/host_fast.py tests the count of
   copies inline), and a program whose launches all decline then pays a call at each one
   (NAS BT's block products: three a call, about 1.8 billion a class B run). Under auto, a
   launch declined IDLE_RELEASE_S after the last launch that ran brings every copy back, as
   the host touching them would; a later window uploads them again. Half a second: a time
   loop's launches come far more often, and NAS BT's windows far less. */
#define IDLE_RELEASE_S 0.5
static _Atomic double last_ran; /* when a launch last ran (idiom__now) */

static void release_idle_copies(void) {
    if (atomic_load_explicit(&idiom_device_entries, memory_order_relaxed) > 0 &&
        idiom__now() - atomic_load_explicit(&last_ran, memory_order_relaxed) > IDLE_RELEASE_S) {
        idiom_host_access();
    }
}

/* The kernel a launch of `kernel` in the NDRange `launched` runs: its covered twin
   (IDIOM_CL_COVERED_TWIN, named into `twin`) where `launched` has the caller's `asked` items
   or more in every dimension; otherwise `kernel`. */
static const char *covering_kernel(const char *kernel, int has_twin, int32_t dims,
                                   const int64_t *asked, const int64_t *launched, char *twin,
                                   size_t size) {
    if (!has_twin) {
        return kernel;
    }
    for (int32_t d = 0; d < dims; d++) {
        if (launched[d] < asked[d]) {
            return kernel;
        }
    }
    int length = snprintf(twin, size, "%s_covered", kernel);
    return length > 0 && (size_t)length < size ? twin : kernel;
}

static int32_t cl_run(const char *source, const char *kernel, int32_t dims, int any_range,
                      int has_twin, int fill, int64_t *global, int64_t *local, int64_t work,
                      int32_t nargs, idiom_arg *args, const char **device, cl_timing *timing) {
    idiom_mode mode = idiom__device_mode();
    if (mode == IDIOM_MODE_OFF) {
        return IDIOM_DECLINED;
    }
    const char *problem = invalid_call(source, kernel, dims, global, local, nargs, args);
    if (problem != NULL) {
        idiom__warn_once("idiom_cl_run for kernel '%s': %s; running the original code",
                         kernel != NULL ? kernel : "?", problem);
        return IDIOM_FAILED;
    }
    for (int32_t d = 0; d < dims; d++) {
        if (global[d] == 0) {
            timing->kernel = 0.0;
            timing->transfer = 0.0;
            return IDIOM_DONE; /* no work-item: the kernel would write nothing */
        }
    }
    if (mode != IDIOM_MODE_AUTO && loader_busy()) {
        join_ahead(); /* the context the thread is creating, not a second one */
    }
    int64_t asked[3] = {1, 1, 1}; /* the caller's NDRange, before a fill or a tuned shape */
    for (int32_t d = 0; d < dims && d < 3; d++) {
        asked[d] = global[d];
    }
    double choosing = idiom__now();
    pthread_mutex_lock(&cl_lock);
    uint64_t hash = source_hash(source);
    /* auto's launch site: a kernel of a program (one program may hold several kernels) */
    uint64_t site = idiom__fnv1a(hash, kernel, strlen(kernel));
    int measurable = 0; /* its data all there: the launch's own cost can be measured */
    int s = mode == IDIOM_MODE_AUTO ? auto_choice(site, work, nargs, args, timing, &measurable)
                                    : choose_slot(mode);
    if (s == SLOT_DECLINED) {
        pthread_mutex_unlock(&cl_lock);
        release_idle_copies();
        return IDIOM_DECLINED;
    }
    cl_program program = NULL;
    if (s >= 0 && ensure_context(s)) {
        *device = slots[s].name;
        program = get_program(s, source, hash, kernel, &timing->build);
        if (fill) {
            global[0] = filled_grid(&slots[s], global[0], local, work);
        }
        if (fill == 2 && local != NULL && program != NULL) {
            widen_filled_groups(&slots[s], program, kernel, global, local);
        }
    }
    pthread_mutex_unlock(&cl_lock);
    timing->choose = idiom__now() - choosing;
    if (program == NULL) {
        return IDIOM_FAILED;
    }
    /* Slots and programs are never freed, so they outlive the lock. */
    /* auto learns a site's costs from its first launches and its probes, which wait for
       their kernels; the others may return before theirs has run. */
    int measuring = measurable && idiom__policy_measuring(site);
    idiom_tune_shape shape = {{0, 0, 0}, {0, 0, 0}, 0, -1};
    int tuned = any_range && idiom__tune_on(s == SLOT_GPU);
    if (tuned) {
        idiom__tune_shape(site, kernel, slots[s].name, dims, global, local, &shape);
        measuring |= shape.candidate >= 0; /* a candidate timed waits for its kernel */
    }
    const int64_t *launched = tuned ? shape.global : global;
    char twin[160];
    const char *runs = covering_kernel(kernel, has_twin, dims, asked, launched, twin, sizeof twin);
    double start = idiom__now();
    int32_t status = launch(&slots[s], s, program, site, work < 0, measuring, runs, dims,
                            launched, !tuned ? local : shape.driver_local ? NULL : shape.local,
                            nargs, args, timing);
    if (status == IDIOM_DONE) {
        atomic_store_explicit(&last_ran, idiom__now(), memory_order_relaxed);
    }
    if (tuned && shape.candidate >= 0 && !timing->replayed &&
        (status != IDIOM_DONE || timing->kernel >= 0.0)) {
        idiom__tune_timed(site, kernel, slots[s].name, dims, global, local, shape.candidate,
                          status == IDIOM_DONE ? timing->kernel : -1.0);
    }
    if (status == IDIOM_DONE && measurable && !timing->replayed &&
        timing->traffic.uploaded + timing->traffic.downloaded <= MEASURED_TRAFFIC) {
        if (timing->asynchronous) { /* its host time is all it cost: the kernel runs beside */
            idiom__policy_launched(site, idiom__now() - start);
        } else {
            idiom__policy_measured(site, work < 0 ? -(work + 1) : work, idiom__now() - start,
                                   timing->kernel);
        }
    }
    return status;
}

int32_t idiom_cl_run(const char *source, const char *kernel, int32_t dims, const int64_t *global,
                     const int64_t *local, int64_t work, int32_t nargs, idiom_arg *args) {
    int any_range = (dims & IDIOM_CL_ANY_RANGE) != 0;
    int has_twin = any_range && (dims & IDIOM_CL_COVERED_TWIN) != 0;
    int fill = (dims & IDIOM_CL_FILL) != 0 ? ((dims & IDIOM_CL_WIDE) != 0 ? 2 : 1) : 0;
    dims &= ~(IDIOM_CL_ANY_RANGE | IDIOM_CL_FILL | IDIOM_CL_WIDE | IDIOM_CL_COVERED_TWIN);
    const char *stats = idiom__stats_path();
    double start = stats != NULL ? idiom__now() : 0.0;
    const char *device = NULL;
    cl_timing timing = {.kernel = -1.0, .transfer = -1.0}; /* the rest zero */
    int64_t launched[3] = {1, 1, 1}; /* the NDRange launched: global, or a grid filled */
    int64_t grouped[3] = {0, 0, 0};  /* its work-groups: local, or widened for a fill */
    for (int32_t d = 0; d < dims && d < 3; d++) {
        launched[d] = global != NULL ? global[d] : 1;
        grouped[d] = local != NULL ? local[d] : 0;
    }
    int32_t status = cl_run(source, kernel, dims, any_range, has_twin, fill,
                            global != NULL ? launched : NULL, local != NULL ? grouped : NULL,
                            work, nargs, args, &device, &timing);
    global = global != NULL ? launched : NULL;
    if (stats != NULL) {
        idiom_json j;
        idiom__json_begin(&j, "cl_run", status, idiom__now() - start);
        idiom__json_string(&j, "kernel", kernel);
        idiom__json_string(&j, "device", device);
        idiom__json_int_list(&j, "global", global, dims >= 1 && dims <= 3 ? (int)dims : 0);
        if (local != NULL) {
            idiom__json_int_list(&j, "local", grouped, dims >= 1 && dims <= 3 ? (int)dims : 0);
        }
        idiom__json_seconds(&j, "kernel_seconds", timing.kernel);
        idiom__json_seconds(&j, "transfer_seconds", timing.transfer);
        idiom__json_seconds(&j, "build_seconds", timing.build);
        idiom__json_int(&j, "upload_bytes", timing.traffic.uploaded);
        idiom__json_int(&j, "download_bytes", timing.traffic.downloaded);
        idiom__json_int(&j, "device_entries", atomic_load(&idiom_device_entries));
        if (timing.replayed) {
            idiom__json_int(&j, "replayed", 1);
        }
        if (timing.asynchronous) {
            idiom__json_int(&j, "asynchronous", 1);
        }
        idiom__json_seconds(&j, "wait_seconds", timing.wait);
        idiom__json_seconds(&j, "enqueue_seconds", timing.enqueue);
        idiom__json_seconds(&j, "choose_seconds", timing.choose);
        idiom__json_seconds(&j, "prepare_seconds", timing.prepare);
        idiom__json_seconds(&j, "bind_seconds", timing.bind);
        idiom__json_seconds(&j, "after_seconds", timing.after);
        idiom__json_seconds(&j, "guard_seconds", timing.guard);
        if (timing.choice.reason != NULL) {
            idiom__json_string(&j, "policy", timing.choice.reason);
            idiom__json_seconds(&j, "host_estimate_seconds", timing.choice.host);
            idiom__json_seconds(&j, "launch_estimate_seconds", timing.choice.launch);
        }
        idiom__stats_emit(&j, stats);
    }
    if (idiom__verbose()) {
        long long g[3] = {1, 1, 1};
        for (int32_t d = 0; global != NULL && d < dims && d < 3; d++) {
            g[d] = (long long)global[d];
        }
        idiom__trace("cl_run kernel '%s' on '%s' global %lldx%lldx%lld local %lld work %lld "
                     "args %d: %s",
                     kernel != NULL ? kernel : "?", device != NULL ? device : "none", g[0], g[1],
                     g[2], (long long)grouped[0], (long long)work, (int)nargs,
                     idiom__status_name(status));
    }
    return status;
}
