// libheif's C API, for the fallback that decodes HEIF items the tile path does not (iden, iovl).
#include <libheif/heif.h>
