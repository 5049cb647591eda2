/* What the pieces of a launch cost on one OpenCL device, measured apart: the floor under the
 * runtime's host cost per launch (docs/acceleration.md). Build and run:
 *
 *   clang-22 -O2 benchmarks/launch_primitives.c -lOpenCL -o launch_primitives
 *   ./launch_primitives [gpu|cpu]
 *
 * Prints one line per primitive, the median of its repetitions in microseconds:
 * - an empty kernel enqueued then waited for (a synchronous launch: one round trip);
 * - an empty kernel enqueued without waiting (what an asynchronous launch costs the host),
 *   timed over a batch that is waited for once at the end; the same flushed; a small
 *   write enqueued without waiting (a staged input);
 * - the first four of those again on a queue without CL_QUEUE_PROFILING_ENABLE (the runtime's
 *   queue has it: what its events cost);
 * - a kernel followed by a small non-blocking read into host memory, both waited for once
 *   (a launch that copies its outputs' partial pages back);
 * - kernels of 8 buffers and 40 `long` sizes, as generated stencil kernels take: the sizes
 *   as 40 arguments, as one struct argument, and in a constant buffer (8 buffers and one
 *   size alone for comparison), each enqueued not waited for, without and with an event;
 * - clSetKernelArg, clGetEventProfilingInfo, clock_gettime;
 * - mprotect of one page to PROT_NONE and back;
 * - a page fault handled by a SIGSEGV handler that lifts the protection (the safety net's
 *   cost when program code touches a protected page).
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120

#include <CL/cl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define REPEAT 2001

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *what, double *samples, int count) {
    qsort(samples, (size_t)count, sizeof *samples, by_value);
    printf("%-52s median %9.2f us   p90 %9.2f us\n", what, 1e6 * samples[count / 2],
           1e6 * samples[count * 9 / 10]);
}

static void check(cl_int err, const char *what) {
    if (err != CL_SUCCESS) {
        fprintf(stderr, "launch_primitives: %s failed: OpenCL error %d\n", what, (int)err);
        exit(2);
    }
}

static const char *SOURCE = "__kernel void empty(__global float *a, int n) {\n"
                            "  size_t i = get_global_id(0);\n"
                            "  if ((int)i < n) a[i] = a[i] + 1.0f;\n"
                            "}\n";

/* Kernels of 8 buffers and SIZES sizes (how many arguments a launch carries). */
#define SIZES 40
#define BUFFERS 8
static char many_source[16384];

static void write_many_source(void) {
    char *at = many_source;
    char *end = many_source + sizeof many_source;
    at += snprintf(at, (size_t)(end - at), "typedef struct { long s[%d]; } sizes_t;\n", SIZES);
    const char *names[] = {"sizes_apart", "sizes_packed", "sizes_buffer", "one_size"};
    for (int k = 0; k < 4; k++) {
        at += snprintf(at, (size_t)(end - at), "__kernel void %s(", names[k]);
        for (int b = 0; b < BUFFERS; b++) {
            at += snprintf(at, (size_t)(end - at), "__global float *a%d, ", b);
        }
        if (k == 0) {
            for (int s = 0; s < SIZES; s++) {
                at += snprintf(at, (size_t)(end - at), "long s%d%s", s, s + 1 < SIZES ? ", " : "");
            }
        } else {
            at += snprintf(at, (size_t)(end - at), "%s",
                           k == 1 ? "sizes_t p" : k == 2 ? "__constant long *p" : "long s0");
        }
        at += snprintf(at, (size_t)(end - at),
                       ") {\n  const long n = %s;\n  size_t i = get_global_id(0);\n"
                       "  if ((long)i < n) a0[i] = a%d[i] + 1.0f;\n}\n",
                       k == 1 ? "p.s[0]" : k == 2 ? "p[0]" : "s0", BUFFERS - 1);
    }
}

/* What a launch does beside enqueueing the kernel (time_launches). */
enum { EVENT = 1, WAIT_EVENT = 2, READ = 4, FINISH = 8, FLUSH = 16 };

/* Times REPEAT launches of `kernel` (1024 work-items), each doing what `steps` says; the
   queue is drained after the last, outside the timing. */
static void time_launches(const char *what, cl_command_queue queue, cl_kernel kernel,
                          cl_mem buffer, int steps) {
    static double samples[REPEAT];
    float host[64];
    size_t global = 1024;
    for (int r = 0; r < REPEAT; r++) {
        cl_event done = NULL;
        double start = now();
        check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL,
                                     (steps & EVENT) ? &done : NULL),
              "enqueue");
        if (steps & READ) {
            check(clEnqueueReadBuffer(queue, buffer, CL_FALSE, 0, sizeof host, host, 0, NULL,
                                      NULL),
                  "read");
        }
        if (steps & FLUSH) {
            check(clFlush(queue), "clFlush");
        }
        if (steps & WAIT_EVENT) {
            check(clWaitForEvents(1, &done), "clWaitForEvents");
        }
        if (steps & FINISH) {
            check(clFinish(queue), "clFinish");
        }
        samples[r] = now() - start;
        if (done != NULL) {
            clReleaseEvent(done);
        }
    }
    check(clFinish(queue), "clFinish");
    report(what, samples, REPEAT);
}

static volatile char *fault_page;
static size_t page_size;

static void on_fault(int signal, siginfo_t *info, void *context) {
    (void)signal;
    (void)info;
    (void)context;
    mprotect((void *)fault_page, page_size, PROT_READ | PROT_WRITE);
}

static cl_device_id pick_device(const char *kind) {
    cl_platform_id platforms[8];
    cl_uint count = 0;
    check(clGetPlatformIDs(8, platforms, &count), "clGetPlatformIDs");
    cl_device_type type = strcmp(kind, "cpu") == 0 ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
    for (cl_uint p = 0; p < count; p++) {
        cl_device_id device;
        if (clGetDeviceIDs(platforms[p], type, 1, &device, NULL) == CL_SUCCESS) {
            return device;
        }
    }
    fprintf(stderr, "launch_primitives: no %s device\n", kind);
    exit(2);
}

int main(int argc, char **argv) {
    const char *kind = argc > 1 ? argv[1] : "gpu";
    cl_device_id device = pick_device(kind);
    char name[256];
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("device: %s\n", name);
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    check(err, "clCreateContext");
    cl_command_queue queue =
        clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");
    cl_program program = clCreateProgramWithSource(context, 1, &SOURCE, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(program, 1, &device, "", NULL, NULL), "clBuildProgram");
    cl_kernel kernel = clCreateKernel(program, "empty", &err);
    check(err, "clCreateKernel");
    int n = 1024;
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(float) * (size_t)n, NULL,
                                   &err);
    check(err, "clCreateBuffer");
    check(clSetKernelArg(kernel, 0, sizeof buffer, &buffer), "clSetKernelArg");
    check(clSetKernelArg(kernel, 1, sizeof n, &n), "clSetKernelArg");
    static double samples[REPEAT];
    float host[64];

    time_launches("kernel enqueued, then clFinish", queue, kernel, buffer, FINISH);
    time_launches("kernel with an event, then clWaitForEvents", queue, kernel, buffer,
                  EVENT | WAIT_EVENT);
    time_launches("kernel and a 256-byte read, then clFinish", queue, kernel, buffer,
                  READ | FINISH);
    time_launches("kernel enqueued, not waited for", queue, kernel, buffer, 0);
    time_launches("kernel enqueued with an event, not waited for", queue, kernel, buffer, EVENT);
    time_launches("kernel enqueued and flushed, not waited for", queue, kernel, buffer, FLUSH);

    /* The same on a queue without profiling: what asking a profiling queue for an event costs. */
    cl_command_queue plain = clCreateCommandQueue(context, device, 0, &err);
    check(err, "clCreateCommandQueue (plain)");
    time_launches("plain queue: kernel enqueued, then clFinish", plain, kernel, buffer, FINISH);
    time_launches("plain queue: with an event, then clWaitForEvents", plain, kernel,
                  buffer, EVENT | WAIT_EVENT);
    time_launches("plain queue: kernel enqueued, not waited for", plain, kernel, buffer, 0);
    time_launches("plain queue: enqueued with an event, not waited for", plain, kernel,
                  buffer, EVENT);
    clReleaseCommandQueue(plain);

    write_many_source();
    const char *many = many_source;
    cl_program many_program = clCreateProgramWithSource(context, 1, &many, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(many_program, 1, &device, "", NULL, NULL), "clBuildProgram (sizes)");
    cl_long sizes[SIZES];
    for (int s = 0; s < SIZES; s++) {
        sizes[s] = s == 0 ? n : s;
    }
    cl_mem constants = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                      sizeof sizes, sizes, &err);
    check(err, "clCreateBuffer (sizes)");
    const char *many_kernels[] = {"sizes_apart", "sizes_packed", "sizes_buffer", "one_size"};
    const char *many_what[] = {"8 buffers, 40 long sizes apart", "8 buffers, 40 long sizes in a struct",
                               "8 buffers, 40 long sizes in a buffer", "8 buffers, one long size"};
    for (int k = 0; k < 4; k++) {
        cl_kernel sized = clCreateKernel(many_program, many_kernels[k], &err);
        check(err, "clCreateKernel (sizes)");
        for (int b = 0; b < BUFFERS; b++) {
            check(clSetKernelArg(sized, (cl_uint)b, sizeof buffer, &buffer), "clSetKernelArg");
        }
        if (k == 0) {
            for (int s = 0; s < SIZES; s++) {
                check(clSetKernelArg(sized, (cl_uint)(BUFFERS + s), sizeof sizes[s], &sizes[s]),
                      "clSetKernelArg");
            }
        } else if (k == 1) {
            check(clSetKernelArg(sized, BUFFERS, sizeof sizes, sizes), "clSetKernelArg");
        } else if (k == 2) {
            check(clSetKernelArg(sized, BUFFERS, sizeof constants, &constants), "clSetKernelArg");
        } else {
            check(clSetKernelArg(sized, BUFFERS, sizeof sizes[0], &sizes[0]), "clSetKernelArg");
        }
        char what[96];
        snprintf(what, sizeof what, "%s, enqueued", many_what[k]);
        time_launches(what, queue, sized, buffer, 0);
        snprintf(what, sizeof what, "%s, with an event", many_what[k]);
        time_launches(what, queue, sized, buffer, EVENT);
        clReleaseKernel(sized);
    }

    for (int r = 0; r < REPEAT; r++) {
        double start = now();
        check(clEnqueueWriteBuffer(queue, buffer, CL_FALSE, 0, sizeof host, host, 0, NULL, NULL),
              "write");
        samples[r] = now() - start;
    }
    check(clFinish(queue), "clFinish");
    report("256-byte write enqueued, not waited for", samples, REPEAT);

    for (int r = 0; r < REPEAT; r++) {
        double start = now();
        check(clSetKernelArg(kernel, 1, sizeof n, &n), "clSetKernelArg");
        samples[r] = now() - start;
    }
    report("clSetKernelArg", samples, REPEAT);

    for (int r = 0; r < REPEAT; r++) {
        double start = now();
        check(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL),
              "read");
        samples[r] = now() - start;
    }
    report("256-byte blocking read alone", samples, REPEAT);

    for (int r = 0; r < REPEAT; r++) {
        double start = now();
        samples[r] = now() - start;
    }
    report("clock_gettime pair", samples, REPEAT);

    page_size = (size_t)sysconf(_SC_PAGESIZE);
    fault_page = mmap(NULL, page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                      0);
    for (int r = 0; r < REPEAT; r++) {
        double start = now();
        mprotect((void *)fault_page, page_size, PROT_NONE);
        mprotect((void *)fault_page, page_size, PROT_READ | PROT_WRITE);
        samples[r] = now() - start;
    }
    report("mprotect to PROT_NONE and back", samples, REPEAT);

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, NULL);
    for (int r = 0; r < REPEAT; r++) {
        mprotect((void *)fault_page, page_size, PROT_NONE);
        double start = now();
        fault_page[0] = (char)r; /* faults; the handler lifts the protection */
        samples[r] = now() - start;
    }
    report("fault on a protected page, handler unprotects", samples, REPEAT);
    return 0;
}
