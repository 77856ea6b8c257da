// Little CMS 2 through dlopen: see include/CShrinkLCMS.h.
#include "CShrinkLCMS.h"

#include "CShrinkLoad.h"

#define SHRINK_LCMS_FUNCTIONS(X) \
    X(cmsPlugin) X(cmsSetLogErrorHandler) X(cmsOpenProfileFromMem) X(cmsCloseProfile) X(cmsSaveProfileToMem) \
    X(cmsCreate_sRGBProfile) X(cmsCreateRGBProfile) X(cmsCreateGrayProfile) X(cmsGetColorSpace) X(cmsIsMatrixShaper) \
    X(cmsGetProfileInfoASCII) X(cmsWriteTag) X(cmsMLUalloc) X(cmsMLUsetASCII) X(cmsMLUfree) X(cmsBuildGamma) \
    X(cmsBuildParametricToneCurve) X(cmsBuildTabulatedToneCurveFloat) X(cmsFreeToneCurve) X(cmsCreateTransform) \
    X(cmsDoTransform) X(cmsDeleteTransform)

SHRINK_LIBRARY_API(shrink_lcms, "liblcms2.so.2", SHRINK_LCMS_FUNCTIONS)

SHRINK_FORWARD(cmsBool, cmsPlugin, (void *Plugin), (Plugin))
SHRINK_FORWARD_VOID(cmsSetLogErrorHandler, (cmsLogErrorHandlerFunction Fn), (Fn))
SHRINK_FORWARD(cmsHPROFILE, cmsOpenProfileFromMem, (const void *MemPtr, cmsUInt32Number dwSize), (MemPtr, dwSize))
SHRINK_FORWARD(cmsBool, cmsCloseProfile, (cmsHPROFILE hProfile), (hProfile))
SHRINK_FORWARD(cmsBool, cmsSaveProfileToMem, (cmsHPROFILE hProfile, void *MemPtr, cmsUInt32Number *BytesNeeded),
               (hProfile, MemPtr, BytesNeeded))
SHRINK_FORWARD(cmsHPROFILE, cmsCreate_sRGBProfile, (void), ())
SHRINK_FORWARD(cmsHPROFILE, cmsCreateRGBProfile,
               (const cmsCIExyY *WhitePoint, const cmsCIExyYTRIPLE *Primaries, cmsToneCurve *const TransferFunction[3]),
               (WhitePoint, Primaries, TransferFunction))
SHRINK_FORWARD(cmsHPROFILE, cmsCreateGrayProfile, (const cmsCIExyY *WhitePoint, const cmsToneCurve *TransferFunction),
               (WhitePoint, TransferFunction))
SHRINK_FORWARD(cmsColorSpaceSignature, cmsGetColorSpace, (cmsHPROFILE hProfile), (hProfile))
SHRINK_FORWARD(cmsBool, cmsIsMatrixShaper, (cmsHPROFILE hProfile), (hProfile))
SHRINK_FORWARD(cmsUInt32Number, cmsGetProfileInfoASCII,
               (cmsHPROFILE hProfile, cmsInfoType Info, const char LanguageCode[3], const char CountryCode[3],
                char *Buffer, cmsUInt32Number BufferSize),
               (hProfile, Info, LanguageCode, CountryCode, Buffer, BufferSize))
SHRINK_FORWARD(cmsBool, cmsWriteTag, (cmsHPROFILE hProfile, cmsTagSignature sig, const void *data),
               (hProfile, sig, data))
SHRINK_FORWARD(cmsMLU *, cmsMLUalloc, (cmsContext ContextID, cmsUInt32Number nItems), (ContextID, nItems))
SHRINK_FORWARD(cmsBool, cmsMLUsetASCII,
               (cmsMLU * mlu, const char LanguageCode[3], const char CountryCode[3], const char *ASCIIString),
               (mlu, LanguageCode, CountryCode, ASCIIString))
SHRINK_FORWARD_VOID(cmsMLUfree, (cmsMLU * mlu), (mlu))
SHRINK_FORWARD(cmsToneCurve *, cmsBuildGamma, (cmsContext ContextID, cmsFloat64Number Gamma), (ContextID, Gamma))
SHRINK_FORWARD(cmsToneCurve *, cmsBuildParametricToneCurve,
               (cmsContext ContextID, cmsInt32Number Type, const cmsFloat64Number Params[]), (ContextID, Type, Params))
SHRINK_FORWARD(cmsToneCurve *, cmsBuildTabulatedToneCurveFloat,
               (cmsContext ContextID, cmsUInt32Number nEntries, const cmsFloat32Number values[]),
               (ContextID, nEntries, values))
SHRINK_FORWARD_VOID(cmsFreeToneCurve, (cmsToneCurve * Curve), (Curve))
SHRINK_FORWARD(cmsHTRANSFORM, cmsCreateTransform,
               (cmsHPROFILE Input, cmsUInt32Number InputFormat, cmsHPROFILE Output, cmsUInt32Number OutputFormat,
                cmsUInt32Number Intent, cmsUInt32Number dwFlags),
               (Input, InputFormat, Output, OutputFormat, Intent, dwFlags))
SHRINK_FORWARD_VOID(cmsDoTransform,
                    (cmsHTRANSFORM Transform, const void *InputBuffer, void *OutputBuffer, cmsUInt32Number Size),
                    (Transform, InputBuffer, OutputBuffer, Size))
SHRINK_FORWARD_VOID(cmsDeleteTransform, (cmsHTRANSFORM hTransform), (hTransform))
