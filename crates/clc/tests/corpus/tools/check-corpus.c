/*
 * check-corpus: builds each OpenCL C file named on the command line with
 * clBuildProgram on the first platform's first device and prints, per file,
 * one status line followed by the build log (indented):
 *
 *   OK   <file>
 *   FAIL <file> errors=<line>,<line>,...   (error lines in log order)
 *   SKIP <file> (requires <feature>)
 *
 * Build options come from the file's `// options:` line (with -cl-std=CL1.2
 * added when it names no -cl-std); `// requires:`
 * features (images, fp64, fp16, generic, __opencl_c_*) are checked against
 * the device.
 *
 * Build: gcc -O1 -o check-corpus check-corpus.c -lOpenCL
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(buf); return NULL; }
    buf[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Copies the text after `key` on the first line that starts with it. */
static int annotation(const char *src, const char *key, char *out, size_t cap) {
    size_t klen = strlen(key);
    for (const char *p = src; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t llen = eol ? (size_t)(eol - p) : strlen(p);
        if (llen >= klen && strncmp(p, key, klen) == 0) {
            size_t n = llen - klen;
            if (n >= cap) n = cap - 1;
            memcpy(out, p + klen, n);
            out[n] = 0;
            return 1;
        }
        p = eol ? eol + 1 : NULL;
    }
    return 0;
}

struct features {
    int images, fp64, fp16, generic;
    char c_features[8192]; /* CL_DEVICE_OPENCL_C_FEATURES names, space separated */
};

static struct features query(cl_device_id dev) {
    struct features f = {0};
    cl_bool b = 0;
    clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof b, &b, NULL);
    f.images = b;
    cl_device_fp_config fp = 0;
    clGetDeviceInfo(dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL);
    f.fp64 = fp != 0;
    char ext[8192] = {0};
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
    f.fp16 = strstr(ext, "cl_khr_fp16") != NULL;
    b = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof b, &b, NULL) == CL_SUCCESS)
        f.generic = b;
    size_t size = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size) == CL_SUCCESS && size) {
        cl_name_version *names = malloc(size);
        clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, size, names, NULL);
        size_t used = 0;
        for (size_t i = 0; i < size / sizeof *names; i++) {
            int n = snprintf(f.c_features + used, sizeof f.c_features - used, " %s ", names[i].name);
            if (n < 0 || (size_t)n >= sizeof f.c_features - used) break;
            used += (size_t)n;
        }
        free(names);
    }
    return f;
}

/* Returns the name of the first required feature the device lacks, or NULL.
 * Known words: images, fp64, fp16, generic, and any __opencl_c_* feature
 * macro, looked up in CL_DEVICE_OPENCL_C_FEATURES; "!word" requires the
 * device to lack the feature. */
static const char *missing(const char *req, const struct features *f) {
    static char word[64];
    const char *p = req;
    while (*p) {
        while (*p && (isspace((unsigned char)*p) || *p == ',')) p++;
        size_t n = 0;
        while (p[n] && !isspace((unsigned char)p[n]) && p[n] != ',' && n < sizeof word - 1) n++;
        if (!n) break;
        memcpy(word, p, n);
        word[n] = 0;
        p += n;
        int negate = word[0] == '!';
        const char *name = word + negate;
        char padded[80];
        snprintf(padded, sizeof padded, " %s ", name);
        int have = !strcmp(name, "images") ? f->images
                 : !strcmp(name, "fp64") ? f->fp64
                 : !strcmp(name, "fp16") ? f->fp16
                 : !strcmp(name, "generic") ? f->generic
                 : !strncmp(name, "__opencl_c_", 11) ? strstr(f->c_features, padded) != NULL
                 : 0;
        if (have == negate) return word;
    }
    return NULL;
}

/* Appends to `out` the line number of each error in the log, in log order.
 * Accepts clang's "FILE:LINE:COL: error: ..." and PoCL's
 * "error: FILE:LINE:COL: ..." forms. */
static void error_lines(const char *log, char *out, size_t cap) {
    out[0] = 0;
    size_t used = 0;
    for (const char *p = log; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t llen = eol ? (size_t)(eol - p) : strlen(p);
        char line[2048];
        if (llen >= sizeof line) llen = sizeof line - 1;
        memcpy(line, p, llen);
        line[llen] = 0;
        p = eol ? eol + 1 : NULL;
        if (!strstr(line, "error:")) continue;
        /* first ":LINE:COL:" in the line */
        for (char *c = strchr(line, ':'); c; c = strchr(c + 1, ':')) {
            char *d = c + 1;
            if (!isdigit((unsigned char)*d)) continue;
            char *e = d;
            while (isdigit((unsigned char)*e)) e++;
            if (*e != ':' || !isdigit((unsigned char)e[1])) continue;
            char *f = e + 1;
            while (isdigit((unsigned char)*f)) f++;
            if (*f != ':' && *f != ' ') continue;
            int n = snprintf(out + used, cap - used, "%s%.*s", used ? "," : "", (int)(e - d), d);
            if (n < 0 || (size_t)n >= cap - used) return;
            used += (size_t)n;
            break;
        }
    }
    if (!used) snprintf(out, cap, "none");
}

static void print_indented(const char *log) {
    const char *p = log;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        printf("    %.*s\n", (int)n, p);
        if (!eol) break;
        p = eol + 1;
    }
}

int main(int argc, char **argv) {
    cl_platform_id plat;
    cl_uint np = 0;
    if (clGetPlatformIDs(1, &plat, &np) != CL_SUCCESS || np == 0) {
        fprintf(stderr, "check-corpus: no OpenCL platform\n");
        return 2;
    }
    cl_device_id dev;
    if (clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
        fprintf(stderr, "check-corpus: no OpenCL device\n");
        return 2;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "check-corpus: clCreateContext failed (%d)\n", err);
        return 2;
    }
    struct features feat = query(dev);
    int failures = 0;
    for (int i = 1; i < argc; i++) {
        size_t len;
        char *src = read_file(argv[i], &len);
        if (!src) {
            printf("FAIL %s errors=unreadable\n", argv[i]);
            failures++;
            continue;
        }
        char options[1024] = "", req[256] = "";
        annotation(src, "// options:", options, sizeof options);
        /* Without -cl-std, "the highest OpenCL C 1.x language version supported
         * by each device is used" (OpenCL C 3.0, 6.12, __OPENCL_C_VERSION__);
         * PoCL picks 3.0 instead, so ask for 1.2 explicitly. */
        if (!strstr(options, "-cl-std="))
            strncat(options, " -cl-std=CL1.2", sizeof options - strlen(options) - 1);
        if (annotation(src, "// requires:", req, sizeof req)) {
            const char *m = missing(req, &feat);
            if (m) {
                printf("SKIP %s (requires %s)\n", argv[i], m);
                free(src);
                continue;
            }
        }
        const char *s = src;
        cl_program prog = clCreateProgramWithSource(ctx, 1, &s, &len, &err);
        cl_int built = err == CL_SUCCESS ? clBuildProgram(prog, 1, &dev, options, NULL, NULL) : err;
        char *log = NULL;
        size_t log_len = 0;
        if (err == CL_SUCCESS) {
            clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_len);
            log = calloc(log_len + 1, 1);
            clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, log_len, log, NULL);
        }
        if (built == CL_SUCCESS) {
            printf("OK   %s\n", argv[i]);
        } else {
            char lines[4096];
            error_lines(log ? log : "", lines, sizeof lines);
            printf("FAIL %s errors=%s (code %d)\n", argv[i], lines, built);
            failures++;
        }
        if (log && log[0]) print_indented(log);
        free(log);
        if (err == CL_SUCCESS) clReleaseProgram(prog);
        free(src);
    }
    clReleaseContext(ctx);
    return failures ? 1 : 0;
}
