// Little CMS 2 as a module, loaded on first use: Swift calls the API as lcms2.h declares it, and the functions of
// that name are Shrink's (lcms.c), which load liblcms2 with dlopen the first time one is called, so a process that
// meets no colour profile never maps it. Building needs the header (Debian: liblcms2-dev); running needs liblcms2-2.
// Its pixel-format constants are macros built from other macros, which Swift does not import: the ones Shrink uses
// are restated here as constants.
#ifndef CSHRINKLCMS_H
#define CSHRINKLCMS_H

#include <lcms2.h>
#include <lcms2_plugin.h>   // the memory handler plug-in (LCMSMemory)

static const cmsUInt32Number CShrinkLCMS_GRAY_8 = TYPE_GRAY_8;
static const cmsUInt32Number CShrinkLCMS_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number CShrinkLCMS_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number CShrinkLCMS_RGBA_16 = TYPE_RGBA_16;
static const cmsUInt32Number CShrinkLCMS_CMYK_8 = TYPE_CMYK_8;
static const cmsUInt32Number CShrinkLCMS_CMYK_8_REV = TYPE_CMYK_8_REV;
static const cmsUInt32Number CShrinkLCMS_GRAYA_8 = TYPE_GRAYA_8;
/// cmsFLAGS_GRIDPOINTS(11): the grid of a precomputed CMYK transform, 11^4 nodes instead of lcms2's default 17^4: fewer
/// nodes to compute when the transform is built, at an accuracy checked in ΔE2000 against the default on the corpus
/// (build times and the error: BENCHMARKS.md, "Figures behind the code").
static const cmsUInt32Number CShrinkLCMS_GRIDPOINTS_11 = cmsFLAGS_GRIDPOINTS(11);

/// Loads liblcms2 (once; thread-safe): 0 when loaded, -1 when not. Colour management cannot run without it, so a
/// first call that finds it missing (every call goes through `LCMSProfile.prepared`, which calls this through
/// `LCMSLibrary`) stops the process with the loader's message; the server checks it before it starts.
int shrink_lcms_load(void);

/// Why `shrink_lcms_load` failed (dlopen's message, or the function the library lacks), else "".
const char *shrink_lcms_load_error(void);

#endif
