// libjxl through dlopen: see include/cshrink_jxl.h.
#define _GNU_SOURCE  // memfd_create
#include "cshrink_jxl.h"

#include "CShrinkLoad.h"
#include <jxl/decode.h>
#include <jxl/encode.h>
#include <stdlib.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// One pointer per libjxl function Shrink calls, typed from libjxl's own declarations.
#define SHRINK_JXL_FUNCTIONS(X) \
    X(JxlDecoderVersion) X(JxlDecoderCreate) X(JxlDecoderDestroy) X(JxlDecoderSubscribeEvents) X(JxlDecoderSetInput) \
    X(JxlDecoderCloseInput) X(JxlDecoderProcessInput) X(JxlDecoderGetBasicInfo) X(JxlDecoderGetExtraChannelInfo) \
    X(JxlDecoderGetColorAsEncodedProfile) X(JxlDecoderGetICCProfileSize) X(JxlDecoderGetColorAsICCProfile) \
    X(JxlDecoderSetKeepOrientation) X(JxlDecoderSetUnpremultiplyAlpha) X(JxlDecoderImageOutBufferSize) \
    X(JxlDecoderSetImageOutBuffer) X(JxlEncoderVersion) X(JxlEncoderCreate) X(JxlEncoderDestroy) \
    X(JxlEncoderFrameSettingsCreate) X(JxlEncoderFrameSettingsSetOption) X(JxlEncoderInitBasicInfo) \
    X(JxlEncoderSetBasicInfo) X(JxlEncoderSetColorEncoding) X(JxlEncoderSetICCProfile) X(JxlColorEncodingSetToSRGB) \
    X(JxlEncoderSetFrameDistance) X(JxlEncoderSetFrameLossless) X(JxlEncoderAddImageFrame) X(JxlEncoderCloseInput) \
    X(JxlEncoderProcessOutput) X(JxlEncoderGetError)

SHRINK_LIBRARY_API(shrink_jxl, "libjxl.so.0.7", SHRINK_JXL_FUNCTIONS)

#define J(name) api.f.name

// Debian's libjxl 0.7 prints a trace line to stderr for every error it returns ("./lib/jxl/decode.cc:2143: missing
// input"), with no switch to turn it off. While any libjxl call runs, fd 2 goes to an in-memory file; when the last
// one ends, fd 2 is restored and every line that is not libjxl's is written on (other threads' output, delayed).
static pthread_mutex_t capture_lock = PTHREAD_MUTEX_INITIALIZER;
static int capture_depth, saved_stderr = -1, capture_fd = -1;

static void capture_begin(void) {
    pthread_mutex_lock(&capture_lock);
    if (capture_depth++ == 0) {
        fflush(stderr);
        int fd = memfd_create("shrink-jxl-stderr", MFD_CLOEXEC);
        int saved = fd >= 0 ? dup(2) : -1;
        if (saved >= 0 && dup2(fd, 2) >= 0) {
            saved_stderr = saved;
            capture_fd = fd;
        } else {
            if (saved >= 0) close(saved);
            if (fd >= 0) close(fd);
        }
    }
    pthread_mutex_unlock(&capture_lock);
}

static void capture_end(void) {
    pthread_mutex_lock(&capture_lock);
    if (--capture_depth == 0 && capture_fd >= 0) {
        fflush(stderr);
        dup2(saved_stderr, 2);
        close(saved_stderr);
        char text[4096];
        size_t used = 0;
        ssize_t n;
        off_t at = 0;
        while ((n = pread(capture_fd, text + used, sizeof text - 1 - used, at)) > 0 || used > 0) {
            if (n > 0) {
                at += n;
                used += (size_t)n;
            }
            text[used] = 0;
            char *end = memchr(text, '\n', used);
            size_t line = end ? (size_t)(end - text) + 1 : used;
            if (strncmp(text, "./lib/jxl/", 10) != 0 && strncmp(text, "lib/jxl/", 8) != 0) {
                ssize_t written = write(2, text, line);
                (void)written;
            }
            memmove(text, text + line, used - line);
            used -= line;
            if (n <= 0 && used == 0) break;
        }
        close(capture_fd);
        capture_fd = saved_stderr = -1;
    }
    pthread_mutex_unlock(&capture_lock);
}

const char *cshrink_jxl_version(void) {
    static char version[32];
    if (shrink_jxl_load() != 0) return "(not loaded)";
    uint32_t v = J(JxlDecoderVersion)();
    snprintf(version, sizeof version, "%u.%u.%u", v / 1000000, v / 1000 % 1000, v % 1000);
    return version;
}

// libjxl's next step, its stderr trace (if any) held back.
static JxlDecoderStatus process(JxlDecoder *decoder) {
    capture_begin();
    JxlDecoderStatus status = J(JxlDecoderProcessInput)(decoder);
    capture_end();
    return status;
}

// A decoder over `data` wanting `events`, or NULL (with `error` set).
static JxlDecoder *start(const void *data, size_t size, int events, char *error, size_t error_size) {
    if (shrink_jxl_load() != 0) {
        snprintf(error, error_size, "libjxl did not load: %s", shrink_jxl_load_error());
        return NULL;
    }
    JxlDecoder *decoder = J(JxlDecoderCreate)(NULL);
    if (!decoder) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    if (J(JxlDecoderSubscribeEvents)(decoder, events) != JXL_DEC_SUCCESS
        || J(JxlDecoderSetInput)(decoder, data, size) != JXL_DEC_SUCCESS) {
        snprintf(error, error_size, "libjxl refused the decoder's settings");
        J(JxlDecoderDestroy)(decoder);
        return NULL;
    }
    J(JxlDecoderCloseInput)(decoder);
    return decoder;
}

// Why ProcessInput stopped, as text.
static void explain(JxlDecoderStatus status, char *error, size_t error_size) {
    if (status == JXL_DEC_NEED_MORE_INPUT)
        snprintf(error, error_size, "the file ends before its image does (truncated)");
    else if (status == JXL_DEC_SUCCESS)
        snprintf(error, error_size, "the file has no image");
    else if (status == JXL_DEC_ERROR)
        snprintf(error, error_size, "libjxl cannot decode it: the codestream is damaged or cut short");
    else
        snprintf(error, error_size, "libjxl stopped unexpectedly (status %d)", (int)status);
}

static int is_srgb(const JxlColorEncoding *c) {
    return c->white_point == JXL_WHITE_POINT_D65 && c->transfer_function == JXL_TRANSFER_FUNCTION_SRGB
        && (c->color_space == JXL_COLOR_SPACE_GRAY
            || (c->color_space == JXL_COLOR_SPACE_RGB && c->primaries == JXL_PRIMARIES_SRGB));
}

int cshrink_jxl_read_info(const void *data, size_t size, cshrink_jxl_info *info, char *error, size_t error_size) {
    memset(info, 0, sizeof *info);
    JxlDecoder *decoder = start(data, size, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING, error, error_size);
    if (!decoder) return 0;
    // The stored size and the orientation (otherwise libjxl reports the displayed size and orientation 1).
    J(JxlDecoderSetKeepOrientation)(decoder, JXL_TRUE);
    int ok = 0;
    for (;;) {
        JxlDecoderStatus status = process(decoder);
        if (status == JXL_DEC_BASIC_INFO) {
            JxlBasicInfo basic;
            if (J(JxlDecoderGetBasicInfo)(decoder, &basic) != JXL_DEC_SUCCESS) break;
            info->width = basic.xsize;
            info->height = basic.ysize;
            info->bits_per_sample = basic.bits_per_sample;
            info->exponent_bits = basic.exponent_bits_per_sample;
            info->color_channels = basic.num_color_channels;
            info->alpha_bits = basic.alpha_bits;
            info->alpha_premultiplied = basic.alpha_premultiplied;
            info->extra_channels = basic.num_extra_channels;
            info->orientation = basic.orientation;
            info->uses_original_profile = basic.uses_original_profile;
            info->have_animation = basic.have_animation;
            info->have_container = basic.have_container;
            info->have_preview = basic.have_preview;
            ok = 1;
            for (uint32_t i = 0; i < basic.num_extra_channels && i < 256; i++) {
                JxlExtraChannelInfo extra;
                if (J(JxlDecoderGetExtraChannelInfo)(decoder, i, &extra) != JXL_DEC_SUCCESS) continue;
                if (extra.type == JXL_CHANNEL_BLACK) info->has_black = 1;
                if (extra.type == JXL_CHANNEL_SPOT_COLOR) info->has_spot = 1;
            }
        } else if (status == JXL_DEC_COLOR_ENCODING) {
            JxlColorEncoding encoding;
            info->is_srgb = J(JxlDecoderGetColorAsEncodedProfile)(
                                decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS
                && is_srgb(&encoding);
            size_t icc = 0;
            if (J(JxlDecoderGetICCProfileSize)(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &icc) == JXL_DEC_SUCCESS)
                info->icc_size = icc;
            info->has_color = 1;
            break;
        } else {
            explain(status, error, error_size);
            break;
        }
    }
    J(JxlDecoderDestroy)(decoder);
    return ok;
}

int cshrink_jxl_read_icc(const void *data, size_t size, void *out, size_t capacity, char *error, size_t error_size) {
    JxlDecoder *decoder = start(data, size, JXL_DEC_COLOR_ENCODING, error, error_size);
    if (!decoder) return 0;
    JxlDecoderStatus status = process(decoder);
    size_t icc = 0;
    int ok = status == JXL_DEC_COLOR_ENCODING
        && J(JxlDecoderGetICCProfileSize)(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &icc) == JXL_DEC_SUCCESS
        && icc <= capacity
        && J(JxlDecoderGetColorAsICCProfile)(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, out, icc)
            == JXL_DEC_SUCCESS;
    if (!ok) explain(status, error, error_size);
    J(JxlDecoderDestroy)(decoder);
    return ok;
}

int cshrink_jxl_decode(
    const void *data, size_t size, uint32_t channels, int sixteen_bit, void *out, size_t out_size, char *error,
    size_t error_size) {
    JxlDecoder *decoder = start(data, size, JXL_DEC_FULL_IMAGE, error, error_size);
    if (!decoder) return 0;
    // Shrink applies the orientation itself, once; alpha comes out straight.
    J(JxlDecoderSetKeepOrientation)(decoder, JXL_TRUE);
    J(JxlDecoderSetUnpremultiplyAlpha)(decoder, JXL_TRUE);
    JxlPixelFormat format = {channels, sixteen_bit ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    int result = 0;
    for (;;) {
        JxlDecoderStatus status = process(decoder);
        if (status == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            size_t needed = 0;
            if (J(JxlDecoderImageOutBufferSize)(decoder, &format, &needed) != JXL_DEC_SUCCESS || needed > out_size
                || J(JxlDecoderSetImageOutBuffer)(decoder, &format, out, out_size) != JXL_DEC_SUCCESS) {
                snprintf(error, error_size, "libjxl cannot give this image as %u channels in %zu bytes", channels,
                         out_size);
                break;
            }
        } else if (status == JXL_DEC_FULL_IMAGE) {
            result = 1;
            break;
        } else {
            explain(status, error, error_size);
            break;
        }
    }
    J(JxlDecoderDestroy)(decoder);
    return result;
}

int cshrink_jxl_encode(
    const void *pixels, uint32_t width, uint32_t height, uint32_t channels, int sixteen_bit, float distance,
    int lossless, int effort, const void *icc, size_t icc_size, unsigned char **out, size_t *out_size, char *error,
    size_t error_size) {
    *out = NULL;
    *out_size = 0;
    if (shrink_jxl_load() != 0) {
        snprintf(error, error_size, "libjxl did not load: %s", shrink_jxl_load_error());
        return 0;
    }
    JxlEncoder *encoder = J(JxlEncoderCreate)(NULL);
    if (!encoder) {
        snprintf(error, error_size, "out of memory");
        return 0;
    }
    capture_begin();
    int ok = 0;
    unsigned char *buffer = NULL;
    JxlEncoderFrameSettings *settings = J(JxlEncoderFrameSettingsCreate)(encoder, NULL);
    JxlBasicInfo info;
    J(JxlEncoderInitBasicInfo)(&info);
    uint32_t bits = sixteen_bit ? 16 : 8;
    int alpha = channels == 2 || channels == 4;
    info.xsize = width;
    info.ysize = height;
    info.bits_per_sample = bits;
    info.num_color_channels = channels >= 3 ? 3 : 1;
    info.num_extra_channels = alpha ? 1 : 0;
    info.alpha_bits = alpha ? bits : 0;
    // Lossless keeps the samples in their own colour space; lossy goes through XYB.
    info.uses_original_profile = lossless ? JXL_TRUE : JXL_FALSE;
    JxlColorEncoding srgb;
    J(JxlColorEncodingSetToSRGB)(&srgb, info.num_color_channels == 1);
    if (!settings || J(JxlEncoderSetBasicInfo)(encoder, &info) != JXL_ENC_SUCCESS
        || (icc_size > 0 ? J(JxlEncoderSetICCProfile)(encoder, icc, icc_size)
                         : J(JxlEncoderSetColorEncoding)(encoder, &srgb)) != JXL_ENC_SUCCESS
        || J(JxlEncoderFrameSettingsSetOption)(settings, JXL_ENC_FRAME_SETTING_EFFORT, effort) != JXL_ENC_SUCCESS
        || (lossless ? J(JxlEncoderSetFrameLossless)(settings, JXL_TRUE)
                     : J(JxlEncoderSetFrameDistance)(settings, distance)) != JXL_ENC_SUCCESS) {
        snprintf(error, error_size, "libjxl refused the settings (error %d)", (int)J(JxlEncoderGetError)(encoder));
        goto done;
    }
    JxlPixelFormat format = {channels, sixteen_bit ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    size_t bytes = (size_t)width * height * channels * (sixteen_bit ? 2 : 1);
    if (J(JxlEncoderAddImageFrame)(settings, &format, pixels, bytes) != JXL_ENC_SUCCESS) {
        snprintf(error, error_size, "libjxl refused the image (error %d)", (int)J(JxlEncoderGetError)(encoder));
        goto done;
    }
    J(JxlEncoderCloseInput)(encoder);
    size_t capacity = 64 << 10, used = 0;
    for (;;) {
        unsigned char *grown = realloc(buffer, capacity);
        if (!grown) {
            snprintf(error, error_size, "out of memory");
            goto done;
        }
        buffer = grown;
        uint8_t *next = buffer + used;
        size_t avail = capacity - used;
        JxlEncoderStatus status = J(JxlEncoderProcessOutput)(encoder, &next, &avail);
        used = (size_t)(next - buffer);
        if (status == JXL_ENC_SUCCESS) break;
        if (status != JXL_ENC_NEED_MORE_OUTPUT) {
            snprintf(error, error_size, "libjxl could not encode (error %d)", (int)J(JxlEncoderGetError)(encoder));
            goto done;
        }
        capacity *= 2;
    }
    *out = buffer;
    *out_size = used;
    buffer = NULL;
    ok = 1;
done:
    free(buffer);
    J(JxlEncoderDestroy)(encoder);
    capture_end();
    return ok;
}

void cshrink_jxl_free(void *bytes) { free(bytes); }
