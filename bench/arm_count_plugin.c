/* A QEMU TCG plugin (user mode, plugin API version 1: Debian 12's qemu-user 7.2) for
 * bench/arm_count.py: counts the guest instructions executed between marker system calls.
 *
 * The guest marks a counted stretch with sched_get_priority_max(MARK_START) before it and
 * sched_get_priority_max(MARK_STOP) after it (both fail with EINVAL, doing nothing else);
 * stretches may nest (only the outermost counts). The plugin's arguments lo=ADDRESS,hi=ADDRESS
 * (decimal or 0x hex) name an address range, the interpreter's code: the instructions of
 * blocks starting in it are counted apart as well; with each=1 every stretch's count is printed
 * as it ends ("arm_count: stretch N"); with profile=PATH each block's instructions inside the
 * stretches are written to PATH at exit, a line "ADDRESS COUNT" each (bench/arm_count.py sums
 * them by the object file mapped there). At exit the plugin prints one line:
 *     arm_count: counted N instructions in S stretches, R in the range (T executed in all)
 *
 * Every translated block adds its instruction count to a counter when it runs (an inline
 * add, no call): a system call ends a block, so a stretch is exact to within the few
 * instructions of the marker calls themselves. One thread is assumed (the bench sets
 * OpenCV and the BLAS to one thread).
 *
 * Built by bench/arm_count.py:  gcc -shared -fPIC -O2 -o arm_count.so arm_count_plugin.c
 * It declares the few functions of QEMU's plugin API it uses (qemu-plugin.h, version 1)
 * itself, so that no QEMU source is needed to build it.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t {
    const char *target_name;
    struct { int min; int cur; } version;
    bool system_emulation;
    union { struct { int smp_vcpus; int max_vcpus; } system; };
} qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_syscall_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index,
                                              int64_t num, uint64_t a1, uint64_t a2,
                                              uint64_t a3, uint64_t a4, uint64_t a5,
                                              uint64_t a6, uint64_t a7, uint64_t a8);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
                                              void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_syscall_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

EXPORT int qemu_plugin_version = 1;

#define SYS_SCHED_GET_PRIORITY_MAX_AARCH64 125
#define MARK_START 0x5EED1
#define MARK_STOP 0x5EED2

static uint64_t executed;   /* every guest instruction run so far */
static uint64_t in_range;   /* those of blocks that start in [range_lo, range_hi) */
static uint64_t counted;    /* those inside the outermost marked stretches */
static uint64_t counted_in_range;
static uint64_t started, started_in_range;   /* the counters when the open stretch began */
static uint64_t range_lo, range_hi;
static int each;
static const char *profile_path;

/* one translated block, for the profile: its instructions run so far (`count`), at the
 * open stretch's start (`base`) and inside finished stretches (`inside`) */
struct block {
    uint64_t vaddr, count, base, inside;
};
static struct block **blocks;
static size_t n_blocks, blocks_room;
static uint64_t stretches;
static int depth;

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    uint64_t start = qemu_plugin_tb_vaddr(tb);
    size_t n = qemu_plugin_tb_n_insns(tb);

    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &executed, n);
    if (start >= range_lo && start < range_hi) {
        qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &in_range, n);
    }
    if (profile_path) {
        struct block *b = calloc(1, sizeof *b);
        if (n_blocks == blocks_room) {
            blocks_room = blocks_room ? 2 * blocks_room : 65536;
            blocks = realloc(blocks, blocks_room * sizeof *blocks);
        }
        b->vaddr = start;
        blocks[n_blocks++] = b;
        qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->count, n);
    }
}

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t a1,
                       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
                       uint64_t a7, uint64_t a8)
{
    if (num != SYS_SCHED_GET_PRIORITY_MAX_AARCH64) {
        return;
    }
    if (a1 == MARK_START && depth++ == 0) {
        started = executed;
        started_in_range = in_range;
        for (size_t i = 0; i < n_blocks; i++) {
            blocks[i]->base = blocks[i]->count;
        }
    } else if (a1 == MARK_STOP && depth > 0 && --depth == 0) {
        counted += executed - started;
        counted_in_range += in_range - started_in_range;
        stretches++;
        for (size_t i = 0; i < n_blocks; i++) {   /* a block new in the stretch has base 0 */
            blocks[i]->inside += blocks[i]->count - blocks[i]->base;
            blocks[i]->base = blocks[i]->count;
        }
        if (each) {
            fprintf(stderr, "arm_count: stretch %" PRIu64 "\n", executed - started);
        }
    }
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
    fprintf(stderr,   /* qemu_plugin_outs would need `-d plugin` */
            "arm_count: counted %" PRIu64 " instructions in %" PRIu64 " stretches, %" PRIu64
            " in the range (%" PRIu64 " executed in all)\n", counted, stretches,
            counted_in_range, executed);
    if (profile_path) {
        FILE *out = fopen(profile_path, "w");
        for (size_t i = 0; out && i < n_blocks; i++) {
            if (blocks[i]->inside) {
                fprintf(out, "%" PRIx64 " %" PRIu64 "\n", blocks[i]->vaddr, blocks[i]->inside);
            }
        }
        if (out) {
            fclose(out);
        }
    }
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                               char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "lo=", 3) == 0) {
            range_lo = strtoull(argv[i] + 3, NULL, 0);
        } else if (strncmp(argv[i], "hi=", 3) == 0) {
            range_hi = strtoull(argv[i] + 3, NULL, 0);
        } else if (strcmp(argv[i], "each=1") == 0) {
            each = 1;
        } else if (strncmp(argv[i], "profile=", 8) == 0) {
            profile_path = argv[i] + 8;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
