/* jpeg-restart-bands FILE MCU_ROWS THREADS DENOM MODE — what decoding a baseline JPEG's restart intervals on several
 * threads would cost and save (issue 41: JPEG files with restart markers on every core). MODE 0: one libjpeg-turbo
 * decoder over the whole file; MODE 1: the file split at its restart markers into bands of MCU_ROWS rows of MCUs
 * (the interval must be one row of MCUs, as cjpeg -restart 1 and many phones write it), each band a stream of its own
 * (the header with the frame's height patched, the band's entropy-coded bytes with its restart markers renumbered
 * from RST0, EOI), decoded by THREADS threads taking bands in order. Both decode raw YCbCr planes at 1/DENOM with 4:2:0
 * chroma kept at half size, as Shrink's planes route and scripts/floors/jpeg-raw.c do (for raw planes a band's rows
 * are the whole decode's rows: nothing is upsampled across its edges). Prints the split's time, then wall and
 * process CPU. BENCHMARKS.md, "JPEG restart intervals: an experiment", has the figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <jpeglib.h>
#include <jpegint.h>

static unsigned char *file; static size_t flen;
static size_t sos_end, sof_at; static int mcu_h, mcus_rows, width, height, interval, mcus_per_row;
typedef struct { unsigned char *buf; size_t len; int rows; } band_t;
static band_t *bands; static int nbands; static int scale;
static int next_band = 0; static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static unsigned long long checksum = 0;

/* Decodes one stream; adds its planes' samples (the rows and columns inside the image) to `checksum`. */
static void decode_stream(unsigned char *buf, size_t len) {
    struct jpeg_decompress_struct c; struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e); jpeg_create_decompress(&c);
    jpeg_mem_src(&c, buf, len); jpeg_read_header(&c, TRUE);
    c.raw_data_out = TRUE; c.scale_num = 1; c.scale_denom = scale; c.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&c);
    int block = c.min_DCT_scaled_size; jpeg_component_info *ci = c.comp_info;
    for (int k = 1; k < 3; k++) { ci[k].DCT_scaled_size = block; c.idct->inverse_DCT[k] = c.idct->inverse_DCT[0]; }
    for (int s2 = 0; s2 < c.comps_in_scan; s2++)
        if (c.cur_comp_info[s2]->component_index > 0) c.cur_comp_info[s2]->MCU_sample_width = c.cur_comp_info[s2]->MCU_width * block;
    int rg = c.max_v_samp_factor * block;
    JSAMPARRAY planes[3]; JSAMPROW rows[3][32];
    for (int p = 0; p < 3; p++) {
        int w = ci[p].width_in_blocks * ci[p].DCT_scaled_size + 64;
        for (int r = 0; r < 32; r++) rows[p][r] = malloc(w);
        planes[p] = rows[p];
    }
    unsigned long long sum = 0;
    while (c.output_scanline < c.output_height) {
        JDIMENSION first = c.output_scanline;
        JDIMENSION got = jpeg_read_raw_data(&c, planes, rg);
        if (first + got > c.output_height) got = c.output_height - first;
        for (JDIMENSION r = 0; r < got; r++) for (JDIMENSION x = 0; x < c.output_width; x++) sum += rows[0][r][x];
        for (int p = 1; p < 3; p++)
            for (JDIMENSION r = 0; r < (got + 1) / 2; r++)
                for (JDIMENSION x = 0; x < (c.output_width + 1) / 2; x++) sum += rows[p][r][x] * (p + 1);
    }
    pthread_mutex_lock(&mu); checksum += sum; pthread_mutex_unlock(&mu);
    jpeg_abort_decompress(&c); jpeg_destroy_decompress(&c);
    for (int p = 0; p < 3; p++) for (int r = 0; r < 32; r++) free(rows[p][r]);
}

static void *worker(void *arg) {
    for (;;) {
        pthread_mutex_lock(&mu); int b = next_band++; pthread_mutex_unlock(&mu);
        if (b >= nbands) return NULL;
        decode_stream(bands[b].buf, bands[b].len);
    }
}

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }

int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); flen = ftell(f); fseek(f, 0, SEEK_SET);
    file = malloc(flen); fread(file, 1, flen, f); fclose(f);
    int mcu_rows_per_band = atoi(argv[2]); int threads = atoi(argv[3]); scale = atoi(argv[4]); int mode = atoi(argv[5]);
    size_t i = 2;
    for (;;) {
        int m = file[i + 1]; int L = file[i + 2] << 8 | file[i + 3];
        if (m == 0xC0) { sof_at = i; height = file[i+5]<<8|file[i+6]; width = file[i+7]<<8|file[i+8];
            int hmax = 1, vmax = 1; for (int k = 0; k < file[i+9]; k++) { int s = file[i+11+3*k]; if ((s>>4)>hmax) hmax=s>>4; if ((s&15)>vmax) vmax=s&15; }
            mcu_h = 8 * vmax; mcus_per_row = (width + 8*hmax - 1) / (8*hmax); mcus_rows = (height + mcu_h - 1) / mcu_h; }
        if (m == 0xDD) interval = file[i+4]<<8|file[i+5];
        if (m == 0xDA) { sos_end = i + 2 + L; break; }
        i += 2 + L;
    }
    double t0 = now(), c0 = cpu();
    if (mode == 0) { decode_stream(file, flen); }
    else {
        // intervals per MCU row must be whole: assume interval == mcus_per_row (one row per interval)
        nbands = (mcus_rows + mcu_rows_per_band - 1) / mcu_rows_per_band;
        bands = calloc(nbands, sizeof(band_t));
        size_t pos = sos_end; int row = 0;
        for (int b = 0; b < nbands; b++) {
            int rows = mcu_rows_per_band; if (row + rows > mcus_rows) rows = mcus_rows - row;
            // find the end: the RST after `rows` intervals (or EOI)
            size_t start = pos; int seen = 0; size_t end = flen - 2;
            size_t j = pos;
            while (j + 1 < flen) {
                unsigned char *ff = memchr(file + j, 0xFF, flen - 1 - j);
                if (!ff) break;
                j = ff - file;
                if (file[j+1] >= 0xD0 && file[j+1] <= 0xD7) { seen++; if (seen == rows) { end = j; break; } }
                else if (file[j+1] == 0xD9) { end = j; break; }
                j++;
            }
            size_t hlen = sos_end; size_t blen = end - start;
            band_t *bd = &bands[b]; bd->len = hlen + blen + 2; bd->buf = malloc(bd->len); bd->rows = rows;
            memcpy(bd->buf, file, hlen);
            int h = rows * mcu_h; if (b == nbands - 1) h = height - row * mcu_h;
            bd->buf[sof_at + 5] = h >> 8; bd->buf[sof_at + 6] = h & 255;
            memcpy(bd->buf + hlen, file + start, blen);
            int k = 0; size_t q = hlen;
            while (q + 1 < hlen + blen) {
                unsigned char *ff = memchr(bd->buf + q, 0xFF, hlen + blen - 1 - q);
                if (!ff) break;
                q = ff - bd->buf;
                if (bd->buf[q+1] >= 0xD0 && bd->buf[q+1] <= 0xD7) bd->buf[q+1] = 0xD0 + (k++ & 7);
                q += 2;
            }
            bd->buf[bd->len - 2] = 0xFF; bd->buf[bd->len - 1] = 0xD9;
            pos = end + 2; row += rows;
        }
        double t1 = now();
        pthread_t th[8]; for (int k = 0; k < threads; k++) pthread_create(&th[k], NULL, worker, NULL);
        for (int k = 0; k < threads; k++) pthread_join(th[k], NULL);
        fprintf(stderr, "split %.2f ms; ", (t1 - t0) * 1000);
    }
    fprintf(stderr, "%dx%d interval %d mcus/row %d bands %d threads %d: wall %.2f ms cpu %.2f ms, checksum %llu\n", width, height, interval, mcus_per_row, nbands, threads, (now() - t0) * 1000, (cpu() - c0) * 1000, checksum);
    return 0;
}
