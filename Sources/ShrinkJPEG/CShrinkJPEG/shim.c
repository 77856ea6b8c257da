// Every function that calls into libjpeg sets its own setjmp first, so libjpeg's longjmp on error never
// crosses a Swift frame. Each decoder owns its error state; cleanup is idempotent.
#include "CShrinkJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#define JPEG_INTERNALS          /* the raw (planar) decode adjusts two internal fields, as TurboJPEG does */
#include <jpeglib.h>
#include <jerror.h>
#include <turbojpeg.h>

#include "CShrinkLoad.h"

// TurboJPEG, only for lossless transforms: loaded on first use (linked, every process would map it).
#define SHRINK_TURBOJPEG_FUNCTIONS(X) X(tjInitTransform) X(tjTransform) X(tjGetErrorStr2) X(tjFree) X(tjDestroy)

SHRINK_LIBRARY_API(shrink_turbojpeg, "libturbojpeg.so.0", SHRINK_TURBOJPEG_FUNCTIONS)

#define TJ(name) api.f.name


typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int strict;
    int status;                 // the status to return after longjmp
    int warnings;
    int hit_eof;                // the data ran out (JWRN_JPEG_EOF)
    char message[JMSG_LENGTH_MAX];
    char warning[JMSG_LENGTH_MAX];  // the first warning's text, kept when a later error replaces message
} sj_error;

typedef struct {
    struct jpeg_source_mgr pub;
    const unsigned char *data;
    size_t len;
    size_t pos;                 // offset of the end of the window handed to libjpeg
    size_t dropped;             // pages below this offset were released
    int drop_behind;
    size_t page;
    /* a restart band (sj_start_band) */
    const unsigned char *head;  // its header, being served before `pos` (NULL once served, and for a whole file)
} sj_source;

struct sj_decoder {
    struct jpeg_decompress_struct cinfo;
    sj_error err;
    sj_source src;
    struct jpeg_progress_mgr progress;
    int max_scans;              // more scans than this is SJ_LIMIT (0: no limit)
    int created, header_read, started;
    /* raw (planar) decoding */
    int raw, raw_dct, raw_keep_chroma;
    JSAMPARRAY raw_rows[3];
};

static const JOCTET sj_eoi[2] = {0xFF, JPEG_EOI};

// Sorts libjpeg's message codes into the statuses Swift translates.
static int sj_classify(int code, int fallback) {
    switch (code) {
    case JERR_NO_BACKING_STORE: return SJ_MEMORY_LIMIT;
    case JERR_OUT_OF_MEMORY: return SJ_OUT_OF_MEMORY;
    case JERR_INPUT_EOF: case JERR_INPUT_EMPTY: case JWRN_JPEG_EOF: return SJ_TRUNCATED;
    case JERR_BAD_PRECISION: case JERR_SOF_UNSUPPORTED: case JERR_NOT_COMPILED: return SJ_UNSUPPORTED;
    default: return fallback;
    }
}

static void sj_error_exit(j_common_ptr cinfo) {
    sj_error *e = (sj_error *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, e->message);
    // An error after the data ran out (the source fed a fake EOI) is a truncated file, whatever libjpeg
    // tripped over next.
    e->status = e->hit_eof ? SJ_TRUNCATED : sj_classify(cinfo->err->msg_code, SJ_ERROR);
    longjmp(e->jump, 1);
}

static void sj_emit_message(j_common_ptr cinfo, int level) {
    sj_error *e = (sj_error *)cinfo->err;
    if (level >= 0) return;     // trace messages
    e->warnings++;
    cinfo->err->num_warnings++;
    // The data ran out: the file is truncated, strict or not, as Pillow and libvips have it (sj_finish turns it
    // back into a warning when every row was already out and only the EOI was missing). Damage inside the
    // data that a marker ends (a scan cut short, stray bytes) stays a warning.
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) {
        e->hit_eof = 1;
        (*cinfo->err->format_message)(cinfo, e->message);
        e->status = SJ_TRUNCATED;
        longjmp(e->jump, 1);
    }
    if (e->warnings == 1) {
        (*cinfo->err->format_message)(cinfo, e->warning);
        memcpy(e->message, e->warning, sizeof e->message);
    }
    if (e->strict) {
        (*cinfo->err->format_message)(cinfo, e->message);
        e->status = sj_classify(cinfo->err->msg_code, SJ_WARNING);
        longjmp(e->jump, 1);
    }
}

static void sj_output_message(j_common_ptr cinfo) { (void)cinfo; }

// Called by libjpeg between row groups and while it absorbs the scans of a multi-scan file: a file with more
// scans than the limit would cost CPU in proportion to its scan count, not its pixels (a scan bomb).
static void sj_progress_monitor(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    sj_decoder *d = (sj_decoder *)cinfo;   // cinfo is the decoder's first member
    if (d->max_scans > 0 && d->cinfo.input_scan_number > d->max_scans) {
        snprintf(d->err.message, sizeof d->err.message, "the JPEG has more than %d scans", d->max_scans);
        d->err.status = SJ_LIMIT;
        longjmp(d->err.jump, 1);
    }
}

// Releases the pages of the mapping that lie wholly before `upto`, once they add up to SJ_RELEASE_STEP.
static void sj_drop(sj_source *s, size_t upto) {
    if (!s->drop_behind) return;
    size_t end = upto / s->page * s->page;
    if (end >= s->dropped + SJ_RELEASE_STEP) {
        madvise((void *)(s->data + s->dropped), end - s->dropped, MADV_DONTNEED);
        s->dropped = end;
    }
}

static void sj_init_source(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean sj_fill_input_buffer(j_decompress_ptr cinfo) {
    sj_source *s = (sj_source *)cinfo->src;
    // Everything before the window libjpeg just finished with is consumed (a band's header is not the file's).
    if (s->head) s->head = NULL;
    else sj_drop(s, s->pos - s->pub.bytes_in_buffer);
    if (s->pos >= s->len) {
        WARNMS(cinfo, JWRN_JPEG_EOF);
        s->pub.next_input_byte = sj_eoi;
        s->pub.bytes_in_buffer = 2;
        return TRUE;
    }
    size_t n = s->len - s->pos;
    if (n > SJ_WINDOW) n = SJ_WINDOW;
    s->pub.next_input_byte = s->data + s->pos;
    s->pub.bytes_in_buffer = n;
    s->pos += n;
    return TRUE;
}

static void sj_skip_input_data(j_decompress_ptr cinfo, long num_bytes) {
    sj_source *s = (sj_source *)cinfo->src;
    if (num_bytes <= 0) return;
    size_t skip = (size_t)num_bytes;
    if (skip <= s->pub.bytes_in_buffer) {
        s->pub.next_input_byte += skip;
        s->pub.bytes_in_buffer -= skip;
        return;
    }
    skip -= s->pub.bytes_in_buffer;
    s->pub.bytes_in_buffer = 0;
    s->pos = (skip > s->len - s->pos) ? s->len : s->pos + skip;
}

static void sj_term_source(j_decompress_ptr cinfo) { (void)cinfo; }

sj_decoder *sj_create(const unsigned char *data, size_t len, int drop_behind, int max_scans) {
    sj_decoder *d = calloc(1, sizeof(sj_decoder));
    if (!d) return NULL;
    d->max_scans = max_scans;
    d->cinfo.err = jpeg_std_error(&d->err.pub);
    d->err.pub.error_exit = sj_error_exit;
    d->err.pub.emit_message = sj_emit_message;
    d->err.pub.output_message = sj_output_message;
    if (setjmp(d->err.jump)) {
        jpeg_destroy_decompress(&d->cinfo);
        free(d);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    d->created = 1;
    d->src.pub.init_source = sj_init_source;
    d->src.pub.fill_input_buffer = sj_fill_input_buffer;
    d->src.pub.skip_input_data = sj_skip_input_data;
    d->src.pub.resync_to_restart = jpeg_resync_to_restart;
    d->src.pub.term_source = sj_term_source;
    d->src.data = data;
    d->src.len = len;
    d->src.drop_behind = drop_behind;
    long page = sysconf(_SC_PAGESIZE);
    d->src.page = page > 0 ? (size_t)page : 4096;
    d->cinfo.src = &d->src.pub;
    d->progress.progress_monitor = sj_progress_monitor;
    d->cinfo.progress = &d->progress;
    return d;
}

void sj_destroy(sj_decoder *d) {
    if (!d) return;
    if (d->created) jpeg_destroy_decompress(&d->cinfo);
    d->created = 0;
    free(d);
}

const char *sj_message(const sj_decoder *d) { return d ? d->err.message : "no decoder"; }
int sj_warning_count(const sj_decoder *d) { return d ? d->err.warnings : 0; }
const char *sj_warning(const sj_decoder *d) { return d ? d->err.warning : ""; }

static int sj_color_space(J_COLOR_SPACE cs) {
    switch (cs) {
    case JCS_GRAYSCALE: return SJ_CS_GRAY;
    case JCS_RGB: return SJ_CS_RGB;
    case JCS_YCbCr: return SJ_CS_YCBCR;
    case JCS_CMYK: return SJ_CS_CMYK;
    case JCS_YCCK: return SJ_CS_YCCK;
    default: return SJ_CS_UNKNOWN;
    }
}

int sj_read_header(sj_decoder *d, sj_header *out) {
    if (!d || d->header_read) return SJ_BAD_CALL;
    d->err.strict = 0;
    if (setjmp(d->err.jump)) return d->err.status;
    if (jpeg_read_header(&d->cinfo, TRUE) != JPEG_HEADER_OK) {
        snprintf(d->err.message, sizeof d->err.message, "JPEG datastream contains no image");
        return SJ_ERROR;
    }
    d->header_read = 1;
    struct jpeg_decompress_struct *c = &d->cinfo;
    memset(out, 0, sizeof *out);
    out->width = (int)c->image_width;
    out->height = (int)c->image_height;
    out->components = c->num_components;
    out->precision = c->data_precision;
    out->color_space = sj_color_space(c->jpeg_color_space);
    out->progressive = c->progressive_mode ? 1 : 0;
    out->arithmetic = c->arith_code ? 1 : 0;
    for (int i = 0; i < c->num_components && i < 4; i++) {
        out->h_samp[i] = c->comp_info[i].h_samp_factor;
        out->v_samp[i] = c->comp_info[i].v_samp_factor;
    }
    out->saw_adobe = c->saw_Adobe_marker ? 1 : 0;
    out->adobe_transform = c->Adobe_transform;
    out->saw_jfif = c->saw_JFIF_marker ? 1 : 0;
    out->restart_interval = (int)c->restart_interval;
    out->multi_scan = (c->progressive_mode || c->comps_in_scan < c->num_components) ? 1 : 0;
    return SJ_OK;
}

int sj_start(sj_decoder *d, int scale_denom, int out_gray, int out_cmyk, long max_memory, int fast, int strict,
             int *out_width, int *out_height, int *out_components) {
    if (!d || !d->header_read || d->started) return SJ_BAD_CALL;
    d->err.strict = strict;
    if (setjmp(d->err.jump)) return d->err.status;
    struct jpeg_decompress_struct *c = &d->cinfo;
    c->scale_num = 1;
    c->scale_denom = (unsigned int)scale_denom;
    c->out_color_space = out_gray ? JCS_GRAYSCALE : out_cmyk ? JCS_CMYK : JCS_RGB;
    c->dct_method = fast ? JDCT_IFAST : JDCT_ISLOW;
    c->do_fancy_upsampling = fast ? FALSE : TRUE;
    c->mem->max_memory_to_use = max_memory;
    jpeg_start_decompress(c);
    d->started = 1;
    *out_width = (int)c->output_width;
    *out_height = (int)c->output_height;
    *out_components = c->output_components;
    return SJ_OK;
}

// Forgets the warnings (and the message) `d` has gathered.
static void sj_clear_warnings(sj_decoder *d) {
    d->err.warnings = 0;
    d->err.warning[0] = 0;
    d->err.message[0] = 0;
    d->err.pub.num_warnings = 0;
}

int sj_end_band(sj_decoder *d, int *insufficient) {
    *insufficient = 0;
    if (!d || !d->started) return SJ_BAD_CALL;
    struct jpeg_decompress_struct *c = &d->cinfo;
    volatile int blocks_in_mcu = c->blocks_in_MCU;
    if (setjmp(d->err.jump)) {
        c->blocks_in_MCU = blocks_in_mcu;
        return d->err.status;
    }
    if (c->restart_interval == 0 || !c->entropy || !c->entropy->decode_mcu) return SJ_OK;
    // The next MCU's decode begins with the restart (jdhuff.c process_restart): bytes left before the marker are
    // counted, and the marker's number is checked. With no block in the MCU, nothing of the next band is decoded.
    JBLOCK blocks[D_MAX_BLOCKS_IN_MCU];
    JBLOCKROW rows[D_MAX_BLOCKS_IN_MCU];
    for (int i = 0; i < D_MAX_BLOCKS_IN_MCU; i++) rows[i] = &blocks[i];
    int marker = c->unread_marker;
    c->blocks_in_MCU = 0;
    boolean done = (*c->entropy->decode_mcu)(c, rows);
    c->blocks_in_MCU = blocks_in_mcu;
    (void)done;
    *insufficient = c->entropy->insufficient_data ? 1 : 0;
    // libjpeg warns of bytes it skipped before a marker only when it next looks for one itself (not when the Huffman
    // decoder ran into it first): one decoder does so later in the image, this band's decoder ends here.
    if (c->marker->discarded_bytes != 0) {
        WARNMS2(c, JWRN_EXTRANEOUS_DATA, c->marker->discarded_bytes, marker ? marker : JPEG_RST0);
        c->marker->discarded_bytes = 0;
    }
    return SJ_OK;
}

int sj_start_band(sj_decoder *d, const unsigned char *header, size_t header_len, size_t start, int first_restart,
                  int insufficient, int header_warnings, int scale_denom, long max_memory, int fast, int strict,
                  int widths[3], int heights[3], int rows_per_group[3], double xfactors[3], double yfactors[3]) {
    if (!d || !header || header_len == 0) return SJ_BAD_CALL;
    if (setjmp(d->err.jump)) return d->err.status;
    jpeg_abort_decompress(&d->cinfo);
    d->header_read = d->started = d->raw = 0;
    sj_clear_warnings(d);
    d->err.hit_eof = 0;
    d->err.status = SJ_OK;
    d->err.strict = 0;          // as sj_read_header: the header's own warnings never fail a decode (sj_start_raw sets it)
    sj_source *s = &d->src;
    s->head = header;
    s->pub.next_input_byte = header;
    s->pub.bytes_in_buffer = header_len;
    s->pos = start < s->len ? start : s->len;
    struct jpeg_decompress_struct *c = &d->cinfo;
    if (jpeg_read_header(c, TRUE) != JPEG_HEADER_OK) {
        snprintf(d->err.message, sizeof d->err.message, "JPEG datastream contains no image");
        return SJ_ERROR;
    }
    d->header_read = 1;
    // The SOS set libjpeg's restart count to 0: the band's first marker carries the file's number for it.
    c->marker->next_restart_num = first_restart & 7;
    int status = sj_start_raw(d, scale_denom, max_memory, fast, strict, widths, heights, rows_per_group, xfactors,
                              yfactors);
    if (status != SJ_OK) return status;
    // The file's header (and its scan's, checked as the decode starts) is one band's to report.
    if (!header_warnings) sj_clear_warnings(d);
    // jdhuff's start pass cleared it: one decoder's state where this band starts (after the last band's restart).
    if (insufficient) c->entropy->insufficient_data = TRUE;
    return SJ_OK;
}

int sj_start_raw(sj_decoder *d, int scale_denom, long max_memory, int fast, int strict,
                 int widths[3], int heights[3], int rows_per_group[3], double xfactors[3], double yfactors[3]) {
    if (!d || !d->header_read || d->started || d->cinfo.num_components != 3) return SJ_BAD_CALL;
    d->err.strict = strict;
    if (setjmp(d->err.jump)) return d->err.status;
    struct jpeg_decompress_struct *c = &d->cinfo;
    c->scale_num = 1;
    c->scale_denom = (unsigned int)scale_denom;
    c->raw_data_out = TRUE;
    c->dct_method = fast ? JDCT_IFAST : JDCT_ISLOW;
    c->mem->max_memory_to_use = max_memory;
    jpeg_start_decompress(c);
    d->started = 1;
    d->raw = 1;
    int dct = c->min_DCT_scaled_size;
    d->raw_dct = dct;
    /* For 4:2:0 libjpeg widens the chroma IDCT to upsample while scaling; keep chroma subsampled instead
       by giving the chroma components the luma's scaled IDCT (the same trick TurboJPEG uses). */
    jpeg_component_info *ci = c->comp_info;
    d->raw_keep_chroma = ci[0].h_samp_factor == 2 && ci[0].v_samp_factor == 2 &&
        ci[1].h_samp_factor == 1 && ci[1].v_samp_factor == 1 && ci[2].h_samp_factor == 1 && ci[2].v_samp_factor == 1;
    for (int i = 0; i < 3; i++) {
        int scaled = (d->raw_keep_chroma || i == 0) ? dct : ci[i].DCT_scaled_size;
        int rows = ci[i].v_samp_factor * scaled;
        JDIMENSION width = ci[i].width_in_blocks * (JDIMENSION)scaled;
        d->raw_rows[i] = (*c->mem->alloc_sarray)((j_common_ptr)c, JPOOL_IMAGE, width, (JDIMENSION)rows);
        rows_per_group[i] = rows;
        xfactors[i] = (double)(ci[i].h_samp_factor * scaled) / (double)(c->max_h_samp_factor * dct);
        yfactors[i] = (double)(ci[i].v_samp_factor * scaled) / (double)(c->max_v_samp_factor * dct);
        if (i == 0) {
            widths[i] = (int)c->output_width;
            heights[i] = (int)c->output_height;
        } else if (d->raw_keep_chroma) {
            widths[i] = (int)((c->output_width + 1) / 2);
            heights[i] = (int)((c->output_height + 1) / 2);
        } else {
            widths[i] = (int)ci[i].downsampled_width;
            heights[i] = (int)ci[i].downsampled_height;
        }
    }
    return SJ_OK;
}

int sj_read_raw(sj_decoder *d, int *luma_rows) {
    *luma_rows = 0;
    if (!d || !d->started || !d->raw) return SJ_BAD_CALL;
    if (setjmp(d->err.jump)) return d->err.status;
    struct jpeg_decompress_struct *c = &d->cinfo;
    if (c->output_scanline >= c->output_height) return SJ_OK;
    if (d->raw_keep_chroma) {
        for (int i = 1; i < 3; i++) {
            c->comp_info[i].DCT_scaled_size = d->raw_dct;
            c->idct->inverse_DCT[i] = c->idct->inverse_DCT[0];
        }
        // MCU_width is set per scan, for the components in it: a multi-scan file's other components hold
        // uninitialised values (UBSan found one overflowing here), and their samples come from the
        // coefficient buffer, which uses DCT_scaled_size.
        for (int s = 0; s < c->comps_in_scan; s++) {
            jpeg_component_info *comp = c->cur_comp_info[s];
            if (comp->component_index > 0) comp->MCU_sample_width = comp->MCU_width * d->raw_dct;
        }
    }
    JDIMENSION before = c->output_scanline;
    JDIMENSION got = jpeg_read_raw_data(c, d->raw_rows, (JDIMENSION)(c->max_v_samp_factor * d->raw_dct));
    JDIMENSION valid = c->output_scanline > before ? c->output_scanline - before : got;
    if (before + valid > c->output_height) valid = c->output_height - before;
    *luma_rows = (int)valid;
    return SJ_OK;
}

const unsigned char *sj_raw_row(const sj_decoder *d, int component, int row) {
    return d->raw_rows[component][row];
}

int sj_window(sj_decoder *d, unsigned int *x, unsigned int *width, unsigned int skip_rows) {
    if (!d || !d->started || d->raw) return SJ_BAD_CALL;
    if (setjmp(d->err.jump)) return d->err.status;
    struct jpeg_decompress_struct *c = &d->cinfo;
    if (*width > 0 && (*x > 0 || *width < c->output_width)) {
        JDIMENSION xoff = *x, w = *width;
        jpeg_crop_scanline(c, &xoff, &w);
        *x = xoff;
        *width = w;
    } else {
        *x = 0;
        *width = c->output_width;
    }
    if (skip_rows > 0) jpeg_skip_scanlines(c, skip_rows);
    return SJ_OK;
}

int sj_read_rows(sj_decoder *d, unsigned char *buffer, size_t stride, int max_rows, int *rows_read) {
    *rows_read = 0;
    if (!d || !d->started) return SJ_BAD_CALL;
    if (setjmp(d->err.jump)) return d->err.status;
    struct jpeg_decompress_struct *c = &d->cinfo;
    int total = 0;
    while (total < max_rows && c->output_scanline < c->output_height) {
        JSAMPROW rows[16];
        int want = max_rows - total;
        if (want > 16) want = 16;
        for (int i = 0; i < want; i++) rows[i] = buffer + (size_t)(total + i) * stride;
        JDIMENSION got = jpeg_read_scanlines(c, rows, (JDIMENSION)want);
        if (got == 0) break;
        total += (int)got;
        *rows_read = total;
    }
    return SJ_OK;
}

int sj_finish(sj_decoder *d) {
    if (!d || !d->started) return SJ_BAD_CALL;
    int complete = d->cinfo.output_scanline >= d->cinfo.output_height;
    if (setjmp(d->err.jump)) {
        // Every row is out: damage after the image (bad trailing markers, no EOI) costs no pixel, so unless
        // strict it is a warning, as in the reference decoders, which stop reading after the last row.
        if (!complete || d->err.strict) return d->err.status;
        if (!d->err.hit_eof) d->err.warnings++;          // sj_emit_message counted the EOF warning already
        if (d->err.warning[0] == 0) memcpy(d->err.warning, d->err.message, sizeof d->err.warning);
        jpeg_abort_decompress(&d->cinfo);
        return SJ_OK;
    }
    d->started = 0;
    if (complete) {
        jpeg_finish_decompress(&d->cinfo);
    } else {
        jpeg_abort_decompress(&d->cinfo);
    }
    return SJ_OK;
}

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    unsigned char *mem;         // jpeg_mem_dest's buffer: kept here so the error path can free it
    unsigned long size;
} sj_encode_error;

static void sj_encode_error_exit(j_common_ptr cinfo) {
    longjmp(((sj_encode_error *)cinfo->err)->jump, 1);
}

// APP1 Exif and APP2 ICC_PROFILE markers, right after jpeg_start_compress.
static void sj_write_metadata(j_compress_ptr c, const unsigned char *icc, unsigned int icc_len,
                              const unsigned char *exif, unsigned int exif_len) {
    if (exif && exif_len > 0 && exif_len <= 65533 - 6) {
        static const unsigned char prefix[6] = {'E', 'x', 'i', 'f', 0, 0};
        jpeg_write_m_header(c, JPEG_APP0 + 1, exif_len + 6);
        for (int i = 0; i < 6; i++) jpeg_write_m_byte(c, prefix[i]);
        for (unsigned int i = 0; i < exif_len; i++) jpeg_write_m_byte(c, exif[i]);
    }
    if (icc && icc_len > 0) jpeg_write_icc_profile(c, icc, icc_len);
}

// Interleaved rows (gray or RGB), one scanline per call.
static void sj_write_rows(j_compress_ptr c, const unsigned char *pixels, size_t stride) {
    while (c->next_scanline < c->image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)c->next_scanline * stride);
        jpeg_write_scanlines(c, &row, 1);
    }
}

// yuv420 planes as libjpeg raw data, an iMCU row (16 luma rows, 8 of each chroma) at a time. libjpeg reads
// whole blocks: rows are padded to width_in_blocks × 8 by repeating their last sample, and a short last group
// repeats its last rows below the image. The one-shot encoder and the band-by-band writer share it.
typedef struct {
    JSAMPARRAY rows[3];
    int filled;   // luma rows in the group; chroma rows are (filled + 1) / 2
} sj_raw_group;

static void sj_raw_group_init(j_compress_ptr c, sj_raw_group *g) {
    for (int i = 0; i < 3; i++) {
        jpeg_component_info *comp = &c->comp_info[i];
        g->rows[i] = (*c->mem->alloc_sarray)((j_common_ptr)c, JPOOL_IMAGE, comp->width_in_blocks * DCTSIZE,
                                             (JDIMENSION)(comp->v_samp_factor * DCTSIZE));
    }
    g->filled = 0;
}

// Hands the group to libjpeg, completing a short one with copies of its last rows.
static void sj_raw_group_flush(j_compress_ptr c, sj_raw_group *g) {
    for (int i = 0; i < 3; i++) {
        int rows = c->comp_info[i].v_samp_factor * DCTSIZE;
        int filled = i == 0 ? g->filled : (g->filled + 1) / 2;
        JDIMENSION padded = c->comp_info[i].width_in_blocks * DCTSIZE;
        for (int r = filled; r < rows; r++) memcpy(g->rows[i][r], g->rows[i][filled - 1], padded);
    }
    jpeg_write_raw_data(c, g->rows, (JDIMENSION)(c->max_v_samp_factor * DCTSIZE));
    g->filled = 0;
}

// Adds `count` luma rows (`y_stride` apart) and, from the even ones, the chroma rows (`c_stride` apart), handing
// each full group to libjpeg. The group must start on an even row.
static void sj_raw_group_add(j_compress_ptr c, sj_raw_group *g, const unsigned char *y, size_t y_stride,
                             const unsigned char *cb, const unsigned char *cr, size_t c_stride, int count) {
    int width = (int)c->image_width, cw = (width + 1) / 2;
    for (int row = 0; row < count; row++) {
        JSAMPROW l = g->rows[0][g->filled];
        JDIMENSION padded = c->comp_info[0].width_in_blocks * DCTSIZE;
        memcpy(l, y + (size_t)row * y_stride, (size_t)width);
        memset(l + width, l[width - 1], padded - (JDIMENSION)width);
        if (row % 2 == 0) {
            for (int i = 1; i < 3; i++) {
                JSAMPROW ch = g->rows[i][g->filled / 2];
                padded = c->comp_info[i].width_in_blocks * DCTSIZE;
                memcpy(ch, (i == 1 ? cb : cr) + (size_t)(row / 2) * c_stride, (size_t)cw);
                memset(ch + cw, ch[cw - 1], padded - (JDIMENSION)cw);
            }
        }
        g->filled += 1;
        if (g->filled == c->max_v_samp_factor * DCTSIZE) sj_raw_group_flush(c, g);
    }
}

// The whole image's yuv420 planes (each plane's rows packed) as raw data.
static void sj_write_yuv420(j_compress_ptr c, const unsigned char *const planes[3]) {
    int width = (int)c->image_width, cw = (width + 1) / 2;
    sj_raw_group g;
    sj_raw_group_init(c, &g);
    sj_raw_group_add(c, &g, planes[0], (size_t)width, planes[1], planes[2], (size_t)cw, (int)c->image_height);
    if (g.filled > 0) sj_raw_group_flush(c, &g);
}

// The one compressor behind both entry points: components 1 (gray) or 3 (RGB) read interleaved rows from
// planes[0]; components 0 means yuv420 planes written as raw data (4:2:0, no colour conversion).
static int sj_compress(const unsigned char *const planes[3], size_t stride, int width, int height, int components,
                       int quality, int subsampling_444, int progressive, int optimize,
                       const unsigned char *icc, unsigned int icc_len, const unsigned char *exif, unsigned int exif_len,
                       unsigned char **out, unsigned long *out_len, char *message, size_t message_len) {
    struct jpeg_compress_struct c;
    sj_encode_error err;
    *out = NULL;
    *out_len = 0;
    memset(&c, 0, sizeof c);
    c.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = sj_encode_error_exit;
    err.pub.output_message = sj_output_message;
    err.mem = NULL;
    err.size = 0;
    if (setjmp(err.jump)) {
        char text[JMSG_LENGTH_MAX];
        (*c.err->format_message)((j_common_ptr)&c, text);
        snprintf(message, message_len, "%s", text);
        jpeg_destroy_compress(&c);
        free(err.mem);
        return SJ_ERROR;
    }
    int yuv = components == 0;
    jpeg_create_compress(&c);
    jpeg_mem_dest(&c, &err.mem, &err.size);
    c.image_width = (JDIMENSION)width;
    c.image_height = (JDIMENSION)height;
    c.input_components = yuv ? 3 : components;
    c.in_color_space = yuv ? JCS_YCbCr : components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, quality, TRUE);
    if (c.input_components == 3) {
        int h = subsampling_444 && !yuv ? 1 : 2;
        c.comp_info[0].h_samp_factor = h;
        c.comp_info[0].v_samp_factor = h;
        c.comp_info[1].h_samp_factor = c.comp_info[1].v_samp_factor = 1;
        c.comp_info[2].h_samp_factor = c.comp_info[2].v_samp_factor = 1;
    }
    c.raw_data_in = yuv ? TRUE : FALSE;
    if (progressive) jpeg_simple_progression(&c);
    c.optimize_coding = optimize ? TRUE : FALSE;
    jpeg_start_compress(&c, TRUE);
    sj_write_metadata(&c, icc, icc_len, exif, exif_len);
    if (yuv) sj_write_yuv420(&c, planes);
    else sj_write_rows(&c, planes[0], stride);
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    *out = err.mem;
    *out_len = err.size;
    return SJ_OK;
}

int sj_encode(const unsigned char *pixels, int width, int height, size_t stride, int components,
              int quality, int subsampling_444, int progressive, int optimize,
              const unsigned char *icc, unsigned int icc_len, const unsigned char *exif, unsigned int exif_len,
              unsigned char **out, unsigned long *out_len, char *message, size_t message_len) {
    const unsigned char *planes[3] = {pixels, NULL, NULL};
    return sj_compress(planes, stride, width, height, components, quality, subsampling_444, progressive, optimize,
                       icc, icc_len, exif, exif_len, out, out_len, message, message_len);
}

void sj_free(void *p) { free(p); }

int sj_encode_yuv420(const unsigned char *y, const unsigned char *cb, const unsigned char *cr, int width, int height,
                     int quality, int progressive, int optimize,
                     const unsigned char *icc, unsigned int icc_len, const unsigned char *exif, unsigned int exif_len,
                     unsigned char **out, unsigned long *out_len, char *message, size_t message_len) {
    const unsigned char *planes[3] = {y, cb, cr};
    return sj_compress(planes, 0, width, height, 0, quality, 0, progressive, optimize,
                       icc, icc_len, exif, exif_len, out, out_len, message, message_len);
}

int sj_transform(const unsigned char *jpeg, unsigned long size, int op, int perfect, int trim,
                 int crop_x, int crop_y, int crop_w, int crop_h,
                 unsigned char **out, unsigned long *out_len, char *message, size_t message_len) {
    *out = NULL;
    *out_len = 0;
    if (shrink_turbojpeg_load() != 0) {
        snprintf(message, message_len, "TurboJPEG did not load: %s", shrink_turbojpeg_load_error());
        return SJ_UNSUPPORTED;
    }
    tjhandle h = TJ(tjInitTransform)();
    if (!h) {
        snprintf(message, message_len, "%s", TJ(tjGetErrorStr2)(NULL));
        return SJ_OUT_OF_MEMORY;
    }
    tjtransform xf;
    memset(&xf, 0, sizeof xf);
    xf.op = op;
    xf.options = (perfect ? TJXOPT_PERFECT : 0) | (trim ? TJXOPT_TRIM : 0);
    if (crop_w > 0 && crop_h > 0) {
        xf.options |= TJXOPT_CROP;
        xf.r.x = crop_x;
        xf.r.y = crop_y;
        xf.r.w = crop_w;
        xf.r.h = crop_h;
    }
    unsigned char *dst = NULL;
    unsigned long dst_size = 0;
    int r = TJ(tjTransform)(h, jpeg, size, 1, &dst, &dst_size, &xf, 0);
    if (r != 0) {
        snprintf(message, message_len, "%s", TJ(tjGetErrorStr2)(h));
        TJ(tjFree)(dst);
        TJ(tjDestroy)(h);
        return SJ_ERROR;
    }
    TJ(tjDestroy)(h);
    *out = dst;
    *out_len = dst_size;
    return SJ_OK;
}

void sj_tj_free(unsigned char *p) {
    if (p) TJ(tjFree)(p);
}

struct sj_writer {
    struct jpeg_compress_struct c;
    sj_encode_error err;
    FILE *file;
    // yuv420 writers (components 0): the iMCU row being filled by sj_writer_write_yuv420.
    sj_raw_group group;
};

static void sj_writer_free(sj_writer *w) {
    jpeg_destroy_compress(&w->c);
    if (w->file) fclose(w->file);
    free(w);
}

static int sj_writer_fail(sj_writer *w, char *message, size_t message_len) {
    char text[JMSG_LENGTH_MAX];
    (*w->c.err->format_message)((j_common_ptr)&w->c, text);
    snprintf(message, message_len, "%s", text);
    return SJ_ERROR;
}

sj_writer *sj_writer_open(const char *path, int width, int height, int components, int quality, int subsampling_444,
                          char *message, size_t message_len) {
    if (components != 0 && components != 1 && components != 3) {
        snprintf(message, message_len, "components must be 0 (yuv420), 1 or 3");
        return NULL;
    }
    sj_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(message, message_len, "out of memory");
        return NULL;
    }
    w->c.err = jpeg_std_error(&w->err.pub);
    w->err.pub.error_exit = sj_encode_error_exit;
    w->err.pub.output_message = sj_output_message;
    if (setjmp(w->err.jump)) {
        sj_writer_fail(w, message, message_len);
        sj_writer_free(w);
        return NULL;
    }
    jpeg_create_compress(&w->c);
    w->file = fopen(path, "wb");
    if (!w->file) {
        snprintf(message, message_len, "cannot create the file");
        sj_writer_free(w);
        return NULL;
    }
    // libjpeg hands stdio 4 KiB at a time; a 64 KiB buffer makes that one write(2) per 64 KiB, not per 4 KiB.
    setvbuf(w->file, NULL, _IOFBF, 64 << 10);
    jpeg_stdio_dest(&w->c, w->file);
    w->c.image_width = (JDIMENSION)width;
    w->c.image_height = (JDIMENSION)height;
    int yuv = components == 0;
    w->c.input_components = yuv ? 3 : components;
    w->c.in_color_space = yuv ? JCS_YCbCr : components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&w->c);
    jpeg_set_quality(&w->c, quality, TRUE);
    if (components == 3 && subsampling_444) {
        w->c.comp_info[0].h_samp_factor = w->c.comp_info[0].v_samp_factor = 1;
    }
    w->c.raw_data_in = yuv ? TRUE : FALSE;
    jpeg_start_compress(&w->c, TRUE);
    if (yuv) sj_raw_group_init(&w->c, &w->group);
    return w;
}

int sj_writer_write_yuv420(sj_writer *w, const unsigned char *y, size_t y_stride, const unsigned char *cb,
                           const unsigned char *cr, size_t c_stride, int count, char *message, size_t message_len) {
    if (!w || !w->c.raw_data_in) return SJ_BAD_CALL;
    if (setjmp(w->err.jump)) return sj_writer_fail(w, message, message_len);
    int height = (int)w->c.image_height, done = (int)w->c.next_scanline + w->group.filled;
    if (count < 0 || done + count > height) {
        snprintf(message, message_len, "%d rows would pass the image height %d", count, height);
        return SJ_BAD_CALL;
    }
    if (done % 2 != 0) {
        snprintf(message, message_len, "a yuv420 band must start on an even row, not %d", done);
        return SJ_BAD_CALL;
    }
    sj_raw_group_add(&w->c, &w->group, y, y_stride, cb, cr, c_stride, count);
    return SJ_OK;
}

int sj_writer_write(sj_writer *w, const unsigned char *rows, size_t stride, int count, char *message, size_t message_len) {
    if (!w || w->c.raw_data_in) return SJ_BAD_CALL;
    if (setjmp(w->err.jump)) return sj_writer_fail(w, message, message_len);
    if (count < 0 || w->c.next_scanline + (JDIMENSION)count > w->c.image_height) {
        snprintf(message, message_len, "%d rows would pass the image height %u", count, w->c.image_height);
        return SJ_BAD_CALL;
    }
    for (int i = 0; i < count; i++) {
        JSAMPROW row = (JSAMPROW)(rows + (size_t)i * stride);
        jpeg_write_scanlines(&w->c, &row, 1);
    }
    return SJ_OK;
}

int sj_writer_finish(sj_writer *w, char *message, size_t message_len) {
    if (!w) return SJ_BAD_CALL;
    if (setjmp(w->err.jump)) {
        int status = sj_writer_fail(w, message, message_len);
        sj_writer_free(w);
        return status;
    }
    if (w->c.raw_data_in && w->group.filled > 0 && w->c.next_scanline + (JDIMENSION)w->group.filled == w->c.image_height) {
        sj_raw_group_flush(&w->c, &w->group);
    }
    if (w->c.next_scanline < w->c.image_height) {
        snprintf(message, message_len, "only %u of %u rows were written", w->c.next_scanline + (JDIMENSION)w->group.filled,
                 w->c.image_height);
        sj_writer_free(w);
        return SJ_BAD_CALL;
    }
    jpeg_finish_compress(&w->c);
    int failed = fflush(w->file) != 0 || ferror(w->file);
    int closed = fclose(w->file);
    w->file = NULL;
    sj_writer_free(w);
    if (failed || closed != 0) {
        snprintf(message, message_len, "cannot write the file");
        return SJ_ERROR;
    }
    return SJ_OK;
}

void sj_writer_abort(sj_writer *w) {
    if (w) sj_writer_free(w);
}
