// libwebpdemux (a file's chunks and frames, the animation decoder) through dlopen: see include/CShrinkWebP.h.
// libwebp's headers declare its functions with default visibility; the forwarders below are hidden (SHRINK_FORWARD:
// exported, libwebpmux, libtiff and libwebp itself would call them instead of libwebp), so the declarations say so.
#define WEBP_EXTERN extern __attribute__((visibility("hidden")))
#include "CShrinkWebP.h"

#include "CShrinkLoad.h"

#define SHRINK_WEBP_DEMUX_FUNCTIONS(X) \
    X(WebPDemuxInternal) X(WebPDemuxDelete) X(WebPDemuxGetI) X(WebPDemuxGetFrame) X(WebPDemuxNextFrame) \
    X(WebPDemuxReleaseIterator) X(WebPDemuxGetChunk) X(WebPDemuxReleaseChunkIterator) \
    X(WebPAnimDecoderOptionsInitInternal) X(WebPAnimDecoderNewInternal) X(WebPAnimDecoderGetInfo) \
    X(WebPAnimDecoderHasMoreFrames) X(WebPAnimDecoderGetNext) X(WebPAnimDecoderDelete)

SHRINK_LIBRARY_API(shrink_webp_demux, "libwebpdemux.so.2", SHRINK_WEBP_DEMUX_FUNCTIONS)

SHRINK_FORWARD(WebPDemuxer *, WebPDemuxInternal,
               (const WebPData *data, int allow_partial, WebPDemuxState *state, int version),
               (data, allow_partial, state, version))
SHRINK_FORWARD_VOID(WebPDemuxDelete, (WebPDemuxer * dmux), (dmux))
SHRINK_FORWARD(uint32_t, WebPDemuxGetI, (const WebPDemuxer *dmux, WebPFormatFeature feature), (dmux, feature))
SHRINK_FORWARD(int, WebPDemuxGetFrame, (const WebPDemuxer *dmux, int frame_number, WebPIterator *iter),
               (dmux, frame_number, iter))
SHRINK_FORWARD(int, WebPDemuxNextFrame, (WebPIterator * iter), (iter))
SHRINK_FORWARD_VOID(WebPDemuxReleaseIterator, (WebPIterator * iter), (iter))
SHRINK_FORWARD(int, WebPDemuxGetChunk,
               (const WebPDemuxer *dmux, const char fourcc[4], int chunk_number, WebPChunkIterator *iter),
               (dmux, fourcc, chunk_number, iter))
SHRINK_FORWARD_VOID(WebPDemuxReleaseChunkIterator, (WebPChunkIterator * iter), (iter))
SHRINK_FORWARD(int, WebPAnimDecoderOptionsInitInternal, (WebPAnimDecoderOptions * options, int version),
               (options, version))
SHRINK_FORWARD(WebPAnimDecoder *, WebPAnimDecoderNewInternal,
               (const WebPData *data, const WebPAnimDecoderOptions *options, int version), (data, options, version))
SHRINK_FORWARD(int, WebPAnimDecoderGetInfo, (const WebPAnimDecoder *dec, WebPAnimInfo *info), (dec, info))
SHRINK_FORWARD(int, WebPAnimDecoderHasMoreFrames, (const WebPAnimDecoder *dec), (dec))
SHRINK_FORWARD(int, WebPAnimDecoderGetNext, (WebPAnimDecoder * dec, uint8_t **buf, int *timestamp),
               (dec, buf, timestamp))
SHRINK_FORWARD_VOID(WebPAnimDecoderDelete, (WebPAnimDecoder * dec), (dec))
