/* jpeg-raw DENOM FILE... — the JPEG floor: libjpeg-turbo decodes each FILE at scale 1/DENOM as raw YCbCr planes
 * (jpeg_read_raw_data: entropy decode, dequantisation and the scaled IDCT, no colour conversion and no
 * upsampling) into one reused band of rows; prints the scaled size and a checksum. For 4:2:0 the chroma
 * planes get the luma's scaled IDCT, so they stay half size (libjpeg would widen their IDCT to upsample
 * while scaling): the least work that yields 4:2:0 planes at the scaled size, which is what Shrink needs. */
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
#include <jpegint.h>

static int decode(const char *path, int denom);

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: jpeg-raw DENOM FILE...\n"); return 2; }
    for (int i = 2; i < argc; i++)
        if (decode(argv[i], atoi(argv[1]))) return 1;
    return 0;
}

static int decode(const char *path, int denom) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr jerr;
    cinfo.err = jpeg_std_error(&jerr);
    jpeg_create_decompress(&cinfo);
    jpeg_stdio_src(&cinfo, f);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = 1;
    cinfo.scale_denom = denom;
    cinfo.raw_data_out = TRUE;
    cinfo.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&cinfo);
    int n = cinfo.num_components, vmax = cinfo.max_v_samp_factor;
    int block = cinfo.min_DCT_scaled_size;
    jpeg_component_info *ci = cinfo.comp_info;
    int keep = n == 3 && ci[0].h_samp_factor == 2 && ci[0].v_samp_factor == 2 && ci[1].h_samp_factor == 1 &&
        ci[1].v_samp_factor == 1 && ci[2].h_samp_factor == 1 && ci[2].v_samp_factor == 1;
    if (keep) {
        for (int c = 1; c < 3; c++) {
            ci[c].DCT_scaled_size = block;
            cinfo.idct->inverse_DCT[c] = cinfo.idct->inverse_DCT[0];
        }
        for (int s = 0; s < cinfo.comps_in_scan; s++)
            if (cinfo.cur_comp_info[s]->component_index > 0)
                cinfo.cur_comp_info[s]->MCU_sample_width = cinfo.cur_comp_info[s]->MCU_width * block;
    }
    JSAMPARRAY planes[4];
    for (int c = 0; c < n; c++) {
        jpeg_component_info *comp = &cinfo.comp_info[c];
        int rows = comp->v_samp_factor * comp->DCT_scaled_size;
        int width = comp->width_in_blocks * comp->DCT_scaled_size + 64;
        planes[c] = malloc(sizeof(JSAMPROW) * rows);
        for (int r = 0; r < rows; r++) planes[c][r] = malloc(width);
    }
    unsigned long sum = 0;
    while (cinfo.output_scanline < cinfo.output_height) {
        jpeg_read_raw_data(&cinfo, planes, vmax * block);
        sum += planes[0][0][0];
    }
    printf("%s: %ux%u, checksum %lu\n", path, cinfo.output_width, cinfo.output_height, sum);
    for (int c = 0; c < n; c++) {
        jpeg_component_info *comp = &cinfo.comp_info[c];
        for (int r = 0; r < comp->v_samp_factor * comp->DCT_scaled_size; r++) free(planes[c][r]);
        free(planes[c]);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    fclose(f);
    return 0;
}
