/* jxl-decode MODE FILE — what libjxl (one thread, the library Shrink uses) costs to decode FILE's first frame as
 * 8-bit RGB, by MODE:
 *   buffer    the whole frame into one image buffer (Shrink's route);
 *   dc        the same buffer, flushed at the first progressive step (the 1:8 DC image, which libjxl renders at
 *             full size) instead of decoding the rest of the frame;
 *   callback  no buffer: rows handed to an image-out callback as libjxl renders them.
 * Prints the mode, how the decode ended and a checksum. Measured from outside (scripts/floors/measure.c). */
#include <fcntl.h>
#include <jxl/decode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

static unsigned long sum;

static void rows(void *opaque, size_t x, size_t y, size_t count, const void *pixels) {
    (void)opaque; (void)x; (void)y;
    sum += ((const unsigned char *)pixels)[count / 2 * 3];
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: jxl-decode buffer|dc|callback FILE\n"); return 2; }
    int dc = strcmp(argv[1], "dc") == 0, callback = strcmp(argv[1], "callback") == 0;
    int fd = open(argv[2], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[2]); return 1; }
    const unsigned char *data = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    JxlDecoder *decoder = JxlDecoderCreate(NULL);
    JxlDecoderSubscribeEvents(decoder, JXL_DEC_FULL_IMAGE | (dc ? JXL_DEC_FRAME_PROGRESSION : 0));
    if (dc) JxlDecoderSetProgressiveDetail(decoder, kDC);
    JxlDecoderSetInput(decoder, data, st.st_size);
    JxlDecoderCloseInput(decoder);
    JxlPixelFormat format = {3, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    unsigned char *image = NULL;
    size_t size = 0;
    const char *ended = "error";
    for (;;) {
        JxlDecoderStatus status = JxlDecoderProcessInput(decoder);
        if (status == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            if (callback) {
                JxlDecoderSetImageOutCallback(decoder, &format, rows, NULL);
            } else {
                JxlDecoderImageOutBufferSize(decoder, &format, &size);
                image = malloc(size);
                JxlDecoderSetImageOutBuffer(decoder, &format, image, size);
            }
        } else if (status == JXL_DEC_FRAME_PROGRESSION) {
            if (JxlDecoderFlushImage(decoder) == JXL_DEC_SUCCESS) { ended = "flushed at the DC image"; break; }
        } else if (status == JXL_DEC_FULL_IMAGE) {
            ended = "whole frame";
            break;
        } else {
            break;
        }
    }
    for (size_t i = 0; i < size; i += 4099) sum += image[i];
    printf("%s: %s, checksum %lu\n", argv[1], ended, sum);
    JxlDecoderDestroy(decoder);
    free(image);
    return strcmp(ended, "error") == 0;
}
