/* png-decode FILE — the PNG floor: libspng decodes FILE row by row to RGBA8 (chunk CRCs checked, the zlib
 * stream's Adler-32 not, as Shrink and libvips do) into one reused row buffer; prints rows and a checksum. */
#include <spng.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: png-decode FILE\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    spng_ctx *ctx = spng_ctx_new(SPNG_CTX_IGNORE_ADLER32);
    spng_set_png_file(ctx, f);
    struct spng_ihdr ihdr;
    if (spng_get_ihdr(ctx, &ihdr)) { fprintf(stderr, "bad header\n"); return 1; }
    size_t width = (size_t)ihdr.width * 4;
    unsigned char *row = malloc(width);
    if (spng_decode_image(ctx, NULL, 0, SPNG_FMT_RGBA8, SPNG_DECODE_PROGRESSIVE)) { fprintf(stderr, "decode\n"); return 1; }
    unsigned long sum = 0, rows = 0;
    struct spng_row_info info;
    int rc;
    do {
        if (spng_get_row_info(ctx, &info)) break;
        rc = spng_decode_row(ctx, row, width);
        sum += row[width / 2];
        rows++;
    } while (rc == 0);
    if (rc != SPNG_EOI) { fprintf(stderr, "decode: %s\n", spng_strerror(rc)); return 1; }
    printf("%lu rows, checksum %lu\n", rows, sum);
    free(row);
    spng_ctx_free(ctx);
    fclose(f);
    return 0;
}
