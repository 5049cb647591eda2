/* The on-disk cache of OpenCL program binaries: plain files, one per key, written atomically.
 *
 * Folder: $IDIOM_CACHE_DIR/cl, else $XDG_CACHE_HOME/idiom/cl, else ~/.cache/idiom/cl, created
 * private (a cached binary ends up running inside the program). A file holds a magic word, the
 * whole key and the binary, so a hash collision or a truncated file only costs a rebuild.
 * Every error makes the cache silently absent.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "idiom_internal.h"

#define CACHE_MAGIC "IDIOMCL1"
#define CACHE_MAX_BYTES ((uint64_t)1 << 28)

int idiom__cache_folder(char *out, size_t size, const char *name) {
    const char *root = getenv("IDIOM_CACHE_DIR");
    const char *tail = "";
    if (root == NULL || *root == '\0') {
        root = getenv("XDG_CACHE_HOME");
        tail = "/idiom";
    }
    if (root == NULL || *root == '\0') {
        root = getenv("HOME");
        tail = "/.cache/idiom";
    }
    if (root == NULL || *root == '\0') {
        return 0;
    }
    int len = snprintf(out, size, "%s%s/%s", root, tail, name);
    if (len < 0 || (size_t)len >= size) {
        return 0;
    }
    for (char *p = out + 1; *p != '\0'; p++) {
        if (*p == '/') {
            *p = '\0';
            int bad = mkdir(out, 0700) != 0 && errno != EEXIST;
            *p = '/';
            if (bad) {
                return 0;
            }
        }
    }
    return mkdir(out, 0700) == 0 || errno == EEXIST;
}

static int cache_path(char *out, size_t size, const char *key, size_t key_len) {
    char dir[4096];
    if (!idiom__cache_folder(dir, sizeof dir, "cl")) {
        return 0;
    }
    uint64_t h1 = idiom__fnv1a(IDIOM_FNV_START, key, key_len);
    uint64_t h2 = idiom__fnv1a(h1 ^ UINT64_C(0x9e3779b97f4a7c15), key, key_len);
    int len = snprintf(out, size, "%s/%016llx%016llx.bin", dir, (unsigned long long)h1,
                       (unsigned long long)h2);
    return len > 0 && (size_t)len < size;
}

static int read_all(FILE *f, void *data, size_t len) {
    return fread(data, 1, len, f) == len;
}

static int write_all(FILE *f, const void *data, size_t len) {
    return fwrite(data, 1, len, f) == len;
}

int idiom__cache_read(const char *key, size_t key_len, unsigned char **binary, size_t *len) {
    char path[4200];
    if (!cache_path(path, sizeof path, key, key_len)) {
        return 0;
    }
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return 0;
    }
    int ok = 0;
    char magic[8];
    uint64_t stored_key_len = 0;
    uint64_t bin_len = 0;
    char *stored_key = NULL;
    unsigned char *data = NULL;
    if (read_all(f, magic, sizeof magic) && memcmp(magic, CACHE_MAGIC, sizeof magic) == 0 &&
        read_all(f, &stored_key_len, sizeof stored_key_len) && stored_key_len == key_len &&
        (stored_key = malloc(key_len)) != NULL && read_all(f, stored_key, key_len) &&
        memcmp(stored_key, key, key_len) == 0 && read_all(f, &bin_len, sizeof bin_len) &&
        bin_len > 0 && bin_len <= CACHE_MAX_BYTES && (data = malloc(bin_len)) != NULL &&
        read_all(f, data, bin_len) && fgetc(f) == EOF) {
        ok = 1;
        *binary = data;
        *len = (size_t)bin_len;
    } else {
        free(data);
    }
    free(stored_key);
    fclose(f);
    return ok;
}

void idiom__cache_write(const char *key, size_t key_len, const unsigned char *binary,
                        size_t len) {
    char path[4200];
    char tmp[4300];
    if (len == 0 || len > CACHE_MAX_BYTES || !cache_path(path, sizeof path, key, key_len) ||
        snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= (int)sizeof tmp) {
        return;
    }
    /* Temp file + rename: a concurrent reader sees no file or a whole one. */
    int fd = mkstemp(tmp);
    if (fd < 0) {
        return;
    }
    FILE *f = fdopen(fd, "wb");
    if (f == NULL) {
        close(fd);
        unlink(tmp);
        return;
    }
    uint64_t klen = key_len;
    uint64_t blen = len;
    int ok = write_all(f, CACHE_MAGIC, 8) && write_all(f, &klen, sizeof klen) &&
             write_all(f, key, key_len) && write_all(f, &blen, sizeof blen) &&
             write_all(f, binary, len);
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
    }
}
