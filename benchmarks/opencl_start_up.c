/* What a process pays to use one OpenCL device, step by step, from its start to its end: the
 * fixed cost under every accelerated run (docs/acceleration.md). Build and run:
 *
 *   clang-22 -O2 benchmarks/opencl_start_up.c -lOpenCL -o opencl_start_up
 *   python3 -c 'import subprocess,time; t=time.monotonic(); \
 *       subprocess.run(["./opencl_start_up", "gpu", "16"]); print("end", time.monotonic())'
 *
 * Prints one line per step with CLOCK_MONOTONIC's reading after it (the clock Python's
 * time.monotonic reads, so that a parent can time the process's exit after "return"):
 * the drivers started (the first clGetPlatformIDs), the device found, the context and a
 * profiling queue created, a small program built from source and again from its binary (as
 * the runtime's cache does), two buffers of MiB megabytes written, a kernel run over them,
 * one read back, everything released; then main returns and the process ends (what the
 * drivers do at exit is the parent's "end" less "return").
 */
#define CL_TARGET_OPENCL_VERSION 120

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double previous;

static void step(const char *name, cl_int err) {
    double t = now();
    printf("%-22s %.6f  +%.1f ms%s\n", name, t, 1e3 * (t - previous), err ? "  FAILED" : "");
    fflush(stdout);
    if (err) {
        exit(1);
    }
    previous = t;
}

static const char *SOURCE =
    "__kernel void sweep(__global const double *a, __global double *b, long n) {\n"
    "  long i = get_global_id(0);\n"
    "  if (i > 0 && i < n - 1) b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3;\n"
    "}\n";

int main(int argc, char **argv) {
    cl_device_type type = argc > 1 && strcmp(argv[1], "cpu") == 0 ? CL_DEVICE_TYPE_CPU
                                                                   : CL_DEVICE_TYPE_GPU;
    size_t mib = argc > 2 ? (size_t)atol(argv[2]) : 16;
    previous = now();
    step("main", 0);
    cl_platform_id platforms[8];
    cl_uint count = 0;
    cl_int err = clGetPlatformIDs(8, platforms, &count);
    step("drivers started", err);
    cl_device_id device = NULL;
    for (cl_uint p = 0; p < count && device == NULL; p++) {
        if (clGetDeviceIDs(platforms[p], type, 1, &device, NULL) != CL_SUCCESS) {
            device = NULL;
        }
    }
    step("device found", device == NULL);
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    step("context", err);
    cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
    step("queue", err);
    cl_program program = clCreateProgramWithSource(context, 1, &SOURCE, NULL, &err);
    err = err ? err : clBuildProgram(program, 1, &device, "", NULL, NULL);
    step("built from source", err);
    size_t size = 0;
    clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    unsigned char *binary = malloc(size);
    clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL);
    clReleaseProgram(program);
    const unsigned char *binaries[1] = {binary};
    program = clCreateProgramWithBinary(context, 1, &device, &size, binaries, NULL, &err);
    err = err ? err : clBuildProgram(program, 1, &device, "", NULL, NULL);
    step("built from binary", err);
    cl_kernel kernel = clCreateKernel(program, "sweep", &err);
    step("kernel", err);
    size_t bytes = mib << 20;
    cl_long n = (cl_long)(bytes / sizeof(double));
    double *host = calloc((size_t)n, sizeof(double));
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    step("buffers", err);
    err = clEnqueueWriteBuffer(queue, a, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    err = err ? err : clEnqueueWriteBuffer(queue, b, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    step("written", err);
    clSetKernelArg(kernel, 0, sizeof a, &a);
    clSetKernelArg(kernel, 1, sizeof b, &b);
    clSetKernelArg(kernel, 2, sizeof n, &n);
    size_t global = (size_t)n;
    err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
    err = err ? err : clFinish(queue);
    step("first kernel", err);
    err = clEnqueueReadBuffer(queue, b, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    step("read back", err);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    step("released", 0);
    free(binary);
    free(host);
    step("return", 0);
    return 0;
}
