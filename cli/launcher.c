/* `idiom` as a small native program: the client half of the warm server (cli/client.py)
 * without a Python interpreter's start.
 *
 * A served command's cost beyond the server's work is its client: a Python interpreter
 * starting and importing cli/client.py takes about 20 ms, this program about 1. It does
 * exactly what cli/client.py does before a command reaches the server, and nothing else:
 *
 * - the socket's name: the same SHA-256 over the interpreter, its version, the tool's
 *   folder and the path, size and time of every file of its packages (`code_key`);
 * - the same request: a 4-byte big-endian length sent with descriptors 0, 1 and 2, then
 *   the JSON of `entry`, `argv`, `cwd`, `env` and `umask` (strings decoded as Python
 *   decodes them, invalid bytes as lone surrogates, so that the server's environment
 *   is byte for byte the client's);
 * - `pid N` then `exit N`, SIGINT, SIGTERM and SIGHUP forwarded to the command.
 *
 * Whenever the Python client would run the command itself (the server off, absent or
 * refusing, a command never served, anything unexpected before the command started),
 * this program executes the Python `idiom` in its place with the same arguments, which
 * then does what it always did. The interpreter, its version and the tool's folder are
 * fixed when scripts/build_launcher.py compiles this file: another interpreter gives
 * another socket name, and then every command runs through Python, as before.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef IDIOM_PYTHON
#error "IDIOM_PYTHON (the interpreter's sys.executable) must be defined"
#endif
#ifndef IDIOM_PYTHON_VERSION
#error "IDIOM_PYTHON_VERSION (its sys.version) must be defined"
#endif
#ifndef IDIOM_ROOT
#error "IDIOM_ROOT (the tool's folder) must be defined"
#endif

extern char **environ;

/* ------------------------------------------------------------------ growing buffers */

typedef struct {
    char *data;
    size_t size, capacity;
} Buffer;

static void fail_memory(void) {
    fputs("idiom: out of memory\n", stderr);
    exit(1);
}

static void append(Buffer *b, const void *data, size_t size) {
    if (b->size + size + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 256;
        while (b->size + size + 1 > capacity) capacity *= 2;
        char *grown = realloc(b->data, capacity);
        if (!grown) fail_memory();
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->size, data, size);
    b->size += size;
    b->data[b->size] = '\0';
}

static void append_text(Buffer *b, const char *text) { append(b, text, strlen(text)); }

/* ------------------------------------------------------------------------- SHA-256 */

typedef struct {
    uint32_t state[8];
    uint64_t length;
    unsigned char block[64];
    size_t used;
} Sha256;

static const uint32_t ROUND[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

static uint32_t rotate(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void sha256_block(Sha256 *h, const unsigned char *p) {
    uint32_t w[64], s[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    memcpy(s, h->state, sizeof s);
    for (int i = 0; i < 64; i++) {
        uint32_t e = s[4], a = s[0];
        uint32_t t1 = s[7] + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) +
                      ((e & s[5]) ^ (~e & s[6])) + ROUND[i] + w[i];
        uint32_t t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) +
                      ((a & s[1]) ^ (a & s[2]) ^ (s[1] & s[2]));
        memmove(s + 1, s, 7 * sizeof *s);
        s[4] += t1;
        s[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++) h->state[i] += s[i];
}

static void sha256_start(Sha256 *h) {
    static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(h->state, initial, sizeof initial);
    h->length = 0;
    h->used = 0;
}

static void sha256_update(Sha256 *h, const void *data, size_t size) {
    const unsigned char *p = data;
    h->length += size;
    while (size) {
        size_t take = 64 - h->used < size ? 64 - h->used : size;
        memcpy(h->block + h->used, p, take);
        h->used += take;
        p += take;
        size -= take;
        if (h->used == 64) {
            sha256_block(h, h->block);
            h->used = 0;
        }
    }
}

static void sha256_hex(Sha256 *h, char hex[65]) {
    uint64_t bits = h->length * 8;
    unsigned char pad = 0x80, zero = 0, length[8];
    sha256_update(h, &pad, 1);
    while (h->used != 56) sha256_update(h, &zero, 1);
    for (int i = 0; i < 8; i++) length[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha256_update(h, length, 8);
    for (int i = 0; i < 8; i++) sprintf(hex + 8 * i, "%08x", h->state[i]);
}

/* ------------------------------------------------------------- the socket's name */

static const char *PACKAGES[] = {"cli",     "idl",     "matcher", "mappers",
                                 "measure", "fuzz",    "ci",      "wrapper"};
static const char *SOURCE_SUFFIXES[] = {".py", ".lark", ".idl", ".c", ".h", ".json"};

typedef struct {
    char **paths;
    size_t count, capacity;
} PathList;

static int ends_with_source_suffix(const char *name) {
    size_t length = strlen(name);
    for (size_t i = 0; i < sizeof SOURCE_SUFFIXES / sizeof *SOURCE_SUFFIXES; i++) {
        size_t suffix = strlen(SOURCE_SUFFIXES[i]);
        if (length >= suffix && strcmp(name + length - suffix, SOURCE_SUFFIXES[i]) == 0)
            return 1;
    }
    return 0;
}

/* As `_files_of` in cli/client.py: folders but `__pycache__` entered (a link to one is
 * not), files named with a source suffix kept. */
static void files_of(const char *folder, PathList *found) {
    DIR *directory = opendir(folder);
    if (!directory) return;
    struct dirent *entry;
    while ((entry = readdir(directory))) {
        if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, "..")) continue;
        char *path;
        if (asprintf(&path, "%s/%s", folder, entry->d_name) < 0) fail_memory();
        struct stat info;
        int is_folder = entry->d_type == DT_DIR ||
                        (entry->d_type == DT_UNKNOWN && lstat(path, &info) == 0 &&
                         S_ISDIR(info.st_mode));
        if (is_folder && strcmp(entry->d_name, "__pycache__") != 0) {
            files_of(path, found);
            free(path);
        } else if (!is_folder && ends_with_source_suffix(entry->d_name)) {
            if (found->count == found->capacity) {
                found->capacity = found->capacity ? 2 * found->capacity : 256;
                found->paths = realloc(found->paths, found->capacity * sizeof *found->paths);
                if (!found->paths) fail_memory();
            }
            found->paths[found->count++] = path;
        } else {
            free(path);
        }
    }
    closedir(directory);
}

static int by_path(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void hash_file(Sha256 *digest, const char *label, const char *path) {
    struct stat info;
    if (stat(path, &info) != 0) return;
    char line[64];
    long long nanoseconds = (long long)info.st_mtim.tv_sec * 1000000000LL + info.st_mtim.tv_nsec;
    int length = snprintf(line, sizeof line, " %lld %lld\n", (long long)info.st_size, nanoseconds);
    sha256_update(digest, label, strlen(label));
    sha256_update(digest, line, (size_t)length);
}

/* `code_key` of cli/client.py. */
static void code_key(char hex[65]) {
    Sha256 digest;
    sha256_start(&digest);
    const char *head = IDIOM_PYTHON " " IDIOM_PYTHON_VERSION " " IDIOM_ROOT;
    sha256_update(&digest, head, strlen(head));
    for (size_t i = 0; i < sizeof PACKAGES / sizeof *PACKAGES; i++) {
        PathList found = {0};
        char *folder;
        if (asprintf(&folder, "%s/%s", IDIOM_ROOT, PACKAGES[i]) < 0) fail_memory();
        files_of(folder, &found);
        free(folder);
        qsort(found.paths, found.count, sizeof *found.paths, by_path);
        for (size_t j = 0; j < found.count; j++) {
            hash_file(&digest, found.paths[j], found.paths[j]);
            free(found.paths[j]);
        }
        free(found.paths);
    }
    hash_file(&digest, "native", IDIOM_ROOT "/.native/stamp");
    const char *native = getenv("IDIOM_NATIVE");
    char line[4096];
    int length = snprintf(line, sizeof line, "IDIOM_NATIVE=%s\n", native ? native : "None");
    if (length < 0 || (size_t)length >= sizeof line) length = 0; /* Python's key differs */
    sha256_update(&digest, line, (size_t)length);
    sha256_hex(&digest, hex);
}

/* `_private_folder` of cli/client.py: made if missing, used only if this user's alone. */
static char *private_folder(void) {
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    char *folder;
    int made;
    if (runtime && *runtime) {
        made = asprintf(&folder, "%s/idiom", runtime);
    } else {
        const char *temporary = getenv("TMPDIR");
        made = asprintf(&folder, "%s/idiom-%u", temporary && *temporary ? temporary : "/tmp",
                        (unsigned)getuid());
    }
    if (made < 0) fail_memory();
    for (char *slash = strchr(folder + 1, '/');; slash = strchr(slash + 1, '/')) {
        if (slash) *slash = '\0';
        if (mkdir(folder, 0700) != 0 && errno != EEXIST) break; /* stat below decides */
        if (!slash) break;
        *slash = '/';
    }
    struct stat info;
    if (stat(folder, &info) != 0 || info.st_uid != getuid() || (info.st_mode & 077)) {
        free(folder);
        return NULL;
    }
    return folder;
}

/* ------------------------------------------------------------------------- JSON */

static void append_escape(Buffer *b, unsigned code) {
    char text[12];
    snprintf(text, sizeof text, "\\u%04x", code);
    append_text(b, text);
}

/* The length of the valid UTF-8 sequence at `p` (as Python's strict decoder accepts
 * it), or 0; `*code` its code point. */
static size_t utf8_sequence(const unsigned char *p, unsigned *code) {
    unsigned c = p[0];
    size_t length;
    unsigned low = 0x80, high = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
        length = 2;
        *code = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        length = 3;
        *code = c & 0x0f;
        if (c == 0xe0) low = 0xa0;
        if (c == 0xed) high = 0x9f; /* no encoded surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        length = 4;
        *code = c & 0x07;
        if (c == 0xf0) low = 0x90;
        if (c == 0xf4) high = 0x8f;
    } else {
        return 0;
    }
    for (size_t i = 1; i < length; i++) {
        unsigned next = p[i];
        if (next < (i == 1 ? low : 0x80) || next > (i == 1 ? high : 0xbf)) return 0;
        *code = *code << 6 | (next & 0x3f);
    }
    return length;
}

/* A JSON string of the bytes `text` as Python sees them (UTF-8, surrogateescape). */
static void append_string(Buffer *b, const char *text) {
    const unsigned char *p = (const unsigned char *)text;
    append_text(b, "\"");
    while (*p) {
        unsigned c = *p, code;
        size_t length;
        if (c == '"' || c == '\\') {
            append(b, "\\", 1);
            append(b, p++, 1);
        } else if (c >= 0x20 && c < 0x7f) {
            append(b, p++, 1);
        } else if (c < 0x80) {
            append_escape(b, c);
            p++;
        } else if ((length = utf8_sequence(p, &code)) != 0) {
            if (code >= 0x10000) {
                append_escape(b, 0xd800 + ((code - 0x10000) >> 10));
                append_escape(b, 0xdc00 + ((code - 0x10000) & 0x3ff));
            } else {
                append_escape(b, code);
            }
            p += length;
        } else {
            append_escape(b, 0xdc00 + c); /* surrogateescape */
            p++;
        }
    }
    append_text(b, "\"");
}

/* The environment as os.environ holds it: entries without `=` left out, the first of a
 * repeated name kept. */
static void append_environment(Buffer *b) {
    append_text(b, "{");
    int first = 1;
    for (char **entry = environ; *entry; entry++) {
        char *equals = strchr(*entry, '=');
        if (!equals) continue;
        size_t name = (size_t)(equals - *entry);
        int repeated = 0;
        for (char **earlier = environ; earlier < entry && !repeated; earlier++)
            repeated = strncmp(*earlier, *entry, name + 1) == 0;
        if (repeated) continue;
        char *key = strndup(*entry, name);
        if (!key) fail_memory();
        append_text(b, first ? "" : ", ");
        append_string(b, key);
        append_text(b, ": ");
        append_string(b, equals + 1);
        free(key);
        first = 0;
    }
    append_text(b, "}");
}

static int request_payload(Buffer *b, int argc, char **argv) {
    char *folder = getcwd(NULL, 0);
    if (!folder) return -1;
    mode_t mask = umask(0);
    umask(mask);
    append_text(b, "{\"entry\": \"cli.main\", \"argv\": [");
    for (int i = 1; i < argc; i++) {
        append_text(b, i > 1 ? ", " : "");
        append_string(b, argv[i]);
    }
    append_text(b, "], \"cwd\": ");
    append_string(b, folder);
    free(folder);
    append_text(b, ", \"env\": ");
    append_environment(b);
    char tail[32];
    snprintf(tail, sizeof tail, ", \"umask\": %u}", (unsigned)mask);
    append_text(b, tail);
    return 0;
}

/* ------------------------------------------------------------------- the request */

static int connect_to(const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof address.sun_path) return -1;
    strcpy(address.sun_path, path);
    int connection = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (connection < 0) return -1;
    if (connect(connection, (struct sockaddr *)&address, sizeof address) != 0) {
        close(connection);
        return -1;
    }
    return connection;
}

static int send_all(int connection, const char *data, size_t size) {
    while (size) {
        ssize_t sent = send(connection, data, size, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return -1;
        data += sent;
        size -= (size_t)sent;
    }
    return 0;
}

/* The length with descriptors 0, 1 and 2, then the JSON. */
static int send_request(int connection, const Buffer *payload) {
    unsigned char header[4] = {(unsigned char)(payload->size >> 24),
                               (unsigned char)(payload->size >> 16),
                               (unsigned char)(payload->size >> 8), (unsigned char)payload->size};
    int descriptors[3] = {0, 1, 2};
    union {
        char buffer[CMSG_SPACE(sizeof descriptors)];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct iovec part = {.iov_base = header, .iov_len = sizeof header};
    struct msghdr message = {.msg_iov = &part,
                             .msg_iovlen = 1,
                             .msg_control = control.buffer,
                             .msg_controllen = sizeof control.buffer};
    struct cmsghdr *rights = CMSG_FIRSTHDR(&message);
    rights->cmsg_level = SOL_SOCKET;
    rights->cmsg_type = SCM_RIGHTS;
    rights->cmsg_len = CMSG_LEN(sizeof descriptors);
    memcpy(CMSG_DATA(rights), descriptors, sizeof descriptors);
    ssize_t sent;
    do sent = sendmsg(connection, &message, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    if (sent != (ssize_t)sizeof header) return -1;
    return send_all(connection, payload->data, payload->size);
}

/* The server's next reply line; "" when the connection ends or breaks first. */
static void next_line(int connection, Buffer *pending, char *line, size_t size) {
    char *end;
    while (!(pending->data && (end = memchr(pending->data, '\n', pending->size)))) {
        char chunk[256];
        ssize_t got = recv(connection, chunk, sizeof chunk, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            snprintf(line, size, "%s", pending->data ? pending->data : "");
            pending->size = 0;
            if (pending->data) pending->data[0] = '\0';
            return;
        }
        append(pending, chunk, (size_t)got);
    }
    size_t length = (size_t)(end - pending->data);
    snprintf(line, size, "%.*s", (int)length, pending->data);
    pending->size -= length + 1;
    memmove(pending->data, end + 1, pending->size + 1);
}

static volatile pid_t command_process;

static void forward(int number) {
    int saved = errno;
    kill(command_process, number);
    errno = saved;
}

/* ---------------------------------------------------------------------------- main */

/* The Python `idiom`, which runs the command itself (and starts a server for the next). */
static void run_in_python(int argc, char **argv) {
    char **arguments = calloc((size_t)argc + 5, sizeof *arguments);
    if (!arguments) fail_memory();
    arguments[0] = IDIOM_PYTHON;
    arguments[1] = "-Pc"; /* -P: the current folder's modules are not the tool's */
    /* This program's tool, whatever else the import path holds: its socket is named
     * after this folder's files. */
    arguments[2] = "import sys; sys.path.insert(0, sys.argv.pop(1)); "
                   "from cli.main import main; sys.exit(main())";
    arguments[3] = IDIOM_ROOT;
    for (int i = 1; i < argc; i++) arguments[i + 3] = argv[i];
    execv(IDIOM_PYTHON, arguments);
    fprintf(stderr, "idiom: cannot run %s: %s\n", IDIOM_PYTHON, strerror(errno));
    exit(127);
}

/* Whether Python would see the arguments, environment and folder as this program sends
 * them: decoded as UTF-8, and the environment unchanged. In the C or POSIX locale Python
 * may coerce the locale, adding LC_CTYPE to its environment (PEP 538); in another
 * encoding it decodes otherwise. Both are left to Python. */
static int python_sees_the_same(void) {
    const char *name = setlocale(LC_CTYPE, "");
    if (!name || !strcmp(name, "C") || !strcmp(name, "POSIX")) return 0;
    return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

static int served_command(int argc, char **argv) {
    static const char *UNSERVED[] = {"server", "bench", "demo", "-h", "--help"};
    const char *server = getenv("IDIOM_SERVER");
    if (argc < 2 || (server && strcmp(server, "0") == 0)) return 0;
    for (size_t i = 0; i < sizeof UNSERVED / sizeof *UNSERVED; i++)
        if (strcmp(argv[1], UNSERVED[i]) == 0) return 0;
    return python_sees_the_same();
}

int main(int argc, char **argv) {
    if (!served_command(argc, argv)) run_in_python(argc, argv);
    char *folder = private_folder(), hex[65], *path;
    if (!folder) run_in_python(argc, argv);
    code_key(hex);
    if (asprintf(&path, "%s/server-%.24s.sock", folder, hex) < 0) fail_memory();
    if (strlen(path) >= 104) run_in_python(argc, argv); /* a socket path's limit */
    int connection = connect_to(path);
    Buffer payload = {0}, pending = {0};
    if (connection < 0 || request_payload(&payload, argc, argv) != 0 ||
        send_request(connection, &payload) != 0)
        run_in_python(argc, argv); /* nothing ran yet */
    char line[256];
    long child = 0;
    char extra;
    next_line(connection, &pending, line, sizeof line);
    if (sscanf(line, "pid %ld%c", &child, &extra) != 1 || child <= 0) {
        close(connection);
        run_in_python(argc, argv); /* refused before the command started */
    }
    command_process = (pid_t)child;
    struct sigaction forwarding = {.sa_handler = forward};
    sigemptyset(&forwarding.sa_mask);
    int forwarded[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
        sigaction(forwarded[i], &forwarding, NULL);
    next_line(connection, &pending, line, sizeof line);
    int code;
    if (sscanf(line, "exit %d%c", &code, &extra) == 1) return code;
    fputs("idiom: the command's process ended without an exit status\n", stderr);
    return 1;
}
