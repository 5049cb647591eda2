/* What a kernel launch costs the host, by how the queue and the launch are set up.

   A small kernel (10 arguments: 8 buffers, 2 scalars; 65,536 items copying and scaling),
   launched `LAUNCHES` times in each way, in rounds that take the ways in turn. For each:
   the median host time of setting the arguments, of clEnqueueNDRangeKernel itself, and
   of the whole launch as the runtime makes it (arguments, enqueue, then the wait where
   the way waits), in microseconds.

   Ways: the queue with or without CL_QUEUE_PROFILING_ENABLE; an event asked of the enqueue
   or not; waiting for each launch (for its event, or clFinish) or not (a clFlush every 16
   launches, as the runtime's launches that return early).

   Built here (clang-22 benchmarks/enqueue_probe.c -O2 -lOpenCL -o .gpu/bin/enqueue_probe)
   and run on the GPU machine: .gpu/bin/enqueue_probe [launches] (the first GPU, else the
   first device). */

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { ITEMS = 65536, ARGS = 10, ROUNDS = 5 };

static const char *SOURCE =
    "__kernel void scale(__global const float* a, __global const float* b,\n"
    "  __global const float* c, __global const float* d, __global const float* e,\n"
    "  __global const float* f, __global const float* g, __global float* y,\n"
    "  float alpha, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) y[i] = alpha * a[i] + b[i] + c[i] + d[i] + e[i] + f[i] + g[i];\n"
    "}\n";

typedef struct {
    const char *name;
    int profiling; /* the queue's */
    int event;     /* an event asked of the enqueue */
    int wait;      /* 0: flush every 16; 1: wait for the event (or clFinish without one) */
} way;

static const way WAYS[] = {
    {"profiling, event, wait", 1, 1, 1},     /* the runtime's launch that waits */
    {"profiling, no event, finish", 1, 0, 1},
    {"plain, event, wait", 0, 1, 1},
    {"plain, no event, finish", 0, 0, 1},
    {"profiling, no event, async", 1, 0, 0}, /* the runtime's launch that returns early */
    {"plain, no event, async", 0, 0, 0},
};
enum { WAY_COUNT = sizeof WAYS / sizeof WAYS[0] };

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, by_value);
    return values[count / 2];
}

static void check(cl_int err, const char *what) {
    if (err != CL_SUCCESS) {
        fprintf(stderr, "%s: OpenCL error %d\n", what, (int)err);
        exit(1);
    }
}

int main(int argc, char **argv) {
    int launches = argc > 1 ? atoi(argv[1]) : 2000;
    cl_platform_id platforms[8];
    cl_uint count = 0;
    check(clGetPlatformIDs(8, platforms, &count), "clGetPlatformIDs");
    cl_device_id device = NULL;
    for (cl_uint p = 0; p < count && device == NULL; p++) {
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
            device = NULL;
        }
    }
    if (device == NULL && (count == 0 || clGetDeviceIDs(platforms[0], CL_DEVICE_TYPE_ALL, 1,
                                                        &device, NULL) != CL_SUCCESS)) {
        fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    char name[256];
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    check(err, "clCreateContext");
    cl_command_queue queues[2];
    queues[0] = clCreateCommandQueue(context, device, 0, &err);
    check(err, "clCreateCommandQueue");
    queues[1] = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue (profiling)");
    cl_program program = clCreateProgramWithSource(context, 1, &SOURCE, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(program, 1, &device, "", NULL, NULL), "clBuildProgram");
    cl_kernel kernel = clCreateKernel(program, "scale", &err);
    check(err, "clCreateKernel");
    cl_mem buffers[8];
    float *host = calloc(ITEMS, sizeof *host);
    for (int b = 0; b < 8; b++) {
        buffers[b] = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                    ITEMS * sizeof *host, host, &err);
        check(err, "clCreateBuffer");
    }
    float alpha = 2.0f;
    int n = ITEMS;
    size_t global = ITEMS, local = 128;
    printf("device: %s; %d launches a way in %d rounds\n", name, launches, ROUNDS);
    double *sets[WAY_COUNT], *enqueues[WAY_COUNT], *wholes[WAY_COUNT];
    for (int w = 0; w < WAY_COUNT; w++) {
        sets[w] = malloc(sizeof(double) * (size_t)launches);
        enqueues[w] = malloc(sizeof(double) * (size_t)launches);
        wholes[w] = malloc(sizeof(double) * (size_t)launches);
    }
    int per_round = launches / ROUNDS;
    for (int round = 0; round <= ROUNDS; round++) { /* round 0 warms up, untimed */
        for (int w = 0; w < WAY_COUNT; w++) {
            const way *how = &WAYS[w];
            cl_command_queue queue = queues[how->profiling];
            for (int k = 0; k < per_round; k++) {
                double start = now_us();
                for (int b = 0; b < 8; b++) {
                    clSetKernelArg(kernel, (cl_uint)b, sizeof(cl_mem), &buffers[b]);
                }
                clSetKernelArg(kernel, 8, sizeof alpha, &alpha);
                clSetKernelArg(kernel, 9, sizeof n, &n);
                double queued = now_us();
                cl_event done = NULL;
                check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL,
                                             how->event ? &done : NULL),
                      "clEnqueueNDRangeKernel");
                double enqueued = now_us();
                if (how->wait) {
                    check(done != NULL ? clWaitForEvents(1, &done) : clFinish(queue), "wait");
                } else if (k % 16 == 15) {
                    clFlush(queue);
                }
                double end = now_us();
                if (done != NULL) {
                    clReleaseEvent(done);
                }
                if (round > 0) {
                    int at = (round - 1) * per_round + k;
                    sets[w][at] = queued - start;
                    enqueues[w][at] = enqueued - queued;
                    wholes[w][at] = end - start;
                }
            }
            clFinish(queue);
        }
    }
    for (int w = 0; w < WAY_COUNT; w++) {
        int timed = per_round * ROUNDS;
        printf("%-30s set arguments %6.2f us  enqueue %6.2f us  whole launch %6.2f us\n",
               WAYS[w].name, median(sets[w], timed), median(enqueues[w], timed),
               median(wholes[w], timed));
    }
    return 0;
}
