// libwebpmux (metadata chunks, the animation encoder) through dlopen: see include/CShrinkWebP.h.
// libwebp's headers declare its functions with default visibility; the forwarders below are hidden (SHRINK_FORWARD:
// exported, libwebpmux, libtiff and libwebp itself would call them instead of libwebp), so the declarations say so.
#define WEBP_EXTERN extern __attribute__((visibility("hidden")))
#include "CShrinkWebP.h"

#include "CShrinkLoad.h"

#define SHRINK_WEBP_MUX_FUNCTIONS(X) \
    X(WebPMuxCreateInternal) X(WebPMuxSetChunk) X(WebPMuxAssemble) X(WebPMuxDelete) \
    X(WebPAnimEncoderOptionsInitInternal) X(WebPAnimEncoderNewInternal) X(WebPAnimEncoderAdd) \
    X(WebPAnimEncoderAssemble) X(WebPAnimEncoderGetError) X(WebPAnimEncoderDelete)

SHRINK_LIBRARY_API(shrink_webp_mux, "libwebpmux.so.3", SHRINK_WEBP_MUX_FUNCTIONS)

SHRINK_FORWARD(WebPMux *, WebPMuxCreateInternal, (const WebPData *bitstream, int copy_data, int version),
               (bitstream, copy_data, version))
SHRINK_FORWARD(WebPMuxError, WebPMuxSetChunk,
               (WebPMux * mux, const char fourcc[4], const WebPData *chunk_data, int copy_data),
               (mux, fourcc, chunk_data, copy_data))
SHRINK_FORWARD(WebPMuxError, WebPMuxAssemble, (WebPMux * mux, WebPData *assembled_data), (mux, assembled_data))
SHRINK_FORWARD_VOID(WebPMuxDelete, (WebPMux * mux), (mux))
SHRINK_FORWARD(int, WebPAnimEncoderOptionsInitInternal, (WebPAnimEncoderOptions * enc_options, int version),
               (enc_options, version))
SHRINK_FORWARD(WebPAnimEncoder *, WebPAnimEncoderNewInternal,
               (int width, int height, const WebPAnimEncoderOptions *enc_options, int version),
               (width, height, enc_options, version))
SHRINK_FORWARD(int, WebPAnimEncoderAdd,
               (WebPAnimEncoder * enc, struct WebPPicture *frame, int timestamp_ms, const struct WebPConfig *config),
               (enc, frame, timestamp_ms, config))
SHRINK_FORWARD(int, WebPAnimEncoderAssemble, (WebPAnimEncoder * enc, WebPData *webp_data), (enc, webp_data))
SHRINK_FORWARD(const char *, WebPAnimEncoderGetError, (WebPAnimEncoder * enc), (enc))
SHRINK_FORWARD_VOID(WebPAnimEncoderDelete, (WebPAnimEncoder * enc), (enc))
